"""Load roster files into a `Roster`, collecting every problem instead of stopping at the first.

A file's kind is told by its keys (a figure has `dial`, a map `rows`, an army `build_total`, a
plot-twist file `plot_twists`, a victim file `victims`), so files may live anywhere; the sample
data keeps them in rosters/figures, maps, armies and two list files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.roster.models import Army, Figure, MapFile, PlotTwist, PlotTwistFile, VictimArchetype, VictimFile
from engine.roster.problems import LineMap, Loc, Problem, field_text, from_validation_error, relative
from engine.roster.yaml_lines import YamlError, load_yaml

KINDS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("dial", Figure),
    ("rows", MapFile),
    ("build_total", Army),
    ("plot_twists", PlotTwistFile),
    ("victims", VictimFile),
)
ROSTER_SUFFIXES = (".yaml", ".yml")


@dataclass
class Source:
    """Where a loaded item came from, so cross-file checks can point at the right line."""

    file: str
    lines: LineMap
    prefix: Loc = ()

    def problem(self, loc: Loc, message: str) -> Problem:
        full = self.prefix + loc
        return Problem(self.file, self.lines.line(full), field_text(full), message)


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
    invalid: set[str] = field(default_factory=set)
    """Names (figure and map ids, card and victim names) of items whose own file has problems: other files
    naming them are not told the name does not exist."""

    def add(self, kind: str, key: str, item: Any, source: Source) -> Problem | None:
        """Add one item; a name already taken by another file is a problem."""
        table: dict[str, Any] = getattr(self, kind)
        if key in table:
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
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in ROSTER_SUFFIXES and p.is_file()))
        else:
            found.append(path)
    return list(dict.fromkeys(p.resolve() for p in found))


def load_roster(paths: list[Path]) -> tuple[Roster, list[Problem]]:
    """Load and validate every file under `paths`; return what loaded and every problem found."""
    roster = Roster()
    problems: list[Problem] = []
    for path in roster_files(paths):
        problems.extend(_load_file(path, roster))
    return roster, problems


def _load_file(path: Path, roster: Roster) -> list[Problem]:
    name = relative(path)
    if not path.exists():
        return [Problem(name, 0, "", "no such file or directory")]
    if path.suffix not in ROSTER_SUFFIXES:
        return [Problem(name, 0, "", "not a roster file; roster files end in .yaml")]
    roster.files.append(name)
    try:
        data, lines, yaml_problems = load_yaml(path.read_text(encoding="utf-8"))
    except YamlError as exc:
        return [Problem(name, exc.line, "", exc.message)]
    except (OSError, UnicodeDecodeError) as exc:
        return [Problem(name, 0, "", f"cannot read the file: {exc}")]
    problems = [Problem(name, line, field_text(loc), message) for line, loc, message in yaml_problems]
    if not isinstance(data, dict):
        return [*problems, Problem(name, 1, "", "a roster file must be a mapping of keys (like 'name: ...')")]
    model = next((m for key, m in KINDS if key in data), None)
    if model is None:
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
        if isinstance(data.get("id"), str):
            roster.invalid.add(data["id"])
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
        return [*problems, Problem(name, lines.line((key,)), key, f"'{key}' must be a list with at least one entry")]
    for index, raw in enumerate(items):
        try:
            item = item_model.model_validate(raw)
        except ValidationError as exc:
            problems.extend(from_validation_error(name, exc, lines, item_model, prefix=(key, index)))
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                roster.invalid.add(raw["name"])
            continue
        clash = roster.add(table, item.name, item, Source(name, lines, (key, index)))
        if clash:
            problems.append(clash)
    return problems
