"""HeroClix's data files and its library: characters (a base and a dial), maps and forces, in human-editable YAML
that says `ruleset: heroclix-2005` (a file without it is HorrorClix's), validated with one line per problem
(file, line, field). Folders are layered as HorrorClix's are: a later layer's item replaces an earlier one's of the
same name. Files of another ruleset in the same folders are left to it.

Sample data (rosters/heroclix/) is clix's own design, never official dials, and says so in its `provenance`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clix.engine.core.dial import Click, parse_click
from clix.engine.core.files.data_file import read_data_file
from clix.engine.core.files.folders import walk_folder
from clix.engine.core.files.problems import LineMap, Problem, from_validation_error, relative
from clix.engine.core.ruleset import RULESET_KEY, named_ruleset
from clix.engine.heroclix.card_checks import card_file_problems, feat_points, force_card_problems
from clix.engine.heroclix.card_files import CARD_ENTRIES, CARD_KINDS, Condition, Feat, FeatChoice, TeamAbility
from clix.engine.heroclix.maps import HeroMap
from clix.engine.heroclix.powers import POWERS, power_named
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

RULESET_NAME = "heroclix-2005"
ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
RANKS = ("rookie", "experienced", "veteran", "unique", "super-rare", "limited-edition", "promotional")
UNIQUE_RANKS = frozenset({"unique", "super-rare", "limited-edition"})
"""Silver, gold and bronze rings count as Unique for force building (HX-CHAR-06, HX-BUILD-03)."""
NOT_YET = "is not implemented yet (HeroClix part 1, issue 34)"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class DialClick(_Strict):
    """A click with the powers that show on it: `{values: "8 9 16 2", powers: [Toughness]}`."""

    values: str
    """The click's values, 'speed attack defense damage'."""
    powers: list[str] = Field(default_factory=list)
    """Powers that show on this click, as the powers card spells them."""


class Character(_Strict):
    """A character: its base (HX-CHAR-02) and its combat dial (HX-CHAR-03..05)."""

    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    id: str = Field(pattern=ID_PATTERN)
    """The character's id: lower-case letters, digits and hyphens; forces name it."""
    name: str = Field(min_length=1)
    """The character's name as printed."""
    points: int = Field(ge=1, le=1000)
    """Its point value, 1-1000."""
    rank: Literal[RANKS]  # type: ignore[valid-type]
    """Its rank: rookie, experienced, veteran, unique, super-rare, limited-edition or promotional."""
    set: str = Field(min_length=1)
    """The set it comes from."""
    collector_number: int = Field(ge=1)
    """Its collector number."""
    team: str | None = None
    """The team symbol printed on the base, if any: its team ability is in a `teams:` file (HX-TEAM-01)."""
    base_colour: str = "black"
    """The base colour: two characters of the same non-black colour and set with different names are
    archenemies (HX-BUILD-04)."""
    range: int = Field(ge=0, le=20)
    """Its range value in squares, 0-20; 0 means no ranged attacks."""
    bolts: int = Field(1, ge=1, le=3)
    """Its lightning bolts: how many targets one ranged attack may have (default 1)."""
    speed_mode: Literal["boot", "wing", "dolphin"] = "boot"
    """Its speed symbol: boot (default), wing (flying) or dolphin (swimming)."""
    size: Literal["standard", "giant", "big", "double-base"] = "standard"
    """The size class by the damage symbol (HX-CHAR-08): giants and big characters (HX-SPECIAL-09..17); or the
    double-base type, a base on two squares (HX-SPECIAL-02..06), of standard size otherwise (HX-PAC-13 OPEN)."""
    transporter: bool = False
    """A reversed speed symbol: the character carries friends and attacks during its moves (HX-SPECIAL-07, -08)."""
    keywords: list[str] = Field(default_factory=list)
    """Its keywords (informative)."""
    powers: list[str] = Field(default_factory=list)
    """Powers that show on every click."""
    dial: list[str | DialClick] = Field(min_length=2, max_length=30)
    """The combat dial, one entry per click: 'speed attack defense damage' or {values, powers}; the last is 'x' (KO)."""
    start: int = Field(0, ge=0)
    """The click index of its starting line (default 0)."""
    provenance: str = Field(min_length=1)
    """Where its numbers come from (e.g. 'sample (designed by clix; not an official dial)')."""

    @field_validator("dial")
    @classmethod
    def _dial(cls, dial: list[str | DialClick]) -> list[str | DialClick]:
        problems = []
        for index, entry in enumerate(dial):
            try:
                click = parse_click(entry if isinstance(entry, str) else entry.values)
            except ValueError as exc:
                problems.append(f"click {index}: {exc}")
                continue
            if click.hourglass or (click.values is not None and any(v.colour for v in click.values)):
                problems.append(f"click {index}: a HeroClix click is four numbers or 'x' (powers are named)")
        if problems:
            raise ValueError("; ".join(problems))
        if parse_click(_text(dial[-1])).values is not None:
            raise ValueError("the last click is the KO click 'x' (HX-DAMAGE-06)")
        return dial

    @model_validator(mode="after")
    def _start(self) -> Character:
        if self.start >= len(self.dial) or parse_click(_text(self.dial[self.start])).killed:
            raise ValueError(f"start {self.start} is not a click with values on the dial (HX-CHAR-05)")
        return self

    def clicks(self) -> list[Click]:
        return [parse_click(_text(entry)) for entry in self.dial]

    def all_powers(self) -> list[str]:
        """Every power the character names, on any click."""
        return [*self.powers, *(p for entry in self.dial if not isinstance(entry, str) for p in entry.powers)]

    @property
    def unique(self) -> bool:
        return self.rank in UNIQUE_RANKS


