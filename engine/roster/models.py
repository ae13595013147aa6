"""The roster file formats, as pydantic models.

Each model checks what can be checked inside one file; checks across files (an army naming a figure
that does not exist, army legality) live in `engine.legality`. Field names are the YAML keys;
docs/data-formats.md documents them for players.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from clix.engine.registry import ABILITIES, PLOT_EFFECTS, POWERS, check_params
from clix.engine.registry.plot_effects import WINDOWS, card_problems
from clix.engine.roster.dial import COLOURS, MAX_CLICKS, MAX_VALUE, SLOTS, Click, parse_click
from clix.engine.roster.problems import did_you_mean
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Rank = Literal["rookie", "experienced", "veteran", "unique", "limited_edition", "demo"]
SpeedMode = Literal["boot", "wing", "fin"]
Slot = Literal["speed", "attack", "defense", "damage"]
Colour = Literal["red", "orange", "yellow", "green", "blue", "purple", "brown", "gray", "black", "pink"]
Side = Literal["north", "south", "east", "west"]
MapKind = Literal["outdoor", "indoor", "indoor_outdoor"]
Gender = Literal["male", "female"]

MAJOR_CLASSES = ("Beasts", "Guardians", "Occultists", "Slashers", "Spirits", "Undead")
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
ID_HINT = "lower-case letters, digits and single hyphens, like 'grave-countess-v'"
Provenance = Annotated[str, Field(min_length=1)]
Coord = tuple[int, int]

MAX_POINTS = 500
"""A figure's point value: the sample figures cost 10-145 and the errata name costs of 50-110 (HC-DATA-12, -15,
-20); 500 is half the largest build total."""
BUILD_TOTALS = (100, 1000)
"""Build totals clix plays: whole multiples of 100 (HC-SETUP-02) up to 1000; the sample armies use 100 and 200."""
MAX_MAP_SIDE = 100
"""Spaces along a map's side: printed maps are 24x16; 100 keeps the engine's per-map tables small."""
MAX_TRIGGER_COUNT = 20
"""Slayings or kills a transformation may wait for: a game has twelve victims (HC-VICTIM-02) and the sample
cards wait for one."""

_DIAL_BOUND = (-MAX_VALUE, MAX_VALUE)
_DISTANCE_BOUND = (0, MAX_MAP_SIDE)
PARAM_BOUNDS: dict[str, tuple[int, int]] = {
    # changes to or amounts of dial values (a modifier or a damage beyond what a dial shows means nothing)
    "amount": _DIAL_BOUND,
    "damage": (0, MAX_VALUE),
    "speed": (0, MAX_VALUE),
    "attack": (0, MAX_VALUE),
    "defense": (0, MAX_VALUE),
    "points": (0, MAX_POINTS),
    "range": (0, 20),  # a figure's range is at most 20 too
    # spaces on the map
    "distance": _DISTANCE_BOUND,
    "then_move": _DISTANCE_BOUND,
    "speed_bonus": _DISTANCE_BOUND,
    "reach": _DISTANCE_BOUND,
    "vp": (0, 100),  # per 100 points of build total; the sample subplots give 1-10
}
"""Bounds on whole-number parameters of powers, abilities and plot-twist effects, by parameter name; the
registry's own minimum and choices apply first."""
DEFAULT_PARAM_BOUND = (-1000, 1000)


def param_problems(owner: str, declared: dict[str, Any], given: dict[str, Any]) -> list[str]:
    """`check_params`, plus each whole-number parameter within its bound (`PARAM_BOUNDS`)."""
    problems = check_params(owner, declared, given)
    for key, value in given.items():
        spec = declared.get(key)
        if spec is None or spec.kind is not int or isinstance(value, bool) or not isinstance(value, int):
            continue
        low, high = PARAM_BOUNDS.get(key, DEFAULT_PARAM_BOUND)
        if not low <= value <= high and not (spec.choices and value in spec.choices):
            shown = value if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
            problems.append(f"{owner} parameter '{key}' is {shown}; it must be between {low} and {high}")
    return problems


