"""Finding and loading the roster library for the CLI and the Python API.

A library is a sequence of layers, each a folder or a file of roster YAML (`--rosters`, repeatable): an item
of a later layer replaces the item of the same name in an earlier one, so a homebrew folder can sit over the
sample library. An army, figure or map given to a command as a file path joins the library as a last layer.

Problems in files a command does not use are warnings (one line per file); problems in the files it uses
(its armies, their figures, crypts and victims, its map) stop it with a one-line error, before any game. So does
a file with problems that may define an item the command needs, over the item the library holds (in the same or
a later layer) or in its place: one that names the item (a broken override is not skipped for the earlier
layer's item), or one whose names could not be read (`Roster.failed`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.engine.core.files.folders import YAML_SUFFIXES
from clix.engine.core.files.problems import Problem, did_you_mean, relative
from clix.engine.core.files.yaml_lines import path_problem
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESETS, ruleset_named

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Failed, Roster

REPO_ROSTERS = Path(__file__).resolve().parents[2] / "rosters" / "horrorclix"
"""The sample library: the repository's rosters/horrorclix/ in a checkout, the package's copy in an installed clix."""
SAMPLE = "sample"
"""`--rosters sample` names the sample library shipped with clix (unless a folder of that name exists)."""

Layers = tuple[Path, ...]


def default_roster_dir() -> Path:
    """$CLIX_ROSTERS, else ./rosters when it exists, else the sample library shipped with clix."""
    env = os.environ.get("CLIX_ROSTERS")
    if env:
        return Path(env)
    local = Path("rosters")
    return local if local.is_dir() else REPO_ROSTERS


def library_layers(rosters: Path | Sequence[Path] | None) -> Layers:
    """The layers `--rosters` names (the default library when none), each checked to exist."""
    if not rosters:
        return (default_roster_dir(),)
    if isinstance(rosters, Path):
        rosters = [rosters]
    layers = []
    for path in rosters:
        if str(path) == SAMPLE and not path.exists():
            path = REPO_ROSTERS
        elif not path.exists():
            raise ClixError(
                f"--rosters {path}: roster library not found ({path_problem(path) or 'no such folder or file'}); "
                f"pass a roster folder or file ('{SAMPLE}' names the sample library)"
            )
        layers.append(path)
    return tuple(layers)


def library_text(library: Path | Sequence[Path]) -> str:
    """A library as the user would name it: its layers, separated by spaces."""
    return str(library) if isinstance(library, Path) else " ".join(map(str, library))


def is_file_argument(text: str) -> bool:
    """Whether a command's army, figure or map argument names a file rather than an id."""
    return text.endswith(YAML_SUFFIXES) or "/" in text or os.sep in text


@dataclass
class Library:
    """A loaded library: its layers (for the workers, which load it again), the roster, the ids the
    command's arguments resolved to, and the warnings about files the command does not use."""

    layers: Layers
    roster: Roster
    ids: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def id(self, argument: str) -> str:
        """The id an argument (an id or a file path) resolved to."""
        return self.ids.get(argument, argument)


def load_library(
    rosters: Path | Sequence[Path] | None,
    *,
    armies: Iterable[str] = (),
    maps: Iterable[str] = (),
    figures: Iterable[str] = (),
    items: Iterable[str] = (),
    everything: bool = False,
    choose: Callable[[Roster], Mapping[str, Iterable[str]]] | None = None,
    warn: Callable[[str], None] | None = None,
) -> Library:
    """Load the library for a command that uses `armies`, `maps`, `figures` and `items` (of any of those
    kinds) given as ids or file paths, or all of it (`everything`): a problem in a file it uses, or an
    argument that names nothing, is a ClixError; a problem elsewhere is a warning line, given to `warn` and
    kept in `Library.warnings`.

    `choose(roster)` names (by table: "armies", "maps", "figures") the ids a command picks from the loaded
    library itself, such as a field of every army of a budget: they are checked as the named ones are, before
    any warning is given and before any game is played. When it picks armies, an army file that did not load
    stops the command too: it may be one of the armies it would pick."""
    wanted = {"armies": list(armies), "maps": list(maps), "figures": list(figures), "items": list(items)}
    files = [Path(a) for names in wanted.values() for a in names if is_file_argument(a)]
    for path in files:
        if not path.is_file():
            raise ClixError(f"{path}: {path_problem(path) or 'no such file'}")
    layers = library_layers(rosters) + tuple(dict.fromkeys(files))
    roster, problems = ruleset_named(DEFAULT_RULESET).load_library(list(layers))
    problems = _unique(problems + _part("legality").reference_problems(roster))
    library = Library(layers, roster)
    if everything:
        stop_on_problems(problems, layers)
        return library
    broken = {p.file: p for p in reversed(problems)}  # each file's first problem
    for table, names in wanted.items():
        for name in names:
            kind = _table_of(roster, name) if table == "items" else table
            if kind == "items":
                raise ClixError(_not_found(roster, "figure or army", name, {**roster.armies, **roster.figures}))
            if kind != table:
                wanted[kind].append(name)
            library.ids[name] = _resolve(roster, kind, name, problems, layers)
    del wanted["items"]
    if choose is not None:
        picked = choose(roster)
        for table, chosen in picked.items():
            wanted[table] += [name for name in chosen if name not in wanted[table]]
            library.ids.update((name, name) for name in chosen if name not in library.ids)
        broken_army = next((f for f in roster.failed if f.table == "armies"), None) if picked.get("armies") else None
        if broken_army is not None:
            own = [p for p in problems if p.file == broken_army.file]
            own = own or [Problem(broken_army.file, 0, "", "this file has problems")]
            raise ClixError(problem_line(own, layers, "; it may be an army this command would play"))
    ids = {t: [library.id(n) for n in names] for t, names in wanted.items()}
    used = used_files(roster, **ids) | {relative(path) for path in files}
    stop_on_problems([p for p in problems if p.file in used], layers)
    for table, name in needed_items(roster, **ids):
        failed = blocker(roster, table, name)
        if failed is not None:
            raise ClixError(_blocked(table, name, failed, problems, layers))
    counts: dict[str, int] = {}
    for problem in problems:
        counts[problem.file] = counts.get(problem.file, 0) + 1
    for file, count in counts.items():
        more = f" (and {count - 1} more)" if count > 1 else ""
        library.warnings.append(
            f"clix: warning: {broken[file]}{more}; this command does not use {file}, "
            f"`clix roster check {file}` lists its problems"
        )
    if warn is not None:
        for line in library.warnings:
            warn(line)
    return library


