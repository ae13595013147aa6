"""The scenario file format of `ruleset: heroclix-2005` (../shared/scenario-format-heroclix.md, a contract: files
written to it by others must run unchanged) and its validation. A file reports every problem with its line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from clix.engine.core.files.problems import InvalidFile, Problem, from_validation_error
from clix.engine.core.files.yaml_lines import YamlError, read_yaml
from clix.engine.core.ruleset import RULESET_KEY
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.maps import Coord, HeroMap, Side, Wall
from clix.engine.heroclix.scenario_setup_format import ScenarioSetup
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

RULESET_NAME = "heroclix-2005"
MAX_CLICKS = 30
MAX_TURNS = 1000
PlayerNumber = int
DEFAULT_MAP = HeroMap(rows=["." * 12] * 12)

HORRORCLIX_ONLY = {
    "phase": "HeroClix has no phases",
    "crypts": "HeroClix has no plot twists",
    "victims": "HeroClix has no victims",
    "monsters": "a HeroClix file lists 'characters'",
    "red_start": "HeroClix dials have no red starting line (HX-CHAR-05)",
    "blooded": "HeroClix has no blooded monsters",
    "victims_slain": "HeroClix has no victims",
}
"""HorrorClix keys a heroclix-2005 file may not hold, with why (contract section 2)."""
HORRORCLIX_STEPS = ("frenzy", "smash", "move_victim", "plot_twist", "pass")
STEP_KINDS = ("move", "close", "ranged", "throw_object", "power", "fly", "end_turn", "copy")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    @model_validator(mode="before")
    @classmethod
    def _horrorclix_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            found = [key for key in data if key in HORRORCLIX_ONLY]
            if found:
                raise ValueError("; ".join(f"'{k}' is HorrorClix's: {HORRORCLIX_ONLY[k]}" for k in found))
        return data


class DialEntry(_Strict):
    """A click with the powers that show on it: `{values: "8 9 16 2", powers: [Toughness]}`."""

    values: str
    """The click's values, 'speed attack defense damage'."""
    powers: list[str] = Field(default_factory=list)
    """Powers that show on this click, as the powers card spells them."""


class ScenarioCharacter(_Strict):
    """A character on the scenario's map (contract section 4)."""

    id: str = Field(min_length=1)
    """The name steps and expectations use for it (e.g. A)."""
    player: PlayerNumber = Field(ge=1, le=8)
    """Its player, 1-8."""
    dial: list[str | DialEntry] = Field(min_length=1, max_length=MAX_CLICKS)
    """Its dial, one entry per click: 'speed attack defense damage' or {values, powers}; 'x' a KO click."""
    start: int = Field(0, ge=0, lt=MAX_CLICKS)
    """The index of its starting line (default 0)."""
    range: int = Field(0, ge=0, le=20)
    """Its range value (default 0)."""
    bolts: int = Field(1, ge=1, le=3)
    """Its lightning bolts: how many targets one ranged attack may have (default 1)."""
    speed_mode: Literal["boot", "wing", "dolphin"] = "boot"
    """boot (default), wing or dolphin."""
    points: int = Field(50, ge=0, le=1000)
    """Its point value (default 50)."""
    team: str | None = None
    """Its team symbol, if any."""
    archenemies: list[str] = Field(default_factory=list)
    """Ids of opposing characters that are its archenemies."""
    powers: list[str] = Field(default_factory=list)
    """Powers that show on every click, as the powers card spells them."""
    at: Coord | tuple[Coord, Coord]
    """Its square; a double-base character's two squares, its front first (HX-SPECIAL-02; an extension)."""
    click: int | None = Field(None, ge=0, lt=MAX_CLICKS)
    """The dial index now showing (default: its starting line)."""
    tokens: int = Field(0, ge=0, le=2)
    """Action tokens now on it: 0, 1 or 2."""
    acted_this_turn: bool = False
    """Whether it was given an action earlier this turn (default false)."""
    flight: Literal["hovering", "soaring"] | None = None
    """Wing only: hovering or soaring (default hovering)."""
    holding: Literal["light", "heavy"] | None = None
    """An object it holds: light or heavy (default none)."""
    size: Literal["standard", "giant", "big", "double-base"] = "standard"
    """The size class (HX-CHAR-08; an extension of the contract: giants, big and double-base characters, HX-SPECIAL)."""
    transporter: bool = False
    """A transporter (HX-SPECIAL-07; an extension of the contract)."""
    bystander: bool = False
    """A bystander token (HX-CHAR-10; an extension of the contract): no dial, its printed combat values written as
    the one entry of `dial`, no powers (HX-CHAR-10 OPEN); any damage knocks it out."""
    copying: str | None = None
    """A wild card's team whose ability it uses now (HX-TEAM-07; an extension of the contract)."""

    def squares(self) -> list[Coord]:
        """The squares `at` names: one, or a double-base character's two, its front first."""
        at = self.at
        return [at[0], at[1]] if isinstance(at[0], tuple) else [at]  # type: ignore[list-item]

    @model_validator(mode="after")
    def _base(self) -> ScenarioCharacter:
        two = isinstance(self.at[0], tuple)
        if two != (self.size == "double-base"):
            raise ValueError(
                "a double-base character stands on two squares, at: [[x1, y1], [x2, y2]], and any other on one, "
                "at: [x, y] (HX-SPECIAL-02)"
            )
        if self.bystander and not (len(self.dial) == 1 and isinstance(self.dial[0], str) and self.dial[0] != "x"):
            raise ValueError('a bystander token has no dial: its printed values are its one dial entry, "s a d d" '
                             "(HX-CHAR-10)")  # fmt: skip
        if self.bystander and (self.powers or self.size != "standard" or self.transporter):
            raise ValueError("a bystander token has no powers and is a standard-size character (HX-CHAR-10 OPEN)")
        return self


