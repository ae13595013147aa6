"""Attacks on terrain and objects (HX-TERRAIN-13..18, HX-OBJECT-05, HX-COMBAT-26): a close or ranged combat action
against a square of blocking terrain, an object lying on the map, or a wall. It succeeds without a roll and deals the attacker's damage value (HX-TERRAIN-14 OPEN);
3 or more destroys the square or the wall, leaving debris (hindering terrain, HX-TERRAIN-15, -18). The map
changes, so the game gets a new `Geometry` of the changed map."""

from __future__ import annotations

from typing import cast

from clix.engine.core.board import STEPS, Edge, side_edge, wall_edges
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.battle_fury import no_ranged
from clix.engine.heroclix.damage_powers import boost
from clix.engine.heroclix.defenses import capped
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.maps import HeroMap, Wall
from clix.engine.heroclix.objects import CLOSE_BONUS, lift, lying_at
from clix.engine.heroclix.powers import CLOSE_EXPERT, RANGED_EXPERT
from clix.engine.heroclix.sides import at, cannot_act, touching_opponents
from clix.engine.heroclix.state import HeroState, Raze

DESTROYING_DAMAGE = 3
"""The damage one attack must deal to destroy a square of blocking terrain or a wall (HX-TERRAIN-13, -18)."""
DEBRIS = "h"
"""What a destroyed square, and each square beside a destroyed wall, becomes: debris, hindering terrain."""


def raze_problem(state: HeroState, action: Raze) -> str:
    """Why an attack on terrain may not be given ("" if it may): from either square of a double-base attacker
    (HX-SPECIAL-05)."""
    attacker = state.monsters[action.character]
    return double_base.from_either(state, attacker, lambda: _raze_problem(state, attacker, action))


def _raze_problem(state: HeroState, attacker: Figure, action: Raze) -> str:
    problem = cannot_act(state, attacker)
    if problem:
        return problem
    geometry = state.geometry
    level = levels_of(geometry).level
    if state.soars(attacker):
        return "a soaring character affects only soaring characters, not terrain (HX-MOVE-15)"
    if action.wall is None:
        square = action.square
        thing = lying_at(state, square)
        if thing is None and geometry.terrain[square] != BLOCKING:
            return f"{at(state, square)} holds neither blocking terrain nor an object (HX-TERRAIN-13, HX-OBJECT-05)"
        if level[square]:
            return f"elevated terrain cannot be destroyed (HX-ELEV-06): {at(state, square)}"
        aim = square
    else:
        if action.wall not in geometry.walls:
            return f"there is no wall between {at(state, action.wall[0])} and {at(state, action.wall[1])}"
        aim = _beyond(state, attacker, action.wall) if action.ranged else -1
        if not action.ranged and attacker.pos not in action.wall:
            return f"the wall is not on an edge of {attacker.label}'s square (HX-TERRAIN-18)"
    if not action.ranged:
        own = aim == attacker.pos and lying_at(state, aim) is not None  # an object in its own square, HX-OBJECT-05
        if (
            action.wall is None
            and not own
            and (aim not in geometry.neighbour_sets[attacker.pos] or level[aim] != level[attacker.pos])
        ):
            return f"{at(state, aim)} is not adjacent to {attacker.label} (HX-TERRAIN-13)"
        return ""
    if attacker.stats.range <= 0:
        return f"{attacker.label} has range 0 and makes no ranged attacks (HX-COMBAT-09)"
    if no_ranged(attacker):  # HX-POWER-38, HX-PAC-23: no ranged attack on terrain either
        return no_ranged(attacker)
    if touching_opponents(state, attacker):
        return f"{attacker.label} is adjacent to an opposing character (HX-COMBAT-09)"
    distance = geometry.distance(attacker.pos, aim)
    if distance > attacker.stats.range:
        return f"{at(state, aim)} is {distance} squares away; {attacker.label}'s range is {attacker.stats.range}"
    if not _clear_to(state, attacker, aim, action.wall):
        return f"no clear line of fire from {attacker.label} to {at(state, aim)} (HX-TERRAIN-13, -18)"
    return ""


