"""Where HorrorClix's setup may place things on a board: the starting zone that objects stay out of (HC-SETUP-06)
and the sites where a portal fits the board's shape (HC-SETUP-13)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from clix.engine.core.board import STEPS, Edge, Space, edge, wall_edges

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.models import MapLayout


def starting_zone(layout: MapLayout) -> set[Space]:
    """Spaces in a starting area or next to one (8 neighbours, walls ignored): no objects go there (HC-SETUP-06)."""
    zone: set[Space] = set()
    for spaces in layout.starting_areas().values():
        for x, y in spaces:
            zone.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if layout.inside(x + dx, y + dy))
    return zone


def portal_sites(layout: MapLayout, walls: Iterable[Edge] | None = None) -> list[tuple[Space, str]]:
    """Where a portal fits the board's shape (HC-SETUP-13): `(space, side)` with the doorway on that side.

    The reading: the portal stands on a clear space, its doorway edge is not already a wall and leads to a
    space on the map that is not blocking, and both ends of the doorway edge are anchored: a wall meets that
    grid point (running on along the same line, or at a right angle), or the space beside the portal at that
    end is blocking terrain (the portal fills the gap between two blocking spaces). So a one-space gap in a
    wall line gives two sites (one on each side of the gap), a clear space between two blocking spaces gives
    a site on each open side, and a one-space-wide corridor between walls gives sites across it. Setup also keeps
    objects out of starting areas and their neighbours (`starting_zone`) and off spaces holding other
    objects; this does not check those.
    """
    blocked = set(wall_edges(layout) if walls is None else walls)

    def blocking(x: int, y: int) -> bool:
        return layout.inside(x, y) and layout.terrain(x, y) == "blocking"

    sites: list[tuple[Space, str]] = []
    for y in range(layout.height):
        for x in range(layout.width):
            if layout.terrain(x, y) != "clear":
                continue
            for side, (dx, dy) in STEPS.items():
                tx, ty = x + dx, y + dy
                if not layout.inside(tx, ty) or blocking(tx, ty) or edge((x, y), (tx, ty)) in blocked:
                    continue
                px, py = -dy, dx  # along the doorway's grid line
                closed = all(
                    blocking(x + s * px, y + s * py)
                    or edge((x + s * px, y + s * py), (tx + s * px, ty + s * py)) in blocked
                    or edge((x, y), (x + s * px, y + s * py)) in blocked
                    or edge((tx, ty), (tx + s * px, ty + s * py)) in blocked
                    for s in (-1, 1)
                )
                if closed:
                    sites.append(((x, y), side))
    return sites
