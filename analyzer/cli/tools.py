"""Benchmark, compile, self-check, and the result store's runs (results list, show, export)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from clix.analyzer.cli.common import (
    JobsOption,
    RostersOption,
    StoreOption,
    TurnsOption,
    console,
    library_for,
    matchup_library_for,
    stderr_console,
)
from clix.analyzer.common import checks
from clix.analyzer.common.checks import MAX_GAMES
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import library_layers, load_library
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESETS


def bench(
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help=f"Games per measurement, 2 to {MAX_GAMES:,} (default 200; with --instructions 8, each counted twice).",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", help="Cores for the parallel measurement (0: all; more than the machine's are capped)."
        ),
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
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            metavar="CHECKOUT",
            help="Instead: this build and another clix checkout (e.g. `git worktree add ../base main`, compiled "
            "there or not) side by side in one run, a core each in turn, --rounds rounds of --games games; prints "
            "both speeds, their ratio with a 95% interval, and whether they played the same games. CLIX_PURE=1 "
            "compares the pure-Python engines.",
        ),
    ] = None,
    instructions: Annotated[
        bool,
        typer.Option(
            "--instructions",
            help="With --against: count the instructions each build executes for the games under valgrind's "
            "callgrind instead of timing them (slow: minutes, but free of the machine's drift).",
        ),
    ] = False,
    rosters: RostersOption = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            help="The ruleset whose reference duel to play: horrorclix (the default) or heroclix-2005 (two sample "
            "100-point forces, dawn-patrol vs night-shift on chemical-plant, the default HeroClix players); with "
            "--against and --instructions too.",
        ),
    ] = None,
    search_games: Annotated[
        int,
        typer.Option(
            "--search-games",
            help="Games of the search player (`search`) against the default player on the reference duel, timed on "
            "one core after the duels (0: none); each costs seconds compiled, a minute or more in pure Python.",
        ),
    ] = 1,
    search: Annotated[
        str | None,
        typer.Option(
            "--search",
            metavar="STYLE",
            help="With --against: the reference duel's games played by a search player (`search` or `search:N`) "
            "against the default player instead, timed or counted (default --games 4, counted 2; a search:96 "
            "game is about 10 billion instructions, minutes under valgrind: count search:24).",
        ),
    ] = None,
) -> None:
    """Speed benchmark: the reference duel (two sample 100-point armies, default players, graveyard map) on
    one core and on all cores; prints games/s and the parallel efficiency (median of the rounds), then on one core
    the 200-point duel (crimson-court vs drowned-choir; HeroClix: dawnguard-strike vs iron-syndicate) and a game of
    the search player. With --against, this build against another checkout instead, timed or counted.
    --ruleset heroclix-2005 plays HeroClix's reference duel instead."""
    from clix.analyzer.bench.command import REFERENCE, check_reference, run_bench, search_duel

    if instructions and against is None:
        raise ClixError("--instructions counts side by side with another build: give --against CHECKOUT too")
    if search is not None and against is None:
        raise ClixError("--search times the search player side by side with another build: give --against CHECKOUT too")
    if ruleset is not None and ruleset != DEFAULT_RULESET:
        _bench_ruleset(
            ruleset, games, jobs, rounds, profile, meta, against, instructions, rosters, search_games, search
        )
    if against is not None:
        from clix.analyzer.bench import against as bench_against

        other = bench_against.checkout_path(against)
        checks.rounds(rounds)
        count = checks.games(games if games is not None else default_games(instructions, search))
        library = library_for(rosters)
        reference = search_duel(search_style(search)) if search is not None else REFERENCE[:3]
        check_reference(library.layers, library.roster)
        if instructions:
            raise typer.Exit(bench_against.run_counted(other, library.layers, reference, count, console))
        raise typer.Exit(bench_against.run_timed(other, library.layers, reference, count, rounds, console))
    if meta:
        from clix.analyzer.bench.meta import run_meta_bench

        library = library_for(rosters)
        raise typer.Exit(run_meta_bench(library.layers, library.roster, checks.jobs(jobs, stderr_console()), console))
    checks.games(games if games is not None else 200)
    checks.rounds(rounds)
    cores = checks.jobs(jobs, stderr_console())
    library = library_for(rosters)
    raise typer.Exit(
        run_bench(
            library.layers,
            games if games is not None else 200,
            cores,
            profile,
            console,
            rounds,
            library.roster,
            search_games=checks.games(search_games, "--search-games", minimum=0, maximum=1000),
        )
    )


