"""The roster file formats, as pydantic models.

Each model checks what can be checked inside one file; checks across files (an army naming a figure
that does not exist, army legality) live in `engine.horrorclix.legality`. Field names are the YAML keys;
docs/data-formats.md documents them for players.
"""

from __future__ import annotations

from typing import Any, Literal

from clix.engine.core.dial import COLOURS, MAX_CLICKS, SLOTS, Click, parse_click
from clix.engine.horrorclix.registry import ABILITIES, PLOT_EFFECTS, POWERS
from clix.engine.horrorclix.registry.plot_effects import WINDOWS, card_problems
from clix.engine.horrorclix.roster.common import (  # noqa: F401  (re-exported: the formats' shared names)
    BUILD_TOTALS,
    DEFAULT_PARAM_BOUND,
    ID_HINT,
    ID_PATTERN,
    MAJOR_CLASSES,
    MAX_MAP_SIDE,
    MAX_POINTS,
    MAX_TRIGGER_COUNT,
    PARAM_BOUNDS,
    Colour,
    Coord,
    Gender,
    MapKind,
    Provenance,
    Rank,
    Side,
    Slot,
    SpeedMode,
    Strict,
    _a,
    _no_repeats,
    _slug,
    _unknown,
    fail,
    param_problems,
    raise_all,
)
from clix.engine.horrorclix.roster.maps import (  # noqa: F401  (re-exported: the map formats)
    OPPOSITE_EDGE,
    TERRAIN_CHARS,
    MapFile,
    MapLayout,
    ObjectSpec,
    Wall,
    area_edge,
    ground_regions,
    layout_problems,
    reach_problems,
)
from pydantic import Field, field_validator, model_validator

# --- figures -------------------------------------------------------------------------------------


class PowerOnCard(Strict):
    """A power printed on a card side, switched on by a coloured circle in one dial slot."""

    slot: Slot
    """The dial slot whose coloured circle switches the power on: speed, attack, defense or damage."""
    colour: Colour
    """The colour of that circle on the dial (red, orange, yellow, green, blue, purple, brown, gray, black, pink)."""
    name: str
    """The power's name as the engine registers it (`clix roster powers` lists them)."""
    params: dict[str, Any] = Field(default_factory=dict)
    """The power's parameters by name (`clix roster show FIGURE` explains them); none by default."""

    @model_validator(mode="after")
    def _known_power(self) -> PowerOnCard:
        spec = POWERS.get(self.name)
        if spec is None:
            fail("name", _unknown("power", self.name, POWERS))
        raise_all([("params", m) for m in param_problems(f"power '{self.name}'", spec.params, self.params)])
        return self


class NamedWithParams(Strict):
    """A name with optional parameters, written either as `Name` or as `{name: Name, params: {...}}`."""

    name: str
    """The name as the engine registers it."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Its parameters by name; none by default."""

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
            fail("name", _unknown("ability", self.name, ABILITIES))
        raise_all([("params", m) for m in param_problems(f"ability '{self.name}'", spec.params, self.params)])
        return self


class Transformation(Strict):
    """When a card flips to its transformed side (HC-CARD-01, HC-CARD-09, HC-CARD-12)."""

    trigger: Literal["slay_victims", "kill_monsters", "slay_or_kill"]
    """What flips the card: slaying victims, killing monsters, or either (slay_victims, kill_monsters, slay_or_kill)."""
    count: int = Field(1, ge=1, le=MAX_TRIGGER_COUNT)
    """How many victims or monsters it takes to flip the card (default 1)."""
    mode: Literal["must", "may"] = "must"
    """must (default): the card flips at once; may: the player chooses then (HC-CARD-12)."""
    dial_to: Literal["red_start", "green_start", "stay"] = "red_start"
    """Where the dial turns when the card flips: red_start (default), green_start, or stay on its click."""


