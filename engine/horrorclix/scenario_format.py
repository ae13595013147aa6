"""Scenario files: the format (a small board, forced dice, steps and the expected outcome;
docs/scenario-format.md) and its validation: `load_scenario` reads a file and reports every problem with its
field and line. `engine.horrorclix.scenario` builds the state and plays it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from clix.engine.core.dial import MAX_CLICKS
from clix.engine.core.files.problems import InvalidFile, Problem, did_you_mean, from_validation_error
from clix.engine.core.files.scenarios import (
    ScenarioResult as ScenarioResult,  # engine.horrorclix.scenario takes it from here
)
from clix.engine.core.files.yaml_lines import YamlError, read_yaml
from clix.engine.core.ruleset import RULESET_KEY, named_ruleset
from clix.engine.horrorclix.registry import ABILITIES, POWERS
from clix.engine.horrorclix.roster.common import RULESET_NAME
from clix.engine.horrorclix.roster.models import (
    BUILD_TOTALS,
    MAX_POINTS,
    MapLayout,
    NamedWithParams,
    fail,
    param_problems,
    parse_dial,
    raise_all,
)
from clix.engine.horrorclix.state import (
    HOVERING,
    SOARING,
)
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

Coord = tuple[int, int]
DEFAULT_MAP = MapLayout(kind="outdoor", rows=["." * 12] * 12)
FLIGHT_CODES = {"hovering": HOVERING, "soaring": SOARING}
PlayerNumber = Annotated[int, Field(ge=1, le=4)]
MAX_TURNS = 1000
"""Turn numbers and limits: a real game lasts a few dozen turns; the scenarios use at most 4."""
VICTIMS_PER_GAME = 12  # HC-VICTIM-02
# a roster map's name or an inline map, chosen by the value's type so a broken inline map is not also told
# "Input should be a valid string" (the tags are dropped from field paths like pydantic's own type tags)
ScenarioMap = Annotated[
    Annotated[str, Tag("str")] | Annotated[MapLayout, Tag("MapLayout")],
    Discriminator(lambda value: "str" if isinstance(value, str) else "MapLayout"),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class InlinePower(NamedWithParams):
    """A power an inline dial shows on every click: `Slash` or `{name: Feast, params: {amount: 1}}`."""

    @model_validator(mode="after")
    def _known_power(self) -> InlinePower:
        spec = POWERS.get(self.name)
        if spec is None:
            fail("name", "the engine implements " + did_you_mean("power", self.name, POWERS))
        # the parameters given are checked (names, types, bounds); missing ones are not, since inline powers have
        # always taken the engine's defaults and the scenario format is a contract
        given = {key: value for key, value in spec.params.items() if key in self.params}
        raise_all([("params", m) for m in param_problems(f"power '{self.name}'", given, self.params)])
        return self


class ScenarioMonster(_Strict):
    """A monster on the scenario board: a roster figure or an inline dial."""

    id: str
    """The name steps and expectations use for it (e.g. A)."""
    player: PlayerNumber
    """Its player, 1-4."""
    figure: str | None = None
    """A roster figure id; give this or an inline `dial`."""
    dial: list[Any] | None = None
    """An inline dial, one entry per click: 'speed attack defense damage', 'h' an hourglass, 'x' a killed click."""
    start: int = Field(0, ge=0, lt=MAX_CLICKS)
    """Inline dial: the index of the green starting line (default 0)."""
    red_start: int | None = Field(None, ge=0, lt=MAX_CLICKS)
    """Inline dial: the index of the red starting line, if any."""
    range: int = Field(0, ge=0, le=20)
    """Inline: its range value (default 0)."""
    bolts: int = Field(1, ge=1, le=5)
    """Inline: its number of ranged targets (default 1)."""
    speed_mode: Literal["boot", "wing", "fin"] = "boot"
    """Inline: boot, wing or fin (default boot)."""
    points: int = Field(50, ge=0, le=MAX_POINTS)
    """Inline: its point value (default 50)."""
    powers: list[InlinePower] = Field(default_factory=list)
    """Inline: powers that show on every click, by name or {name, params}."""
    abilities: list[str] = Field(default_factory=list)
    """Inline: abilities always in effect, by name."""
    side: str | None = None
    """The card side it starts on (start_a or start_b for a crossroads card); default its first start side."""
    at: Coord
    """Its space [x, y]."""
    click: int | None = Field(None, ge=0, lt=MAX_CLICKS)
    """The dial index now showing (default: its starting line)."""
    tokens: int = Field(0, ge=0, le=2)
    """Action tokens now on it: 0, 1 or 2."""
    acted_this_turn: bool = False
    """Whether it was given an action earlier this turn (default false)."""
    blooded: bool = False
    """Whether it is blooded (default false)."""
    victims_slain: int = Field(0, ge=0, le=VICTIMS_PER_GAME)
    """Victim tokens already on its card (default 0)."""
    flight: Literal["hovering", "soaring"] | None = None
    """Wing only: hovering or soaring (default hovering)."""
    classes: list[str] = Field(default_factory=list)
    """Inline dial: its classes (Undead, Spirits...), for cards and powers that name a class."""
    cabal: str | None = None
    """Inline dial: the cabal whose symbol it bears; its cabal powers make it that cabal's leader (HC-SPECIAL-05)."""

    @model_validator(mode="after")
    def _figure_or_dial(self) -> ScenarioMonster:
        if (self.figure is None) == (self.dial is None):
            raise ValueError("give either 'figure' (a roster figure id) or an inline 'dial', not both")
        if self.dial is not None:
            try:
                parse_dial(self.dial)
            except ValueError as exc:  # its problems name click indexes; they are under `dial` here
                raise ValueError(
                    "\n".join(f"dial.{line}" if line[:1] != ":" else f"dial{line}" for line in str(exc).split("\n"))
                ) from exc
        raise_all(
            [
                (f"abilities.{index}", "the engine implements " + did_you_mean("ability", name, ABILITIES))
                for index, name in enumerate(self.abilities)
                if name not in ABILITIES
            ]
        )
        return self


