"""Board geometry shared by the rules engine and the map drawings: walls as blocked edges, indoor spaces.

A map's walls come in two spellings (`Layout`; HorrorClix's map format is one): `walls`, one edge of one space
(`{at: [x, y], side: north}`), and `wall_lines`, runs along grid lines (`[x1, y1, x2, y2]` in grid points,
0..width by 0..height). Both become the same thing here: an `Edge`, the sorted pair of the two spaces the
wall separates. A wall on the map border pairs its space with the off-map space beyond it (like `(-1, 3)`),
so every wall is kept, even those that can block nothing. Spaces are `(x, y)`, x from the left, y from the
top (HC-TERRAIN-12: a wall has all the effects of blocking terrain along that edge).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Space = tuple[int, int]
Edge = tuple[Space, Space]


class Layout(Protocol):
    """What the core reads of a ruleset's map format (HorrorClix's `roster.maps.MapLayout` is one): its size,
    terrain, walls, indoor rectangles, and where pieces start and victims may stand."""

    @property
    def kind(self) -> str:
        """ "outdoor", "indoor" or "indoor_outdoor"."""
        ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def walls(self) -> Sequence[Any]:
        """Walls on one side of one space, each with `at` (x, y) and `side` (north, south, east, west)."""
        ...

    @property
    def wall_lines(self) -> Sequence[tuple[int, int, int, int]]: ...

    @property
    def indoor(self) -> Sequence[tuple[int, int, int, int]]: ...

    def terrain(self, x: int, y: int) -> str:
        """ "clear", "hindering", "water" or "blocking"."""
        ...

    def inside(self, x: int, y: int) -> bool: ...

    def starting_areas(self) -> Mapping[int, Sequence[Space]]: ...

    def victim_spaces(self) -> Sequence[Space]: ...


STEPS: dict[str, Space] = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
"""The step from a space to its neighbour across each side."""


def edge(a: Space, b: Space) -> Edge:
    """The edge between two orthogonally adjacent spaces, as a sorted pair (so `edge(a, b) == edge(b, a)`)."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise ValueError(f"spaces {a} and {b} do not share an edge")
    return (a, b) if a <= b else (b, a)


def side_edge(at: Space, side: str) -> Edge:
    """The edge on one side (north, south, east, west) of a space."""
    dx, dy = STEPS[side]
    return edge(at, (at[0] + dx, at[1] + dy))


def line_edges(x1: int, y1: int, x2: int, y2: int) -> list[Edge]:
    """The edges a straight wall line covers, from grid point (x1, y1) to (x2, y2).

    A horizontal line at grid y = Y runs between rows Y-1 and Y; a vertical line at grid x = X between
    columns X-1 and X. A zero-length line covers nothing.
    """
    if y1 == y2:
        return [edge((x, y1 - 1), (x, y1)) for x in range(min(x1, x2), max(x1, x2))]
    if x1 == x2:
        return [edge((x1 - 1, y), (x1, y)) for y in range(min(y1, y2), max(y1, y2))]
    raise ValueError(f"wall line {[x1, y1, x2, y2]} is not straight")


def wall_edges(layout: Layout) -> set[Edge]:
    """Every wall of the map (its `walls` and `wall_lines`) as the set of edges it blocks."""
    edges = {side_edge(wall.at, wall.side) for wall in layout.walls}
    for line in layout.wall_lines:
        edges.update(line_edges(*line))
    return edges


def is_indoor(layout: Layout, x: int, y: int) -> bool:
    """Whether a space is indoors: anywhere on an indoor map, inside an `indoor` rectangle otherwise (HC-TERRAIN-24)."""
    if layout.kind == "indoor":
        return True
    return any(x1 <= x <= x2 and y1 <= y <= y2 for x1, y1, x2, y2 in layout.indoor)


__all__ = [
    "STEPS",
    "Edge",
    "Space",
    "edge",
    "is_indoor",
    "line_edges",
    "side_edge",
    "wall_edges",
]