class CardSide(Strict):
    """One side of a monster card: its powers by colour, abilities and transformation trigger."""

    title: str | None = None
    """The side's printed title, if any (shown only)."""
    starts_on: Literal["green", "red"] = "green"
    """The starting line the dial starts on with this side up: green (default) or red (HC-SETUP-07)."""
    powers: list[PowerOnCard] = Field(default_factory=list)
    """The side's powers, one per coloured circle of the dial (slot and colour)."""
    abilities: list[AbilityOnCard] = Field(default_factory=list)
    """Abilities always in effect on this side (Ghost, Leap/Climb, Rescuer), by name or with params."""
    transform: Transformation | None = None
    """When this side flips to the card's transformed side; absent: it never flips."""

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
    """The card's start side (a crossroads card has start_a and start_b instead)."""
    start_a: CardSide | None = None
    """A crossroads card's first start side (HC-CARD-07); an army picks one with `side`."""
    start_b: CardSide | None = None
    """A crossroads card's second start side (HC-CARD-07)."""
    transformed: CardSide | None = None
    """The flip side, needed when a start side has a `transform` trigger."""

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
    """The cabal whose symbol the figure bears (HC-SPECIAL-05)."""
    leader: bool = False
    """Whether the figure is its cabal's leader (default false)."""


class Figure(Strict):
    """A monster: base data, card and combat dial."""

    id: str
    """The figure's id: lower-case letters, digits and hyphens, unique in the library; armies name it."""
    name: str = Field(min_length=1)
    """The figure's name as printed."""
    set: str = Field(min_length=1)
    """The set it comes from (e.g. clix sample)."""
    collector_number: str
    """Its collector number, a number or text."""
    rank: Rank
    """Its rank: rookie, experienced, veteran, unique, limited_edition or demo (unique and limited edition: once per
    army)."""
    points: int = Field(ge=1, le=MAX_POINTS)
    """Its point value, 1-500 (HC-SETUP-10)."""
    speed_mode: SpeedMode
    """Its speed symbol: boot (standard), wing (flying) or fin (swimming)."""
    range: int = Field(ge=0, le=20)
    """Its range value in spaces, 0-20; 0 means no ranged attacks."""
    bolts: int = Field(1, ge=1, le=5)
    """Ranged targets per action, its lightning bolts (default 1; HC-COMBAT-22)."""
    classes: list[str] = Field(min_length=1)
    """Its classes: the major ones (Beasts, Guardians, Occultists, Slashers, Spirits, Undead) and others like
    Vampire."""
    cabal: Cabal | None = None
    """Its cabal membership, if any: {name, leader}."""
    grants_plot_twists: int = Field(0, ge=0, le=6)
    """Extra crypt cards this figure grants its army (default 0; HC-PLOT-03)."""
    provenance: Provenance
    """Where its numbers come from (e.g. 'sample (designed by clix; not an official dial)')."""
    notes: str | None = None
    """Free text for people; the engine ignores it."""
    card: Card
    """The monster card: its start side or sides and its transformed side."""
    dial: list[Click] = Field(min_length=2, max_length=MAX_CLICKS)
    """The combat dial, one string per click, 'speed attack defense damage'; the last click is 'x' (killed)."""
    start: int = Field(0, ge=0)
    """The click index of the green starting line (default 0)."""
    red_start: int | None = Field(None, ge=0)
    """The click index of the red (alternative) starting line, if the dial has one."""

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
    """The plot-twist effect as the engine registers it (engine/horrorclix/registry/plot_effects.py)."""
    params: dict[str, Any] = Field(default_factory=dict)
    """The effect's parameters by name; none by default."""

    @model_validator(mode="after")
    def _known_effect(self) -> Effect:
        spec = PLOT_EFFECTS.get(self.name)
        if spec is None:
            fail("name", _unknown("plot-twist effect", self.name, PLOT_EFFECTS))
        raise_all([("params", m) for m in param_problems(f"effect '{self.name}'", spec.params, self.params)])
        return self