class Strict(BaseModel):
    """Base for every roster model: unknown keys are errors, so typos never pass silently."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _slug(value: str) -> str:
    if not re.match(ID_PATTERN, value):
        raise ValueError(f"id '{value}' is not valid; use {ID_HINT}")
    return value


# --- figures -------------------------------------------------------------------------------------


class PowerOnCard(Strict):
    """A power printed on a card side, switched on by a coloured circle in one dial slot."""

    slot: Slot
    colour: Colour
    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_power(self) -> PowerOnCard:
        spec = POWERS.get(self.name)
        if spec is None:
            raise_all([("name", _unknown("power", self.name, POWERS))])
        raise_all([("params", m) for m in param_problems(f"power '{self.name}'", spec.params, self.params)])
        return self


class NamedWithParams(Strict):
    """A name with optional parameters, written either as `Name` or as `{name: Name, params: {...}}`."""

    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data


class AbilityOnCard(NamedWithParams):
    """An ability that is in effect for the whole card side (no colour on the dial)."""

    @model_validator(mode="after")
    def _known_ability(self) -> AbilityOnCard:
        spec = ABILITIES.get(self.name)
        if spec is None:
            raise_all([("name", _unknown("ability", self.name, ABILITIES))])
        raise_all([("params", m) for m in param_problems(f"ability '{self.name}'", spec.params, self.params)])
        return self


class Transformation(Strict):
    """When a card flips to its transformed side (HC-CARD-01, HC-CARD-09, HC-CARD-12)."""

    trigger: Literal["slay_victims", "kill_monsters", "slay_or_kill"]
    count: int = Field(1, ge=1, le=MAX_TRIGGER_COUNT)
    mode: Literal["must", "may"] = "must"
    dial_to: Literal["red_start", "green_start", "stay"] = "red_start"


class CardSide(Strict):
    """One side of a monster card: its powers by colour, abilities and transformation trigger."""

    title: str | None = None
    starts_on: Literal["green", "red"] = "green"
    powers: list[PowerOnCard] = Field(default_factory=list)
    abilities: list[AbilityOnCard] = Field(default_factory=list)
    transform: Transformation | None = None

    @model_validator(mode="after")
    def _one_power_per_circle(self) -> CardSide:
        seen: set[tuple[str, str]] = set()
        problems = []
        for index, power in enumerate(self.powers):
            key = (power.slot, power.colour)
            if key in seen:
                problems.append(
                    (
                        f"powers.{index}",
                        f"two powers on the {power.colour} {power.slot} circle; give each its own colour",
                    )
                )
            seen.add(key)
        raise_all(problems)
        return self


class Card(Strict):
    """A monster card: one start side, or two (a crossroads card, HC-CARD-07), and an optional flip side."""

    start: CardSide | None = None
    start_a: CardSide | None = None
    start_b: CardSide | None = None
    transformed: CardSide | None = None

    @model_validator(mode="after")
    def _start_sides(self) -> Card:
        crossroads = self.start_a is not None or self.start_b is not None
        if self.start is not None and crossroads:
            raise ValueError("give either 'start' or the crossroads pair 'start_a' and 'start_b', not both")
        if self.start is None and not crossroads:
            raise ValueError("a card needs a 'start' side (or 'start_a' and 'start_b' for a crossroads card)")
        if crossroads and (self.start_a is None or self.start_b is None):
            raise ValueError("a crossroads card needs both 'start_a' and 'start_b'")
        sides = [s for s in (self.start, self.start_a, self.start_b) if s is not None]
        if self.transformed is None and any(s.transform for s in sides):
            raise ValueError("a side has a 'transform' trigger but the card has no 'transformed' side")
        if self.transformed is not None and not any(s.transform for s in sides):
            raise ValueError("the card has a 'transformed' side but no start side says when to flip ('transform')")
        return self

    @property
    def crossroads(self) -> bool:
        return self.start_a is not None

    def start_side_names(self) -> list[str]:
        return ["start_a", "start_b"] if self.crossroads else ["start"]

    def sides(self) -> dict[str, CardSide]:
        names = ("start", "start_a", "start_b", "transformed")
        return {n: s for n in names if (s := getattr(self, n)) is not None}


class Cabal(Strict):
    """Cabal membership (HC-SPECIAL-05)."""

    name: str = Field(min_length=1)
    leader: bool = False


class Figure(Strict):
    """A monster: base data, card and combat dial."""

    id: str
    name: str = Field(min_length=1)
    set: str = Field(min_length=1)
    collector_number: str
    rank: Rank
    points: int = Field(ge=1, le=MAX_POINTS)
    speed_mode: SpeedMode
    range: int = Field(ge=0, le=20)
    bolts: int = Field(1, ge=1, le=5)
    classes: list[str] = Field(min_length=1)
    cabal: Cabal | None = None
    grants_plot_twists: int = Field(0, ge=0, le=6)
    provenance: Provenance
    notes: str | None = None
    card: Card
    dial: list[Click] = Field(min_length=2, max_length=MAX_CLICKS)
    start: int = Field(0, ge=0)
    red_start: int | None = Field(None, ge=0)

    _id = field_validator("id")(_slug)

    @field_validator("collector_number", mode="before")
    @classmethod
    def _number_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value

    @field_validator("dial", mode="before")
    @classmethod
    def _parse_dial(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        return parse_dial(value)

    @model_validator(mode="after")
    def _dial_consistent(self) -> Figure:
        problems = dial_problems(self.dial, self.start, self.red_start)
        sides = self.card.sides()
        for side_name, side in sides.items():
            if side.starts_on == "red" and self.red_start is None:
                problems.append(
                    (f"card.{side_name}.starts_on", "this side starts on the red line but the dial has no 'red_start'")
                )
            if side.transform and side.transform.dial_to == "red_start" and self.red_start is None:
                problems.append(
                    (
                        f"card.{side_name}.transform.dial_to",
                        "the transformation turns the dial to the red line but the dial has no 'red_start'",
                    )
                )
        shown: dict[tuple[str, str], int] = {}
        for index, click in enumerate(self.dial):
            for slot, value in zip(SLOTS, click.values or (), strict=False):
                if value.colour:
                    shown.setdefault((slot, value.colour), index)
        printed = {(p.slot, p.colour): f"card.{n}.powers.{i}" for n, s in sides.items() for i, p in enumerate(s.powers)}
        for (slot, colour), index in sorted(shown.items()):
            if (slot, colour) not in printed:
                problems.append(
                    (
                        f"dial.{index}",
                        f"the dial shows {_a(colour)} circle on {slot} but no card side "
                        f"has {_a(colour)} {slot} power; add one to the card or fix the colour",
                    )
                )
        for (slot, colour), path in sorted(printed.items()):
            if (slot, colour) not in shown:
                problems.append(
                    (
                        path,
                        f"the card has {_a(colour)} {slot} power but no click of the dial shows "
                        "that circle, so it could never be used",
                    )
                )
        if self.bolts > 1 and self.range == 0:
            problems.append(
                (
                    "bolts",
                    f"bolts is {self.bolts} but range is 0; a monster with range 0 makes no "
                    "ranged attack (set range or bolts: 1)",
                )
            )
        raise_all(problems)
        return self

    @property
    def unique(self) -> bool:
        """At most one copy per army (HC-SETUP-01)."""
        return self.rank in ("unique", "limited_edition")


def parse_dial(entries: list[Any]) -> list[Click]:
    """Parse every click, reporting each bad one with its index."""
    if len(entries) > MAX_CLICKS:
        raise_all(
            [("", f"the dial has {len(entries)} clicks; a dial has at most {MAX_CLICKS} (killed clicks included)")]
        )
    clicks: list[Click] = []
    problems: list[tuple[str, str]] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, Click):
            clicks.append(entry)
            continue
        try:
            clicks.append(parse_click(entry))
        except ValueError as exc:
            problems.append((str(index), f"click {index}: {exc}"))
    raise_all(problems)
    return clicks


def dial_problems(dial: list[Click], start: int, red_start: int | None) -> list[tuple[str, str]]:
    """Problems with a dial's shape: start lines on live clicks, a killed click at the end."""
    problems: list[tuple[str, str]] = []
    if not dial[-1].killed:
        problems.append(
            (f"dial.{len(dial) - 1}", f'the last click must be "x" (killed); add "x" after click {len(dial) - 1}')
        )
    for label, index in (("start", start), ("red_start", red_start)):
        if index is None:
            continue
        if index >= len(dial):
            problems.append((label, f"{label} is {index} but the dial has only clicks 0-{len(dial) - 1}"))
        elif dial[index].killed:
            problems.append((label, f"{label} is {index}, a killed click; a starting line must be on a live click"))
    return problems