def _text(entry: str | DialClick) -> str:
    return entry if isinstance(entry, str) else entry.values


class MapFile(HeroMap):
    """A HeroClix map file: a battlefield with its name and provenance."""

    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    id: str = Field(pattern=ID_PATTERN)
    """The map's id: lower-case letters, digits and hyphens; commands name it with --map."""
    name: str = Field(min_length=1)
    """The map's name as shown."""
    provenance: str = Field(min_length=1)
    """Where the map comes from."""
    notes: str = ""
    """Free text for people; the engine ignores it."""


class Force(_Strict):
    """A force built to a build total (HX-BUILD-01): its characters by id, copies allowed (HX-BUILD-03)."""

    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    name: str = Field(min_length=1)
    """The force's name as shown."""
    build_total: int = Field(ge=100, le=10_000, multiple_of=100)
    """Its build total: a multiple of 100 from 100 to 10000 (HX-BUILD-01)."""
    characters: list[str] = Field(min_length=1)
    """Its characters by id (an id twice for two copies, HX-BUILD-03)."""
    objects: list[Literal["light", "heavy"]] = Field(default_factory=list, max_length=3)
    """The three object tokens the force brings (HX-SETUP-05 OPEN)."""
    style: str = ""
    """Free text saying how it plays."""
    feats: list[FeatChoice] = Field(default_factory=list)
    """The feats the force brings, each assigned while it is built (HX-FEAT-02)."""
    battlefield_condition: str | None = None
    """The one battlefield condition it may bring (HX-BUILD-05, HX-BFC-02)."""
    provenance: str = Field(min_length=1)
    """Where the force comes from."""

    @field_validator("battlefield_condition", mode="before")
    @classmethod
    def _one_condition(cls, value: Any) -> Any:
        if isinstance(value, list):
            raise ValueError("a force brings one battlefield condition at most, by name (HX-BUILD-05, HX-BFC-02)")
        return value


