"""Horrified's data files (rosters/horrified/): the board graph, villagers, heroes, items, dice, terror track, difficulty,
monsters, the monster-deck generator and the perks, in YAML that says `ruleset: horrified`, each entry with its
`provenance` (rulebook; public, two sources agree; public, one source; assumed). Validated with one line per problem
(file, line, field, what is wrong). A later layer's table replaces an earlier one's; files of other rulesets are left
to them. Never card text: numbers and effect kinds only (issue 40)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clix.engine.core.files.data_file import read_data_file
from clix.engine.core.files.folders import walk_folder
from clix.engine.core.files.problems import LineMap, Problem, from_validation_error, relative
from clix.engine.core.ruleset import named_ruleset
from pydantic import BaseModel, ConfigDict, Field, ValidationError

RULESET_NAME = "horrified"
ID = r"^[a-z0-9][a-z0-9-]*$"
Provenance = Literal["rulebook", "public, two sources agree", "public, one source", "assumed"]
Colour = Literal["red", "blue", "yellow"]
SPECIALS = (
    "none",
    "pick-up-adjacent",
    "move-to-hero",
    "move-anywhere",
    "move-to-monster",
    "move-other-hero",
    "item-bonus",
)
PERK_EFFECTS = (
    "extra-actions",
    "skip-monster-phase",
    "items-each-player",
    "place-monster",
    "move-monsters",
    "move-heroes",
)
PLAYED_MONSTERS = ("dracula", "invisible-man", "creature", "frankenstein", "mummy", "wolf-man")
"""The monsters whose task, defeat and power the engine plays (HF-M-*), in the order line-ups are listed (the first
slice's two first); the Bride comes with Frankenstein."""
PAIRED = {"bride": "frankenstein"}
"""A figure that is part of another monster's mat (HF-M-FRB): it is no monster of a line-up of its own."""
KNOBS = ("terror-skull", "hit-faces", "items-per-colour", "frenzy-symbols", "sign-events")
"""The assumed numbers a sensitivity table may vary (`components.vary`)."""
ALL_MONSTERS = ("creature", "dracula", "frankenstein", "bride", "invisible-man", "mummy", "wolf-man")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Location(_Strict):
    id: str = Field(pattern=ID)
    kind: Literal["named", "junction", "bridge", "water"]
    provenance: Provenance


class Path_(_Strict):
    a: str
    b: str
    kind: Literal["lit", "water"]
    provenance: Provenance


class BoardData(_Strict):
    locations: list[Location] = Field(min_length=2)
    paths: list[Path_] = Field(min_length=1)
    hospital: str


class Villager(_Strict):
    id: str = Field(pattern=ID)
    safe: str
    provenance: Provenance


class Hero(_Strict):
    id: str = Field(pattern=ID)
    actions: int = Field(ge=1, le=9)
    start: str
    special: Literal[SPECIALS]  # type: ignore[valid-type]
    amount: int = Field(default=1, ge=1, le=6)
    solo: bool = True
    """False: not allowed in a solo game (the Courier, HF-SOLO-01)."""
    provenance: Provenance


class ItemColour(_Strict):
    colour: Colour
    count: int = Field(ge=0, le=60)
    strengths: list[int] = Field(min_length=1)
    offset: int = Field(default=0, ge=0)
    provenance: Provenance


class Items(_Strict):
    total: int = Field(ge=1, le=200)
    initial_draw: int = Field(ge=0)
    colours: list[ItemColour] = Field(min_length=1)
    provenance: Provenance


class DiceData(_Strict):
    count: int = Field(ge=1, le=6)
    faces: list[Literal["power", "hit", "blank"]] = Field(min_length=6, max_length=6)
    provenance: Provenance


class Terror(_Strict):
    skull: int = Field(ge=1, le=20)
    solo_start: int = Field(ge=0)
    provenance: Provenance


class Difficulty(_Strict):
    id: str = Field(pattern=ID)
    monsters: int = Field(ge=1, le=6)
    fixed: list[str] = Field(default_factory=list)
    provenance: Provenance


class Partner(_Strict):
    """The second figure of a mat (the Bride, HF-M-FRB): its start, its own task numbers and where it is sent back."""

    id: Literal["bride"]
    start: str
    colour: Colour
    threshold: int = Field(ge=1)
    sent_to: str


class Task(_Strict):
    """A monster's task (HF-ACT-06): `kind` picks which of the fields below it reads."""

    kind: Literal["coffins", "evidence", "boat", "scarabs", "cure", "humanity"]
    colour: Colour | None = None
    threshold: int = Field(default=0, ge=0)
    at: str | None = None
    locations: list[str] = Field(default_factory=list)
    """coffins: where the coffins lie; evidence: the mat's spots (item locations)."""
    path: list[Colour] = Field(default_factory=list)
    """boat: the colour of each X after the Start, the last one the Lair (HF-M-CRE)."""
    grooves: list[tuple[int, int]] = Field(default_factory=list)
    """scarabs: the tablet's spots joined by a groove (spot 0 the centre, 1-6 the numbered spots, HF-M-MUM)."""
    start: list[int] = Field(default_factory=list)
    """scarabs: the scarab on each spot 0-6 at setup (0 empty)."""
    strengths: list[int] = Field(default_factory=list)
    """cure: the strength each spot of the mat asks for (HF-M-WOL)."""
    sent_to: str | None = None
    """humanity: where the monster is sent when the pair meets too soon (HF-M-FRB)."""
    partner: Partner | None = None


class Defeat(_Strict):
    """How the monster is defeated (HF-ACT-07): items of one colour to a threshold, one item of each colour, or (the
    pair) by meeting."""

    kind: Literal["threshold", "one-each", "meet"] = "threshold"
    colour: Colour | None = None
    threshold: int = Field(default=0, ge=0)


class Monster(_Strict):
    id: Literal[ALL_MONSTERS]  # type: ignore[valid-type]
    frenzy_order: int = Field(ge=1, le=7)
    start: str
    task: Task
    defeat: Defeat
    power: Literal["dark-charm", "stalk-unseen", "rock-the-boat", "fortify-the-curse", "vicious-bite",
                   "here-comes-the-bride"]  # fmt: skip
    power_amount: int = Field(default=1, ge=1)
    lure: int = Field(default=0, ge=0)
    """The Mummy and the Wolf Man: how far the first event moves the hero or the monster (HF-AMB-3, R-HF-22)."""
    provenance: dict[str, Provenance]


class MonsterEvent(_Strict):
    kind: Literal["move", "frenzy"]
    amount: int = Field(default=1, ge=1)


class MonsterDeck(_Strict):
    cards: int = Field(ge=1, le=100)
    items: list[int] = Field(min_length=1)
    moves: list[int] = Field(min_length=1)
    dice: list[int] = Field(min_length=1)
    events: dict[str, int]
    monster_events: list[MonsterEvent] = Field(min_length=1)
    strikes: dict[str, int]
    frenzy: int = Field(ge=0)
    sign_events: int = Field(default=0, ge=0)
    """Of each luring monster's event cards (the Mummy's, the Wolf Man's), how many read the Soul sign / the Hunted
    emblem once it is held: the holder's hero moves `lure` spaces toward the Mummy, or the Wolf Man `lure` spaces
    toward the holder's hero, instead of the generated event (HF-AMB-3, docs/rulings.md R-HF-22; assumed, no card
    list is public)."""
    provenance: Provenance


class Perk(_Strict):
    id: str = Field(pattern=ID)
    count: int = Field(ge=0, le=20)
    effect: Literal[PERK_EFFECTS]  # type: ignore[valid-type]
    amount: int = Field(default=1, ge=1)
    monster: str | None = None
    solo: bool = True
    """False: unusable solo (HF-PERK-02: removed from the deck)."""
    provenance: Provenance


class Assumption(_Strict):
    """One assumed number and the range it plausibly lies in (`clix horrified --table sensitivity`)."""

    id: Literal[KNOBS]  # type: ignore[valid-type]
    baseline: int
    values: list[int] = Field(min_length=1)
    provenance: Provenance
    why: str = ""
    """Where the range comes from."""


class HorrifiedFile(_Strict):
    """One data file: `ruleset: horrified` and any of the tables."""

    ruleset: Literal["horrified"]
    board: BoardData | None = None
    villagers: list[Villager] | None = None
    heroes: list[Hero] | None = None
    items: Items | None = None
    dice: DiceData | None = None
    terror: Terror | None = None
    difficulty: list[Difficulty] | None = None
    monsters: list[Monster] | None = None
    monster_deck: MonsterDeck | None = None
    perks: list[Perk] | None = None
    sensitivity: list[Assumption] | None = None


TABLES = ("board", "villagers", "heroes", "items", "dice", "terror", "difficulty", "monsters", "monster_deck", "perks",
          "sensitivity")  # fmt: skip
OPTIONAL = ("sensitivity",)
"""Tables a library may lack (nothing is played from them)."""


@dataclass
class Library:
    """Every Horrified table loaded (a later layer's table replaces an earlier one's), with where each came from."""

    tables: dict[str, Any] = field(default_factory=dict)
    where: dict[str, tuple[str, LineMap]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)
    """Tables of files that did not validate (their problems are said; they are not also called missing)."""

    def summary(self) -> str:
        """How much was loaded, in words."""
        return ", ".join(f"{k}" for k in TABLES if k in self.tables) or "nothing"


def load_library(layers: list[Path]) -> tuple[Library, list[Problem]]:
    """The Horrified files under `layers` (later over earlier) and every problem found, cross-table ones included."""
    library = Library()
    problems: list[Problem] = []
    for layer in layers:
        files, hidden = walk_folder(layer) if layer.is_dir() else ([layer], [])
        problems.extend(Problem(relative(path), 0, "", message) for path, message in hidden)
        for path in files:
            problems.extend(_load_file(path, library))
    if library.files:
        problems.extend(cross_problems(library))
    return library, problems


def _load_file(path: Path, library: Library) -> list[Problem]:
    found, refused = read_data_file(path, RULESET_NAME, named_ruleset)  # another game's file: not ours to read
    if found is None:
        return refused
    name, data, lines, problems = found.name, found.data, found.lines, found.problems
    library.files.append(name)
    try:
        item = HorrifiedFile.model_validate(data)
    except ValidationError as exc:
        library.broken |= {key for key in data if key in TABLES} if isinstance(data, dict) else set()
        return problems + from_validation_error(name, exc, lines, HorrifiedFile)
    for table in TABLES:
        value = getattr(item, table)
        if value is not None:
            library.tables[table] = value
            library.where[table] = (name, lines)
    return problems


def cross_problems(library: Library) -> list[Problem]:
    """What no single file can show: a name that is not on the board, a missing table, deck counts that do not add up."""
    found: list[Problem] = []
    missing = [t for t in TABLES if t not in library.tables and t not in library.broken and t not in OPTIONAL]
    if missing:
        where = library.files[0] if library.files else "rosters/horrified"
        found.append(Problem(where, 0, "", f"no Horrified file defines {', '.join(missing)}; add the table(s)"))
    if "board" not in library.tables:
        return found
    board: BoardData = library.tables["board"]
    kinds = {loc.id: loc.kind for loc in board.locations}

    def check(table: str, loc: tuple[str | int, ...], name: str | None, land: bool = True) -> None:
        if name is None:
            return
        file, lines = library.where[table]
        if name not in kinds:
            found.append(Problem(file, lines.line(loc), _text(loc), f"'{name}' is not a location of the board; "
                                 f"use one of {', '.join(sorted(kinds))}"))  # fmt: skip
        elif land and kinds[name] == "water":
            found.append(Problem(file, lines.line(loc), _text(loc), f"'{name}' is a water space; use a land location"))

    for k, path in enumerate(board.paths):
        check("board", ("board", "paths", k, "a"), path.a, land=False)
        check("board", ("board", "paths", k, "b"), path.b, land=False)
    check("board", ("board", "hospital"), board.hospital)
    for k, villager in enumerate(library.tables.get("villagers", [])):
        check("villagers", ("villagers", k, "safe"), villager.safe)
    for k, hero in enumerate(library.tables.get("heroes", [])):
        check("heroes", ("heroes", k, "start"), hero.start)
    for k, monster in enumerate(library.tables.get("monsters", [])):
        check("monsters", ("monsters", k, "start"), monster.start, land=monster.id != "creature")  # HF-M-CRE
        check("monsters", ("monsters", k, "task", "at"), monster.task.at)
        for j, place in enumerate(monster.task.locations):
            check("monsters", ("monsters", k, "task", "locations", j), place)
        check("monsters", ("monsters", k, "task", "sent_to"), monster.task.sent_to)
        if monster.task.partner is not None:
            check("monsters", ("monsters", k, "task", "partner", "start"), monster.task.partner.start)
            check("monsters", ("monsters", k, "task", "partner", "sent_to"), monster.task.partner.sent_to)
        file, lines = library.where["monsters"]
        for message in task_problems(monster):
            found.append(Problem(file, lines.line(("monsters", k, "task")), f"monsters[{k}].task", message))
    items = library.tables.get("items")
    if items is not None and sum(c.count for c in items.colours) != items.total:
        file, lines = library.where["items"]
        counted = sum(c.count for c in items.colours)
        found.append(Problem(file, lines.line(("items", "total")), "items.total",
                             f"the colours' counts add up to {counted}, not {items.total}; make them agree"))  # fmt: skip
    deck = library.tables.get("monster_deck")
    if deck is not None:
        file, lines = library.where["monster_deck"]
        if sum(deck.events.values()) != deck.cards:
            found.append(Problem(file, lines.line(("monster_deck", "events")), "monster_deck.events",
                                 f"the events add up to {sum(deck.events.values())} cards, not {deck.cards}; "
                                 "make them agree"))  # fmt: skip
        dice = library.tables.get("dice")
        if dice is not None and max(deck.dice) > dice.count:
            found.append(Problem(file, lines.line(("monster_deck", "dice")), "monster_deck.dice",
                                 f"a card cannot roll more than the {dice.count} dice there are"))  # fmt: skip
        for key, count in [*deck.strikes.items(), *deck.events.items()]:
            if key not in (*ALL_MONSTERS, "villager"):
                found.append(Problem(file, lines.line(("monster_deck",)), "monster_deck",
                                     f"'{key}' is not a monster; use one of {', '.join(ALL_MONSTERS)}"))  # fmt: skip
            elif count > deck.cards:
                found.append(Problem(file, lines.line(("monster_deck",)), "monster_deck",
                                     f"'{key}' is on {count} cards of {deck.cards}"))  # fmt: skip
    return found


def task_problems(monster: Monster) -> list[str]:
    """What makes a monster's task or defeat unplayable (each message says what to write instead)."""
    task, defeat, found = monster.task, monster.defeat, []
    needs = {"coffins": ("locations", "colour", "threshold"), "evidence": ("locations", "at"), "boat": ("path", "at"),
             "scarabs": ("grooves", "start", "colour", "at"), "cure": ("strengths", "colour", "at"),
             "humanity": ("colour", "threshold", "sent_to", "partner")}  # fmt: skip
    for name in needs[task.kind]:
        if not getattr(task, name):
            found.append(f"a {task.kind} task needs `{name}`; add it")
    if task.kind == "boat" and task.path and task.path[-1] != "blue":
        found.append("the Lair is the last X of the boat's path and it is blue (HF-M-CRE); end `path` with blue")
    if task.kind == "scarabs" and task.start and sorted(task.start) != list(range(len(task.start))):
        found.append(f"`start` puts scarabs 1-{len(task.start) - 1} once each and 0 (the empty spot) once")
    if task.kind == "scarabs" and any(not 0 <= s < len(task.start) for g in task.grooves for s in g):
        found.append(f"a groove joins spots 0-{len(task.start) - 1} only")
    if (defeat.kind == "threshold") != (defeat.colour is not None and defeat.threshold > 0):
        found.append("a threshold defeat (and only it) needs `colour` and `threshold`")
    return found


def _text(loc: tuple[str | int, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
