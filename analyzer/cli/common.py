"""What the commands share: the consoles, the library loader and the options several commands take."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from clix.analyzer.common.checks import MAX_TURNS
from clix.analyzer.library.load import Library, load_library
from clix.analyzer.library.rulesets import MAPS, Argument, RulesetLibrary, matchup_library
from rich.console import Console

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

console = Console(highlight=False, soft_wrap=True)


def stderr_console() -> Console:
    """A console on stderr, for warnings and errors (made when needed: tests capture stderr per run)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


SEED_HELP = "Master seed, any integer 0 or more; every game's seed is derived from it."
JOBS_HELP = "Worker processes (0: all cores; more than the machine's cores are capped to them)."
TURNS_HELP = f"Turn limit per player, 1 to {MAX_TURNS}."
SeedOption = Annotated[int, typer.Option("--seed", "-s", help=SEED_HELP)]
CellSeedOption = Annotated[
    int, typer.Option("--seed", "-s", help="Master seed, the same for every cell (common random numbers).")
]
JobsOption = Annotated[int, typer.Option("--jobs", "-j", help=JOBS_HELP)]
TurnsOption = Annotated[int, typer.Option("--turns", help=TURNS_HELP)]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of text.")]
StopOption = Annotated[
    bool,
    typer.Option(
        "--stop-on-error",
        help="Stop also at the first game whose worker dies twice, and report the games finished; by default such "
        "a game is named on stderr and the run goes on (exit code 1). A game that raises (a bug or bad data) always "
        "stops the run, named once with its seed path.",
    ),
]
PdfOption = Annotated[
    bool,
    typer.Option("--pdf", help="Also render the HTML report to PDF (A4, every table on the page) with WeasyPrint."),
]
RostersOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--rosters",
        metavar="PATH",
        help="Roster folder or file to resolve names against; repeat to layer them, later ones replacing items "
        "of the same name (--rosters sample --rosters mine/: 'sample' is the sample library shipped with clix). "
        "Default: ./rosters, or $CLIX_ROSTERS, or the sample library.",
    ),
]


def library_for(rosters: list[Path] | None, **wanted: Any) -> Library:
    """Load the library for a command (ClixError on problems in what it uses; a warning line for others)."""
    return load_library(rosters, warn=lambda line: stderr_console().print(line, markup=False), **wanted)


def matchup_library_for(
    rosters: list[Path] | None,
    armies: list[tuple[str, str]],
    map_name: str | None = None,
    ruleset: str | None = None,
) -> RulesetLibrary:
    """The library for a command that plays `armies` (each (how the command names it, its id or file)) on
    `map_name` (None: the ruleset's default map, its id under ""), in the ruleset they are of
    (analyzer/library/rulesets.py); ClixError on problems in what it uses, a warning line for others."""
    return matchup_library(
        rosters,
        [Argument(label, text) for label, text in armies],
        Argument("--map", map_name, MAPS),
        ruleset=ruleset,
        warn=lambda line: stderr_console().print(line, markup=False),
    )


RulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        help="The ruleset to play when no army is named: horrorclix (the default) or heroclix-2005 (its sample "
        "forces); named armies or forces say their ruleset themselves.",
    ),
]


def analysis_ruleset(rosters: list[Path] | None, named: list[tuple[str, str]], ruleset: str | None) -> str:
    """The ruleset of an analysis naming the armies and maps `named` (each (option, id or file)): theirs, else
    `ruleset` (--ruleset), else HorrorClix; one line for two rulesets (analyzer/library/rulesets.py)."""
    from clix.analyzer.library.rulesets import ARMIES, arguments_ruleset

    arguments = [Argument(label, text, ARMIES if label != "--maps" else MAPS) for label, text in named]
    return arguments_ruleset(rosters, arguments, ruleset)


def analysis_library_for(
    rosters: list[Path] | None, ruleset: str, armies: list[str], maps: list[str], label: str = "--armies"
) -> RulesetLibrary:
    """The library of an analysis in a ruleset other than HorrorClix's, the `armies` and `maps` it names resolved
    to ids (`rulesets.analysis_library`); ClixError on problems in what it uses, a warning line for others."""
    from clix.analyzer.library.rulesets import analysis_library

    return analysis_library(
        rosters,
        ruleset,
        [Argument(label, a) for a in armies],
        [Argument("--maps", m, MAPS) for m in maps],
        warn=lambda line: stderr_console().print(line, markup=False),
    )


ForceOption = Annotated[
    bool,
    typer.Option("--force", help="Replace the outputs of an earlier run in --out (refused without it)."),
]
StoreOption = Annotated[
    Path | None,
    typer.Option(
        "--store",
        help="The result store, a DuckDB file (default: ./clix-out/clix.duckdb, whatever --out is).",
    ),
]


def repeated_names(values: list[str] | None) -> tuple[str, ...]:
    """A repeatable, comma-separated option's names, in order."""
    return tuple(name for value in values or () for name in split_names(value))


def store_for(store: Path | None) -> Path:
    """The result store a command uses: --store (or a configuration file's `store`), else the project's store
    ./clix-out/clix.duckdb, the same for every command whatever its --out (so `clix results` sees every run)."""
    from clix.analyzer.play.store import DEFAULT_STORE

    return store or DEFAULT_STORE


def did_you_mean_card(kind: str, name: str, known: Any) -> str:
    """A message for an unknown plot twist (or other card): the closest known name, else where the list is."""
    from clix.engine.core.files.problems import did_you_mean

    return did_you_mean(kind, name, known, "`clix roster list plot-twists` shows every card")


def split_names(spec: str | None) -> list[str]:
    """A comma-separated option's names."""
    return [name.strip() for name in (spec or "").split(",") if name.strip()]


def of_total(roster: Roster, budget: int) -> list[str]:
    """The library's armies of build total `budget`, by id (the field a command plays when none is named)."""
    return sorted(a for a, x in roster.armies.items() if x.build_total == budget)
