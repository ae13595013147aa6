"""HeroClix knockback (HX-KNOCK): the directions that lead away from an attacker (HX-KNOCK-04), and the path a
character knocked back takes, with what stops it and what it takes on the way (HX-KNOCK-03..13). Attacks call it
from `combat`, Force Blast from `power_actions` (HX-POWER-08)."""

from __future__ import annotations

from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.defenses import reduced
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.scoring import take_damage
from clix.engine.heroclix.state import DIRECTIONS, HOVERING, KNOCKBACK, HeroState

OBSTACLE_KNOCKBACK_DAMAGE = 1
"""Damage a character knocked back into a wall, the edge, blocking terrain or an elevated boundary takes
(HX-KNOCK-06)."""
FALL_KNOCKBACK_DAMAGE = 2
"""Damage a non-flier knocked off elevated terrain takes (HX-KNOCK-10)."""


def directions_problem(
    state: HeroState, attacker: Figure, targets: tuple[int | None, ...], knockback: tuple[tuple[int, str], ...]
) -> str:
    """Why `knockback` names a direction that is not one `attacker` may choose for one of `targets`."""
    for uid, direction in knockback:
        if uid not in targets or direction not in DIRECTIONS:
            return f"knockback: a direction ({', '.join(DIRECTIONS)}) for a target of the attack"
        if DIRECTIONS[direction] not in double_base.away(state, attacker, state.monsters[uid], away_from):
            return f"knockback: {direction} does not lead away from {attacker.label} (HX-KNOCK-04)"
    return ""


def away_from(state: HeroState, source: int, target: int) -> tuple[tuple[int, int], ...]:
    """The knockback directions for a target at `target` hit from `source`: the straight line when it is on one
    (row, column or exact diagonal), else the orthogonal along the larger offset or the diagonal whose two steps
    both lead away (HX-KNOCK-04 OPEN: the attacker picks; the first is taken when none is named)."""
    sx, sy = state.geometry.xy(source)
    tx, ty = state.geometry.xy(target)
    dx, dy = tx - sx, ty - sy
    ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        return ((ux, uy),)
    larger = (ux, 0) if abs(dx) > abs(dy) else (0, uy)
    return (larger, (ux, uy))


def way_from(state: HeroState, attacker: Figure, target: Figure, chosen: str | None) -> tuple[int, int]:
    """The direction `target` is knocked back in: the one named (`chosen`), else the first leading away from
    `attacker` (from its square nearest the target, HX-SPECIAL-05)."""
    return DIRECTIONS[chosen] if chosen else double_base.away(state, attacker, target, away_from)[0]


def knock_back(state: HeroState, attacker: Figure, target: Figure, distance: int, direction: tuple[int, int]) -> None:
    """Move `target` up to `distance` squares along `direction` (HX-KNOCK-03, -04). It stops before a wall, the
    map edge or blocking terrain and takes 1 knockback damage (HX-KNOCK-06), or before another character with no
    damage (HX-KNOCK-07); hindering terrain does not stop it, and it is not movement (HX-KNOCK-13). The boundary
    of higher ground stops it like a wall (HX-KNOCK-06); a non-flier knocked off elevated terrain lands in the
    first square beyond and takes 2, or stays on the rim with 1 if that square is taken (HX-KNOCK-10); a hovering
    one goes on at the lower level unhurt (HX-KNOCK-11 OPEN). A soaring target meets no terrain: only the edge
    hurts it, and only soaring characters stop it (HX-KNOCK-12 OPEN). A double-base character is never knocked
    back (HX-KNOCK-09, -14, HX-SPECIAL-06), and its squares stop others as a character's."""
    if double_base.immovable(state, target):
        return
    geometry = state.geometry
    level = levels_of(geometry).level
    high = state.soars(target)
    hovering = state.flight.get(target.uid) == HOVERING
    occupied = double_base.spots(
        state, (c for c in state.standing() if c.uid != target.uid and (not high or state.soars(c)))
    )
    x, y = geometry.xy(target.pos)
    passed = [target.pos]
    for _ in range(distance):
        nx, ny = x + direction[0], y + direction[1]
        here = geometry.index(x, y)
        off = not (0 <= nx < geometry.width and 0 <= ny < geometry.height)
        ahead = -1 if off else geometry.index(nx, ny)
        blocked = (
            not off
            and not high
            and (geometry.separated(here, ahead) or geometry.terrain[ahead] == BLOCKING or level[ahead] > level[here])
        )
        if off or blocked:
            _land(state, target, here, "obstacle", OBSTACLE_KNOCKBACK_DAMAGE, attacker)
            return
        if double_base.in_the_way(state, here, ahead, target):  # HX-SPECIAL-03: its base across the diagonal
            break
        if ahead in occupied:
            if not high and level[ahead] < level[here]:  # HX-KNOCK-10: the landing square is taken
                _land(state, target, here, "edge", OBSTACLE_KNOCKBACK_DAMAGE, attacker)
                return
            break
        x, y = nx, ny
        passed.append(ahead)
        if not high and not hovering and level[ahead] < level[here]:  # HX-KNOCK-10: a fall ends the path
            _land(state, target, ahead, "fell", FALL_KNOCKBACK_DAMAGE, attacker)
            return
    anyone = double_base.spots(state, (c for c in state.standing() if c.uid != target.uid))
    while len(passed) > 1 and passed[-1] in anyone:  # a soaring path passes over others, never ends on one
        passed.pop()
    _place(state, target, passed[-1])
    state.emit(EventKind.KNOCKED_BACK, character=target.label, to=geometry.xy(target.pos), stopped="")


def _land(state: HeroState, target: Figure, square: int, how: str, damage: int, attacker: Figure) -> None:
    """End a knockback path at `square` with `damage` knockback damage (HX-KNOCK-06, -08, -10)."""
    _place(state, target, square)
    state.emit(EventKind.KNOCKED_BACK, character=target.label, to=state.geometry.xy(square), stopped=how)
    hurt = damage if target.uid in state.powerless else reduced(target, damage)  # HX-POWER-15: no powers
    take_damage(state, target, hurt, KNOCKBACK, attacker)  # HX-KNOCK-08


def _place(state: HeroState, target: Figure, square: int) -> None:
    """Knockback places `target` on `square`; once it has changed squares it was placed this turn (HX-PAC-11)."""
    if square != target.pos:
        state.moved.add(target.uid)
    target.pos = square