def _unique(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (p.file, p.line, p.field, p.message))


def stop_on_problems(problems: list[Problem], layers: Layers) -> None:
    """Stop on the first of `problems`, if any."""
    if problems:
        raise ClixError(problem_line(problems, layers))


def problem_line(problems: list[Problem], layers: Layers, also: str = "") -> str:
    """The error line for the first of `problems`: it, `also` (what to add), and how many more there are."""
    where = " ".join(str(layer) for layer in layers)
    more = f" (and {len(problems) - 1} more; run `clix roster check {where}` to see all)" if len(problems) > 1 else ""
    return f"{problems[0]}{also}{more}"


KIND_OF_TABLE = {
    "armies": "army",
    "maps": "map",
    "figures": "figure",
    "plot_twists": "plot twist",
    "victims": "victim archetype",
}
ITEM_TABLES = ("armies", "maps", "figures")
"""The tables a command's arguments name items of."""
LISTING = {"armies": "armies", "maps": "maps", "figures": "figures"}


def _table_of(roster: Roster, argument: str) -> str:
    """The table an item argument of unknown kind belongs to (an army, a figure or a map; armies first), else
    the table of a file with problems that may define it (an army or a figure; one that names it first)."""
    if is_file_argument(argument):
        name = relative(Path(argument))
        found = [table for table, _ in roster.sources if roster.sources[(table, _)].file == name]
        return next((table for table in ITEM_TABLES if table in found), "items")
    found = [table for table in ITEM_TABLES if argument in getattr(roster, table)]
    if found:
        return found[0]
    failed = [
        (f.names is None, ITEM_TABLES.index(f.table), f.table)
        for f in roster.failed
        if f.table in ("armies", "figures") and f.could_define(argument)
    ]
    return min(failed)[-1] if failed else "items"


def _resolve(roster: Roster, table: str, argument: str, problems: list[Problem], layers: Layers) -> str:
    """The id `argument` names in `table`: itself, or the one item its file defines. A ClixError when it names
    nothing, naming the file with problems that may define it if there is one."""
    items = getattr(roster, table)
    kind = KIND_OF_TABLE[table]
    if is_file_argument(argument):
        name = relative(Path(argument))
        defined = [key for key in items if roster.sources[(table, key)].file == name]
        if len(defined) == 1:
            return defined[0]
        stop_on_problems([p for p in problems if p.file == name], layers)
        raise ClixError(f"{argument}: this file defines no {kind} (it must hold one {kind}; see docs/data-formats.md)")
    if argument not in items:
        failed = blocker(roster, table, argument)
        if failed is not None:
            raise ClixError(_blocked(table, argument, failed, problems, layers))
        hint = f"`clix roster list {LISTING[table]}` shows every {kind}"
        raise ClixError(did_you_mean(kind, argument, items, hint))
    return argument


def blocker(roster: Roster, table: str, name: str) -> Failed | None:
    """The file with problems that may define the item `name` of `table` in place of the one the roster holds,
    or that may define it when the roster has none: a file that names it first, then one whose names could not
    be read; the latest layer first. None when there is no such file.

    In place of the item held: a file that names it in the same or a later layer, or one whose names could not
    be read in a later layer (in the same layer, a second definition would clash with the one held, so such a
    file is not what the command plays and stays a warning)."""
    source = roster.sources.get((table, name))
    floor = roster.layer_of.get(source.file, 0) if source is not None else -1

    def overrides(failed: Failed) -> bool:
        return failed.layer > floor or (failed.layer == floor and failed.names is not None)

    found = [f for f in roster.failed if f.table == table and overrides(f) and f.could_define(name)]
    return min(found, key=lambda f: (f.names is None, -f.layer, f.file)) if found else None


