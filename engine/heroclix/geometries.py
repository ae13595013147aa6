"""The `Geometry` of a HeroClix map as it stands, kept by the map's contents so that games share it (issue 38).

A HeroClix game makes a new map whenever what lies on it changes: the objects placed at setup (HX-SETUP-05),
picked up, thrown or destroyed (HX-OBJECT), markers laid and cleared, terrain and walls destroyed. Each new map
needs its geometry, whose tables (adjacency, lines of fire traced once and kept, levels, steps) are costly to make
and to fill again; the same maps come back from game to game (the same forces place their objects the same way).
`geometry_of` returns the geometry already made of a map with the same contents, while it is among the last
`KEPT` maps used in this process. A geometry is never changed in play (a changed map is a new one), so sharing it
changes no game."""

from __future__ import annotations

from clix.engine.core.geometry import Geometry
from clix.engine.heroclix.maps import HeroMap

KEPT = 32
"""How many maps' geometries a process keeps (the one used longest ago goes first)."""

_kept: dict[tuple[str, str], Geometry] = {}


def geometry_of(layout: HeroMap) -> Geometry:
    """The geometry of `layout` (a HeroClix map), made once per contents while it is kept."""
    key = (type(layout).__qualname__, layout.model_dump_json())
    found = _kept.pop(key, None)
    if found is not None:
        _kept[key] = found  # the last used goes last
    else:
        if len(_kept) >= KEPT:
            del _kept[next(iter(_kept))]
        found = _kept[key] = Geometry(layout)
    return found