def default_games(instructions: bool, search: str | None) -> int:
    """`clix bench --against`'s games a measurement when --games is not given."""
    if search is not None:
        return 2 if instructions else 4
    return 8 if instructions else 200


def search_style(style: str) -> str:
    """`--search STYLE`: a search player's style (`search` or `search:N`); a ClixError for another."""
    from clix.engine.core.players.search import is_search, search_budget

    if not is_search(style):
        raise ClixError(f"--search {style}: not a search player's style (give search or search:N, as search:24)")
    try:
        search_budget(style)
    except ValueError as error:
        raise ClixError(f"--search {error}") from None
    return style


def _bench_ruleset(
    ruleset: str,
    games: int | None,
    jobs: int,
    rounds: int,
    profile: bool,
    meta: bool,
    against: Path | None,
    instructions: bool,
    rosters: list[Path] | None,
    search_games: int = 1,
    search: str | None = None,
) -> None:
    """`clix bench --ruleset R` for a ruleset other than HorrorClix: its reference duel timed (or, with --against,
    timed or counted against another checkout); exits with the run's code."""
    from clix.analyzer.bench.command import reference_duel, run_bench, search_duel

    if ruleset not in RULESETS:
        raise ClixError(f"--ruleset: no ruleset is called {ruleset!r}; clix plays {', '.join(sorted(RULESETS))}")
    if meta:
        raise ClixError(f"--meta: times a HorrorClix field only so far, not {ruleset} (leave out --ruleset)")
    reference = reference_duel(ruleset)
    army_a, army_b, map_name = reference[:3]
    library = matchup_library_for(rosters, [("reference", army_a), ("reference", army_b)], map_name, ruleset)
    if against is not None:
        from clix.analyzer.bench import against as bench_against

        other = bench_against.checkout_path(against)
        checks.rounds(rounds)
        count = checks.games(games if games is not None else default_games(instructions, search))
        if search is not None:
            reference = search_duel(search_style(search), ruleset)
        if instructions:
            raise typer.Exit(bench_against.run_counted(other, library.layers, reference, count, console))
        raise typer.Exit(bench_against.run_timed(other, library.layers, reference, count, rounds, console))
    count = checks.games(games if games is not None else 200)
    checks.rounds(rounds)
    cores = checks.jobs(jobs, stderr_console())
    searches = checks.games(search_games, "--search-games", minimum=0, maximum=1000)
    raise typer.Exit(
        run_bench(library.layers, count, cores, profile, console, rounds, ruleset=ruleset, search_games=searches)
    )


def compile_engine() -> None:
    """Compile the engine's hot modules with mypyc (about 3x more games/s, the same games). Needs a C compiler and mypy
    (in a clone: python -m pip install -e ".\\[compile]"; `pip install .` compiles it already where a compiler is).
    The build is used only while it matches the engine's sources: after editing the engine, run this again (until
    then clix runs the pure-Python engine)."""
    from clix.analyzer.tools.compile import run_compile

    raise typer.Exit(run_compile(console))


def selfcheck(
    games: Annotated[
        int, typer.Option("--games", "-n", help=f"Number of random-play games, 1 to {MAX_GAMES:,}.")
    ] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Master seed (0 or more); per-game seeds are spawned from it.")
    ] = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
    rosters: RostersOption = None,
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            help="The ruleset whose games to check: horrorclix (the default; random sample armies on every map), "
            "heroclix-2005 (random sample forces on every map of the library's HeroClix files) or horrified (random "
            "line-ups of monsters and 1-4 heroes, random players).",
        ),
    ] = DEFAULT_RULESET,
) -> None:
    """Play random games on random sample armies and every map, checking the engine's invariants after
    every action; print the first problems (with the game index that replays them) and games/s."""
    from clix.analyzer.tools.selfcheck import run_selfcheck

    checks.games(games, minimum=1)
    checks.turns(turns)
    checks.seed(seed)
    if ruleset not in RULESETS:
        raise ClixError(f"--ruleset: no ruleset is called {ruleset!r}; clix plays {', '.join(sorted(RULESETS))}")
    cores = checks.jobs(jobs, stderr_console())
    if ruleset != DEFAULT_RULESET:
        from clix.analyzer.library.rulesets import ruleset_layers

        layers = ruleset_layers(library_layers(rosters), ruleset)  # the default library stands for the ruleset's sample
        raise typer.Exit(run_selfcheck(games, seed, cores, turns, layers, console, ruleset=ruleset))
    library = load_library(rosters, everything=True)
    raise typer.Exit(run_selfcheck(games, seed, cores, turns, library.layers, console, library.roster))


