"""`clix`: the command-line front door.

Heavy imports (matplotlib, pandas) stay inside the commands that need them, so `clix --help`
starts fast. Every user mistake ends in a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer
from clix.analyzer import checks
from clix.analyzer.checks import MAX_GAMES, MAX_TURNS
from clix.analyzer.errors import ClixError
from clix.analyzer.library import Library, library_layers, load_for_check, load_library
from rich.console import Console

app = typer.Typer(
    help="clix: Monte Carlo army-building and balance analyzer for HorrorClix.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
roster_app = typer.Typer(
    help="Check and inspect roster files (figures, plot twists, victims, maps, armies).", no_args_is_help=True
)
map_app = typer.Typer(help="Inspect maps.", no_args_is_help=True)
scenario_app = typer.Typer(
    help="Run rules scenarios: a board, forced dice, steps and the expected outcome.", no_args_is_help=True
)
results_app = typer.Typer(
    help="The runs kept in the result store (clix-out/clix.duckdb by default): list, show, export.",
    no_args_is_help=True,
)
app.add_typer(roster_app, name="roster")
app.add_typer(map_app, name="map")
app.add_typer(scenario_app, name="scenario")
app.add_typer(results_app, name="results")

console = Console(highlight=False, soft_wrap=True)


def _show_version(value: bool) -> None:
    if value:
        from clix.engine import RULESET_VERSION

        from clix.version import __version__

        console.print(f"clix {__version__} (ruleset {RULESET_VERSION})", markup=False)
        raise typer.Exit(0)


@app.callback()
def _options(
    context: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the clix version and the ruleset it plays, and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """clix: Monte Carlo army-building and balance analyzer for HorrorClix."""
    from clix.engine import compiled

    warning = compiled.stale_warning()
    if warning is not None and context.invoked_subcommand not in ("compile", "roster", "schema", "map"):
        _err().print(warning, markup=False)


SEED_HELP = "Master seed, any integer 0 or more; every game's seed is derived from it."
JOBS_HELP = "Worker processes (0: all cores; more than the machine's cores are capped to them)."
TURNS_HELP = f"Turn limit per player, 1 to {MAX_TURNS}."
StopOption = Annotated[
    bool,
    typer.Option(
        "--stop-on-error",
        help="Stop at the first game that fails (its worker dies twice, or it raises) and report the games "
        "finished; by default such a game is named on stderr and the run goes on (exit code 1).",
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


def _library(rosters: list[Path] | None, **wanted: Any) -> Library:
    """Load the library for a command (ClixError on problems in what it uses; a warning line for others)."""
    return load_library(rosters, warn=lambda line: _err().print(line, markup=False), **wanted)


ForceOption = Annotated[
    bool,
    typer.Option("--force", help="Replace the outputs of an earlier run in --out (refused without it)."),
]
StoreOption = Annotated[
    Path | None,
    typer.Option("--store", help="The result store, a DuckDB file (default: ./clix-out/clix.duckdb)."),
]


@roster_app.command("check")
def roster_check(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Files or directories to check (default: the whole roster library)."),
    ] = None,
    rosters: RostersOption = None,
) -> None:
    """Validate roster files and army legality; print every problem, one line each (exit 2 if any)."""
    library = library_layers(rosters)
    targets = paths or list(library)
    roster, problems, checked = load_for_check(targets, library)
    for problem in problems:
        console.print(str(problem), markup=False, soft_wrap=True)
    counts = (
        f"{len(roster.figures)} figures, {len(roster.plot_twists)} plot twists, {len(roster.victims)} victim "
        f"archetypes, {len(roster.maps)} maps, {len(roster.armies)} armies"
    )
    if problems:
        console.print(f"{len(problems)} problem(s) in {checked} file(s) checked ({counts} loaded)", markup=False)
        raise typer.Exit(2)
    console.print(f"ok: {checked} file(s) valid ({counts})", markup=False)


@roster_app.command("list")
def roster_list(
    what: Annotated[
        str, typer.Argument(help="figures, plot-twists, victims, maps or armies (default: figures).")
    ] = "figures",
    figure_class: Annotated[
        list[str] | None,
        typer.Option("--class", help="Only figures of this class, e.g. Undead or Vampire (repeat: all of them)."),
    ] = None,
    min_points: Annotated[
        int | None, typer.Option("--min-points", min=0, help="Only figures of at least N points.")
    ] = None,
    max_points: Annotated[
        int | None, typer.Option("--max-points", min=0, help="Only figures of at most N points.")
    ] = None,
    cabal: Annotated[
        str | None, typer.Option("--cabal", metavar="CABAL", help="Only members of this cabal, e.g. 'Crimson Court'.")
    ] = None,
    rank: Annotated[
        str | None, typer.Option("--rank", help="Only figures of this rank: rookie, experienced, veteran, unique, ...")
    ] = None,
    rosters: RostersOption = None,
) -> None:
    """List what the roster library holds; figures can be filtered by class, points, cabal and rank."""
    from clix.analyzer import views

    roster = _library(rosters).roster
    wanted = views.FigureFilter(tuple(figure_class or ()), min_points, max_points, cabal, rank)
    console.print(views.listing(roster, what, wanted))


@roster_app.command("show")
def roster_show(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="Figure id (e.g. countess-vey-v) or army id (e.g. butcher-shop), see `clix roster list`; "
            "or a figure or army file.",
        ),
    ],
    rosters: RostersOption = None,
) -> None:
    """Show a figure (base data, card sides with powers, dial) or an army (figures, points, crypt, victims)."""
    from clix.analyzer import views

    library = _library(rosters, items=[name])
    for renderable in views.show_view(library.roster, library.id(name)):
        console.print(renderable)


@roster_app.command("powers")
def roster_powers() -> None:
    """List every power, ability and plot-twist effect the engine implements, with parameters and text."""
    from clix.analyzer import views

    for renderable in views.powers_view():
        console.print(renderable)


@map_app.command("show")
def map_show(
    map_name: Annotated[str, typer.Argument(metavar="MAP", help="Map id (see `clix roster list maps`) or a map file.")],
    png: Annotated[Path | None, typer.Option("--png", help="Also draw the map to this PNG file.")] = None,
    rosters: RostersOption = None,
) -> None:
    """Draw a map as text (terrain, walls, starting areas, victim spaces); optionally as a PNG."""
    from clix.analyzer import views

    library = _library(rosters, maps=[map_name])
    game_map = views.find_map(library.roster, library.id(map_name))
    console.print(views.map_text(game_map), markup=False)
    if png is not None:
        from clix.analyzer.mapdraw import draw_map_png

        draw_map_png(game_map, png)
        console.print(f"wrote {png}", markup=False)


@scenario_app.command("run")
def scenario_run(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files, or directories (every *.yaml below them).")],
    rosters: RostersOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also print each scenario's event log.")] = False,
) -> None:
    """Run scenario files: one line per scenario (PASS/FAIL with every expectation that differed).

    Exit 0 if all pass, 1 if any fails, 2 if a file is not a valid scenario. The format is
    described in docs/scenario-format.md.
    """
    from clix.analyzer.scenarios import run_paths

    raise typer.Exit(run_paths(paths, library_layers(rosters), verbose, console))


@app.command("duel")
def duel(
    army_a: Annotated[str, typer.Argument(help="Army A: an army id (see `clix roster list armies`) or an army file.")],
    army_b: Annotated[str, typer.Argument(help="Army B: an army id or file.")],
    games: Annotated[
        int, typer.Option("--games", help=f"Games to play, 2 to {MAX_GAMES:,} (rounded up to seat-swapped pairs).")
    ] = 1000,
    map_name: Annotated[
        str, typer.Option("--map", help="Map id (see `clix roster list maps`) or a map file.")
    ] = "graveyard",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Player styles A,B: random, tuned (the default), balanced, rusher, hunter, search (search:N: N "
            "playouts a decision); or sweep: every pairing of the heuristic "
            "styles (A's style x B's style) with the same seed, A's score per pairing and whether the verdict "
            "depends on play style.",
        ),
    ] = "tuned,tuned",
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP)] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    ties: Annotated[
        str,
        typer.Option(
            "--ties",
            help="Equal VP at the end: 'break' gives the game to the cheaper army (HC-END-09), 'draw' makes it a "
            "draw (as many events play it).",
        ),
    ] = "break",
    target_ci: Annotated[
        float | None,
        typer.Option(
            "--target-ci",
            help="Play pairs in growing looks until the half-width of A's score interval is at most this "
            "(e.g. 0.03 for ±3 points), with --games as the cap; the interval stays 95% under this stopping.",
        ),
    ] = None,
    margin: Annotated[
        float | None,
        typer.Option(
            "--margin",
            help="Also test whether the duel is balanced within ±M of 50% (e.g. 0.05), by two one-sided tests.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output directory (default: a new folder clix-out/A-vs-B/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="Result store (a DuckDB file; default: clix.duckdb beside the --out folder, clix-out/clix.duckdb "
            "for the default --out): games already there are read, not played, and every game played is added as "
            "it finishes, so an interrupted run resumes. Not used by --players sweep.",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Play every game even if the store has it (and store the new rows).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of text.")] = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
    check_with: Annotated[
        str | None,
        typer.Option(
            "--check-with",
            help="Replay the duel's first games (up to 100) with this style on both sides, e.g. search:200, and "
            "warn when its verdict (which army is favoured) differs.",
        ),
    ] = None,
) -> None:
    """Play ARMY_A against ARMY_B many times: win/draw/loss with 95% intervals, victory points, point
    efficiency per figure, victim-rush statistics, game length and the first-player advantage. Writes the
    per-game table (CSV, Parquet), plots and a self-contained HTML report (and its PDF with --pdf) to --out, and
    keeps every game in the result store (`clix results`): running the same duel again plays only the games it
    lacks."""
    from clix.analyzer.duel import run_duel
    from clix.analyzer.outputs import Target
    from clix.analyzer.store import DEFAULT_STORE, STORE_NAME

    checks.games(games)
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, _err())
    library = _library(rosters, armies=[army_a, army_b], maps=[map_name])
    army_a, army_b, map_name = library.id(army_a), library.id(army_b), library.id(map_name)
    if out is None:
        target = Target(Path("clix-out") / f"{army_a}-vs-{army_b}", new_run=True)
    else:
        target = Target(out, force=force)
    if players.strip() == "sweep":
        if store is not None or fresh:
            raise ClixError("--store, --fresh: a --players sweep run does not use the result store (a duel does)")
        kept = None
    else:
        kept = store or (DEFAULT_STORE if out is None else out.parent / STORE_NAME)
    raise typer.Exit(
        run_duel(
            library.roster,
            library.layers,
            army_a,
            army_b,
            games=games,
            map_name=map_name,
            players=players,
            seed=seed,
            jobs=cores,
            turns=turns,
            out=target,
            as_json=as_json,
            console=console,
            ties=ties,
            target_ci=target_ci,
            margin=margin,
            stop_on_error=stop_on_error,
            pdf=pdf,
            store=kept,
            fresh=fresh,
            check_with=check_with,
        )
    )


@app.command("ladder")
def ladder(
    players: Annotated[
        str | None,
        typer.Option(
            "--players", help="Player styles to rank, comma-separated (default: random and every heuristic style)."
        ),
    ] = None,
    armies: Annotated[
        str | None, typer.Option("--armies", help="Armies to play mirror matchups with (default: every army).")
    ] = None,
    maps: Annotated[str | None, typer.Option("--maps", help="Maps to play on (default: every map).")] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            help=f"Games per style pair, army and map (rounded up to seat-swapped pairs); {MAX_GAMES:,} in all at most.",
        ),
    ] = 40,
    seed: Annotated[
        int, typer.Option("--seed", help="Master seed, the same for every cell (common random numbers).")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output directory (default: a new folder clix-out/ladder/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of text.")] = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
) -> None:
    """Round robin of player styles: every pair of styles plays mirror matchups (army X against army X) on
    every army and map. Prints each style's Bradley-Terry rating (Elo points) and its score against each other
    style with 95% intervals; writes ladder.csv, games.csv and ladder.html (and ladder.pdf with --pdf) to --out.
    (A ladder does not use the result store: it plays every game.)"""
    from clix.analyzer.ladder import run_ladder
    from clix.analyzer.outputs import Target

    checks.games(games, what="per cell")
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, _err())
    library = _library(rosters, armies=_names(armies), maps=_names(maps))
    raise typer.Exit(
        run_ladder(
            library.roster,
            library.layers,
            players=players,
            armies=",".join(library.id(a) for a in _names(armies)) or None,
            maps=",".join(library.id(m) for m in _names(maps)) or None,
            games=games,
            seed=seed,
            jobs=cores,
            turns=turns,
            out=Target(Path("clix-out/ladder"), new_run=True) if out is None else Target(out, force=force),
            as_json=as_json,
            console=console,
            stop_on_error=stop_on_error,
            pdf=pdf,
        )
    )


def _list(values: list[str] | None) -> tuple[str, ...]:
    """A repeatable, comma-separated option's names, in order."""
    return tuple(name for value in values or () for name in _names(value))


