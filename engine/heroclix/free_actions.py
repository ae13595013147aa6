"""Powers that grant a free action (HX-TURN-16): no action token, not one of the turn's actions, open to a
character that has already acted or holds two tokens, once per turn per character and power (HX-TURN-16 OPEN).
Poison deals 1 damage to each adjacent opposing character if the user has not moved or been placed this turn
(HX-POWER-22); Sidestep moves the character up to 2 squares under every movement rule (HX-POWER-09); the free
actions aimed at a character within range and line of fire are `targeted`'s (Perplex, HX-POWER-46)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import movement, targeted
from clix.engine.heroclix.defenses import reduced
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.scoring import take_damage
from clix.engine.heroclix.sides import touching_opponents
from clix.engine.heroclix.state import HeroState, PowerAction

POISON = "Poison"
SIDESTEP = "Sidestep"
FREE_ACTIONS = (POISON, SIDESTEP, *targeted.AIMED)
POISON_DAMAGE = 1
"""The damage Poison deals to each adjacent opposing character (HX-POWER-22)."""
SIDESTEP_SQUARES = 2
"""How far Sidestep moves, whatever the speed value and terrain (HX-POWER-09 OPEN: not halved)."""


def grants(power: str) -> bool:
    """Whether `power` is used as a free action."""
    return power in FREE_ACTIONS


def problem(state: HeroState, action: PowerAction) -> str:
    """Why the free action may not be taken now ("" if it may)."""
    user = state.monsters[action.character]
    if state.over:
        return "the game is over"
    if not user.alive:
        return f"{user.label} was knocked out"
    if user.controller != state.active:
        return (
            f"{user.label} is not the active player's (player {state.active}): free actions are its turn's (HX-TURN-16)"
        )
    if action.power not in user.powers:
        return f"{user.label} does not show {action.power} now"
    if (user.uid, action.power) in state.free_used:
        return f"{user.label} has used {action.power} this turn: once per turn (HX-TURN-16 OPEN)"
    if action.power == POISON:
        if user.uid in state.moved:
            return f"{user.label} has moved or been placed this turn and cannot use Poison (HX-POWER-22, HX-PAC-11)"
        if not touching_opponents(state, user):
            return f"no opposing character is adjacent to {user.label} (HX-POWER-22)"
    if action.power == SIDESTEP:
        if not action.path:
            return "Sidestep names the squares it enters ('path')"
        why = movement.step_problem(state, user, user.pos, action.path, squares=SIDESTEP_SQUARES, rear=action.rear)
        return f"Sidestep: {why}" if why else ""
    if action.power in targeted.AIMED:
        return targeted.problem(state, user, action)
    return ""


def problem_of_user(state: HeroState, user: Figure) -> str:
    """Why `user` may take no free action now: only the active player's characters on the map may (HX-TURN-16)."""
    if state.over:
        return "the game is over"
    if not user.alive:
        return f"{user.label} was knocked out"
    if user.controller != state.active:
        return (
            f"{user.label} is not the active player's (player {state.active}): free actions are its turn's (HX-TURN-16)"
        )
    return ""


def perform(state: HeroState, user: Figure, action: PowerAction) -> None:
    """The free action (see the module): no token, not counted among the turn's actions (HX-TURN-16)."""
    state.free_used.add((user.uid, action.power))
    state.emit(EventKind.POWER, character=user.label, power=action.power)
    if action.power == POISON:
        for target in touching_opponents(state, user):  # not an attack: no roll, only reducers (HX-TURN-18)
            take_damage(state, target, reduced(target, POISON_DAMAGE), "poison", user)  # HX-DAMAGE-10 OPEN
    elif action.power == SIDESTEP:
        movement.move(state, user, action.path, None, rear=action.rear)  # HX-POWER-09 OPEN: no token if it fails
    else:
        targeted.perform(state, user, action)


def listed(state: HeroState, user: Figure) -> list[PowerAction]:
    """The free actions `legal_actions` lists for `user`: Poison when it may be used, Sidestep to each square it
    may reach, and `targeted.listed`'s."""
    found: list[PowerAction] = []
    if POISON in user.powers:
        poison = PowerAction(user.uid, POISON)
        if not problem(state, poison):
            found.append(poison)
    if SIDESTEP in user.powers and (user.uid, SIDESTEP) not in state.free_used and not problem_of_user(state, user):
        for path in movement.reachable(state, user, squares=SIDESTEP_SQUARES).values():
            if path:
                found.append(PowerAction(user.uid, SIDESTEP, path=path))
    if not problem_of_user(state, user):
        found.extend(targeted.listed(state, user))
    return found