def results_list(store: StoreOption = None) -> None:
    """List the runs in the store: id, start, armies, map, players, games and A's score."""
    from clix.analyzer.play.store import DEFAULT_STORE, Store
    from clix.analyzer.results.command import print_list

    print_list(Store.existing(store or DEFAULT_STORE), console)


RunArgument = Annotated[str, typer.Argument(metavar="RUN", help="A run id from `clix results list`, or 'last'.")]


def results_show(run: RunArgument, store: StoreOption = None) -> None:
    """Print a run's summary, as `clix duel` printed it."""
    from clix.analyzer.play.store import DEFAULT_STORE, Store
    from clix.analyzer.results.command import print_run

    print_run(Store.existing(store or DEFAULT_STORE), run, console)


def results_export(
    run: RunArgument,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The file to write: a new path, or a regular file it replaces (not a folder, FIFO or device).",
        ),
    ],
    fmt: Annotated[
        str | None, typer.Option("--format", help="csv or parquet (default: from the --out file's suffix).")
    ] = None,
    figures: Annotated[
        bool, typer.Option("--figures", help="Export the figure rows (figures.csv) instead of the game rows.")
    ] = False,
    store: StoreOption = None,
) -> None:
    """Write a run's game rows (its games.csv table; or with --figures its figures.csv) as CSV or Parquet."""
    from clix.analyzer.play.store import DEFAULT_STORE, Store
    from clix.analyzer.results.command import export_run

    written, rows = export_run(Store.existing(store or DEFAULT_STORE), run, fmt, out, figures)
    console.print(f"wrote {rows} {'figure' if figures else 'game'} rows to {written}", markup=False)


def serve(
    port: Annotated[int, typer.Option("--port", help="The port to listen on, 1 to 65535.")] = 8000,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="The address to listen on (default 127.0.0.1: this machine only); another address lets other "
            "machines reach the page, with a warning.",
        ),
    ] = "127.0.0.1",
    rosters: RostersOption = None,
    army_folder: Annotated[
        Path,
        typer.Option(
            "--army-folder",
            help="Your army folder: armies saved from the page go there, and it is read over the library.",
        ),
    ] = Path("clix-armies"),
    store: StoreOption = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The folder the duels' reports are written to (and served from).")
    ] = Path("clix-out"),
    max_runs: Annotated[int, typer.Option("--max-runs", help="Duels that may play at once, 1 to 8.")] = 2,
) -> None:
    """Serve the army builder, duels and the result store's runs as a web page on this machine (stop with Ctrl-C).
    The page uses the library, checks, runner, store and reports of the commands; it works offline."""
    from clix.analyzer.cli.common import store_for
    from clix.analyzer.serve.app import Settings, create_app

    if not 1 <= port <= 65535:
        raise ClixError(f"--port {port}: give a port from 1 to 65535 (8000 by default)")
    if not 1 <= max_runs <= 8:
        raise ClixError(f"--max-runs {max_runs}: give 1 to 8 duels at once")
    library_layers(rosters)  # each --rosters path checked before the server starts
    if host not in ("127.0.0.1", "localhost", "::1"):
        stderr_console().print(
            f"clix: warning: --host {host}: the page can be reached from other machines; it has no login", markup=False
        )
    settings = Settings(host, port, list(rosters or []), army_folder, store_for(store), out, max_runs)
    import uvicorn

    shown = f"[{host}]" if ":" in host else host
    console.print(f"clix serve: http://{shown}:{port}/ (Ctrl-C stops it)", markup=False)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