def _store_for(store: Path | None, out: Path | None) -> Path:
    from clix.analyzer.store import DEFAULT_STORE, STORE_NAME

    return store or (DEFAULT_STORE if out is None else out.parent / STORE_NAME)


@app.command("value")
def value(
    budget: Annotated[int, typer.Option("--budget", help="Build total of the random armies (100, 200, ...).")] = 100,
    armies: Annotated[int, typer.Option("--armies", help="Random legal armies to draw.")] = 500,
    opponents: Annotated[int, typer.Option("--opponents", help="Other armies each army plays (even).")] = 8,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="Games per matchup, in seat-swapped pairs (default 2); with --swap, games per field army and map "
            "(default 200).",
        ),
    ] = None,
    maps: Annotated[str, typer.Option("--maps", help="Maps to play on, comma-separated.")] = "graveyard",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Player style(s), comma-separated: with several, each figure's value is also given per style.",
        ),
    ] = "tuned",
    pool: Annotated[
        list[str] | None,
        typer.Option(
            "--pool",
            metavar="FIGURES",
            help="Draw the armies from these figures only (ids, comma-separated or repeated).",
        ),
    ] = None,
    swap: Annotated[
        str | None,
        typer.Option("--swap", help="Swap test: replace this figure in --in ARMY by equal points of alternatives."),
    ] = None,
    army: Annotated[str | None, typer.Option("--in", help="The army of the swap test (id or file).")] = None,
    against: Annotated[
        str | None,
        typer.Option("--against", help="Swap test: armies to play (default: the library's armies of its build total)."),
    ] = None,
    alternatives: Annotated[
        int, typer.Option("--alternatives", help="Swap test: replacements to try, closest in points first.")
    ] = 6,
    resamples: Annotated[int, typer.Option("--resamples", help="Bootstrap resamples for the intervals.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP)] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output directory (default: a new folder clix-out/value/run-YYYYMMDD-HHMMSS)."),
    ] = None,
    force: ForceOption = False,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of text.")] = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
) -> None:
    """What each figure and plot twist is worth in points, with 95% intervals: random legal armies of --budget
    play each other in seat-swapped pairs and an additive logistic model of army strength is fitted, calibrated
    so one point of cost is worth one point on average. Prints each figure's value and its cost-curve residual
    (value - cost: under-costed, over-costed, or fair within the data); writes value.csv, value.json, games.csv
    and value.html (value.pdf with --pdf). With --swap FIGURE --in ARMY: the score change from replacing the
    figure by equal points of alternatives."""
    from clix.analyzer.outputs import Target
    from clix.analyzer.value import Design, run_swap, run_value

    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, _err())
    map_names = list(_names(maps)) or ["graveyard"]
    styles = tuple(_names(players)) or ("tuned",)
    if swap is not None or army is not None:
        if swap is None or army is None:
            raise ClixError("--swap FIGURE and --in ARMY go together")
        if len(styles) > 1:
            raise ClixError("--players: the swap test plays one style")
        swap_games = checks.games(200 if games is None else games)
        library = _library(rosters, armies=[army, *_names(against)], maps=map_names, figures=[swap])
        army_id = library.id(army)
        field = [library.id(a) for a in _names(against)] or sorted(
            a for a, x in library.roster.armies.items() if x.build_total == library.roster.armies[army_id].build_total
        )
        raise typer.Exit(
            run_swap(
                library.roster,
                library.layers,
                army_id,
                library.id(swap),
                opponents=field,
                limit=max(1, alternatives),
                games=swap_games,
                maps=[library.id(m) for m in map_names],
                style=styles[0],
                turns=turns,
                seed=seed,
                jobs=cores,
                store=_store_for(store, out),
                as_json=as_json,
                console=console,
            )
        )
    per_matchup = checks.games(2 if games is None else games, what="per matchup")
    checks.budget(budget)
    if armies < 3:
        raise ClixError(f"--armies takes 3 or more (got {armies})")
    if opponents < 1:
        raise ClixError(f"--opponents takes 1 or more (got {opponents})")
    if resamples < 10:
        raise ClixError(f"--resamples takes 10 or more (got {resamples})")
    checks.cells_games(
        per_matchup, armies * ((opponents + 1) // 2) * len(map_names) * len(styles), what="matchups", one="matchup"
    )
    library = _library(rosters, maps=map_names)
    design = Design(
        budget=budget,
        armies=armies,
        opponents=opponents + opponents % 2,
        games=per_matchup + per_matchup % 2,
        maps=tuple(library.id(m) for m in map_names),
        styles=styles,
        turns=turns,
        seed=seed,
        pool=_list(pool),
    )
    raise typer.Exit(
        run_value(
            library.roster,
            library.layers,
            design,
            jobs=cores,
            out=Target(Path("clix-out/value"), new_run=True) if out is None else Target(out, force=force),
            store=_store_for(store, out),
            as_json=as_json,
            console=console,
            resamples=resamples,
            pdf=pdf,
            stop_on_error=stop_on_error,
        )
    )


@app.command("build")
def build(
    budget: Annotated[int, typer.Option("--budget", help="Build total: 100, 200, 300, ...")] = 100,
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            metavar="ARMIES",
            help="The armies to beat: ids, army files, folders of army files, or a field.json with weights (as "
            "`clix meta` writes its Nash mixture); comma-separated or repeated. Default: the library's armies of "
            "--budget points.",
        ),
    ] = None,
    include: Annotated[
        list[str] | None, typer.Option("--include", metavar="FIGURES", help="Figures every build must field.")
    ] = None,
    exclude: Annotated[
        list[str] | None, typer.Option("--exclude", metavar="FIGURES", help="Figures no build may field.")
    ] = None,
    cabal: Annotated[
        list[str] | None, typer.Option("--cabal", metavar="CABAL", help="Only figures of this cabal (repeatable).")
    ] = None,
    figure_class: Annotated[
        list[str] | None, typer.Option("--class", metavar="CLASS", help="Only figures of this class (repeatable).")
    ] = None,
    crypt: Annotated[
        str | None,
        typer.Option(
            "--crypt",
            help="The crypt every build plays, comma-separated plot twists (default: the best cards by --values, else "
            "the cards the field holds most).",
        ),
    ] = None,
    maps: Annotated[str, typer.Option("--maps", help="Maps to play on, comma-separated.")] = "graveyard",
    players: Annotated[str, typer.Option("--players", help="The player style of both sides.")] = "tuned",
    values: Annotated[
        Path | None,
        typer.Option("--values", help="A `clix value` run's value.json: half the candidates follow its estimates."),
    ] = None,
    candidates: Annotated[int, typer.Option("--candidates", help="Builds to race (all, when fewer are legal).")] = 243,
    first_games: Annotated[
        int, typer.Option("--first-games", help="Games per field army and map in the first stage.")
    ] = 4,
    eta: Annotated[int, typer.Option("--eta", help="Each stage keeps the best 1/eta with eta times the games.")] = 3,
    finalists: Annotated[int, typer.Option("--finalists", help="Builds measured at the end.")] = 4,
    final_games: Annotated[
        int, typer.Option("--final-games", help="Games per field army and map for the finalists (fresh seeds).")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP)] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output directory (default: a new folder clix-out/build/run-YYYYMMDD-HHMMSS)."),
    ] = None,
    force: ForceOption = False,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of text.")] = False,
    pdf: PdfOption = False,
    rosters: RostersOption = None,
) -> None:
    """The best legal army for --budget against a field: candidates from the legal space race in stages
    (successive halving with common random numbers), the finalists and the field's own armies are measured on
    fresh seeds. Prints the top builds with their score against the field and each field army (95% intervals),
    sidegrades (builds the data cannot tell from the best), why each wins; writes build.json, builds.csv,
    games.csv, build.html (build.pdf with --pdf) and each finalist's army file."""
    from clix.analyzer.build import Constraints, Search, field_entries, resolve_field, run_build
    from clix.analyzer.outputs import Target

    checks.budget(budget)
    checks.turns(turns)
    checks.seed(seed)
    checks.games(first_games, "--first-games")
    checks.games(final_games, "--final-games")
    cores = checks.jobs(jobs, _err())
    map_names = list(_names(maps)) or ["graveyard"]
    if field:
        entries, source = field_entries(field)
        library = _library(rosters, armies=[e.army for e in entries], maps=map_names)
        field_armies = resolve_field(entries, library.id)
    else:
        library = _library(rosters, maps=map_names)
        found = sorted(a for a, x in library.roster.armies.items() if x.build_total == budget)
        if not found:
            raise ClixError(f"--field: the library has no army of {budget} points; name the field with --field")
        field_armies = [(a, 1 / len(found)) for a in found]
        source = f"the library's {budget}-point armies"
    constraints = Constraints(
        budget=budget,
        include=_list(include),
        exclude=_list(exclude),
        cabals=tuple(c.strip() for c in cabal or () if c.strip()),
        classes=_list(figure_class),
        crypt=_list([crypt] if crypt else None),
    )
    for card in constraints.crypt:
        if card not in library.roster.plot_twists:
            raise ClixError("--crypt: " + _did_you_mean("plot twist", card, library.roster.plot_twists))
    search = Search(
        candidates=candidates,
        first=first_games,
        eta=eta,
        finalists=finalists,
        final=final_games,
        maps=tuple(library.id(m) for m in map_names),
        style=players.strip(),
        turns=turns,
        seed=seed,
    )
    raise typer.Exit(
        run_build(
            library.roster,
            library.layers,
            constraints,
            field_armies,
            search,
            field_source=source,
            jobs=cores,
            out=Target(Path("clix-out/build"), new_run=True) if out is None else Target(out, force=force),
            store=_store_for(store, out),
            values=values,
            as_json=as_json,
            console=console,
            pdf=pdf,
        )
    )