class ScenarioVictim(_Strict):
    id: str
    """The name steps and expectations use for it (e.g. V1)."""
    archetype: str = "Victim"
    """Its archetype's name (default Victim)."""
    speed: int = Field(4, ge=0, le=10)
    """Its speed value (default 4)."""
    gender: Literal["male", "female"] = "female"
    """male or female (default female)."""
    at: Coord
    """Its space [x, y]."""
    face_up: bool = False
    """Whether its token is face up (default false)."""


class MonsterExpect(_Strict):
    at: Coord | None = None
    """Its space [x, y]."""
    click: int | None = None
    """The dial index now showing."""
    tokens: int | None = None
    """Action tokens on it."""
    killed: bool | None = None
    """Whether it was killed."""
    blooded: bool | None = None
    """Whether it is blooded."""
    flight: Literal["hovering", "soaring", "grounded"] | None = None
    """hovering, soaring or grounded."""
    card_side: str | None = None
    """The card side now up (start, start_a, start_b or transformed)."""
    controller: int | None = None
    """The player who controls it."""
    damage_taken: int | None = None
    """Clicks turned clockwise net of healing since the scenario began."""
    insane: bool | None = None
    """Whether it is insane (HC-SPECIAL-08)."""


class VictimExpect(_Strict):
    at: Coord | None = None
    """Its space [x, y]."""
    face_up: bool | None = None
    """Whether its token is face up."""
    state: Literal["on_map", "slain", "rescued", "removed"] | None = None
    """on_map, slain, rescued or removed."""
    by: str | None = None
    """The id of the monster that slew or rescued it."""


