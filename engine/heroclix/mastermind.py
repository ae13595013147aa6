"""Mastermind (HX-POWER-31, read in 2005 terms): when a character showing it would be hit by an opponent's attack
that deals damage, its controller may choose an adjacent friendly character with fewer points (HX-PAC-12: points
only) that this attack does not hit; that character is hit instead, even if it was not a legal target or was
targeted and missed, and takes the damage meant for the first (its own reducers apply; knockback from the
attacker). No chains: the character hit instead does not use Mastermind in turn (HX-POWER-31 OPEN). The choice
comes once the attack roll and the evade rolls have settled who is hit, before any damage."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import MASTERMIND
from clix.engine.heroclix.sides import adjacency, team
from clix.engine.heroclix.state import HeroState


def substitute(state: HeroState, attacker: Figure, hits: list[Figure]) -> tuple[list[Figure], dict[int, int]]:
    """The characters hit once each hit character showing Mastermind has passed its hit on, or not, in the order
    hit (its player's decision, `mastermind`); and who is hit in whose place (by uid)."""
    instead: dict[int, int] = {}
    result = list(hits)
    side = team(state, attacker.controller)
    for index, target in enumerate(hits):
        if MASTERMIND not in target.powers or target.uid in state.powerless or team(state, target.controller) == side:
            continue
        others = [c.uid for c in stand_ins(state, target, result)]
        pick = decisions.ask(state, "mastermind", target.controller, [None, *others], target.label, target.uid)
        if pick is not None:
            result[index] = state.monsters[pick]
            instead[target.uid] = pick
            state.emit(EventKind.MASTERMIND, character=target.label, instead=result[index].label)
    return result, instead


def stand_ins(state: HeroState, target: Figure, hit: list[Figure]) -> list[Figure]:
    """The characters `target` may pass its hit to: adjacent (one square, as for Support), friendly, fewer points,
    not hit by the attack; in the order the characters were placed."""
    side = team(state, target.controller)
    return [
        c
        for c in state.standing()
        if c not in hit
        and team(state, c.controller) == side
        and c.stats.points < target.stats.points
        and adjacency(state, target, c) == 1
    ]