def _did_you_mean(kind: str, name: str, known: Any) -> str:
    from clix.engine.roster.problems import did_you_mean

    return did_you_mean(kind, name, known, "`clix roster list plot-twists` shows every card")


@app.command("meta")
def meta(
    armies: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[ARMIES]...",
            help="Armies of the field: ids, army files or folders of army files (with --budget: added).",
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", help="Every library army of this build total joins the field (100, 200, 300)."),
    ] = None,
    maps: Annotated[str | None, typer.Option("--maps", help="Maps, comma-separated (default: every map).")] = None,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Player style of both sides: default (tuned), a style, styles comma-separated, or sweep (every "
            "heuristic style; the report shows each army's range over them).",
        ),
    ] = "default",
    games: Annotated[
        int,
        typer.Option(
            "--games", help="Games per cell (army pair, map, style), rounded up to pairs; the cap with --target-ci."
        ),
    ] = 200,
    target_ci: Annotated[
        float | None,
        typer.Option(
            "--target-ci",
            help="Play each cell in growing looks until its interval's half-width is at most this (e.g. 0.03) or it "
            "lies wholly off 50%, up to --games per cell.",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Master seed, the same for every cell (common random numbers).")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    ties: Annotated[
        str, typer.Option("--ties", help="Equal VP: 'break' (HC-END-09, the default) or 'draw'.")
    ] = "break",
    resamples: Annotated[
        int,
        typer.Option("--resamples", min=0, max=10_000, help="Bootstrap resamples for ratings and the Nash support."),
    ] = 200,
    backend: Annotated[
        str, typer.Option("--backend", help="local (this machine's cores) or dask (an existing Dask cluster).")
    ] = "local",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="With --backend dask: the scheduler's address, tcp://HOST:8786.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output directory (default: a new folder clix-out/meta/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="Result store (default: clix.duckdb beside the --out folder, clix-out/clix.duckdb for the default "
            "--out): each cell's games are the duel's, read from it and added to it.",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Play every game even if the store has it (and store the new rows).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of text.")] = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
) -> None:
    """Balance across a field of armies: every pair plays on every map (the same seeds in every cell). Prints the
    score matrix, each army's score against the field, ratings, the Nash mixture of the matchup game, outliers,
    dominated armies, first-player, map and plot-twist balance; writes cells and games (CSV, Parquet), heatmap,
    meta.html (meta.pdf with --pdf), summary.json and field.json (the Nash mixture) to --out."""
    from clix.analyzer.meta import MetaOptions, expand_army_arguments, field_armies, field_styles, run_meta
    from clix.analyzer.outputs import Target
    from clix.analyzer.store import DEFAULT_STORE, STORE_NAME

    checks.games(games, what="per cell")
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, _err())
    named = expand_army_arguments(armies or [])
    library = _library(rosters, armies=named, maps=_names(maps))
    field = field_armies(library.roster, [library.id(a) for a in named], budget)
    map_names = [library.id(m) for m in _names(maps)] or sorted(library.roster.maps)
    styles = field_styles(players)
    cells = len(field) * (len(field) - 1) // 2 * len(map_names) * len(styles)
    checks.cells_games(games, cells)
    options = MetaOptions(
        games=games,
        seed=seed,
        jobs=cores,
        turns=turns,
        ties=ties,
        target_ci=target_ci,
        budget=budget,
        resamples=resamples,
        stop_on_error=stop_on_error,
        pdf=pdf,
        store=store or (DEFAULT_STORE if out is None else out.parent / STORE_NAME),
        fresh=fresh,
        backend=backend,
        scheduler=scheduler,
    )
    target = Target(Path("clix-out/meta"), new_run=True) if out is None else Target(out, force=force)
    raise typer.Exit(
        run_meta(
            library.roster,
            library.layers,
            field,
            map_names,
            styles,
            options,
            out=target,
            as_json=as_json,
            console=console,
        )
    )


