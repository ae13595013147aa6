"""The map file format (the scenario format's inline board, and a roster map with its name and
provenance), with the checks a map must pass to be playable (HC-TERRAIN-20..24, HC-VICTIM-02)."""

from __future__ import annotations

from typing import Literal

from clix.engine.core.board import is_indoor, wall_edges
from clix.engine.horrorclix.roster.common import (
    MAX_MAP_SIDE,
    Coord,
    MapKind,
    Provenance,
    Side,
    Strict,
    _slug,
    raise_all,
)
from pydantic import Field, field_validator, model_validator

# --- maps ----------------------------------------------------------------------------------------

TERRAIN_CHARS = {
    ".": "clear",
    "h": "hindering",
    "~": "water",
    "#": "blocking",
    "v": "clear",
    "1": "clear",
    "2": "clear",
    "3": "clear",
    "4": "clear",
}


class Wall(Strict):
    """A wall on one edge of a space (HC-TERRAIN-12)."""

    at: Coord
    """The space [x, y] whose edge the wall is on: x the column from the left, y the row from the top, from 0."""
    side: Side
    """The edge of that space: north, south, east or west."""


class ObjectSpec(Strict):
    """A tombstone, Tree of the Damned or portal as a map file places it (HC-TERRAIN-13..19); in play it is a
    `pieces.MapObject`."""

    kind: Literal["tombstone", "tree", "portal"]
    """tombstone, tree (Tree of the Damned) or portal."""
    at: Coord
    """Its space [x, y], on clear terrain."""
    side: Side | None = None
    """Portals only: the edge of its space where the doorway is (north, south, east, west)."""

    @model_validator(mode="after")
    def _portal_side(self) -> ObjectSpec:
        if self.kind == "portal" and self.side is None:
            raise ValueError("a portal needs 'side': the edge of its space where the doorway is")
        if self.kind != "portal" and self.side is not None:
            raise ValueError(f"a {self.kind} has no 'side'; only portals do")
        return self


class MapLayout(Strict):
    """The board: the scenario format's inline map, which every roster map extends."""

    kind: MapKind = "outdoor"
    """outdoor (default), indoor or indoor_outdoor."""
    rows: list[str] = Field(min_length=1)
    """One string per row, top row first, a character per space: . clear, h hindering, ~ water, # blocking, v victim
    start, 1-4 a starting area."""
    walls: list[Wall] = Field(default_factory=list)
    """Walls on one edge of a space."""
    wall_lines: list[tuple[int, int, int, int]] = Field(default_factory=list)
    """Walls along grid lines, [x1, y1, x2, y2] in grid points (0 to width, 0 to height)."""
    indoor: list[tuple[int, int, int, int]] = Field(default_factory=list)
    """indoor_outdoor maps only: the indoor rectangles [x1, y1, x2, y2], corners included."""
    objects: list[ObjectSpec] = Field(default_factory=list)
    """Objects printed on the map, if any (setup places the armies' others)."""

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, x: int, y: int) -> str:
        return TERRAIN_CHARS[self.rows[y][x]]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    @model_validator(mode="after")
    def _board_consistent(self) -> MapLayout:
        raise_all(layout_problems(self))
        return self

    def starting_areas(self) -> dict[int, list[Coord]]:
        areas: dict[int, list[Coord]] = {}
        for y, row in enumerate(self.rows):
            for x, char in enumerate(row):
                if char.isdigit():
                    areas.setdefault(int(char), []).append((x, y))
        return areas

    def victim_spaces(self) -> list[Coord]:
        return [(x, y) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c == "v"]


