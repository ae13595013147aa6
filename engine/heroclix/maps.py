"""HeroClix's map format: the HorrorClix board's rows, walls and indoor rectangles, plus elevation, ladders and
light and heavy objects (../shared/scenario-format-heroclix.md, section 3). It is what the core's `board.Layout`
reads, so the core's `Geometry` (adjacency, walls, lines of fire) serves it unchanged."""

from __future__ import annotations

from typing import Literal

from clix.engine.core.board import is_indoor
from pydantic import BaseModel, ConfigDict, Field, model_validator

Coord = tuple[int, int]
Side = Literal["north", "south", "east", "west"]
MAX_MAP_SIDE = 100
TERRAIN_CHARS = {".": "clear", "h": "hindering", "~": "water", "#": "blocking", "1": "clear", "2": "clear",
                 "3": "clear", "4": "clear"}  # fmt: skip
"""The legend of `rows`: terrain, and a player's starting area (`1`-`4`, clear) (HX-TERRAIN-02, -24)."""


class Strict(BaseModel):
    """Unknown keys are errors, so typos never pass silently."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Wall(Strict):
    """A wall along one edge of a square (HX-TERRAIN-16)."""

    at: Coord
    """The square [x, y] whose edge the wall is on: x the column from the left, y the row from the top, from 0."""
    side: Side
    """The edge of that square: north, south, east or west."""


class Ladder(Strict):
    """A ladder or stair step linking two touching squares at different levels (HX-ELEV)."""

    bottom: Coord
    """The lower square [x, y]."""
    top: Coord
    """The higher square [x, y], touching the lower one."""


class MapObject(Strict):
    """A light (yellow ring) or heavy (red ring) object lying on the map (HX-OBJECT)."""

    kind: Literal["light", "heavy"]
    """light (yellow ring) or heavy (red ring)."""
    at: Coord
    """Its square [x, y]."""


class HeroMap(Strict):
    """A HeroClix battlefield: terrain per square, its elevation, walls, indoor rectangles, ladders, objects."""

    kind: Literal["outdoor", "indoor", "indoor_outdoor"] = "outdoor"
    """outdoor (default), indoor or indoor_outdoor."""
    rows: list[str] = Field(min_length=1, max_length=MAX_MAP_SIDE)
    """One string per row, top row first, a character per square: . clear, h hindering, ~ water, # blocking, 1-4 a
    starting area."""
    elevation: list[str] | None = None
    """Optional, shaped like rows: a digit per square, 0 ground level (the default), 1-9 elevated terrain."""
    ladders: list[Ladder] = Field(default_factory=list)
    """Ladders and stair steps linking touching squares at different levels."""
    walls: list[Wall] = Field(default_factory=list)
    """Walls on one edge of a square."""
    wall_lines: list[tuple[int, int, int, int]] = Field(default_factory=list)
    """Walls along grid lines, [x1, y1, x2, y2] in grid points (0 to width, 0 to height)."""
    indoor: list[tuple[int, int, int, int]] = Field(default_factory=list)
    """indoor_outdoor maps only: the indoor rectangles [x1, y1, x2, y2], corners included."""
    objects: list[MapObject] = Field(default_factory=list)
    """Objects lying on the map: light or heavy."""

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, x: int, y: int) -> str:
        """The terrain for movement and lines of fire: the printed type, hindering where an object lies on clear
        terrain (HX-OBJECT-03, HX-MOVE-21), light or heavy (HX-PAC-20: not the card's heavy objects only)."""
        printed = TERRAIN_CHARS[self.rows[y][x]]
        if printed == "clear" and self.objects:
            at = (x, y)
            for o in self.objects:  # a loop, not `any` over a generator: a new map reads every square (~250)
                if o.at == at:
                    return "hindering"
        return printed

    def printed(self, x: int, y: int) -> str:
        """The terrain type of a square, objects aside."""
        return TERRAIN_CHARS[self.rows[y][x]]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def level(self, x: int, y: int) -> int:
        """The elevation digit of a square (0: ground level)."""
        return int(self.elevation[y][x]) if self.elevation else 0

    def starting_areas(self) -> dict[int, list[Coord]]:
        areas: dict[int, list[Coord]] = {}
        for y, row in enumerate(self.rows):
            for x, char in enumerate(row):
                if char.isdigit():
                    areas.setdefault(int(char), []).append((x, y))
        return areas

    def victim_spaces(self) -> list[Coord]:
        return []

    def indoor_at(self, x: int, y: int) -> bool:
        return is_indoor(self, x, y)

    @model_validator(mode="after")
    def _consistent(self) -> HeroMap:
        problems: list[str] = []
        width = len(self.rows[0])
        if not 1 <= width <= MAX_MAP_SIDE:
            problems.append(f"rows: a row is 1 to {MAX_MAP_SIDE} squares wide")
        ragged = [y for y, row in enumerate(self.rows) if len(row) != width]
        if ragged:
            more = f" (and {len(ragged) - 1} more)" if len(ragged) > 1 else ""
            y = ragged[0]
            problems.append(
                f"rows: row {y} is {len(self.rows[y])} squares wide, row 0 is {width}{more}; every row is as wide"
            )
        for y, row in enumerate(self.rows):
            bad = sorted(set(row) - set(TERRAIN_CHARS))
            if bad:
                problems.append(f"rows: row {y} has {', '.join(map(repr, bad[:5]))}; the legend is . h ~ # and 1-4")
                break
        if self.elevation is not None and not ragged:
            if len(self.elevation) != len(self.rows) or any(len(r) != width for r in self.elevation):
                problems.append("elevation: it has the shape of rows (as many rows, each as wide)")
            elif any(not r.isdigit() for r in self.elevation):
                problems.append("elevation: one digit 0-9 per square")
        for name, spots in (
            ("walls", [w.at for w in self.walls]),
            ("objects", [o.at for o in self.objects]),
            ("ladders", [p for ladder in self.ladders for p in (ladder.bottom, ladder.top)]),
        ):
            for x, y in spots:
                if not (0 <= x < width and 0 <= y < len(self.rows)):
                    problems.append(f"{name}: [{x}, {y}] is off the map ({width} x {len(self.rows)})")
        if not problems:
            for ladder in self.ladders:
                (bx, by), (tx, ty) = ladder.bottom, ladder.top
                if max(abs(bx - tx), abs(by - ty)) != 1:
                    problems.append(f"ladders: [{bx}, {by}] and [{tx}, {ty}] do not touch; a ladder joins two")
                elif self.level(bx, by) >= self.level(tx, ty):
                    problems.append(f"ladders: its top [{tx}, {ty}] is not above its bottom [{bx}, {by}]")
        if problems:
            raise ValueError("; ".join(problems))
        return self