@app.command("bench")
def bench(
    games: Annotated[int, typer.Option("--games", help=f"Games per measurement, 2 to {MAX_GAMES:,}.")] = 200,
    jobs: Annotated[
        int,
        typer.Option("--jobs", help="Cores for the parallel measurement (0: all; more than the machine's are capped)."),
    ] = 0,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds", help="Times to repeat both measurements (1 to 100); the median is reported (machines drift)."
        ),
    ] = 3,
    profile: Annotated[bool, typer.Option("--profile", help="Also print the profile's top entries.")] = False,
    meta: Annotated[
        bool,
        typer.Option(
            "--meta",
            help="Instead: time `clix meta` on a 10-army 100-point field (sample armies topped up with fixed-seed "
            "random ones) to ±0.03 on every cell, with games played, cells settled early and the machine's load.",
        ),
    ] = False,
    rosters: RostersOption = None,
) -> None:
    """Speed benchmark: the reference duel (two sample 100-point armies, default players, graveyard map) on
    one core and on all cores; prints games/s and the parallel efficiency (median of the rounds)."""
    from clix.analyzer.bench import run_bench

    if meta:
        from clix.analyzer.metabench import run_meta_bench

        library = _library(rosters)
        raise typer.Exit(run_meta_bench(library.layers, library.roster, checks.jobs(jobs, _err()), console))
    checks.games(games)
    checks.rounds(rounds)
    cores = checks.jobs(jobs, _err())
    library = _library(rosters)
    raise typer.Exit(run_bench(library.layers, games, cores, profile, console, rounds, library.roster))