class Expect(_Strict):
    illegal_step: int | None = Field(None, ge=0)
    """The index (from 0) of the step that must be refused with a reason; no later step is played. Absent: every
    step must be legal."""
    reason_contains: str | None = None
    """Text the refusal's reason must contain (with illegal_step)."""
    monsters: dict[str, MonsterExpect] = Field(default_factory=dict)
    """What must hold for each monster, by id; only the fields written are checked."""
    victims: dict[str, VictimExpect] = Field(default_factory=dict)
    """What must hold for each victim, by id; only the fields written are checked."""
    vp: dict[int, int] = Field(default_factory=dict)
    """Victory points so far, by player."""
    active_player: int | None = None
    """The player whose turn it must be."""
    winner: int | None = None
    """The player who must have won (only when the game has ended)."""
    draw: bool | None = None
    """Whether the game must have ended in a draw."""
    events: list[str] = Field(default_factory=list)
    """Event kinds that must appear in the log in this order (others may sit between)."""
    dice_left: int | None = Field(None, ge=0)
    """How many listed dice must be left unused (absent: none)."""


STEP_KINDS = (
    "move",
    "close",
    "ranged",
    "frenzy",
    "smash",
    "move_victim",
    "plot_twist",
    "pass",
    "end_turn",
    "fly",
    "decide",
    "dispute",
)


class Scenario(_Strict):
    """A scenario file."""

    name: str = Field(min_length=1)
    """One line saying what the scenario shows."""
    rules: list[str] = Field(default_factory=list)
    """Rule IDs from the rules checklist that it checks (informative)."""
    build_total: int = Field(100, ge=BUILD_TOTALS[0], le=BUILD_TOTALS[1])
    """The game's build total (default 100): actions per turn = build_total / 100."""
    active_player: PlayerNumber = 1
    """The player whose turn it is when the steps start (default 1)."""
    phase: Literal["preview", "suspense", "hunting", "hourglass"] = "hunting"
    """The phase the steps start in: preview, suspense, hunting (default) or hourglass."""
    turn: int = Field(1, ge=1, le=MAX_TURNS)
    """The turn number when the steps start (default 1)."""
    turn_limit: int | None = Field(None, ge=1, le=MAX_TURNS)
    """The turn the game ends after, if any (for end-of-game rules)."""
    players: int | None = Field(None, ge=2, le=4)
    """How many players the game has (default: the highest player number named, at least 2)."""
    map: ScenarioMap = DEFAULT_MAP
    """A roster map's id, or an inline map (default: a 12x12 outdoor map of clear terrain)."""
    monsters: list[ScenarioMonster] = Field(default_factory=list)
    """The monsters on the map."""
    victims: list[ScenarioVictim] = Field(default_factory=list)
    """The victims on the map."""
    crypts: dict[PlayerNumber, list[str]] = Field(default_factory=dict)
    """Per player, the plot-twist card names in the crypt: {1: [...], 2: [...]}."""
    teams: dict[PlayerNumber, PlayerNumber] = Field(default_factory=dict)
    """Player -> team (HC-SPECIAL-11); a player not named is a team of its own."""
    dice: list[int] = Field(default_factory=list)
    """Every d6 result the engine will roll, in order; a 2d6 attack roll takes two entries."""
    steps: list[dict[str, Any]] = Field(default_factory=list)
    """The steps to play, in order, each one decision of a player ({move: A, path: [...]}, {close: A, target: B},
    ...)."""
    expect: Expect
    """What must be true after the steps."""

    @field_validator("dice")
    @classmethod
    def _d6(cls, dice: list[int]) -> list[int]:
        bad = [d for d in dice if not 1 <= d <= 6]
        if bad:
            raise ValueError(f"dice are d6 results 1-6; {bad} are not")
        return dice

    @field_validator("steps")
    @classmethod
    def _steps(cls, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for index, step in enumerate(steps):
            kind = next((k for k in STEP_KINDS if k in step), None)
            if kind is None:
                raise ValueError(f"step {index} {_brief(step)} is none of: {', '.join(STEP_KINDS)}")
            if kind == "dispute":
                inner = step["dispute"]
                if not isinstance(inner, dict) or not any(k in inner for k in STEP_KINDS if k != "dispute"):
                    raise ValueError(f"step {index}: 'dispute' holds the disputed step, e.g. {{move: A, to: [1, 2]}}")
        raise_all([problem for index, step in enumerate(steps) for problem in _step_shape(str(index), step)])
        return steps

    @model_validator(mode="after")
    def _ids(self) -> Scenario:
        ids = [m.id for m in self.monsters] + [v.id for v in self.victims]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"ids used twice: {', '.join(repeated)}; every monster and victim needs its own id")
        return self


