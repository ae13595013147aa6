"""Map geometry computed once per map and shared by every game played on it.

Spaces are numbered `index = y * width + x`. `Geometry` holds terrain codes, adjacency (HC-MOVE-01,
walls per HC-TERRAIN-12), the diagonal-corner facts movement needs (HC-TERRAIN-03, -10) and, for
any pair of spaces, the `Ray` of its line of fire (HC-COMBAT-18): which spaces the line crosses,
which corners it passes exactly through, and which grid edges it crosses. A line-of-fire check in a
game is then a lookup plus a few set intersections with where the pieces stand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from clix.engine.core.board import Layout, is_indoor, wall_edges

# Final: the compiled engine reads them as constants, not module attributes, in its inner loops
CLEAR: Final = 0
HINDERING: Final = 1
WATER: Final = 2
BLOCKING: Final = 3
TERRAIN_CODES = {"clear": CLEAR, "hindering": HINDERING, "water": WATER, "blocking": BLOCKING}
OFF_MAP: Final = -1


@dataclass(frozen=True, slots=True)
class Ray:
    """The line of fire from the centre of one space to the centre of another (HC-COMBAT-18)."""

    cells: tuple[int, ...]
    """Spaces whose interior the line crosses, in order, not counting the two end spaces."""
    corners: tuple[tuple[int, int], ...]
    """For each grid point the line passes exactly through: the two spaces flanking the line there."""
    edges: tuple[tuple[int, int], ...]
    """Grid edges the line crosses, as (lower index, higher index) pairs."""
    walled: bool
    """The line crosses a wall, or passes through a corner where walls close both ways around it."""
    blocked_by_terrain: bool
    """Blocking terrain in a crossed space or on both sides of a corner passed (HC-TERRAIN-10, -11)."""
    hindering: bool
    """The static hindering modifier applies: a crossed space or the target's space is hindering, or a
    corner is passed between hindering and hindering/blocking terrain (HC-TERRAIN-06, -08, -29)."""
    hindering_corner_partners: tuple[int, ...]
    """Spaces that make the hindering modifier apply if a monster or victim stands there (HC-TERRAIN-08)."""
    blocking_corner_partners: tuple[int, ...]
    """Spaces that block the line if a monster or victim stands there, being diagonal to blocking
    terrain across a corner the line passes (HC-TERRAIN-11)."""


StepTables = tuple[
    list[tuple[int, ...]],
    list[frozenset[int]],
    list[tuple[int, ...]],
    list[frozenset[int]],
    dict[tuple[int, int], tuple[int, int]],
    dict[tuple[int, int], tuple[bool, bool]],
]
"""`Geometry._step_tables`: neighbours, their sets, all neighbours, their sets, diagonal flanks and walls."""
TABLES_KEPT: Final = 16
"""How many maps' step tables a process keeps (the oldest made goes first): maps that differ only in what
hinders or lies on them (a HeroClix map is made again whenever an object moves) share them; none is changed."""

_step_tables: dict[tuple[int, int, frozenset[tuple[int, int]]], StepTables] = {}
_piece_tables: dict[tuple[tuple[int, int, frozenset[tuple[int, int]]], tuple[int, ...]], list[tuple[int, ...]]] = {}
SHARED_KEPT: Final = 32
"""How many of `Geometry.shared`'s tables a process keeps, of every name together."""
_shared_tables: dict[tuple[str, object], object] = {}
"""`Geometry.shared`: tables other modules derive from a map's size, walls and blocking terrain, by name."""


def _keep(tables: dict[Any, Any], key: object, table: object, kept: int = TABLES_KEPT) -> None:
    """Keep `table` under `key` in `tables` (one of the shared step tables), the oldest dropped past `kept`."""
    if len(tables) >= kept:
        del tables[next(iter(tables))]
    tables[key] = table