@app.command("schema")
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(
            metavar="KIND",
            help="figure, army, map, plot-twists, victims or scenario; omit it with --out to write them all.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write every format's schema into this folder as clix-KIND.schema.json."),
    ] = None,
) -> None:
    """Print the JSON Schema of a roster or scenario file format, for editors that validate and complete YAML
    (see docs/data-formats.md, "Editor support")."""
    import json

    from clix.analyzer.schema import KINDS, schema_for, write_schemas

    if out is not None:
        if kind is not None:
            raise ClixError("give KIND to print one schema, or --out DIR to write them all, not both")
        for path in write_schemas(out):
            console.print(f"wrote {path}", markup=False)
        return
    if kind is None:
        raise ClixError(f"name a format ({', '.join(KINDS)}), or pass --out DIR to write them all")
    sys.stdout.write(json.dumps(schema_for(kind), indent=2) + "\n")


@app.command("compile")
def compile_engine() -> None:
    """Compile the engine's hot modules with mypyc (about 3x more games/s, the same games). Needs a C compiler and mypy:
    python -m pip install -e ".\\[compile]". The build is used only while it matches the engine's sources:
    after editing the engine, run this again (until then clix runs the pure-Python engine)."""
    from clix.analyzer.compile import run_compile

    raise typer.Exit(run_compile(console))