def _blocked(table: str, name: str, failed: Failed, problems: list[Problem], layers: Layers) -> str:
    """The error for an item a command needs that `failed` may define: that file's first problem."""
    own = [p for p in problems if p.file == failed.file] or [Problem(failed.file, 0, "", "this file has problems")]
    also = f"; it may define {KIND_OF_TABLE[table]} '{name}' that this command uses" if failed.names is None else ""
    return problem_line(own, layers, also)


def _not_found(roster: Roster, kind: str, argument: str, items: dict[str, object]) -> str:
    if is_file_argument(argument):
        return f"{argument}: this file defines no {kind}"
    return did_you_mean(kind, argument, items, "`clix roster list` shows every name")


def needed_items(
    roster: Roster, armies: Iterable[str] = (), maps: Iterable[str] = (), figures: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """The items (table, name) a command that plays `armies` on `maps` (and uses `figures`) needs, in order:
    each army with its figures, crypt and victims, then the figures, then the maps."""
    wanted: list[tuple[str, str]] = []
    for army_id in armies:
        wanted.append(("armies", army_id))
        army = roster.armies.get(army_id)
        if army is not None:
            wanted += [("figures", entry.figure) for entry in army.figures]
            wanted += [("plot_twists", card) for card in army.crypt]
            wanted += [("victims", victim) for victim in army.victims]
    wanted += [("figures", f) for f in figures] + [("maps", m) for m in maps]
    return list(dict.fromkeys(wanted))


def used_files(
    roster: Roster, armies: Iterable[str] = (), maps: Iterable[str] = (), figures: Iterable[str] = ()
) -> set[str]:
    """The files that define `armies` (with their figures, crypts and victims), `maps` and `figures`, and the
    files with problems that name one of them in the same or a later layer (a broken override is used)."""
    used: set[str] = set()
    for key in needed_items(roster, armies, maps, figures):
        source = roster.sources.get(key)
        if source is not None:
            used.add(source.file)
        failed = blocker(roster, *key)
        if failed is not None and failed.names is not None:
            used.add(failed.file)
    return used


def load_for_check(targets: list[Path], library: Sequence[Path]) -> tuple[Roster, list[Problem], int]:
    """Load `targets` with the library (for names they refer to); return problems of `targets` only."""
    missing = [t for t in targets if not t.exists()]
    if missing:
        raise ClixError(f"{missing[0]}: {path_problem(missing[0]) or 'no such file or directory'}")
    checked = {relative(p) for p in _part("loader").find_roster_files(targets)[0]}
    layers = [layer for layer in library if layer.exists()]
    roster, problems = ruleset_named(DEFAULT_RULESET).load_library([*layers, *targets])
    problems = [p for p in problems if p.file in checked] + _part("legality").reference_problems(roster, checked)
    return roster, _unique(problems), len(checked)


def load_checked(library: Path | Sequence[Path]) -> Roster:
    """Load the whole library, refusing to go on if any file in it is invalid."""
    layers = (library,) if isinstance(library, Path) else tuple(library)
    for layer in layers:
        if not layer.exists():
            raise ClixError(f"{layer}: roster library not found; pass --rosters DIR or set CLIX_ROSTERS")
    return load_library(layers, everything=True).roster


def other_rulesets(targets: Sequence[Path]) -> list[tuple[str, Any, list[Problem]]]:
    """The files of every ruleset but HorrorClix under `targets`, each loaded by its own ruleset (found through
    the core's registry): (its name, its library, its problems), for the rulesets that have files there."""
    found = []
    for name in sorted(RULESETS):
        ruleset = ruleset_named(name)
        if name == DEFAULT_RULESET or ruleset.library_loader is None:
            continue
        library, problems = ruleset.load_library([Path(t) for t in targets if Path(t).exists()])
        if library.files or problems:
            found.append((name, library, problems))
    return found


def _part(name: str) -> ModuleType:
    """HorrorClix's part `name` (its loader, its checks across files), found through the core's registry."""
    return ruleset_named(DEFAULT_RULESET).part(name)


def load_roster(paths: list[Path]) -> tuple[Roster, list[Problem]]:
    """HorrorClix's files at `paths` loaded as one layer (its loader's `load_roster`), and every problem found."""
    loaded: tuple[Roster, list[Problem]] = _part("loader").load_roster(paths)
    return loaded


__all__ = [
    "Library",
    "default_roster_dir",
    "library_layers",
    "load_checked",
    "load_library",
    "load_roster",
    "other_rulesets",
]
