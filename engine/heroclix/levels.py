"""Elevated terrain as the rules read it, worked out once per map (HX-ELEV; contract section 3): each square's
level (its `elevation` digit, 0 for ground), its area (the squares of one digit joined through their sides), the
rim (an area's squares with a boundary edge), and the ladders that join two levels for movement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from clix.engine.core.geometry import Geometry
from clix.engine.heroclix.maps import HeroMap


@dataclass(frozen=True)
class Levels:
    """A map's levels (see the module)."""

    level: tuple[int, ...]
    area: tuple[int, ...]
    """Per square: its area's number (-1 on the ground)."""
    rim: tuple[bool, ...]
    ladders: frozenset[frozenset[int]]
    """Pairs of squares a ladder joins (HX-ELEV-03)."""

    @property
    def flat(self) -> bool:
        return not any(self.level)


LEVELS_KEPT = 8
"""How many maps' `Levels` a process keeps by their elevation and ladders (the oldest made goes first)."""

_kept: dict[tuple[object, ...], Levels] = {}


def levels_of(geometry: Geometry) -> Levels:
    """The levels of `geometry`'s map, computed once and kept with the map."""
    return cast(Levels, geometry.cached("heroclix levels", lambda: _shared(geometry)))


def _shared(geometry: Geometry) -> Levels:
    """`_work_out`, shared by maps of the same size, elevation and ladders (a map made when objects move differs
    in none of them: `Levels` is immutable)."""
    layout = cast(HeroMap, geometry.layout)
    elevation = tuple(layout.elevation) if layout.elevation else ()
    ladders = tuple((tuple(ladder.bottom), tuple(ladder.top)) for ladder in layout.ladders)
    key = (geometry.width, geometry.height, elevation, ladders)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= LEVELS_KEPT:
            del _kept[next(iter(_kept))]
        found = _kept[key] = _work_out(geometry)
    return found


def _work_out(geometry: Geometry) -> Levels:
    layout = cast(HeroMap, geometry.layout)
    width, height = geometry.width, geometry.height
    level = tuple(layout.level(x, y) for y in range(height) for x in range(width))
    sides = [
        [geometry.index(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
         if 0 <= x + dx < width and 0 <= y + dy < height]
        for y in range(height) for x in range(width)
    ]  # fmt: skip
    area = [-1] * geometry.size
    count = 0
    for start in range(geometry.size):
        if level[start] == 0 or area[start] >= 0:
            continue
        area[start] = count
        stack = [start]
        while stack:
            square = stack.pop()
            for other in sides[square]:
                if area[other] < 0 and level[other] == level[start]:
                    area[other] = count
                    stack.append(other)
        count += 1
    rim = tuple(level[s] > 0 and any(level[o] != level[s] for o in sides[s]) for s in range(geometry.size))
    ladders = frozenset(
        frozenset((geometry.index(*ladder.bottom), geometry.index(*ladder.top))) for ladder in layout.ladders
    )
    return Levels(level, tuple(area), rim, ladders)