class Geometry:
    """Everything about a map that does not change during a game."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its map layout (the geometry is computed again where it is unpickled)."""
        return (Geometry, (self.layout,))

    def __eq__(self, other: object) -> bool:
        """The geometries of one map are equal (an unpickled state computes its own from the layout)."""
        return isinstance(other, Geometry) and (other is self or other.layout == self.layout)

    def __hash__(self) -> int:
        return hash((self.kind, self.width, self.height))

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.kind = layout.kind
        self.width = width = layout.width
        self.height = height = layout.height
        self.size = width * height
        self.terrain: list[int] = [TERRAIN_CODES[layout.terrain(x, y)] for y in range(height) for x in range(width)]
        self.indoor: list[bool] = [is_indoor(layout, x, y) for y in range(height) for x in range(width)]
        self.walls: frozenset[tuple[int, int]] = frozenset(
            (min(a, b), max(a, b))
            for (ax, ay), (bx, by) in wall_edges(layout)
            if layout.inside(ax, ay) and layout.inside(bx, by)
            for a, b in [(ay * width + ax, by * width + bx)]
        )
        self.starting_areas: dict[int, tuple[int, ...]] = {
            label: tuple(self.index(x, y) for x, y in spaces) for label, spaces in layout.starting_areas().items()
        }
        self.victim_spaces: tuple[int, ...] = tuple(self.index(x, y) for x, y in layout.victim_spaces())
        key = (width, height, self.walls)
        steps = _step_tables.get(key)
        if steps is None:
            steps = self._step_tables()
            _keep(_step_tables, key, steps)
        self.neighbours: list[tuple[int, ...]] = steps[0]
        self.neighbour_sets: list[frozenset[int]] = steps[1]
        self.all_neighbours: list[tuple[int, ...]] = steps[2]
        self.all_neighbour_sets: list[frozenset[int]] = steps[3]
        self.diagonal_flanks: dict[tuple[int, int], tuple[int, int]] = steps[4]
        self.diagonal_walls: dict[tuple[int, int], tuple[bool, bool]] = steps[5]
        """For each diagonal step, whether a wall shuts the way round its corner by either flank."""
        blocking = tuple(s for s in range(self.size) if self.terrain[s] == BLOCKING)
        self._blocked_shape: tuple[object, ...] = (key, blocking)
        """What only size, walls and blocking terrain decide is shared by maps with the same (`shared`)."""
        pieces = _piece_tables.get(self._blocked_shape)
        if pieces is None:
            pieces = self._piece_neighbours()
            _keep(_piece_tables, self._blocked_shape, pieces)
        self.piece_neighbours: list[tuple[int, ...]] = pieces
        """Spaces whose pieces are adjacent to a piece here: touching, not across a wall, nor across a corner
        that walls and blocking terrain shut both ways round (HC-MOVE-01, HC-TERRAIN-10, -12; docs/rulings.md).
        Closed doorways shut more during play (`separated` with `doors`)."""
        self._rays: dict[tuple[int, int], Ray] = {}
        self.caches: dict[object, object] = {}
        """Tables other modules derive from the map alone (e.g. movement's step tables), kept with it."""

    def _step_tables(self) -> StepTables:
        """The tables that depend on the map's size and walls alone: `neighbours` (not across a wall or a corner
        walled both ways round), their sets, `all_neighbours` (every touching space) and theirs, each diagonal
        step's `diagonal_flanks` and `diagonal_walls` (whether a wall shuts the way round by either flank)."""
        neighbours = [self._neighbours(i) for i in range(self.size)]
        all_neighbours = [self._neighbours(i, walls=False) for i in range(self.size)]
        flanks = {
            (i, j): self._flanks(i, j) for i in range(self.size) for j in all_neighbours[i] if self._diagonal(i, j)
        }
        walled = {
            (i, j): (self._wall(i, f1) or self._wall(f1, j), self._wall(i, f2) or self._wall(f2, j))
            for (i, j), (f1, f2) in flanks.items()
        }
        return (
            neighbours, [frozenset(n) for n in neighbours], all_neighbours, [frozenset(n) for n in all_neighbours],
            flanks, walled,
        )  # fmt: skip

    def _piece_neighbours(self) -> list[tuple[int, ...]]:
        """`piece_neighbours`: it depends on the size, the walls and where blocking terrain lies (`separated`)."""
        return [tuple(j for j in self.neighbours[i] if not self.separated(i, j)) for i in range(self.size)]

    def cached(self, key: object, compute: Callable[[], Any]) -> Any:
        """A table derived from the map alone, computed on first use and kept with the map (`caches`)."""
        found = self.caches.get(key)
        if found is None:
            found = self.caches[key] = compute()
        return found

    def shared(self, name: str, compute: Callable[[], Any]) -> Any:
        """A table derived from the map's size, walls and blocking terrain alone (`name` says which), shared by every
        map with the same: a HeroClix map is made again whenever an object moves, and objects only hinder. A process
        keeps SHARED_KEPT such tables, the oldest made going first; none is changed once made (a table filled on
        first use fills in what those alone decide)."""
        key = (name, self._blocked_shape)
        found = _shared_tables.get(key)
        if found is None:
            found = compute()
            _keep(_shared_tables, key, found, SHARED_KEPT)
        return found

    # --- spaces -------------------------------------------------------------------------------

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, index: int) -> tuple[int, int]:
        return index % self.width, index // self.width

    def distance(self, a: int, b: int) -> int:
        """Spaces counted in any direction, diagonals included (HC-MOVE-03, HC-COMBAT-16)."""
        dx = a % self.width - b % self.width
        dy = a // self.width - b // self.width
        # comparisons, not abs(): compiled, abs() of an int is a generic call
        return max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy)

    def adjacent(self, a: int, b: int) -> bool:
        """Touching spaces not separated by a wall (HC-MOVE-01, HC-TERRAIN-12)."""
        return b in self.neighbour_sets[a]

    def _diagonal(self, a: int, b: int) -> bool:
        return a % self.width != b % self.width and a // self.width != b // self.width

    def _flanks(self, a: int, b: int) -> tuple[int, int]:
        """The two spaces beside the corner a diagonal step from a to b passes."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        return self.index(bx, ay), self.index(ax, by)

    def _wall(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.walls

    def wall(self, a: int, b: int) -> bool:
        """Whether a wall runs along the edge between orthogonally adjacent spaces a and b."""
        return (min(a, b), max(a, b)) in self.walls

    def separated(self, a: int, b: int, doors: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> bool:
        """Whether touching spaces a and b are cut apart: by a wall or a closed doorway (`doors`, edges as sorted
        pairs) between them, or, diagonally, by walls, closed doorways and blocking terrain shutting both ways
        round their corner (HC-TERRAIN-10, -12, -28; the designers' portal example in 001 §6)."""
        if (min(a, b), max(a, b)) in self.walls or (min(a, b), max(a, b)) in doors:
            return True
        flanks = self.diagonal_flanks.get((a, b))
        if flanks is None:
            return False

        def shut(flank: int) -> bool:
            if self.terrain[flank] == BLOCKING:
                return True
            return any(
                (min(p, q), max(p, q)) in self.walls or (min(p, q), max(p, q)) in doors
                for p, q in ((a, flank), (flank, b))
            )

        return shut(flanks[0]) and shut(flanks[1])

    def _corner_walled(self, a: int, b: int, flank1: int, flank2: int) -> bool:
        """Whether walls at the corner between diagonal spaces a and b close both ways around it."""
        around_1 = self._wall(a, flank1) or self._wall(flank1, b)
        around_2 = self._wall(a, flank2) or self._wall(flank2, b)
        return around_1 and around_2

    def _neighbours(self, index: int, walls: bool = True) -> tuple[int, ...]:
        x, y = self.xy(index)
        found = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx or dy) and 0 <= nx < self.width and 0 <= ny < self.height:
                    other = self.index(nx, ny)
                    if not walls:
                        found.append(other)
                    elif dx and dy:
                        if not self._corner_walled(index, other, self.index(nx, y), self.index(x, ny)):
                            found.append(other)
                    elif not self._wall(index, other):
                        found.append(other)
        return tuple(found)

    # --- line of fire ---------------------------------------------------------------------------

    def ray(self, a: int, b: int) -> Ray:
        """The line of fire from a to b, traced once and cached for the life of the map."""
        key = (a, b)
        found = self._rays.get(key)
        if found is None:
            found = self._rays[key] = self._trace(a, b)
        return found

    def line_clear(self, a: int, b: int) -> bool:
        """Whether the line of fire from a to b crosses no wall and no blocking terrain: `ray(a, b)` neither
        `walled` nor `blocked_by_terrain` (HC-COMBAT-18, HC-TERRAIN-10, -11), traced to the first obstacle and not
        kept, for a caller that keeps its own table of the answers (a player's per-map lines of fire). The grid
        lines crossed are `_crossings`' in order, merged as two counts instead of sorted from a dict: the i-th
        vertical line is crossed at (2i + 1) times the height's span, the j-th horizontal one at (2j + 1) times the
        width's, and both at once when the two are equal (through a grid point)."""
        width = self.width
        ax, ay = a % width, a // width
        bx, by = b % width, b // width
        dx = 1 if bx > ax else -1
        dy = 1 if by > ay else -1
        across = bx - ax if bx >= ax else ax - bx  # vertical grid lines crossed
        down = by - ay if by >= ay else ay - by  # horizontal ones
        x_unit = 2 * down if down else 1  # as `_crossings`: the other axis's span in doubled coordinates, or 1
        y_unit = 2 * across if across else 1
        x_at, y_at = x_unit, y_unit  # where the next vertical and horizontal lines are crossed
        i = j = 0
        cx, cy = ax, ay
        terrain = self.terrain
        walls = self.walls
        while i < across or j < down:
            here = cy * width + cx
            if i < across and j < down and x_at == y_at:  # exactly through a grid point
                flank1, flank2 = here + dx, here + dy * width
                cx, cy = cx + dx, cy + dy
                there = cy * width + cx
                if self._corner_walled(here, there, flank1, flank2):
                    return False
                if terrain[flank1] == BLOCKING and terrain[flank2] == BLOCKING:
                    return False
                i, j = i + 1, j + 1
                x_at, y_at = x_at + 2 * x_unit, y_at + 2 * y_unit
            else:
                if j >= down or (i < across and x_at < y_at):
                    cx += dx
                    i += 1
                    x_at += 2 * x_unit
                else:
                    cy += dy
                    j += 1
                    y_at += 2 * y_unit
                there = cy * width + cx
                if ((here, there) if here < there else (there, here)) in walls:
                    return False
            if there != b and terrain[there] == BLOCKING:
                return False
        return True

    def _crossings(self, ax: int, ay: int, bx: int, by: int) -> dict[int, list[str]]:
        """Where the line from (ax, ay) to (bx, by) crosses each grid line, as `_trace` finds them: by the fraction
        of the way, scaled to an integer, the axes crossed there."""
        # In doubled coordinates space (x, y) spans (2x, 2x+2) and its centre is (2x+1, 2y+1). Every fraction of
        # the way is scaled by both spans (those that are not zero), so the crossings are exact integers to sort.
        sx, sy, ex, ey = 2 * ax + 1, 2 * ay + 1, 2 * bx + 1, 2 * by + 1
        spans = {"x": abs(ex - sx), "y": abs(ey - sy)}
        events: dict[int, list[str]] = {}
        for axis, start, end in (("x", sx, ex), ("y", sy, ey)):
            if start == end:
                continue
            other_span = spans["y" if axis == "x" else "x"] or 1
            step = 2 if end > start else -2
            line = start + (1 if end > start else -1)  # first even grid line on the way
            while (line - end) * (1 if end > start else -1) < 0:
                events.setdefault(abs(line - start) * other_span, []).append(axis)
                line += step
        return events

    def _trace(self, a: int, b: int) -> Ray:
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        events = self._crossings(ax, ay, bx, by)
        dx = 1 if bx > ax else -1
        dy = 1 if by > ay else -1
        cx, cy = ax, ay
        cells: list[int] = []
        corners: list[tuple[int, int]] = []
        edges: list[tuple[int, int]] = []
        walled = False
        for t in sorted(events):
            crossing = events[t]
            here = self.index(cx, cy)
            if len(crossing) == 2:  # exactly through a grid point
                flank1, flank2 = self.index(cx + dx, cy), self.index(cx, cy + dy)
                cx, cy = cx + dx, cy + dy
                there = self.index(cx, cy)
                corners.append((flank1, flank2))
                walled = walled or self._corner_walled(here, there, flank1, flank2)
            else:
                if crossing[0] == "x":
                    cx += dx
                else:
                    cy += dy
                there = self.index(cx, cy)
                edges.append((min(here, there), max(here, there)))
                walled = walled or self._wall(here, there)
            if there != b:
                cells.append(there)
        terrain = self.terrain
        blocked = any(terrain[c] == BLOCKING for c in cells) or any(
            terrain[f1] == BLOCKING and terrain[f2] == BLOCKING for f1, f2 in corners
        )
        hindering = any(terrain[c] == HINDERING for c in cells) or terrain[b] == HINDERING
        hinder_partners: list[int] = []
        block_partners: list[int] = []
        for f1, f2 in corners:
            for one, other in ((f1, f2), (f2, f1)):
                if terrain[one] == HINDERING:
                    if terrain[other] in (HINDERING, BLOCKING):
                        hindering = True
                    else:
                        hinder_partners.append(other)
                if terrain[one] == BLOCKING and terrain[other] != BLOCKING:
                    block_partners.append(other)
        return Ray(
            cells=tuple(cells),
            corners=tuple(corners),
            edges=tuple(edges),
            walled=walled,
            blocked_by_terrain=blocked,
            hindering=hindering,
            hindering_corner_partners=tuple(hinder_partners),
            blocking_corner_partners=tuple(block_partners),
        )
