"""Telekinesis as 002's core rules give it (HX-OBJECT-12..17), a power action: move an object up to 10 squares,
hurl one at an opposing character, or place an adjacent character up to 10 squares away. The 2005 card that said
how the attack resolves is not among the seeds: its OPEN readings (docs/rulings.md) are those the checklist
suggests. Distances count from the object (or character) moved, not from the user (HX-OBJECT-12)."""

from __future__ import annotations

from clix.engine.core.geometry import BLOCKING, CLEAR, HINDERING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base
from clix.engine.heroclix.battle_fury import no_ranged
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.objects import lay, layout_of, lift, lying_at, within_reach
from clix.engine.heroclix.sides import at, bulky, cannot_act, opponents, touching_opponents
from clix.engine.heroclix.state import HeroState, Telekinesis

TELEKINESIS = "Telekinesis"
REACH = 10
"""How far an object or a character is moved, and how far away a hurled object may strike (HX-OBJECT-13, -14, -16)."""
SOARING_REACH = 5
"""How far away a hurled object may strike a soaring character (HX-OBJECT-14)."""
LANDING = (CLEAR, HINDERING)
"""The terrain an object may be moved to (HX-OBJECT-13): not water, not blocking."""


def telekinetic(character: Figure) -> bool:
    """Whether `character` shows Telekinesis now."""
    return TELEKINESIS in character.powers


def problem(state: HeroState, action: Telekinesis) -> str:
    """Why the Telekinesis action may not be given ("" if it may)."""
    user = state.monsters[action.character]
    why = cannot_act(state, user)
    if why:
        return why
    if not telekinetic(user):
        return f"{user.label} does not show Telekinesis"
    if user.uid in state.lifted:
        return f"{user.label} was moved by Telekinesis this turn and may not use it (HX-OBJECT-16 OPEN)"
    if state.soars(user):
        return "a soaring character affects only soaring characters, not objects or what is below (HX-MOVE-15)"
    if action.moved is not None:
        return _placing_problem(state, user, action)
    square = action.object_square
    if lying_at(state, square) is None:
        return f"no object lies at {at(state, square)} (HX-OBJECT-13)"
    if not any(within_reach(state, own, square) for own in double_base.squares(state, user)):  # HX-SPECIAL-05
        return f"the object at {at(state, square)} is not in or next to {user.label}'s square (HX-OBJECT-12)"
    if action.target is not None:  # HX-POWER-38 OPEN: a Battle Fury character hurls nothing
        return no_ranged(user) or _hurl_problem(state, user, action) or combat.knockback_problem(state, action)
    if action.to < 0:
        return "Telekinesis moves the object 'to' a square or hurls it at a 'target'"
    return _landing_problem(state, user, square, action.to)


def _landing_problem(state: HeroState, user: Figure, square: int, to: int) -> str:
    """Why the object on `square` may not be moved to `to`: up to 10 squares from the object, onto clear or
    hindering terrain holding no character and no object (HX-OBJECT-13 OPEN), with a clear line of fire from the
    user (the object itself does not affect it)."""
    geometry = state.geometry
    distance = geometry.distance(square, to)
    if distance > REACH:
        return f"{at(state, to)} is {distance} squares from the object; Telekinesis moves it {REACH} (HX-OBJECT-13)"
    if to != square and lying_at(state, to) is not None:
        return f"{at(state, to)} already holds an object (HX-OBJECT-13 OPEN)"
    if geometry.terrain[to] not in LANDING:
        return f"an object is moved only onto clear or hindering terrain, not {at(state, to)} (HX-OBJECT-13)"
    if to in double_base.spots(state, state.standing()):
        return f"{at(state, to)} is occupied (HX-OBJECT-13 OPEN)"
    if not _clear(state, user, to, False, (user.uid,)):
        return f"no clear line of fire from {user.label} to {at(state, to)} (HX-OBJECT-13)"
    return ""


def _hurl_problem(state: HeroState, user: Figure, action: Telekinesis) -> str:
    """Why the object may not be hurled at the target: one opposing character adjacent to the user, or up to 10
    squares from the object (5 if it soars); a user that does not fly and is next to opponents must pick one of
    them; the user needs a clear line of fire to it (HX-OBJECT-14, -15 OPEN)."""
    assert action.target is not None
    target = state.monsters[action.target]
    if not target.alive or target not in opponents(state, user):
        return f"{target.label} is not an opposing character on the map (HX-OBJECT-14)"
    close_by = touching_opponents(state, user)
    if target not in close_by:
        if close_by and user.uid not in state.flight:
            return f"{user.label} does not fly and is next to an opponent: it must target one (HX-OBJECT-14)"
        reach = SOARING_REACH if state.soars(target) else REACH
        distance = double_base.distance_to(state, action.object_square, target)  # HX-SPECIAL-05
        if distance > reach:
            return f"{target.label} is {distance} squares from the object; it strikes up to {reach} (HX-OBJECT-14)"
    indoor = state.geometry.indoor
    if state.soars(target) and (indoor[user.pos] or indoor[target.pos]):
        return "no attack between an indoor square and a soaring character (HX-COMBAT-19 OPEN c)"
    if not combat.line_of_fire(state, user, target)[0]:
        return f"no clear line of fire from {user.label} to {target.label} (HX-OBJECT-14)"
    return ""