class PlotTwist(Strict):
    """A plot twist card (HC-PLOT-01..14)."""

    name: str = Field(min_length=1)
    """The card's name; an army's crypt lists it."""
    kind: Literal["normal", "subplot", "ticking_clock"] = "normal"
    """normal (default), subplot (revealed at setup) or ticking_clock (played in its owner's preview phase)."""
    windows: list[Literal[WINDOWS]] = Field(min_length=1)  # type: ignore[valid-type]
    """When it may be played: setup, preview, suspense, slaying, rescue, attack_roll, hunting."""
    effect: Effect
    """What the card does: a registered effect and its parameters."""
    text: str = Field(min_length=1)
    """The card's text as players read it."""
    set: str = "clix sample"
    """The set it comes from (default clix sample)."""
    provenance: Provenance
    """Where its name and text come from."""

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
    """The plot twist cards, each name once."""

    @model_validator(mode="after")
    def _distinct_names(self) -> PlotTwistFile:
        _no_repeats("plot twist", [c.name for c in self.plot_twists])
        return self


class VictimArchetype(Strict):
    """A victim token's archetype (HC-VICTIM-01)."""

    name: str = Field(min_length=1)
    """The archetype's name (Jock, Cheerleader...); an army's `victims` lists it."""
    speed: int = Field(ge=1, le=10)
    """Its speed value, 1-10."""
    gender: Gender
    """male or female."""
    provenance: Provenance
    """Where it comes from."""


class VictimFile(Strict):
    """A file of victim archetypes."""

    victims: list[VictimArchetype] = Field(min_length=1)
    """The victim archetypes, each name once."""

    @model_validator(mode="after")
    def _distinct_names(self) -> VictimFile:
        _no_repeats("victim archetype", [v.name for v in self.victims])
        return self


# --- armies --------------------------------------------------------------------------------------


class ArmyEntry(Strict):
    """One figure in an army; `side` picks a crossroads card's start side (HC-CARD-07)."""

    figure: str
    """The figure's id in the library."""
    side: Literal["start_a", "start_b"] | None = None
    """A crossroads figure's start side: start_a or start_b (HC-CARD-07)."""

    @model_validator(mode="before")
    @classmethod
    def _from_id(cls, data: Any) -> Any:
        return {"figure": data} if isinstance(data, str) else data


class Army(Strict):
    """An army: its figures, crypt of plot twists and contributed victims."""

    name: str = Field(min_length=1)
    """The army's name as shown."""
    build_total: int = Field(ge=BUILD_TOTALS[0], le=BUILD_TOTALS[1])
    """Its build total: a multiple of 100 from 100 to 1000; one action per turn per 100 points (HC-SETUP-02)."""
    players: int = Field(2, ge=2, le=4)
    """The game size it is built for, 2-4 (default 2); it decides the army's share of victims."""
    style: str | None = None
    """Free text saying how it plays (e.g. victim rusher)."""
    figures: list[ArmyEntry] = Field(min_length=1)
    """Its figures by id (an id twice for two copies), or {figure: ID, side: start_b} for a crossroads figure."""
    crypt: list[str] = Field(default_factory=list)
    """Its plot twists by name: exactly six distinct (plus those its figures grant), at most one subplot."""
    victims: list[str] = Field(default_factory=list)
    """The victim archetypes it contributes, by name: 12 / players of them, repeats allowed."""
    objects: list[Literal["tombstone", "tree", "portal"]] = Field(default_factory=list, max_length=2)
    """Up to two objects it places at setup: tombstone, tree, portal (HC-SETUP-06)."""
    provenance: Provenance
    """Where the army comes from."""
    notes: str | None = None
    """Free text for people; the engine ignores it."""

    @field_validator("build_total")
    @classmethod
    def _multiple_of_100(cls, value: int) -> int:
        if value % 100:
            lower = value // 100 * 100
            raise ValueError(
                f"build total {value} is not a multiple of 100 (HC-SETUP-02); use {lower or 100} or {lower + 100}"
            )
        return value


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