class ExpectCharacter(_Strict):
    at: Coord | tuple[Coord, Coord] | None = None
    """Its square; a double-base character's two squares, in either order."""
    level: int | None = None
    """The elevation digit of its square."""
    click: int | None = None
    """The dial index now showing."""
    tokens: int | None = None
    """Action tokens on it."""
    ko: bool | None = None
    """Whether it was knocked out and removed (its other fields then go unchecked)."""
    damage_taken: int | None = None
    """Clicks turned clockwise net of healing since the scenario began."""
    pushing_damage: int | None = None
    """Clicks of pushing damage since the scenario began."""
    knockback_damage: int | None = None
    """Clicks of knockback damage since the scenario began."""
    flight: Literal["hovering", "soaring"] | None = None
    """hovering or soaring."""
    holding: Literal["light", "heavy"] | None = None
    """The object it holds: light or heavy."""
    controller: PlayerNumber | None = None
    """The player who controls it."""
    copying: str | None = None
    """A wild card's team whose ability it uses now."""


class ScenarioFeat(_Strict):
    """A feat in play (HX-FEAT-02; an extension of the contract): `{feat: NAME, character: A}`, `characters: [A,
    B]`, or `player: N` for a feat chosen for no character."""

    feat: str = Field(min_length=1)
    """The feat's name."""
    character: str | None = None
    """The id of the character it is assigned to."""
    characters: list[str] = Field(default_factory=list)
    """The ids of the characters it is assigned to."""
    player: PlayerNumber | None = Field(None, ge=1, le=8)
    """For a feat chosen for no character: the player who chose it."""

    def named(self) -> list[str]:
        return [self.character] if self.character is not None else list(self.characters)


class ScenarioCondition(_Strict):
    """A battlefield condition a player brought (HX-BFC-02; an extension of the contract)."""

    condition: str = Field(min_length=1)
    """The battlefield condition's name."""
    player: PlayerNumber = Field(ge=1, le=8)
    """The player who brought it."""


class ExpectObject(_Strict):
    kind: Literal["light", "heavy"]
    """light or heavy."""
    at: Coord
    """Its square [x, y]."""


class ExpectTerrain(_Strict):
    at: Coord
    """The square [x, y]."""
    is_: Literal["clear", "hindering", "water", "blocking"] = Field(alias="is")
    """Its terrain type now, objects aside: clear, hindering, water or blocking."""