CARD_WORDS = {"teams": "team abilities", "feats": "feats", "conditions": "battlefield conditions"}
KINDS: tuple[tuple[str, type[BaseModel], str], ...] = (
    ("dial", Character, "characters"),
    ("rows", MapFile, "maps"),
    ("build_total", Force, "forces"),
    ("characters", Force, "forces"),
    *((key, model, key) for key, model, _ in CARD_KINDS),
)
"""A file's kind, told by its keys: a character has `dial`, a map `rows`, a force `build_total` (or
`characters`); a list of team abilities `teams`, of feats `feats`, of battlefield conditions `conditions`."""


@dataclass
class Library:
    """Every HeroClix character, map and force loaded, by name (a force by its file's stem)."""

    characters: dict[str, Character] = field(default_factory=dict)
    maps: dict[str, MapFile] = field(default_factory=dict)
    forces: dict[str, Force] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    lines: dict[tuple[str, str], tuple[str, LineMap]] = field(default_factory=dict)
    """Where each item came from: (table, name) -> (file, its line map)."""
    refused: dict[str, str] = field(default_factory=dict)
    """Characters whose files are valid but name what is not played yet, by id: why."""
    teams: dict[str, TeamAbility] = field(default_factory=dict)
    """Team abilities by team symbol (HX-TEAM)."""
    feats: dict[str, Feat] = field(default_factory=dict)
    conditions: dict[str, Condition] = field(default_factory=dict)
    """Battlefield conditions by name (HX-BFC)."""
    card_lines: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    """Where each team ability, feat and condition is: (table, name) -> (file, line)."""

    def summary(self) -> str:
        """How much was loaded, in words."""
        loaded = f"{len(self.characters)} characters, {len(self.maps)} maps, {len(self.forces)} forces"
        cards = [f"{len(getattr(self, t))} {w}" for t, w in CARD_WORDS.items() if getattr(self, t)]
        return ", ".join([loaded, *cards])


def load_library(layers: list[Path]) -> tuple[Library, list[Problem]]:
    """Load the HeroClix files under `layers` (later layers replace items of earlier ones by name); return the
    library and every problem found, cross-file ones (a force naming an unknown character, force legality)
    included."""
    library = Library()
    problems: list[Problem] = []
    for layer in layers:
        seen: dict[tuple[str, str], str] = {}
        files, hidden = walk_folder(layer) if layer.is_dir() else ([layer], [])
        problems.extend(Problem(relative(path), 0, "", message) for path, message in hidden)
        for path in files:
            problems.extend(_load_file(path, library, seen))
    problems.extend(force_problems(library))
    problems.extend(card_file_problems(library))
    return library, problems


def _load_file(path: Path, library: Library, seen: dict[tuple[str, str], str]) -> list[Problem]:
    found, refused = read_data_file(path, RULESET_NAME, named_ruleset)  # another game's file: not ours to read
    if found is None:
        return refused
    name, data, lines, problems = found.name, found.data, found.lines, found.problems
    library.files.append(name)
    kind = next(((model, table) for key, model, table in KINDS if key in data), None)
    if kind is None:
        return [*problems, Problem(name, 1, "", "cannot tell what this file describes: a character has 'dial', a "
                                   "map 'rows', a force 'build_total', a list file 'teams', 'feats' or "
                                   "'conditions'")]  # fmt: skip
    model, table = kind
    if table in CARD_WORDS:
        return problems + _card_entries(library, table, data, name, lines, seen)
    try:
        item: Any = model.model_validate(data)
    except ValidationError as exc:
        return problems + from_validation_error(name, exc, lines, model)
    key = path.stem if table == "forces" else item.id
    if table == "characters":
        named = [name for name in item.all_powers() if power_named(name) not in POWERS]
        if named:
            why = f"the power {named[0]} {NOT_YET} (clix plays the 48 powers of the 2005 card)"
            library.refused[key] = why
            return [*problems, Problem(name, lines.line(("powers",)), "powers", why)]
    if (table, key) in seen:
        field_name = RULESET_KEY if table == "forces" else "id"
        return [*problems, Problem(name, lines.line((field_name,)), field_name,
                                   f"'{key}' is already defined in {seen[(table, key)]}; names must be unique")]  # fmt: skip
    seen[(table, key)] = name
    getattr(library, table)[key] = item
    library.lines[(table, key)] = (name, lines)
    if table == "characters":
        library.refused.pop(key, None)  # a later layer's playable version replaces a refused one
    return problems