# --- plot twists and victims ---------------------------------------------------------------------


class Effect(Strict):
    """A registered plot-twist effect and its parameters."""

    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_effect(self) -> Effect:
        spec = PLOT_EFFECTS.get(self.name)
        if spec is None:
            raise_all([("name", _unknown("plot-twist effect", self.name, PLOT_EFFECTS))])
        raise_all([("params", m) for m in param_problems(f"effect '{self.name}'", spec.params, self.params)])
        return self


class PlotTwist(Strict):
    """A plot twist card (HC-PLOT-01..14)."""

    name: str = Field(min_length=1)
    kind: Literal["normal", "subplot", "ticking_clock"] = "normal"
    windows: list[Literal[WINDOWS]] = Field(min_length=1)  # type: ignore[valid-type]
    effect: Effect
    text: str = Field(min_length=1)
    set: str = "clix sample"
    provenance: Provenance

    @model_validator(mode="after")
    def _kind_fits_window(self) -> PlotTwist:
        if self.kind == "ticking_clock" and self.windows != ["preview"]:
            raise ValueError("a ticking clock is played only in its owner's preview phase: windows: [preview]")
        if self.kind == "subplot" and self.windows != ["setup"]:
            raise ValueError("a subplot is revealed at setup: windows: [setup]")
        problems = card_problems(self.kind, list(self.windows), self.effect.name, self.effect.params)
        raise_all([("effect", message) for message in problems])
        return self