class Expect(_Strict):
    """What must hold after the steps (contract section 7); only the fields written are checked."""

    illegal_step: int | None = Field(None, ge=0)
    """The index (from 0) of the step that must be refused with a reason; no later step is played. Absent: every
    step must be legal."""
    reason_contains: str | None = None
    """Text the refusal's reason must contain (with illegal_step)."""
    characters: dict[str, ExpectCharacter] = Field(default_factory=dict)
    """What must hold for each character, by id; only the fields written are checked."""
    objects: list[ExpectObject] | None = None
    """Every object lying on the map now (order does not matter)."""
    terrain: list[ExpectTerrain] = Field(default_factory=list)
    """The terrain type of these squares now, objects aside."""
    walls: list[Wall] | None = None
    """Every wall on the map now (either side may name a wall)."""
    vp: dict[PlayerNumber, float] | None = None
    """Victory points by player: scored so far, or the final totals once the game is over."""
    game_over: bool | None = None
    """Whether the game has ended."""
    winner: PlayerNumber | None = None
    """The player who must have won (checked only when the game has ended)."""
    active_player: PlayerNumber | None = None
    """The player whose turn it must be."""
    events: list[str] = Field(default_factory=list)
    """Event kinds that must appear in the log in this order, others between (contract section 1)."""

    @field_validator("events")
    @classmethod
    def _known_events(cls, events: list[str]) -> list[str]:
        unknown = [kind for kind in events if kind not in EventKind.__members__.values()]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a HeroClix event kind (docs/data-formats.md lists them)")
        return events

    dice_left: int | None = Field(None, ge=0)
    """How many listed dice must be left unused (absent: none)."""


