"""The ruleset a command plays, told by its arguments, and that ruleset's library loaded with the command's safety.

A command that plays armies (`clix duel`, `clix replay`; the analyses to follow) learns its ruleset from them: an
army, force or map given as a file says it by its `ruleset:` key (a file without one is HorrorClix's); one given by
its id is looked up in the libraries under --rosters, HorrorClix's first, then each other ruleset's of the core's
registry (engine/core/ruleset.py). Arguments of two rulesets are refused in one line naming both; an id found in
no library is the usual did-you-mean line among the ids of the ruleset the other arguments name (HorrorClix's
when none does).

HorrorClix's library is loaded as before (`load.load_library`). Another ruleset's is loaded by its own loader
(`Ruleset.load_library`) and read through its matchup kit (engine/core/matchups.py: its armies and maps, the items a
game needs and the files defining them), never by importing the ruleset: a problem in a file the command uses (its
armies or forces, what they field, its map) stops it with that problem's line; a problem elsewhere is one warning
line per file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import (
    REPO_ROSTERS,
    Library,
    is_file_argument,
    library_layers,
    load_library,
    problem_line,
    stop_on_problems,
)
from clix.engine.core.files.problems import InvalidFile, Problem, did_you_mean, relative
from clix.engine.core.files.yaml_lines import path_problem
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESETS, file_ruleset, ruleset_named

Layers = tuple[Path, ...]
ARMIES, MAPS = "armies", "maps"
"""The tables an argument names an item of."""


@dataclass(frozen=True)
class Argument:
    """An argument naming an item: how the command names the argument ("ARMY_A", "--map"), its text (an id or a
    file path) and its table (ARMIES or MAPS)."""

    label: str
    text: str | Any
    table: str = ARMIES

    @property
    def is_file(self) -> bool:
        return is_file_argument(self.text)


@dataclass
class RulesetLibrary:
    """A command's library in the ruleset its arguments are of: the ruleset's name, the layers (the workers load
    them again), its data (a HorrorClix `Roster`, a HeroClix `Library`...), the ids the arguments resolved to and
    the warnings given about files the command does not use. `horror` is the HorrorClix `load.Library` when the
    ruleset is HorrorClix."""

    ruleset: str
    layers: Layers
    data: Any
    ids: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    horror: Library | None = None

    def id(self, argument: str) -> str:
        """The id an argument (an id or a file path) resolved to."""
        return self.ids.get(argument, argument)

    @property
    def kit(self) -> Any:
        """The ruleset's matchup kit (engine/core/matchups.py)."""
        return kit_of(self.ruleset)

    @property
    def version(self) -> str:
        return ruleset_named(self.ruleset).version


VIEWS = {"heroclix-2005": "clix.analyzer.library.heroclix_views"}
"""The module showing each ruleset's data other than HorrorClix's (`library.views`): a duel's report asks it for
`provenance_line(data, army_ids)`, `force_contents(data, army_id)` and `draw_map_png(map, path, notes)`."""


def library_views(ruleset: str) -> Any:
    """The module of `VIEWS` for `ruleset`, imported when first asked for; a ClixError when it has none."""
    import importlib

    module = VIEWS.get(ruleset)
    if module is None:
        raise ClixError(f"the analyzer cannot report {ruleset} games yet (no views of its data)")
    return importlib.import_module(module)


def kit_of(ruleset: str) -> Any:
    """The matchup kit of the ruleset called `ruleset`, through the core's registry."""
    return ruleset_named(ruleset).matchups()


def ruleset_order() -> list[str]:
    """Every ruleset, HorrorClix first (an id in two libraries is HorrorClix's), then the others by name."""
    return [DEFAULT_RULESET, *sorted(name for name in RULESETS if name != DEFAULT_RULESET)]


def ruleset_of_version(version: str) -> str | None:
    """The ruleset a game row's or a summary's `ruleset` (a version, e.g. heroclix-2005/part2-1) belongs to: the one
    of that version, else the one whose name the version starts with (a later version of it); None if none."""
    for name in ruleset_order():
        if ruleset_named(name).version == version:
            return name
    return next((name for name in ruleset_order() if version.startswith(name)), None)


def kind_of(ruleset: str, table: str) -> str:
    """An item of `table` as a ruleset's messages name it: "army", "force", "map"."""
    return str(getattr(kit_of(ruleset), "army_kind", "army")) if table == ARMIES else "map"