class PlotTwistFile(Strict):
    """A file of plot twist cards."""

    plot_twists: list[PlotTwist] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct_names(self) -> PlotTwistFile:
        _no_repeats("plot twist", [c.name for c in self.plot_twists])
        return self


class VictimArchetype(Strict):
    """A victim token's archetype (HC-VICTIM-01)."""

    name: str = Field(min_length=1)
    speed: int = Field(ge=1, le=10)
    gender: Gender
    provenance: Provenance


class VictimFile(Strict):
    """A file of victim archetypes."""

    victims: list[VictimArchetype] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct_names(self) -> VictimFile:
        _no_repeats("victim archetype", [v.name for v in self.victims])
        return self


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
    side: Side


class MapObject(Strict):
    """A tombstone, Tree of the Damned or portal (HC-TERRAIN-13..19)."""

    kind: Literal["tombstone", "tree", "portal"]
    at: Coord
    side: Side | None = None

    @model_validator(mode="after")
    def _portal_side(self) -> MapObject:
        if self.kind == "portal" and self.side is None:
            raise ValueError("a portal needs 'side': the edge of its space where the doorway is")
        if self.kind != "portal" and self.side is not None:
            raise ValueError(f"a {self.kind} has no 'side'; only portals do")
        return self


class MapLayout(Strict):
    """The board: the scenario format's inline map, which every roster map extends."""

    kind: MapKind = "outdoor"
    rows: list[str] = Field(min_length=1)
    walls: list[Wall] = Field(default_factory=list)
    wall_lines: list[tuple[int, int, int, int]] = Field(default_factory=list)
    indoor: list[tuple[int, int, int, int]] = Field(default_factory=list)
    objects: list[MapObject] = Field(default_factory=list)

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
    name: str = Field(min_length=1)
    provenance: Provenance
    notes: str | None = None

    _id = field_validator("id")(_slug)

    @model_validator(mode="after")
    def _playable(self) -> MapFile:
        from clix.engine.board import is_indoor

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


# --- armies --------------------------------------------------------------------------------------


class ArmyEntry(Strict):
    """One figure in an army; `side` picks a crossroads card's start side (HC-CARD-07)."""

    figure: str
    side: Literal["start_a", "start_b"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_id(cls, data: Any) -> Any:
        return {"figure": data} if isinstance(data, str) else data


class Army(Strict):
    """An army: its figures, crypt of plot twists and contributed victims."""

    name: str = Field(min_length=1)
    build_total: int = Field(ge=BUILD_TOTALS[0], le=BUILD_TOTALS[1])
    players: int = Field(2, ge=2, le=4)
    style: str | None = None
    figures: list[ArmyEntry] = Field(min_length=1)
    crypt: list[str] = Field(default_factory=list)
    victims: list[str] = Field(default_factory=list)
    objects: list[Literal["tombstone", "tree", "portal"]] = Field(default_factory=list, max_length=2)
    provenance: Provenance
    notes: str | None = None

    @field_validator("build_total")
    @classmethod
    def _multiple_of_100(cls, value: int) -> int:
        if value % 100:
            lower = value // 100 * 100
            raise ValueError(
                f"build total {value} is not a multiple of 100 (HC-SETUP-02); use {lower or 100} or {lower + 100}"
            )
        return value


# --- helpers -------------------------------------------------------------------------------------


def raise_all(problems: list[tuple[str, str]]) -> None:
    """Raise one ValueError carrying every problem as a `field::message` line (split by the loader)."""
    if problems:
        raise ValueError("\n".join(f"{field}::{message}" for field, message in problems))


OPPOSITE_EDGE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def ground_regions(layout: MapLayout) -> dict[Coord, int]:
    """Each space a ground mover can stand on, numbered by the region it can reach moving on the ground,
    pieces ignored: blocking terrain is never entered, a wall is never crossed, and a diagonal step is shut
    when walls or blocking terrain close both ways round its corner (HC-TERRAIN-10, -12; as in
    engine.movement)."""
    from clix.engine.board import wall_edges

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


def _a(word: str) -> str:
    """The word with its indefinite article: 'an orange', 'a red'."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _unknown(what: str, name: str, known: dict[str, Any]) -> str:
    return "the engine implements " + did_you_mean(what, name, known)


def _no_repeats(what: str, names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{what} '{name}' is listed twice; each name once")
        seen.add(name)


__all__ = [
    "COLOURS",
    "MAJOR_CLASSES",
    "Army",
    "ArmyEntry",
    "Card",
    "CardSide",
    "Figure",
    "MapFile",
    "MapLayout",
    "PlotTwist",
    "PlotTwistFile",
    "VictimArchetype",
    "VictimFile",
]