def layout_problems(layout: MapLayout) -> list[tuple[str, str]]:
    """Problems with a board's shape and markings, one message each."""
    width = len(layout.rows[0])
    if len(layout.rows) > MAX_MAP_SIDE or width > MAX_MAP_SIDE:
        return [
            (
                "rows",
                f"the map is {width}x{len(layout.rows)} spaces; a map is at most {MAX_MAP_SIDE} spaces "
                "each way (printed maps are 24x16)",
            )
        ]
    if width == 0:
        return [("rows.0", "row 0 is empty; every row needs one character per space")]
    problems: list[tuple[str, str]] = []
    for y, row in enumerate(layout.rows):
        if len(row) != width:
            problems.append(
                (f"rows.{y}", f"row {y} has {len(row)} spaces but row 0 has {width}; every row needs the same width")
            )
        bad = sorted(set(row) - set(TERRAIN_CHARS))
        if bad:
            problems.append(
                (
                    f"rows.{y}",
                    f"row {y} uses {', '.join(repr(c) for c in bad)}; "
                    "use . clear, h hindering, ~ water, # blocking, v victim start, 1-4 starting area",
                )
            )
    if problems:
        return problems
    for i, wall in enumerate(layout.walls):
        if not layout.inside(*wall.at):
            problems.append((f"walls.{i}", f"wall at {list(wall.at)} is off the {width}x{layout.height} map"))
    for i, (x1, y1, x2, y2) in enumerate(layout.wall_lines):
        if x1 != x2 and y1 != y2:
            problems.append(
                (
                    f"wall_lines.{i}",
                    f"wall line {[x1, y1, x2, y2]} is not straight; a wall line runs along one grid line",
                )
            )
        elif not (min(x1, x2) >= 0 and max(x1, x2) <= width and min(y1, y2) >= 0 and max(y1, y2) <= layout.height):
            problems.append(
                (
                    f"wall_lines.{i}",
                    f"wall line {[x1, y1, x2, y2]} runs off the map (grid points 0-{width} x 0-{layout.height})",
                )
            )
    if layout.indoor and layout.kind != "indoor_outdoor":
        problems.append(("indoor", f"'indoor' rectangles are only for indoor_outdoor maps (this map is {layout.kind})"))
    for i, rect in enumerate(layout.indoor):
        x1, y1, x2, y2 = rect
        if not (layout.inside(x1, y1) and layout.inside(x2, y2) and x1 <= x2 and y1 <= y2):
            problems.append(
                (
                    f"indoor.{i}",
                    f"indoor rectangle {list(rect)} must be [x1, y1, x2, y2] inside the map with x1<=x2, y1<=y2",
                )
            )
    taken: set[Coord] = set()
    for i, obj in enumerate(layout.objects):
        if not layout.inside(*obj.at):
            problems.append((f"objects.{i}", f"{obj.kind} at {list(obj.at)} is off the map"))
            continue
        if layout.terrain(*obj.at) != "clear":
            problems.append(
                (
                    f"objects.{i}",
                    f"{obj.kind} at {list(obj.at)} is on {layout.terrain(*obj.at)} terrain; objects go on clear",
                )
            )
        if obj.at in taken:
            problems.append((f"objects.{i}", f"two objects at {list(obj.at)}; one object per space"))
        taken.add(obj.at)
    return problems


class MapFile(MapLayout):
    """A roster map: a board plus its name and provenance (HC-TERRAIN-20..24)."""

    id: str
    """The map's id: lower-case letters, digits and hyphens; commands name it with --map."""
    name: str = Field(min_length=1)
    """The map's name as shown."""
    provenance: Provenance
    """Where the map comes from."""
    notes: str | None = None
    """Free text for people; the engine ignores it."""

    _id = field_validator("id")(_slug)

    @model_validator(mode="after")
    def _playable(self) -> MapFile:
        problems = []
        victims = len(self.victim_spaces())
        if victims < 12:
            problems.append(
                (
                    "rows",
                    f"the map has {victims} victim start spaces ('v'); mark at least 12, "
                    "a game places 12 victims (HC-VICTIM-02)",
                )
            )
        areas = self.starting_areas()
        if len(areas) < 2:
            problems.append(("rows", "the map needs at least two starting areas (digits 1-4 along opposite edges)"))
        edges = {label: area_edge(self, spaces) for label, spaces in areas.items()}
        for label, edge in sorted(edges.items()):
            if edge is None:
                problems.append(("rows", f"starting area {label} does not touch a map edge (HC-SETUP-04)"))
        placed = [e for e in edges.values() if e]
        if len(placed) == len(edges) >= 2 and not any(OPPOSITE_EDGE[e] in placed for e in placed):
            problems.append(
                (
                    "rows",
                    "no two starting areas lie on opposite edges; a two-player game needs one such pair (HC-SETUP-04)",
                )
            )
        problems.extend(reach_problems(self))
        for i, obj in enumerate(self.objects):
            if obj.kind in ("tombstone", "tree") and is_indoor(self, *obj.at):
                problems.append(
                    (
                        f"objects.{i}",
                        f"a {obj.kind} may stand only on an outdoor space, and "
                        f"{list(obj.at)} is indoors (HC-TERRAIN-17, HC-TERRAIN-19)",
                    )
                )
        raise_all(problems)
        return self