def _card_entries(
    library: Library, table: str, data: dict[str, Any], file: str, lines: LineMap, seen: dict[tuple[str, str], str]
) -> list[Problem]:
    """A list file's team abilities, feats or conditions, each by its name (a later layer's replaces one); each
    entry is checked on its own, so that a broken one loses only itself."""
    naming, model = next((field_name, CARD_ENTRIES[key]) for key, _, field_name in CARD_KINDS if key == table)
    problems = [Problem(file, lines.line((key,)), key, f"unknown key '{key}': a list file has '{RULESET_KEY}' and "
                        f"'{table}'") for key in data if key not in (RULESET_KEY, table)]  # fmt: skip
    entries = data[table]
    if not isinstance(entries, list) or not entries:
        return [*problems, Problem(file, lines.line((table,)), table, f"'{table}' is a list of one or more entries")]
    for index, raw in enumerate(entries):
        try:
            entry: Any = model.model_validate(raw)
        except ValidationError as exc:
            problems.extend(from_validation_error(file, exc, lines, model, prefix=(table, index)))
            continue
        key = getattr(entry, naming)
        line = lines.line((table, index, naming))
        if (table, key) in seen:
            problems.append(Problem(file, line, f"{table}[{index}].{naming}",
                                    f"'{key}' is already defined in {seen[(table, key)]}; names must be unique"))  # fmt: skip
            continue
        seen[(table, key)] = file
        getattr(library, table)[key] = entry
        library.card_lines[(table, key)] = (file, line)
    return problems


def force_problems(library: Library) -> list[Problem]:
    """Every breach of force building (HX-BUILD-08), each on its own line: unknown characters, a total over the
    build total, a Unique twice (HX-BUILD-03), two archenemies (HX-BUILD-04)."""
    problems: list[Problem] = []
    for key, force in library.forces.items():
        file, lines = library.lines[("forces", key)]
        known = [c for c in force.characters if c in library.characters]
        for index, name in enumerate(force.characters):
            if name not in library.characters:
                why = library.refused.get(name)
                message = f"'{name}' cannot be played: {why}" if why else f"no character has the id '{name}'"
                problems.append(Problem(file, lines.line(("characters", index)), f"characters[{index}]", message))
        total = sum(library.characters[c].points for c in known) + feat_points(library, force)
        if total > force.build_total:
            what = "characters and feats" if force.feats else "characters"
            problems.append(Problem(file, lines.line(("characters",)), "characters",
                                    f"the {what} cost {total} points, over the build total {force.build_total} "
                                    f"(HX-BUILD-01{', HX-FEAT-01' if force.feats else ''})"))  # fmt: skip
        problems.extend(force_card_problems(library, force, file, lines))
        uniques = [c for c in known if library.characters[c].unique]
        for twice in sorted({c for c in uniques if uniques.count(c) > 1}):
            problems.append(Problem(file, lines.line(("characters",)), "characters",
                                    f"'{twice}' is Unique and may be in a force once (HX-BUILD-03)"))  # fmt: skip
        members = [library.characters[c] for c in sorted(set(known))]
        for i, one in enumerate(members):
            for other in members[i + 1 :]:
                if archenemies(one, other):
                    problems.append(Problem(file, lines.line(("characters",)), "characters",
                                            f"{one.name} and {other.name} are archenemies and may not share a force "
                                            "(HX-BUILD-04)"))  # fmt: skip
    return problems


def archenemies(one: Character, other: Character) -> bool:
    """Same non-black base colour and set symbol, different names (HX-BUILD-04)."""
    return (
        one.base_colour != "black"
        and one.base_colour == other.base_colour
        and one.set == other.set
        and (one.name != other.name)
    )
