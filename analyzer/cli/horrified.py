"""The `clix horrified` command: Horrified's co-operative win rate for a line-up, and its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from clix.analyzer.cli.common import JobsOption, JsonOption, PdfOption, SeedOption, console, stderr_console, store_for
from clix.analyzer.cli.meta import FreshOption, store_option
from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError


def horrified(
    monsters: Annotated[
        str | None,
        typer.Option("--monsters", help="Monsters, comma-separated (default: the difficulty's first line-up)."),
    ] = None,
    heroes: Annotated[
        str | None,
        typer.Option("--heroes", help="Heroes, one per player in seat order, comma-separated (default: by --seats)."),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option("--seats", help="Players, 1-4 (one hero each), when --heroes is not given (default: 2)."),
    ] = None,
    difficulty: Annotated[
        str | None,
        typer.Option("--difficulty", help="novice (2 monsters), standard (3), challenging (4); default novice."),
    ] = None,
    table: Annotated[
        str,
        typer.Option(
            "--table",
            help="lineup (one win rate), difficulty (every supported line-up x 1-4 players), heroes (each hero "
            "swapped, paired on seeds) or sensitivity (each assumed number over its plausible range).",
        ),
    ] = "lineup",
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", help="Games per cell (default: 400 for a line-up, 100 per cell for a table)."),
    ] = None,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="The player style of every seat: team (the heuristic), search or search:N (N playouts a decision, "
            "the team player as prior; about 2 s a game at 16) or random.",
        ),
    ] = "team",
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Folder for games.csv and horrified.html (default: clix-out/horrified-TABLE)."
        ),
    ] = None,
    as_json: JsonOption = False,
    pdf: PdfOption = False,
    data: Annotated[
        list[Path] | None,
        typer.Option(
            "--data",
            metavar="PATH",
            help="Horrified files (ruleset: horrified) over the sample components, a table replacing the sample's "
            "whole (e.g. counted items for assumed ones); repeat to layer them.",
        ),
    ] = None,
    store: Annotated[
        Path | None,
        store_option(
            "each cell's games already there are read, not played, and every game played is added as it finishes"
        ),
    ] = None,
    fresh: FreshOption = False,
    sensitivity: Annotated[
        bool,
        typer.Option(
            "--sensitivity/--no-sensitivity",
            help="With --table difficulty or heroes: re-measure every verdict with each assumed number at an end of "
            "its plausible range and mark it survives, flips or (a difficulty cell) unsettled; a difficulty cell "
            "plays 10 games in each such world, 30 when not clear of half; a hero swap its --games.",
        ),
    ] = True,
) -> None:
    """Horrified (co-operative, issue 40): the team's win rate with a 95% Wilson interval for a monster line-up, heroes
        and player count, with end reasons (win, terror, deck out) and turns; or a difficulty, hero or sensitivity table.
        Every cell plays the same seeds (game k: the k-th child of --seed), so changes are paired and any --jobs gives the
        same numbers. Writes games.csv and horrified.html (horrified.pdf with --pdf), the assumed components listed
        first: the results are about them (docs/horrified.md). Keeps every game in the result store (`clix results`): the
    same command again plays only the games the store lacks."""
    from clix.analyzer.horrified.command import TABLES, Plan, run
    from clix.analyzer.horrified.lineup import layers_for, resolve, split

    if table not in TABLES:
        raise ClixError(f"--table: choose one of {', '.join(TABLES)}, not {table!r}")
    n = checks.games(games if games is not None else (400 if table == "lineup" else 100), minimum=1)
    checks.seed(seed)
    cores = checks.jobs(jobs, stderr_console())
    if pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    base, level = resolve(layers_for(data or []), split(monsters), split(heroes), seats, difficulty, players)
    folder = out or Path("clix-out") / f"horrified-{table}"
    run(Plan(table, base, level, n, seed, sensitivity), cores, folder, as_json, console, pdf, store_for(store), fresh)
