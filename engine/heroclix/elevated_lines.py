"""Lines of fire with an elevated end (HX-ELEV-08, -10..12), the part of `combat.line_between` drawn to or from
elevated terrain."""

from __future__ import annotations

from clix.engine.core.geometry import BLOCKING, HINDERING
from clix.engine.heroclix import double_base
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.state import HeroState


def elevated_line(
    state: HeroState,
    source: int,
    aim: int,
    ends: tuple[int, ...],
    big: dict[int, str],
    giant_end: bool = False,
    as_elevated: bool = False,
) -> tuple[bool, bool]:
    """A line of fire with an elevated end. Both elevated (HX-ELEV-08): the ground below does not block it,
    boundaries crossed do not, elevated blocking terrain and walls along elevated squares and elevated characters
    do; elevated hindering terrain hinders it. One grounded (HX-ELEV-10..12): the elevated one must stand on the
    rim; elevated squares off the rim block it, and so do walls and blocking terrain (HX-ELEV-11 OPEN); other
    characters do not (HX-COMBAT-14); it is hindered only when the target stands in hindering terrain. Giants and
    big characters (`big`, by square) on the line block it either way (HX-SPECIAL-14, -16)."""
    geometry = state.geometry
    levels = levels_of(geometry)
    level = levels.level
    ray = geometry.ray(source, aim)
    if any(s in big for s in ray.cells):
        return False, False
    if (level[source] and level[aim]) or as_elevated:
        if any(level[s] and geometry.terrain[s] == BLOCKING for s in ray.cells):
            return False, False
        if any((a, b) in geometry.walls and (level[a] or level[b]) for a, b in ray.edges):
            return False, False
        up_high = (
            set()
            if giant_end
            else double_base.spots(state, (c for c in state.standing() if c.uid not in ends and level[c.pos]))
        )
        up_high -= double_base.spots(state, (c for c in state.standing() if state.soars(c)))
        if any(s in up_high for s in ray.cells) or any(a in up_high and b in up_high for a, b in ray.corners):
            return False, False
        return True, any(level[s] and geometry.terrain[s] == HINDERING for s in ray.cells)
    raised = source if level[source] else aim
    if not levels.rim[raised]:
        return False, False
    if ray.walled or ray.blocked_by_terrain or any(level[s] and not levels.rim[s] for s in ray.cells):
        return False, False
    return True, geometry.terrain[aim] == HINDERING