_NAME_KEYS = ("move", "close", "ranged", "frenzy", "smash", "move_victim", "fly", "plot_twist")
"""Step keys naming a monster, a victim or a card; `target`, `victim` and `power` may also be null."""
_SPACE = "a space [x, y] of two whole numbers"


def _brief(value: Any) -> str:
    text = repr(value).replace("::", ": :")  # '::' separates field and message in raised problems
    return text if len(text) <= 60 else text[:57] + "..."


def _is_space(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _is_name(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def _step_shape(where: str, step: dict[str, Any]) -> list[tuple[str, str]]:
    """What is the wrong type in one step (the keys the engine reads), as (field, message) pairs."""
    problems: list[tuple[str, str]] = []

    def bad(key: str, wanted: str) -> None:
        problems.append((f"{where}.{key}", f"'{key}' must be {wanted}, not {_brief(step[key])}"))

    for key in _NAME_KEYS:
        if key in step and not _is_name(step[key]):
            bad(key, "a name (an id from this scenario, or a card name)")
    for key in ("target", "victim", "power"):
        if step.get(key) is not None and not _is_name(step[key]):
            bad(key, "a name or null")
    if "targets" in step and not (isinstance(step["targets"], list) and all(map(_is_name, step["targets"]))):
        bad("targets", "a list of monster ids")
    if "path" in step and not (isinstance(step["path"], list) and all(map(_is_space, step["path"]))):
        bad("path", f"a list of spaces, each {_SPACE}")
    for key in ("to", "at"):
        if key in step and not _is_space(step[key]):
            bad(key, _SPACE)
    damage = step.get("damage")
    if damage is not None and not (
        isinstance(damage, dict)
        and all(_is_name(k) and isinstance(v, int) and not isinstance(v, bool) for k, v in damage.items())
    ):
        bad("damage", "a mapping of target ids to whole numbers, like {B: 2, C: 1}")
    if "player" in step and not (isinstance(step["player"], int) and not isinstance(step["player"], bool)):
        bad("player", "a player number")
    if "mode" in step and not isinstance(step["mode"], str):
        bad("mode", "hovering or soaring")
    if isinstance(step.get("dispute"), dict):
        problems.extend(_step_shape(f"{where}.dispute", step["dispute"]))
    return problems


def load_scenario(path: Path) -> tuple[Scenario | None, list[Problem]]:
    """Read and validate one scenario file."""
    name = str(path)
    try:
        data, lines, yaml_problems = read_yaml(path)
    except YamlError as exc:
        return None, [Problem(name, exc.line, "", exc.message)]
    problems = [Problem(name, line, ".".join(map(str, loc)), message) for line, loc, message in yaml_problems]
    if not isinstance(data, dict):
        return None, [*problems, Problem(name, 1, "", "a scenario file is a mapping of keys (name, steps, expect...)")]
    try:
        ruleset = named_ruleset(data, lines, name)
    except InvalidFile as exc:
        return None, problems + exc.problems
    if ruleset != RULESET_NAME:
        return None, [
            *problems,
            Problem(
                name,
                lines.line((RULESET_KEY,)),
                RULESET_KEY,
                f"a {ruleset} scenario; HorrorClix cannot play it (`clix scenario run` picks each file's ruleset)",
            ),
        ]
    data = {k: v for k, v in data.items() if k != RULESET_KEY}
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        return None, problems + from_validation_error(name, exc, lines, Scenario)
    return (None if problems else scenario), problems