def _beyond(state: HeroState, attacker: Figure, wall: tuple[int, int]) -> int:
    """The square on the far side of `wall` from the attacker, whose centre a ranged attack on the wall aims at."""
    distance = state.geometry.distance
    return max(wall, key=lambda s: (distance(attacker.pos, s), s))


def _clear_to(state: HeroState, attacker: Figure, aim: int, wall: tuple[int, int] | None) -> bool:
    """A line of fire to the centre of `aim`: the target's own blocking terrain, and the wall aimed at, do not
    block it; other walls, blocking terrain, grounded characters and elevated squares crossed from the ground
    do (HX-TERRAIN-13, -18, HX-COMBAT-11, HX-ELEV-07)."""
    geometry = state.geometry
    ray = geometry.ray(attacker.pos, aim)
    if ray.blocked_by_terrain or any(edge in geometry.walls and edge != wall for edge in ray.edges):
        return False
    level = levels_of(geometry).level
    if not level[attacker.pos] and any(level[s] for s in ray.cells):
        return False
    others = double_base.spots(state, (c for c in state.standing() if c.uid != attacker.uid and not state.soars(c)))
    # an object may be shot where a character stands on it (HX-OBJECT-05); the square beyond a wall may not
    return not any(s in others for s in ray.cells) and (
        aim not in others or (wall is None and lying_at(state, aim) is not None)
    )


def raze(state: HeroState, attacker: Figure, action: Raze) -> None:
    """The attack: no roll, the attacker's damage value; at `DESTROYING_DAMAGE` the square or wall is destroyed
    and the map changes (HX-TERRAIN-13..15, -18; HX-TERRAIN-14 OPEN)."""
    expert = RANGED_EXPERT if action.ranged else CLOSE_EXPERT
    own = 1 if expert in attacker.powers else 0  # HX-POWER-37, -44; friends' Empower, Enhancement: -45, -41
    damage = attacker.damage + capped(own + boost(state, attacker, not action.ranged))  # HX-PAC-23, HX-VALUE-05
    held = None if action.ranged else state.holding.pop(attacker.uid, None)
    if held is not None:  # HX-OBJECT-10: a held object is used in a close attack, and used up (HX-TERRAIN-14 OPEN a)
        damage += CLOSE_BONUS[held]
    if action.wall is None:
        target = at(state, action.square)
    else:
        target = f"the wall between {at(state, action.wall[0])} and {at(state, action.wall[1])}"
    destroyed = damage >= DESTROYING_DAMAGE
    state.emit(EventKind.TERRAIN_ATTACK, attacker=attacker.label, target=target, damage=damage, destroyed=destroyed)
    if not destroyed:
        return
    if action.wall is None and lying_at(state, action.square) is not None:
        lift(state, action.square)  # HX-OBJECT-05 OPEN: a destroyed object leaves debris
    layout = cast(HeroMap, state.geometry.layout)
    rows = [list(row) for row in layout.rows]
    geometry = state.geometry
    if action.wall is None:
        x, y = geometry.xy(action.square)
        rows[y][x] = DEBRIS
        walls = list(layout.walls)
        lines = list(layout.wall_lines)
    else:
        for square in action.wall:
            x, y = geometry.xy(square)
            if rows[y][x] in ".1234":
                rows[y][x] = DEBRIS
        gone = tuple(sorted(geometry.xy(s) for s in action.wall))
        walls = [_wall(layout, edge) for edge in sorted(wall_edges(layout)) if tuple(sorted(edge)) != gone]
        lines = []
    changed = layout.model_copy(update={"rows": ["".join(row) for row in rows], "walls": walls, "wall_lines": lines})
    state.geometry = geometry_of(changed)


def _wall(layout: HeroMap, edge: Edge) -> Wall:
    """A wall on `edge` in the map format, named by its square on the map (a border wall has one off it)."""
    first, second = edge if layout.inside(*edge[0]) else (edge[1], edge[0])
    side = next(s for s, (dx, dy) in STEPS.items() if (first[0] + dx, first[1] + dy) == second)
    assert side_edge(first, side) == edge
    return Wall(at=first, side=side)  # type: ignore[arg-type]
