"""The commands that play games: duel, ladder and replay."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from clix.analyzer.cli.common import (
    CellSeedOption,
    ForceOption,
    JobsOption,
    JsonOption,
    PdfOption,
    RostersOption,
    RulesetOption,
    SeedOption,
    StopOption,
    TurnsOption,
    analysis_library_for,
    analysis_ruleset,
    console,
    library_for,
    matchup_library_for,
    split_names,
    stderr_console,
    store_for,
)
from clix.analyzer.common import checks
from clix.analyzer.common.checks import MAX_GAMES, MAX_TURNS
from clix.analyzer.common.errors import ClixError
from clix.engine.core.ruleset import DEFAULT_RULESET
from rich.console import Console


def duel(
    army_a: Annotated[
        str,
        typer.Argument(
            metavar="ARMY_A",
            help="Army A: an army id (see `clix roster list armies`) or an army file; or a HeroClix force (id or "
            "file, see `clix roster list forces`).",
        ),
    ],
    army_b: Annotated[str, typer.Argument(metavar="ARMY_B", help="Army B: an army id or file (of A's ruleset).")],
    games: Annotated[
        int,
        typer.Option("--games", "-n", help=f"Games to play, 2 to {MAX_GAMES:,} (rounded up to seat-swapped pairs)."),
    ] = 1000,
    map_name: Annotated[
        str | None,
        typer.Option(
            "--map",
            help="Map id (see `clix roster list maps`) or a map file (default: graveyard; for HeroClix forces "
            "chemical-plant).",
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player styles A,B: random, tuned (the default), balanced, rusher, hunter, search (search:N: N "
            "playouts a decision); or sweep: every pairing of the heuristic "
            "styles (A's style x B's style) with the same seed, A's score per pairing and whether the verdict "
            "depends on play style. HeroClix forces: tuned (the default), balanced, brawler, cautious, random.",
        ),
    ] = None,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
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
            "-o",
            help="Output directory (default: a new folder clix-out/A-vs-B/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="Result store (a DuckDB file; default: ./clix-out/clix.duckdb, whatever --out is): games already "
            "there are read, not played, and every game played is added as it finishes, so an interrupted run "
            "resumes. Not used by --players sweep.",
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
    lacks. Two HeroClix forces play HeroClix (a force's file says `ruleset: heroclix-2005`): knockouts, pushing,
    knockback and healing in place of victims and plot twists."""
    from clix.analyzer.duel.command import run_duel
    from clix.analyzer.report.folder import Target

    checks.games(games)
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, stderr_console())
    library = matchup_library_for(rosters, [("ARMY_A", army_a), ("ARMY_B", army_b)], map_name)
    army_a, army_b, map_name = library.id(army_a), library.id(army_b), library.id(map_name or "")
    if out is None:
        target = Target(Path("clix-out") / f"{army_a}-vs-{army_b}", new_run=True)
    else:
        target = Target(out, force=force)
    if players is not None and players.strip() == "sweep":
        if store is not None or fresh:
            raise ClixError("--store, --fresh: a --players sweep run does not use the result store (a duel does)")
        kept = None
    else:
        kept = store_for(store)
    raise typer.Exit(
        run_duel(
            library.data,
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
            ruleset=library.ruleset,
        )
    )


