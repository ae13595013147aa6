"""Mind Control (HX-POWER-06, read in 2005 terms): declared with a close or ranged combat action (`use: Mind
Control`; its range counts as at least 6, HX-PAC-03), an attack that deals no damage (no critical-hit +1, no
critical-miss click, no knockback, HX-COMBAT-05): each character it hits, its speed halved, becomes friendly to the
attacker's force and, one at a time, may move and make one attack, in either order, as free actions its new player
gives it (no token, no pushing, HX-TURN-17 OPEN), then returns to its own force. A Battle Fury character cannot be
targeted (`battle_fury.attack_refusal`).

The attack is one action and the controlled characters' moves and attacks are the steps after it: while a
character is controlled (`state.controlled`) its move and its attack are among the active player's legal actions,
judged with its speed halved and the sides switched; any other action, the end of the turn included, first ends the
control (the characters not done forgo the rest), and so does a controlled character's first action while another
has begun (one at a time); each character that has moved and attacked, or is knocked out, returns at once. The
attacker's action resolves when the control ends: only then does it get its token (HX-TURN-04, -09)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, movement
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import MIND_CONTROL
from clix.engine.heroclix.sides import opponents
from clix.engine.heroclix.state import Close, HeroState, Move, Ranged

MOVED = 1
ATTACKED = 2
DONE = MOVED | ATTACKED
"""What a controlled character has done (`state.controlled`): its move, its attack, both."""
T = TypeVar("T")


def seize(state: HeroState, attacker: Figure, action: Close | Ranged) -> None:
    """The Mind Control attack; each character it hits becomes friendly to the attacker's player."""
    hits = combat.attack(state, attacker, action)
    for target in hits:
        if target.alive and target.uid not in state.controlled:
            state.controlled[target.uid] = (target.controller, 0)
            target.controller = attacker.controller
            state.emit(EventKind.MIND_CONTROLLED, character=target.label, by=attacker.label)
    if state.controlled:
        state.controlling = attacker.uid


def controls(state: HeroState, action: object) -> bool:
    """Whether `action` is a controlled character's move or attack."""
    return isinstance(action, Move | Close | Ranged) and action.character in state.controlled


def problem(state: HeroState, action: Move | Close | Ranged) -> str:
    """Why the controlled character may not make this move or attack ("" if it may): one move, at half speed,
    carrying nothing and picking nothing up, and one basic close or ranged attack, no power declared with it
    (HX-POWER-06 OPEN a), judged as a free action (tokens do not stop it)."""
    character = state.monsters[action.character]
    if state.over:
        return "the game is over"
    done = state.controlled[character.uid][1]
    if isinstance(action, Move):
        if done & MOVED:
            return f"{character.label} has made its move under Mind Control (HX-POWER-06)"
        if action.pick_up is not None or action.carry is not None or action.attack is not None:
            return f"{character.label} moves under Mind Control and does nothing else on the way (HX-POWER-06 OPEN)"
        return movement.step_problem(
            state, character, character.pos, action.path, action.mode, halved=True, rear=action.rear
        )  # a double-base character's rear half placed as in any move (HX-SPECIAL-04)
    if done & ATTACKED:
        return f"{character.label} has made its attack under Mind Control (HX-POWER-06)"
    if action.use or (isinstance(action, Close) and action.then):
        return f"{character.label} makes one basic attack under Mind Control, no power declared (HX-POWER-06 OPEN a)"
    return combat.attack_problem(state, action, free=True) or combat.knockback_problem(state, action)


def act(state: HeroState, action: Move | Close | Ranged) -> None:
    """The controlled character's move or attack, a free action; a character that had begun acting before it is
    done first (one at a time), and this one returns once it has moved and attacked, or is knocked out."""
    character = state.monsters[action.character]
    for uid, (_, done) in list(state.controlled.items()):
        if uid != character.uid and done:
            release(state, uid)
    owner, done = state.controlled[character.uid]
    if isinstance(action, Move):
        movement.move(state, character, action.path, action.mode, rear=action.rear)
        done |= MOVED
    else:
        combat.attack(state, character, action)
        done |= ATTACKED
    state.controlled[character.uid] = (owner, done)
    for uid in list(state.controlled):
        if (uid == character.uid and done == DONE) or not state.monsters[uid].alive:
            release(state, uid)


def release(state: HeroState, uid: int) -> None:
    """Controlled character `uid` returns to its own force."""
    owner, _ = state.controlled.pop(uid)
    character = state.monsters[uid]
    character.controller = owner
    state.emit(EventKind.CONTROL_ENDED, character=character.label)


def end(state: HeroState) -> int:
    """Every character still controlled returns; the uid of the Mind Control character whose action ends with it
    (-1 if none)."""
    for uid in list(state.controlled):
        release(state, uid)
    return ended(state)


def ended(state: HeroState) -> int:
    """The uid of the Mind Control character whose action has just ended with the control (-1 if none)."""
    if state.controlled or state.controlling < 0:
        return -1
    attacker, state.controlling = state.controlling, -1
    return attacker


def as_released(state: HeroState, judge: Callable[[], T]) -> T:
    """What `judge` finds with every controlled character back in its own force, as it will be before any action
    but a controlled character's own is made."""
    now = {uid: state.monsters[uid].controller for uid in state.controlled}
    for uid, (owner, _) in state.controlled.items():
        state.monsters[uid].controller = owner
    try:
        return judge()
    finally:
        for uid, controller in now.items():
            state.monsters[uid].controller = controller


def listed(state: HeroState) -> list[Move | Close | Ranged]:
    """The controlled characters' moves and attacks `legal_actions` lists: a move to each square each may reach
    at half speed, and a close or ranged attack on each opponent it may attack (one target, all the damage)."""
    found: list[Move | Close | Ranged] = []
    for uid, (_, done) in state.controlled.items():
        character = state.monsters[uid]
        if not done & MOVED:
            squares = movement.move_speed(state, character, halved=True)
            found.extend(
                Move(uid, path) for path in movement.reachable(state, character, squares=squares).values() if path
            )
        if not done & ATTACKED:
            for target in opponents(state, character):
                for attack in (Close(uid, target.uid), Ranged(uid, (target.uid,))):
                    if not problem(state, attack):
                        found.append(attack)
    return found


def attacks(state: HeroState, character: Figure) -> list[Close | Ranged]:
    """The Mind Control attacks `legal_actions` lists for `character`: a close and a ranged one on each opponent it
    may so attack."""
    if MIND_CONTROL not in character.powers:
        return []
    found: list[Close | Ranged] = []
    for target in opponents(state, character):
        for attack in (
            Close(character.uid, target.uid, use=MIND_CONTROL),
            Ranged(character.uid, (target.uid,), use=MIND_CONTROL),
        ):
            if not combat.attack_problem(state, attack):
                found.append(attack)
    return found