@app.command("selfcheck")
def selfcheck(
    games: Annotated[int, typer.Option("--games", help=f"Number of random-play games, 1 to {MAX_GAMES:,}.")] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", help="Master seed (0 or more); per-game seeds are spawned from it.")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help=JOBS_HELP)] = 0,
    turns: Annotated[int, typer.Option("--turns", help=TURNS_HELP)] = 15,
    rosters: RostersOption = None,
) -> None:
    """Play random games on random sample armies and every map, checking the engine's invariants after
    every action; print the first problems (with the game index that replays them) and games/s."""
    from clix.analyzer.selfcheck import run_selfcheck

    checks.games(games, minimum=1)
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, _err())
    library = load_library(rosters, everything=True)
    raise typer.Exit(run_selfcheck(games, seed, cores, turns, library.layers, console, library.roster))


@app.command("replay")
def replay(
    army_a: Annotated[
        str | None,
        typer.Argument(metavar="ARMY_A", help="Army A of the duel: an army id or file; not with --run."),
    ] = None,
    army_b: Annotated[str | None, typer.Argument(metavar="ARMY_B", help="Army B of the duel.")] = None,
    run: Annotated[
        Path | None,
        typer.Option("--run", help="A duel's --out folder: replay its game --game from summary.json and games.csv."),
    ] = None,
    game: Annotated[int, typer.Option("--game", help="Game index in the duel (odd games have the seats swapped).")] = 0,
    map_name: Annotated[str | None, typer.Option("--map", help="Map id or file (default: graveyard).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="The duel's master seed (default: 0).")] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help="Player styles A,B: random, tuned (the default), balanced, rusher, hunter."),
    ] = None,
    turns: Annotated[
        int | None, typer.Option("--turns", help=f"Turn limit per player, 1 to {MAX_TURNS} (default: 15).")
    ] = None,
    ties: Annotated[
        str | None, typer.Option("--ties", help="Equal VP: 'break' (the default, HC-END-09) or 'draw'.")
    ] = None,
    rosters: RostersOption = None,
) -> None:
    """Play one game of a duel again and print it turn by turn: game --game of the run in --run (checked
    against its games.csv row, exit 1 if it differs), or of `clix duel ARMY_A ARMY_B` with these options."""
    from clix.analyzer.replay import replay_run, replay_seed
    from clix.engine.players.heuristic import DEFAULT_STYLE

    checks.game_index(game)
    if seed is not None:
        checks.seed(seed)
    if turns is not None:
        checks.turns(turns)
    options = {"--map": map_name, "--seed": seed, "--players": players, "--turns": turns, "--ties": ties}
    if run is not None:
        if army_a is not None:
            raise ClixError("give either --run DIR or ARMY_A ARMY_B, not both")
        given = [name for name, value in options.items() if value is not None]
        if given:
            raise ClixError(f"{given[0]}: --run replays the game as it was played, with the run's settings")
        result = replay_run(rosters, run, game, warn=lambda line: _err().print(line, markup=False))
    else:
        if army_a is None or army_b is None:
            raise ClixError("name the game: --run DIR --game N, or ARMY_A ARMY_B [--seed S] [--game N]")
        library = _library(rosters, armies=[army_a, army_b], maps=[map_name or "graveyard"])
        result = replay_seed(
            library.layers,
            library.id(army_a),
            library.id(army_b),
            map_name=library.id(map_name or "graveyard"),
            seed=0 if seed is None else seed,
            players=players or f"{DEFAULT_STYLE},{DEFAULT_STYLE}",
            turns=turns or 15,
            ties=ties or "break",
            game=game,
        )
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    for warning in result.warnings:
        err.print(warning, markup=False)
    console.print("\n".join(result.lines), markup=False)
    raise typer.Exit(result.exit_code)


def _names(spec: str | None) -> list[str]:
    """A comma-separated option's names."""
    return [name.strip() for name in (spec or "").split(",") if name.strip()]


@results_app.command("list")
def results_list(store: StoreOption = None) -> None:
    """List the runs in the store: id, start, armies, map, players, games and A's score."""
    from clix.analyzer.results import print_list
    from clix.analyzer.store import DEFAULT_STORE, Store

    print_list(Store.existing(store or DEFAULT_STORE), console)


RunArgument = Annotated[str, typer.Argument(metavar="RUN", help="A run id from `clix results list`, or 'last'.")]


@results_app.command("show")
def results_show(run: RunArgument, store: StoreOption = None) -> None:
    """Print a run's summary, as `clix duel` printed it."""
    from clix.analyzer.results import print_run
    from clix.analyzer.store import DEFAULT_STORE, Store

    print_run(Store.existing(store or DEFAULT_STORE), run, console)


@results_app.command("export")
def results_export(
    run: RunArgument,
    out: Annotated[Path, typer.Option("--out", help="The file to write (replaced if it exists).")],
    fmt: Annotated[
        str | None, typer.Option("--format", help="csv or parquet (default: from the --out file's suffix).")
    ] = None,
    figures: Annotated[
        bool, typer.Option("--figures", help="Export the figure rows (figures.csv) instead of the game rows.")
    ] = False,
    store: StoreOption = None,
) -> None:
    """Write a run's game rows (its games.csv table; or with --figures its figures.csv) as CSV or Parquet."""
    from clix.analyzer.results import export_run
    from clix.analyzer.store import DEFAULT_STORE, Store

    written, rows = export_run(Store.existing(store or DEFAULT_STORE), run, fmt, out, figures)
    console.print(f"wrote {rows} {'figure' if figures else 'game'} rows to {written}", markup=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops a run as Ctrl-C does: finished games kept, workers ended


def _interrupt_in_a_callback(unraisable: Any, default: Any = sys.__unraisablehook__) -> None:
    """A Ctrl-C that lands in a callback Python cannot raise from (a weak reference's, a finalizer's) would
    print a traceback and be lost: it is delivered again a moment later, from another thread, so that it lands
    in the code the run is in rather than in this hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        again = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
        again.daemon = True
        again.start()
        return
    default(unraisable)  # bound at definition: at exit, this module's globals may already be gone


def _quiet_pool_shutdown(args: Any, default: Any = threading.excepthook) -> None:
    """loky's executor thread can trip over a work item the interrupted run has just cancelled (a KeyError in
    `add_call_item_to_queue`, a race in loky itself); the run has already stopped and reports its games, so
    that thread's end is not printed as a traceback. Every other thread's exception is."""
    if type(args.thread).__name__ == "_ExecutorManagerThread" and isinstance(args.exc_value, KeyError):
        return
    default(args)


def _short_helps(*apps: typer.Typer) -> None:
    """Command lists show each command's first sentence, on one line (docstrings wrap at 120 columns)."""
    for group in apps:
        for command in group.registered_commands:
            if command.short_help is None and command.callback is not None and command.callback.__doc__:
                first = " ".join(command.callback.__doc__.split("\n\n")[0].split())
                command.short_help = first.split(". ")[0].rstrip(".") + "."


_short_helps(app, roster_app, map_app, scenario_app, results_app)


def main() -> None:
    """Entry point of the `clix` script: run the app, turning user mistakes into one-line errors.

    Exit codes: 0 done, 1 a finding (games failed, selfcheck problems, a replay that differs), 2 a mistake
    the user can fix (one line on stderr), 130 interrupted (Ctrl-C or SIGTERM)."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminate)
    sys.unraisablehook = _interrupt_in_a_callback
    threading.excepthook = _quiet_pool_shutdown
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # a usage error (bad option, missing argument): one line too
        if type(exc).__name__ == "NoArgsIsHelpError":  # `clix` or `clix roster` alone: the help
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        context = getattr(exc, "ctx", None)
        where = f" (see `{context.command_path} --help`)" if context is not None else ""
        message = " ".join(getattr(exc, "format_message", exc.__str__)().split())
        _err().print(f"clix: error: {message}{where}", markup=False)
        sys.exit(getattr(exc, "exit_code", 2))
    except (typer.Abort, KeyboardInterrupt):
        _err().print("clix: interrupted", markup=False)
        sys.exit(130)
    except ClixError as exc:
        _err().print(f"clix: error: {exc}", markup=False)
        sys.exit(2)
    except OSError as exc:  # a file the user named cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        _err().print(f"clix: error: {where}{exc.strerror or exc}", markup=False)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