class Scenario(_Strict):
    """A heroclix-2005 scenario file."""

    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    name: str = Field(min_length=1)
    """One line saying what the scenario shows."""
    rules: list[str] = Field(default_factory=list)
    """Rule IDs or seed line ranges it checks (informative)."""
    build_total: int = Field(100, ge=100, le=10_000, multiple_of=100)
    """The game's build total (default 100): actions per turn = build_total / 100."""
    active_player: PlayerNumber = Field(1, ge=1, le=8)
    """The player whose turn it is when the steps start (default 1)."""
    turn: int = Field(1, ge=1, le=MAX_TURNS)
    """The turn number when the steps start (default 1)."""
    game_scenario: Literal["showdown"] | None = None
    """The scenario of 002 the game is played under (HX-END-03, HX-SCEN-01; an extension of the contract):
    `showdown` (HX-SCEN-02, -03). The turns before `turn` were taken by the players in turn order, ending with the
    one before the active player."""
    sides: dict[PlayerNumber, int] = Field(default_factory=dict)
    """Each player's side when allied players share one (a team game, HX-BUILD-07, HX-END-04; an extension of the
    contract): {1: 1, 2: 2, 3: 1, 4: 2}; absent: every player for itself. The winner is then a side's number."""
    turn_limit: int | None = Field(None, ge=1, le=MAX_TURNS)
    """The round limit (HX-END-14 OPEN; an extension of the contract); absent: none."""
    map: HeroMap = DEFAULT_MAP
    """The inline map (default: a 12x12 outdoor map of clear terrain)."""
    characters: list[ScenarioCharacter] = Field(default_factory=list)
    """The characters on the map."""
    feats: list[ScenarioFeat] = Field(default_factory=list)
    """Feats in play: {feat: NAME, character: A}, characters: [A, B], or player: N."""
    battlefield: list[ScenarioCondition] = Field(default_factory=list)
    """Battlefield conditions brought: {condition: NAME, player: N}, one per player."""
    dice: list[int] = Field(default_factory=list)
    """Every d6 result the engine will roll, in order; an attack roll takes two entries."""
    steps: list[dict[str, Any]] = Field(default_factory=list)
    """The steps to play, in order ({move: A, path: [...]}, {close: A, target: B}, {power: A, use: NAME}, ...)."""
    expect: Expect
    """What must be true after the steps."""
    setup: ScenarioSetup | None = None
    """Forces to build and set up by the rules instead of `characters` (HX-BUILD, HX-SETUP; an extension of the
    contract, docs/data-formats.md); the setup takes its dice from `dice` first."""

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        problems: list[str] = []
        bad = [d for d in self.dice if not 1 <= d <= 6]
        if bad:
            problems.append(f"dice: d6 results are 1-6; {bad} are not")
        ids = [c.id for c in self.characters]
        doubles = {c.id for c in self.characters if c.size == "double-base"}
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            problems.append(f"characters: ids used twice: {', '.join(repeated)}")
        seated = {c.player for c in self.characters}
        if self.sides and (set(self.sides) != seated or len(set(self.sides.values())) < 2):
            problems.append(f"sides: name each player with a character ({sorted(seated)}) and at least two sides")
        bringers = [c.player for c in self.battlefield]
        for player in sorted({p for p in bringers if bringers.count(p) > 1}):
            problems.append(f"battlefield: player {player} brings two conditions; each brings one at most (HX-BFC-02)")
        for index, step in enumerate(self.steps):
            kinds = [k for k in STEP_KINDS if k in step]
            if "move" in step and "attack_after" in step:  # a transporter's free attack names its own kind
                kinds = [k for k in kinds if k not in ("close", "ranged")]
            old = [k for k in HORRORCLIX_STEPS if k in step]
            if old:
                problems.append(
                    f"steps[{index}]: '{old[0]}' is a HorrorClix step; HeroClix steps are {', '.join(STEP_KINDS)}"
                )
            elif len(kinds) != 1:
                problems.append(f"steps[{index}]: a step is exactly one of {', '.join(STEP_KINDS)}")
            problems.extend(f"steps[{index}]: {why}" for why in _double_base_keys(step, doubles))
        if self.setup is not None and (self.characters or self.feats or self.battlefield):
            problems.append("setup: the forces of a setup block bring the characters, feats and conditions; the "
                            "file lists no 'characters', 'feats' or 'battlefield' of its own")  # fmt: skip
        if self.setup is not None and self.setup.expect != "legal" and self.steps:
            problems.append("setup: a setup the rules must refuse has no steps")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _double_base_keys(step: dict[str, Any], doubles: set[str]) -> list[str]:
    """Why a step's `from` (the square next to a double-base character that it begins counting its move from, the
    first of its path) and `rear` (where its rear half ends; `rear_after`, after Hypersonic Speed's second move) are
    misplaced (HX-SPECIAL-04; an extension)."""
    if "from" not in step and "rear" not in step and "rear_after" not in step:
        return []
    if str(step.get("move", step.get("power"))) not in doubles:
        return ["'from' and 'rear' belong to the move of a double-base character, as 'rear_after' (HX-SPECIAL-04)"]
    return ["'from' goes with a 'path', the squares entered after it"] if "from" in step and "path" not in step else []


def load_scenario(path: Path) -> Scenario:
    """Read and validate one heroclix-2005 scenario file; an InvalidFile names every problem."""
    name = str(path)
    try:
        data, lines, yaml_problems = read_yaml(path)
    except YamlError as exc:
        raise InvalidFile([Problem(name, exc.line, "", exc.message)]) from exc
    problems = [Problem(name, line, ".".join(map(str, loc)), message) for line, loc, message in yaml_problems]
    if not isinstance(data, dict):
        raise InvalidFile([*problems, Problem(name, 1, "", "a scenario file is a mapping of keys (name, steps...)")])
    if data.get(RULESET_KEY) != RULESET_NAME:
        raise InvalidFile(
            [*problems, Problem(name, lines.line((RULESET_KEY,)), RULESET_KEY, f"not a {RULESET_NAME} file")]
        )
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise InvalidFile(problems + from_validation_error(name, exc, lines, Scenario)) from exc
    if problems:
        raise InvalidFile(problems)
    return scenario


__all__ = ["Coord", "Expect", "HeroMap", "Scenario", "ScenarioCharacter", "Side", "load_scenario"]
