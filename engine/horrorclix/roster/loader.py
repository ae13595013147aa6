"""Load roster files into a `Roster`, collecting every problem instead of stopping at the first.

A file's kind is told by its keys (a figure has `dial`, a map `rows`, an army `build_total`, a
plot-twist file `plot_twists`, a victim file `victims`), so files may live anywhere; the sample
data keeps them in rosters/horrorclix/figures, maps, armies and two list files.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from clix.engine.core.files.folders import YAML_SUFFIXES, walk_folder
from clix.engine.core.files.problems import (
    InvalidFile,
    LineMap,
    Loc,
    Problem,
    field_text,
    from_validation_error,
    relative,
)
from clix.engine.core.files.yaml_lines import YamlError, decode, load_yaml, path_problem, read_bytes
from clix.engine.core.ruleset import RULESET_KEY, named_ruleset
from clix.engine.horrorclix.roster.common import RULESET_NAME
from clix.engine.horrorclix.roster.models import (
    Army,
    Figure,
    MapFile,
    PlotTwist,
    PlotTwistFile,
    VictimArchetype,
    VictimFile,
)
from pydantic import BaseModel, ValidationError

KINDS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("dial", Figure),
    ("rows", MapFile),
    ("build_total", Army),
    ("plot_twists", PlotTwistFile),
    ("victims", VictimFile),
)
ROSTER_SUFFIXES = YAML_SUFFIXES
TABLES = ("figures", "plot_twists", "victims", "maps", "armies")
_TABLE_OF_MODEL: dict[type[BaseModel], str] = {
    Figure: "figures",
    MapFile: "maps",
    Army: "armies",
    PlotTwistFile: "plot_twists",
    VictimFile: "victims",
}
_TABLE_HINTS = (
    ("figure", "figures"),
    ("plot", "plot_twists"),
    ("twist", "plot_twists"),
    ("crypt", "plot_twists"),
    ("victim", "victims"),
    ("map", "maps"),
    ("army", "armies"),
    ("armies", "armies"),
)


@dataclass
class Source:
    """Where a loaded item came from, so cross-file checks can point at the right line."""

    file: str
    lines: LineMap
    prefix: Loc = ()

    def problem(self, loc: Loc, message: str) -> Problem:
        full = self.prefix + loc
        return Problem(self.file, self.lines.line(full), field_text(full), message)


@dataclass(frozen=True)
class Failed:
    """A file (or folder) with problems that may have defined items of `table`: those named in `names`, or any
    (None: its names could not be read). `layer` is the index of the `--rosters` layer it is in."""

    file: str
    table: str
    names: frozenset[str] | None = None
    layer: int = 0

    def could_define(self, name: str) -> bool:
        """Whether this file, once fixed, may define the item `name` of its table."""
        return self.names is None or name in self.names


@dataclass
class Roster:
    """Every figure, plot twist, victim archetype, map and army loaded, by name."""

    figures: dict[str, Figure] = field(default_factory=dict)
    plot_twists: dict[str, PlotTwist] = field(default_factory=dict)
    victims: dict[str, VictimArchetype] = field(default_factory=dict)
    maps: dict[str, MapFile] = field(default_factory=dict)
    armies: dict[str, Army] = field(default_factory=dict)
    sources: dict[tuple[str, str], Source] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    invalid: dict[str, str] = field(default_factory=dict)
    """Names (figure and map ids, card and victim names) of items whose own file has problems, with that file:
    other files naming them are not told the name does not exist."""
    unknown: set[str] = field(default_factory=set)
    """Tables (`TABLES`) that may lack items because a file or folder that could hold them did not load (it
    could not be read or parsed, or its names are unreadable): names missing from them are not reported, the
    file that failed is (root causes first)."""
    failed: list[Failed] = field(default_factory=list)
    """Every file or folder with problems that may have defined items, per table: what a command needs and
    cannot find (or finds in an earlier layer than such a file's) is blamed on it, not played without it."""
    layer_of: dict[str, int] = field(default_factory=dict)
    """The (last) layer each loaded file is in (`load_layers`; 0 for `load_roster`)."""
    unplayable: dict[str, tuple[Army, Source]] = field(default_factory=dict)
    """Armies whose files failed only on unknown fields, read without them: never played (they are not in
    `armies`), only checked for the names they use, so a file's problems come in one pass rather than two."""

    def known(self, table: str, name: str) -> bool:
        """Whether `name` missing from `table` may be reported: it is not there, and no failed file could hold it."""
        return name not in self.invalid and table not in self.unknown

    def add(self, kind: str, key: str, item: Any, source: Source) -> Problem | None:
        """Add one item; a name already taken by another file is a problem (and that file may define it)."""
        table: dict[str, Any] = getattr(self, kind)
        if key in table:
            self.failed.append(Failed(source.file, kind, frozenset({key})))
            first = self.sources[(kind, key)]
            field = ("id",) if kind in ("figures", "maps") else ("name",)
            where = (
                f"earlier in this file (line {first.lines.line(first.prefix + field)})"
                if first.file == source.file
                else f"in {first.file}"
            )
            return source.problem(field, f"'{key}' is already defined {where}; names must be unique")
        table[key] = item
        self.sources[(kind, key)] = source
        return None


def roster_files(paths: list[Path]) -> list[Path]:
    """Every roster file named by `paths` (directories are searched recursively), in a stable order."""
    return find_roster_files(paths)[0]


def find_roster_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Every roster file named by `paths` (directories searched recursively, following links), and one
    problem per path that hides files: a folder that cannot be read, a folder named like a YAML file, a
    broken or looping link, a link back to a folder above it. Each such path is listed too, so it counts as
    checked."""
    found: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            if path.suffix in ROSTER_SUFFIXES:
                problems.append(Problem(relative(path), 0, "", path_problem(path) or "this is a folder"))
                found.append(path)
            files, hidden = walk_folder(path)
            found.extend(files)
            for bad, message in hidden:
                problems.append(Problem(relative(bad), 0, "", message))
                found.append(bad)
        else:
            found.append(path)
    unique = dict.fromkeys(p.resolve() if p.is_file() else Path(os.path.abspath(p)) for p in found)
    return list(unique), list(dict.fromkeys(problems))


def load_roster(paths: list[Path]) -> tuple[Roster, list[Problem]]:
    """Load and validate every file under `paths`; return what loaded and every problem found."""
    roster = Roster()
    files, problems = find_roster_files(paths)
    for problem in problems:
        tables = _tables_of(Path(problem.file), "")
        roster.unknown |= tables
        roster.failed.extend(_failed(Path(problem.file), tables))
    reported = {p.file for p in problems}
    for path in files:
        if relative(path) not in reported:
            problems.extend(_load_file(path, roster))
    return roster, problems


def load_layers(layers: list[Path]) -> tuple[Roster, list[Problem]]:
    """Load roster folders or files as layers: an item of a later layer replaces the item of the same table
    and name in an earlier one (a homebrew folder over the sample library). Within one layer names must be
    unique, as in `load_roster`."""
    merged = Roster()
    problems: list[Problem] = []
    for index, layer in enumerate(layers):
        roster, found = load_roster([layer])
        problems.extend(found)
        merged.failed.extend(replace(failed, layer=index) for failed in roster.failed)
        merged.layer_of.update(dict.fromkeys(roster.files, index))
        for table in TABLES:
            items = getattr(roster, table)
            getattr(merged, table).update(items)
            merged.sources.update({(table, key): roster.sources[(table, key)] for key in items})
        for name in list(merged.invalid):
            if any(name in getattr(roster, table) for table in TABLES):
                del merged.invalid[name]  # a later layer defines it after all
        merged.invalid.update(roster.invalid)
        merged.unknown |= roster.unknown
        merged.unplayable.update(roster.unplayable)
        merged.files.extend(f for f in roster.files if f not in merged.files)
    return merged, problems


def _tables_of(path: Path, text: str) -> set[str]:
    """The tables a file that did not load may have held: told by its keys if its text has them, else by
    its folder's and its own name, else all of them."""
    for key, model in KINDS:  # in KINDS order, as the loader tells kinds: an army has 'victims' too
        if re.search(rf"^{key}\s*:", text, re.MULTILINE):
            return {_TABLE_OF_MODEL[model]}
    name = f"{path.parent.name} {path.stem}".lower()
    return {table for hint, table in _TABLE_HINTS if hint in name} or set(TABLES)


_ID_LINE = re.compile(r"""^id:[ \t]*(["']?)([A-Za-z0-9][\w.-]*)\1[ \t]*(?:#.*)?\r?$""", re.MULTILINE)
ONE_ITEM_TABLES = ("figures", "maps")
"""Tables whose files hold one item named by its `id`."""


def _failed(path: Path, tables: set[str], text: str = "", names: set[str] | None = None) -> list[Failed]:
    """What a file or folder with problems may have defined, per table: an army file the army named by its
    file; a figure or map file the item its `id` line names (`names`, else read from `text`), if any; anything
    else any item (a file with an `id` line holds no list of cards or victims)."""
    ids = names if names is not None else {m.group(2) for m in _ID_LINE.finditer(text)}
    found: list[Failed] = []
    for table in sorted(tables):
        if table == "armies":
            named: frozenset[str] | None = frozenset({path.stem}) if path.suffix in ROSTER_SUFFIXES else None
        elif ids:
            if table not in ONE_ITEM_TABLES:
                continue
            named = frozenset(ids)
        else:
            named = None
        found.append(Failed(relative(path), table, named))
    return found


def _readable(raw: bytes) -> str:
    """The text of bytes that are not UTF-8, as near as can be told (for the names a broken file holds)."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return raw.decode("utf-16", errors="replace")
    return raw.decode("utf-8", errors="replace")


def _load_file(path: Path, roster: Roster) -> list[Problem]:
    name = relative(path)
    if path.suffix not in ROSTER_SUFFIXES and path.is_file():
        return [Problem(name, 0, "", "not a roster file; roster files end in .yaml")]
    roster.files.append(name)
    raw = b""
    text = ""
    try:
        raw = read_bytes(path)
        text = decode(raw)
        data, lines, yaml_problems = load_yaml(text)
    except YamlError as exc:
        roster.unknown |= _tables_of(path, text)
        readable = text or _readable(raw)
        roster.failed.extend(_failed(path, _tables_of(path, readable), readable))
        return [Problem(name, exc.line, "", exc.message)]
    problems = [Problem(name, line, field_text(loc), message) for line, loc, message in yaml_problems]
    if not isinstance(data, dict):
        roster.unknown |= _tables_of(path, "")
        roster.failed.extend(_failed(path, _tables_of(path, "")))
        return [*problems, Problem(name, 1, "", "a roster file must be a mapping of keys (like 'name: ...')")]
    try:
        ruleset = named_ruleset(data, lines, name)
    except InvalidFile as exc:
        roster.unknown |= _tables_of(path, "")
        roster.failed.extend(_failed(path, _tables_of(path, "")))
        return problems + exc.problems
    if ruleset != RULESET_NAME:  # another game's file in the same folder: not HorrorClix's to read
        roster.files.remove(name)
        return problems
    data = {k: v for k, v in data.items() if k != RULESET_KEY}
    model = next((m for key, m in KINDS if key in data), None)
    if model is None:
        roster.unknown |= _tables_of(path, "")
        ident = data.get("id")
        roster.failed.extend(_failed(path, _tables_of(path, ""), names={ident} if isinstance(ident, str) else set()))
        return [
            *problems,
            Problem(
                name,
                1,
                "",
                "cannot tell what this file describes: a figure has 'dial', a map "
                "'rows', an army 'build_total', a crypt file 'plot_twists', a victim file 'victims'",
            ),
        ]
    if model in (PlotTwistFile, VictimFile):
        return problems + _load_list(name, data, lines, model, roster)
    try:
        item = model.model_validate(data)
    except ValidationError as exc:
        ident = data.get("id")
        if isinstance(ident, str):
            roster.invalid[ident] = name
        elif model is not Army:  # armies are named by their file, never by other files
            roster.unknown.add(_TABLE_OF_MODEL[model])
        named = {ident} if isinstance(ident, str) and model is not Army else set()
        roster.failed.extend(_failed(path, {_TABLE_OF_MODEL[model]}, names=named))
        if model is Army and all(error["type"] == "extra_forbidden" for error in exc.errors()):
            known = {key: value for key, value in data.items() if key in Army.model_fields}
            roster.unplayable[path.stem] = (Army.model_validate(known), Source(name, lines))
        return problems + from_validation_error(name, exc, lines, model)
    source = Source(name, lines)
    if isinstance(item, Figure):
        clash = roster.add("figures", item.id, item, source)
    elif isinstance(item, MapFile):
        clash = roster.add("maps", item.id, item, source)
    else:
        clash = roster.add("armies", path.stem, item, source)
    return problems + ([clash] if clash else [])


def _load_list(
    name: str, data: dict[str, Any], lines: LineMap, model: type[BaseModel], roster: Roster
) -> list[Problem]:
    """Validate a list file item by item, so one bad card does not hide the others."""
    key, item_model, table = (
        ("plot_twists", PlotTwist, "plot_twists") if model is PlotTwistFile else ("victims", VictimArchetype, "victims")
    )
    problems: list[Problem] = []
    extra = sorted(set(data) - {key})
    for unknown in extra:
        problems.append(
            Problem(name, lines.line((unknown,)), unknown, f"unknown field '{unknown}'; this file holds only '{key}'")
        )
    items = data.get(key)
    if not isinstance(items, list) or not items:
        roster.unknown.add(table)
        roster.failed.append(Failed(name, table))
        return [*problems, Problem(name, lines.line((key,)), key, f"'{key}' must be a list with at least one entry")]
    for index, raw in enumerate(items):
        try:
            item = item_model.model_validate(raw)
        except ValidationError as exc:
            problems.extend(from_validation_error(name, exc, lines, item_model, prefix=(key, index)))
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                roster.invalid[raw["name"]] = name
                roster.failed.append(Failed(name, table, frozenset({raw["name"]})))
            else:
                roster.unknown.add(table)
                roster.failed.append(Failed(name, table))
            continue
        clash = roster.add(table, item.name, item, Source(name, lines, (key, index)))
        if clash:
            problems.append(clash)
    return problems