def ladder(
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player styles to rank, comma-separated (default: random and every heuristic style; HeroClix: "
            "every style of its players).",
        ),
    ] = None,
    armies: Annotated[
        str | None,
        typer.Option(
            "--armies",
            help="Armies (or HeroClix forces) to play mirror matchups with, ids or files (default: every army of "
            "the ruleset).",
        ),
    ] = None,
    maps: Annotated[str | None, typer.Option("--maps", help="Maps to play on (default: every map).")] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help=f"Games per style pair, army and map (rounded up to seat-swapped pairs); {MAX_GAMES:,} in all at most.",
        ),
    ] = 40,
    seed: CellSeedOption = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Output directory (default: a new folder clix-out/ladder/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
    ruleset: RulesetOption = None,
) -> None:
    """Round robin of player styles: every pair of styles plays mirror matchups (army X against army X) on
    every army and map. Prints each style's Bradley-Terry rating (Elo points) and its score against each other
    style with 95% intervals; writes ladder.csv, games.csv and ladder.html (and ladder.pdf with --pdf) to --out.
    (A ladder does not use the result store: it plays every game.) HeroClix forces named in --armies, or
    --ruleset heroclix-2005, rank the HeroClix players on every sample force and map."""
    from clix.analyzer.ladder.command import run_ladder
    from clix.analyzer.report.folder import Target

    checks.games(games, what="per cell")
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, stderr_console())
    target = Target(Path("clix-out/ladder"), new_run=True) if out is None else Target(out, force=force)
    named = [("--armies", a) for a in split_names(armies)] + [("--maps", m) for m in split_names(maps)]
    chosen = analysis_ruleset(rosters, named, ruleset)
    if chosen != DEFAULT_RULESET:
        other = analysis_library_for(rosters, chosen, split_names(armies), split_names(maps))
        data, layers, ident = other.data, other.layers, other.id
    else:
        library = library_for(
            rosters,
            armies=split_names(armies),
            maps=split_names(maps),
            choose=lambda roster: {
                "armies": [] if split_names(armies) else sorted(roster.armies),
                "maps": [] if split_names(maps) else sorted(roster.maps),
            },
        )
        data, layers, ident = library.roster, library.layers, library.id
    raise typer.Exit(
        run_ladder(
            data,
            layers,
            players=players,
            armies=",".join(ident(a) for a in split_names(armies)) or None,
            maps=",".join(ident(m) for m in split_names(maps)) or None,
            games=games,
            seed=seed,
            jobs=cores,
            turns=turns,
            out=target,
            as_json=as_json,
            console=console,
            stop_on_error=stop_on_error,
            pdf=pdf,
            ruleset=chosen,
        )
    )


def replay(
    army_a: Annotated[
        str | None,
        typer.Argument(metavar="ARMY_A", help="Army A of the duel: an army id or file; not with --run."),
    ] = None,
    army_b: Annotated[str | None, typer.Argument(metavar="ARMY_B", help="Army B of the duel.")] = None,
    run: Annotated[
        Path | None,
        typer.Option(
            "--run",
            help="A duel's or a melee's --out folder (a field in pods too): replay its game --game from "
            "summary.json and games.csv.",
        ),
    ] = None,
    game: Annotated[int, typer.Option("--game", help="Game index in the duel (odd games have the seats swapped).")] = 0,
    map_name: Annotated[
        str | None,
        typer.Option("--map", help="Map id or file (default: graveyard; for HeroClix forces chemical-plant)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="The duel's master seed (default: 0).")] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player styles A,B: random, tuned (the default), balanced, rusher, hunter; HeroClix forces: its "
            "styles: tuned (the default), balanced, brawler, cautious, random.",
        ),
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
    against its games.csv row, exit 1 if it differs), or of `clix duel ARMY_A ARMY_B` with these options. A
    melee's folder (`clix melee`, `--pods` fields too) replays the game and prints its placings, checked alike."""
    from clix.analyzer.duel.replay import replay_run, replay_seed

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
        from clix.analyzer.melee.replay import folder_settings, replay_folder

        melee = folder_settings(run)
        if melee is not None:
            raise typer.Exit(replay_folder(rosters, run, melee, game, console, as_json=False))
        result = replay_run(rosters, run, game, warn=lambda line: stderr_console().print(line, markup=False))
    else:
        if army_a is None or army_b is None:
            raise ClixError("name the game: --run DIR --game N, or ARMY_A ARMY_B [--seed S] [--game N]")
        library = matchup_library_for(rosters, [("ARMY_A", army_a), ("ARMY_B", army_b)], map_name)
        result = replay_seed(
            library.layers,
            library.id(army_a),
            library.id(army_b),
            map_name=library.id(map_name or ""),
            seed=0 if seed is None else seed,
            players=players,
            turns=turns or 15,
            ties=ties or "break",
            game=game,
            ruleset=library.ruleset,
        )
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    for warning in result.warnings:
        err.print(warning, markup=False)
    console.print("\n".join(result.lines), markup=False)
    raise typer.Exit(result.exit_code)