SAMPLES = {"heroclix-2005": REPO_ROSTERS.parent / "heroclix", "horrified": REPO_ROSTERS.parent / "horrified"}
"""Each ruleset's sample library shipped with clix, beside HorrorClix's (`load.REPO_ROSTERS`)."""


def ruleset_layers(layers: Layers, ruleset: str) -> Layers:
    """The layers a ruleset's library is read from: `layers`, HorrorClix's sample library (the default one, or
    `--rosters sample`) standing for the ruleset's own sample (`SAMPLES`)."""
    sample = SAMPLES.get(ruleset)
    if sample is None:
        return layers
    return tuple(sample if _same(layer, REPO_ROSTERS) else layer for layer in layers)


def _same(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False


class _Libraries:
    """Each ruleset's library under the layers, loaded once when first asked for (an id's lookup)."""

    def __init__(self, layers: Layers) -> None:
        self.layers = layers
        self.loaded: dict[str, tuple[Any, list[Problem]]] = {}

    def get(self, ruleset: str) -> tuple[Any, list[Problem]]:
        if ruleset not in self.loaded:
            self.loaded[ruleset] = ruleset_named(ruleset).load_library(list(ruleset_layers(self.layers, ruleset)))
        return self.loaded[ruleset]

    def table(self, ruleset: str, table: str) -> Mapping[str, Any]:
        kit = kit_of(ruleset)
        data = self.get(ruleset)[0]
        return kit.armies(data) if table == ARMIES else kit.maps(data)

    def holds(self, ruleset: str, argument: Argument) -> bool:
        return argument.text in self.table(ruleset, argument.table)


def _file_ruleset(path: Path) -> str:
    """The ruleset a file names; a file naming one clix does not play is left to HorrorClix's loader (which says
    so, as before)."""
    try:
        return file_ruleset(path, relative(path))
    except InvalidFile:
        return DEFAULT_RULESET


def check_files(arguments: Sequence[Argument]) -> list[Path]:
    """The file arguments' paths, each checked to be a file (a ClixError naming the first that is not)."""
    files = [Path(a.text) for a in arguments if a.is_file]
    for path in files:
        if not path.is_file():
            raise ClixError(f"{path}: {path_problem(path) or 'no such file'}")
    return files


def choose_ruleset(arguments: Sequence[Argument], libraries: _Libraries) -> str:
    """The ruleset of `arguments` (see the module): the first ruleset (`ruleset_order`) every argument may be of,
    a file by the ruleset it names, an id by the libraries holding it (an id none holds fits any); a ClixError
    naming two arguments of different rulesets when there is none."""
    named = {a: _file_ruleset(Path(a.text)) for a in arguments if a.is_file}
    order = ruleset_order()
    found: dict[Argument, list[str]] = {}

    def rulesets_of(argument: Argument) -> list[str]:
        """The rulesets `argument` is of (every library is loaded for an id the first one lacks)."""
        if argument in named:
            return [named[argument]]
        if argument not in found:
            found[argument] = [r for r in order if libraries.holds(r, argument)]
        return found[argument]

    def fits(ruleset: str, argument: Argument) -> bool:
        if argument in named:
            return named[argument] == ruleset
        if libraries.holds(ruleset, argument):
            return True
        return not rulesets_of(argument)  # held by no library: the did-you-mean comes later

    for ruleset in order:
        if all(fits(ruleset, a) for a in arguments):
            return ruleset
    placed = [(a, rulesets_of(a)[0]) for a in arguments if rulesets_of(a)]
    first, theirs = placed[0]
    other, its = next((a, r) for a, r in placed[1:] if theirs not in rulesets_of(a))
    raise ClixError(
        f"{first.label} {first.text} is a {theirs} {kind_of(theirs, first.table)}, {other.label} {other.text} a "
        f"{its} {kind_of(its, other.table)}; a command plays the armies and maps of one ruleset"
    )


def matchup_library(
    rosters: Path | Sequence[Path] | None,
    armies: Sequence[Argument],
    map_argument: Argument | None = None,
    *,
    ruleset: str | None = None,
    warn: Callable[[str], None] | None = None,
    more_maps: Sequence[Argument] = (),
) -> RulesetLibrary:
    """The library for a command playing `armies` on the map `map_argument` (its text None: the ruleset's default
    map), in the ruleset they are of (`ruleset`, when the caller knows it: a recorded run), loaded with the
    command's safety (see the module). Every argument resolves to an id (`RulesetLibrary.id`); the default map's
    id is under the key "". `more_maps`: other maps the command plays (an analysis's), resolved and checked as
    the map is (not with HorrorClix's, whose commands load their own library)."""
    if map_argument is not None and map_argument.table != MAPS:
        map_argument = Argument(map_argument.label, map_argument.text, MAPS)
    map_given = map_argument is not None and map_argument.text is not None
    arguments = [*armies, *([map_argument] if map_given and map_argument is not None else []), *more_maps]
    files = check_files(arguments)
    layers = library_layers(rosters) + tuple(dict.fromkeys(files))
    libraries = _Libraries(layers)
    if ruleset is None:
        ruleset = choose_ruleset(arguments, libraries) if arguments else DEFAULT_RULESET
    kit = kit_of(ruleset)
    if not getattr(kit, "plays_matchups", True):  # a co-operative game (Horrified): no army against army
        raise ClixError(f"{ruleset} plays no army-against-army matchups; {kit.no_matchups}")
    map_text = map_argument.text if map_given and map_argument is not None else None
    if ruleset == DEFAULT_RULESET:
        chosen = map_text if map_text is not None else str(kit.default_map)
        horror = load_library(rosters, armies=[a.text for a in armies], maps=[chosen], warn=warn)
        loaded = RulesetLibrary(ruleset, horror.layers, horror.roster, dict(horror.ids), horror.warnings, horror)
        loaded.ids.setdefault(chosen, chosen)
        loaded.ids[""] = horror.id(chosen)
        return loaded
    data, problems = libraries.get(ruleset)
    problems = sorted(set(problems), key=lambda p: (p.file, p.line, p.field, p.message))
    layers = ruleset_layers(layers, ruleset)
    loaded = RulesetLibrary(ruleset, layers, data)
    for argument in armies:
        loaded.ids[argument.text] = _resolve(ruleset, kit, data, argument, problems, layers)
    if map_text is not None and map_argument is not None:
        loaded.ids[map_text] = _resolve(ruleset, kit, data, map_argument, problems, layers)
        loaded.ids[""] = loaded.ids[map_text]
    else:
        loaded.ids[""] = default_map(ruleset, kit, data, problems, layers)
    for argument in more_maps:
        loaded.ids[argument.text] = _resolve(ruleset, kit, data, argument, problems, layers)
    needed = kit.needs(data, [loaded.id(a.text) for a in armies], loaded.ids[""])
    needed += [("map", loaded.id(a.text)) for a in more_maps]
    for kind, name in needed:
        if kit.source(data, kind, name) is None:
            failed = _blocker(name, problems)
            if failed is not None:
                raise ClixError(problem_line(failed, layers, f"; it may define {kind} '{name}' that this command uses"))
    used = {kit.source(data, kind, name) for kind, name in needed} | {relative(path) for path in files}
    stop_on_problems([p for p in problems if p.file in used], layers)
    loaded.warnings = _warnings(problems)
    for line in loaded.warnings:
        if warn is not None:
            warn(line)
    return loaded


def arguments_ruleset(
    rosters: Path | Sequence[Path] | None, arguments: Sequence[Argument], ruleset: str | None = None
) -> str:
    """The ruleset of an analysis: the one its army (or force) and map `arguments` are of (`choose_ruleset`: two
    rulesets are one line naming both), else `ruleset` (a --ruleset option), else HorrorClix. A --ruleset that the
    arguments contradict is one line naming both."""
    if ruleset is not None and ruleset not in RULESETS:
        raise ClixError(f"--ruleset: no ruleset is called {ruleset!r}; clix plays {', '.join(ruleset_order())}")
    if not arguments:
        return ruleset or DEFAULT_RULESET
    files = check_files(arguments)
    libraries = _Libraries(library_layers(rosters) + tuple(dict.fromkeys(files)))
    chosen = choose_ruleset(arguments, libraries)
    if ruleset is None or chosen == ruleset:
        return chosen
    for argument in arguments:  # an id in no library fits any ruleset (its did-you-mean comes later)
        theirs = _file_ruleset(Path(argument.text)) if argument.is_file else None
        if theirs is None and not libraries.holds(ruleset, argument):
            theirs = next((r for r in ruleset_order() if libraries.holds(r, argument)), None)
        if theirs is not None and theirs != ruleset:
            raise ClixError(
                f"--ruleset {ruleset}: {argument.label} {argument.text} is a {theirs} "
                f"{kind_of(theirs, argument.table)}; a command plays the armies and maps of one ruleset"
            )
    return ruleset


def analysis_library(
    rosters: Path | Sequence[Path] | None,
    ruleset: str,
    armies: Sequence[Argument],
    maps: Sequence[Argument],
    warn: Callable[[str], None] | None = None,
) -> RulesetLibrary:
    """The library of an analysis (ladder, meta...) in a ruleset other than HorrorClix's, with the `armies` and
    `maps` it names resolved to ids (none named: the command plays every one, `kit.armies` and `kit.maps`); the
    same checks as `matchup_library`'s, each map checked with the armies."""
    more = [Argument(a.label, a.text, MAPS) for a in maps]
    return matchup_library(rosters, armies, None, ruleset=ruleset, warn=warn, more_maps=more)


def default_map(ruleset: str, kit: Any, data: Any, problems: list[Problem], layers: Layers) -> str:
    """The map a matchup plays on when none is named: the kit's `default_map`, else (the library has no map of that
    name, nor a file with problems that may define it) the library's first by name."""
    maps = kit.maps(data)
    wanted = getattr(kit, "default_map", None)
    if wanted in maps:
        return str(wanted)
    failed = _blocker(str(wanted), problems) if wanted else None
    if failed is not None:
        raise ClixError(
            problem_line(failed, layers, f"; it may define map '{wanted}' that this command plays by default")
        )
    if not maps:
        raise ClixError(f"--map: the library holds no {ruleset} map; add one (docs/data-formats.md) or pass --rosters")
    return min(maps)


def _resolve(ruleset: str, kit: Any, data: Any, argument: Argument, problems: list[Problem], layers: Layers) -> str:
    """The id `argument` names: itself, or the one item its file defines; a ClixError when it names nothing."""
    kind = kind_of(ruleset, argument.table)
    items = kit.armies(data) if argument.table == ARMIES else kit.maps(data)
    if argument.is_file:
        name = relative(Path(argument.text))
        defined = [key for key in items if kit.source(data, kind, key) == name]
        if len(defined) == 1:
            return str(defined[0])
        stop_on_problems([p for p in problems if p.file == name], layers)
        raise ClixError(
            f"{argument.text}: this file defines no {ruleset} {kind} (it must hold one {kind}; see docs/data-formats.md)"
        )
    if argument.text not in items:
        failed = _blocker(argument.text, problems)
        if failed is not None:
            raise ClixError(
                problem_line(failed, layers, f"; it may define {kind} '{argument.text}' that this command uses")
            )
        label = f"{argument.label}: " if argument.table == MAPS else ""
        raise ClixError(label + did_you_mean(f"{ruleset} {kind}", argument.text, items))
    return argument.text


def _blocker(name: str, problems: list[Problem]) -> list[Problem] | None:
    """The problems of a file that may define the item `name` the library lacks (a file named after it)."""
    files = sorted({p.file for p in problems if Path(p.file).stem == name})
    return [p for p in problems if p.file == files[0]] if files else None


def _warnings(problems: list[Problem]) -> list[str]:
    """One warning line per file with problems that the command does not use."""
    first: dict[str, Problem] = {}
    counts: dict[str, int] = {}
    for problem in problems:
        first.setdefault(problem.file, problem)
        counts[problem.file] = counts.get(problem.file, 0) + 1
    return [
        f"clix: warning: {first[file]}{f' (and {count - 1} more)' if count > 1 else ''}; this command does not use "
        f"{file}, `clix roster check {file}` lists its problems"
        for file, count in counts.items()
    ]


__all__ = [
    "ARMIES",
    "MAPS",
    "Argument",
    "RulesetLibrary",
    "analysis_library",
    "arguments_ruleset",
    "choose_ruleset",
    "kit_of",
    "library_views",
    "matchup_library",
    "ruleset_of_version",
]