OPPOSITE_EDGE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def ground_regions(layout: MapLayout) -> dict[Coord, int]:
    """Each space a ground mover can stand on, numbered by the region it can reach moving on the ground,
    pieces ignored: blocking terrain is never entered, a wall is never crossed, and a diagonal step is shut
    when walls or blocking terrain close both ways round its corner (HC-TERRAIN-10, -12; as in
    engine.horrorclix.movement)."""
    walls = wall_edges(layout)

    def open_space(x: int, y: int) -> bool:
        return layout.inside(x, y) and layout.terrain(x, y) != "blocking"

    def wall(a: Coord, b: Coord) -> bool:
        return ((a, b) if a <= b else (b, a)) in walls

    def shut(a: Coord, flank: Coord, b: Coord) -> bool:
        return not open_space(*flank) or wall(a, flank) or wall(flank, b)

    region: dict[Coord, int] = {}
    number = -1
    for y in range(layout.height):
        for x in range(layout.width):
            if (x, y) in region or not open_space(x, y):
                continue
            number += 1
            region[(x, y)] = number
            queue = [(x, y)]
            while queue:
                a = queue.pop()
                ax, ay = a
                for dx, dy in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
                    b = (ax + dx, ay + dy)
                    if b in region or not open_space(*b):
                        continue
                    if dx and dy:
                        if shut(a, (b[0], ay), b) and shut(a, (ax, b[1]), b):
                            continue
                    elif wall(a, b):
                        continue
                    region[b] = number
                    queue.append(b)
    return region


def reach_problems(layout: MapLayout) -> list[tuple[str, str]]:
    """Starting areas and victim spaces cut off from the rest by walls or blocking terrain, one problem for
    each starting area and one for all such victim spaces."""
    region = ground_regions(layout)
    areas = layout.starting_areas()
    victims = layout.victim_spaces()
    if not areas:
        return []
    touched: dict[int, tuple[int, int]] = {}
    for spaces in areas.values():
        for number in {region[s] for s in spaces if s in region}:
            count, victims_in = touched.get(number, (0, 0))
            touched[number] = (count + 1, victims_in)
    for number, (count, _) in touched.items():
        touched[number] = (count, sum(region.get(v) == number for v in victims))
    main = max(touched, key=lambda n: touched[n]) if touched else -1
    problems: list[tuple[str, str]] = []
    for label, spaces in sorted(areas.items()):
        if not any(region.get(s) == main for s in spaces):
            x, y = spaces[0]
            problems.append(
                (
                    f"rows.{y}",
                    f"starting area {label} (at {[x, y]}) is cut off from the other starting areas and the "
                    "victims by walls or blocking terrain; open a way so its monsters can move out",
                )
            )
    stranded = [v for v in victims if region.get(v) != main]
    if stranded:
        shown = ", ".join(str(list(v)) for v in stranded[:4]) + (", ..." if len(stranded) > 4 else "")
        problems.append(
            (
                f"rows.{stranded[0][1]}",
                f"{len(stranded)} victim space(s) ({shown}) cannot be reached by ground movement from the "
                "starting areas (walls or blocking terrain close them off); open a way or move them",
            )
        )
    return problems


def area_edge(layout: MapLayout, spaces: list[Coord]) -> str | None:
    """The map edge a starting area lies along (the one most of its spaces touch), None if none."""
    counts = {
        "west": sum(x == 0 for x, _ in spaces),
        "east": sum(x == layout.width - 1 for x, _ in spaces),
        "north": sum(y == 0 for _, y in spaces),
        "south": sum(y == layout.height - 1 for _, y in spaces),
    }
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else None