def _placing_problem(state: HeroState, user: Figure, action: Telekinesis) -> str:
    """Why the character may not be placed on `to`: it must be adjacent to the user (friend or foe, in its layer
    and level), and is placed up to 10 squares from where it stands on a square it could occupy, with a clear line
    of fire from the user (HX-OBJECT-16 OPEN, ADAPTED from 004's Telekinesis)."""
    assert action.moved is not None
    moved = state.monsters[action.moved]
    geometry = state.geometry
    level = levels_of(geometry).level
    if not moved.alive or moved.uid == user.uid:
        return f"{moved.label} is not another character on the map (HX-OBJECT-16)"
    if bulky(state, moved):
        return f"{moved.label} is a giant or big character: Telekinesis cannot move it (HX-SPECIAL-13, -16)"
    if double_base.immovable(state, moved):
        return f"{moved.label} is a double-base character: Telekinesis cannot move it (HX-SPECIAL-06)"
    mine = [s for s in double_base.squares(state, user) if moved.pos in geometry.piece_neighbours[s]]  # HX-SPECIAL-05
    beside = bool(mine) and state.soars(moved) == state.soars(user)
    if not beside or level[moved.pos] != level[mine[0]]:
        return f"{moved.label} is not adjacent to {user.label} (HX-OBJECT-12)"
    to = action.to
    if to < 0:
        return "Telekinesis places the character 'to' a square"
    distance = geometry.distance(moved.pos, to)
    if distance > REACH:
        return f"{at(state, to)} is {distance} squares from {moved.label}; Telekinesis moves it {REACH} (HX-OBJECT-16)"
    if geometry.terrain[to] == BLOCKING or to in double_base.spots(
        state, (c for c in state.standing() if c.uid != moved.uid)
    ):
        return f"{moved.label} cannot occupy {at(state, to)} (HX-OBJECT-16)"
    if state.soars(moved) and geometry.indoor[to]:
        return f"{moved.label} soars and may not be placed indoors (HX-TERRAIN-22)"
    if not _clear(state, user, to, state.soars(moved), (user.uid, moved.uid)):
        return f"no clear line of fire from {user.label} to {at(state, to)} (HX-OBJECT-16)"
    return ""


def _clear(state: HeroState, user: Figure, to: int, soaring: bool, ends: tuple[int, ...]) -> bool:
    """A clear line of fire from the user (from either square of a double-base user, HX-SPECIAL-05) to `to`."""
    return any(combat.line_between(state, own, False, to, soaring, ends)[0] for own in double_base.squares(state, user))


def perform(state: HeroState, user: Figure, action: Telekinesis) -> None:
    """The action: the character placed (no break away; it may not use Telekinesis this turn), the object moved,
    or the object hurled (`combat.attack`: used up hit or miss, HX-OBJECT-09)."""
    if action.moved is not None:
        moved = state.monsters[action.moved]
        moved.pos = action.to
        state.lifted.add(moved.uid)
        state.moved.add(moved.uid)  # HX-PAC-11: placed
        state.emit(EventKind.TELEKINESIS, character=user.label, moved=moved.label, to=state.geometry.xy(action.to))
    elif action.target is not None:
        combat.attack(state, user, action)
    else:
        kind = lift(state, action.object_square)
        lay(state, kind, action.to)
        state.emit(EventKind.TELEKINESIS, character=user.label, moved=kind, to=state.geometry.xy(action.to))


def hurls(state: HeroState, user: Figure) -> list[Telekinesis]:
    """Every legal hurl of an object in reach at an opposing character (the attacks `legal_actions` lists; moving
    objects and characters are legal too, but not listed)."""
    if not telekinetic(user) or state.soars(user):
        return []
    found = []
    for thing in layout_of(state).objects:
        square = state.geometry.index(*thing.at)
        if not any(within_reach(state, own, square) for own in double_base.squares(state, user)):
            continue
        for target in opponents(state, user):
            action = Telekinesis(user.uid, square, target=target.uid)
            if not problem(state, action):
                found.append(action)
    return found
