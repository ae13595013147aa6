"""Shape Change (HX-POWER-43): when a character showing it is targeted by an attack, its controller rolls a d6 (a
"may" always taken, as the contract takes an evade roll); on 5-6 the attacker may not target it this turn and may
choose another target instead, which may use Shape Change in turn. Not against a Battle Fury attacker
(HX-POWER-38), nor during a Pulse Wave (no powers, HX-POWER-15). The roll comes once the targets are declared,
before the attack roll; the attack goes on against the targets left, and with none it is not made, the action
still spent (HX-POWER-43 OPEN). Another target is offered only where the attacker chose its targets (a close or
ranged combat attack); where a power picks them (Quake, Energy Explosion's other targets) or an object is thrown
or hurled, a target that changes shape is only left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.battle_fury import shape_change_allowed
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import SHAPE_CHANGE
from clix.engine.heroclix.sides import opponents
from clix.engine.heroclix.state import Close, HeroState, Ranged, Telekinesis, Throw

SHAPE_CHANGE_AT = 5
"""The lowest d6 with which Shape Change succeeds (HX-POWER-43)."""

Attack = Close | Ranged | Throw | Telekinesis
Judge = Callable[[HeroState, Close | Ranged], str]
"""Why a combat attack may not be made as a free part of an action ("" if it may): the new target's test."""


def barred(state: HeroState, attacker: Figure, target: Figure) -> str:
    """Why `attacker` may not target `target` this turn: its Shape Change succeeded against it ("" if it may)."""
    if (attacker.uid, target.uid) in state.barred:
        return f"{target.label} changed shape: {attacker.label} may not target it this turn (HX-POWER-43)"
    return ""


def screen(
    state: HeroState, attacker: Figure, action: Attack, targets: list[Figure], chosen: bool, judge: Judge
) -> tuple[list[Figure], Attack]:
    """The targets the attack is made against once each target showing Shape Change has rolled, in target order,
    and the action as it stands then (another target in place of one that changed shape). `chosen`: the attacker
    chose the targets (another may be chosen instead); `judge`: whether an attack on other targets may be made."""
    if not shape_change_allowed(attacker):  # HX-POWER-38
        return targets, action
    kept: list[Figure] = []
    waiting = list(targets)
    while waiting:
        target = waiting.pop(0)
        if not _changes(state, target):
            kept.append(target)
            continue
        state.barred.add((attacker.uid, target.uid))
        if not chosen or not isinstance(action, Close | Ranged):
            action = _without(action, target)
            continue
        others = _instead(state, attacker, action, target, judge)
        pick = decisions.ask(state, "shape_change", attacker.controller, [None, *others], target.label, target.uid)
        if pick is None:
            action = _without(action, target)
            continue
        other = state.monsters[pick]
        action = _swapped(action, target, other)
        waiting.insert(0, other)  # the new target may change shape in its turn, before the others roll
    return kept, action


def _changes(state: HeroState, target: Figure) -> bool:
    """The Shape Change roll of a target showing it that may use powers now: True on 5-6."""
    if SHAPE_CHANGE not in target.powers or target.uid in state.powerless:
        return False
    roll = decisions.d6(state)
    state.emit(EventKind.SHAPE_CHANGE_ROLL, character=target.label, roll=roll, succeeded=roll >= SHAPE_CHANGE_AT)
    return roll >= SHAPE_CHANGE_AT


def _instead(state: HeroState, attacker: Figure, action: Close | Ranged, target: Figure, judge: Judge) -> list[int]:
    """The characters the attacker may target in place of `target`: opponents it may not target yet this turn is
    not one, nor one the attack already targets, and the attack on it must be one it may make."""
    aimed = set(action.targets) if isinstance(action, Ranged) else {action.target}
    found = []
    for other in opponents(state, attacker):
        if other.uid in aimed or (attacker.uid, other.uid) in state.barred:
            continue
        trial: Close | Ranged
        if isinstance(action, Ranged):  # judged without the division of damage, which follows the targets
            trial = replace(action, targets=tuple(other.uid if u == target.uid else u for u in action.targets))
            trial = replace(trial, split=(), knockback=())
        else:
            trial = replace(action, target=other.uid, then=(), knockback=())
        if not judge(state, trial):
            found.append(other.uid)
    return found


def _swapped(action: Attack, target: Figure, other: Figure) -> Attack:
    """`action` with `other` targeted in place of `target` (the damage named for it going to the other)."""
    if isinstance(action, Ranged):
        targets = tuple(other.uid if u == target.uid else u for u in action.targets)
        split = tuple((other.uid if u == target.uid else u, a) for u, a in action.split)
        return replace(action, targets=targets, split=split)
    if isinstance(action, Close):
        return replace(action, target=other.uid)
    return action


def _without(action: Attack, target: Figure) -> Attack:
    """`action` no longer targeting `target` (a ranged attack's other targets kept)."""
    if isinstance(action, Ranged):
        return replace(action, targets=tuple(u for u in action.targets if u != target.uid))
    return action
