"""The `clix melee` command: three or four HorrorClix armies (or HeroClix forces) at one table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from clix.analyzer.cli.common import (
    ForceOption,
    JobsOption,
    RostersOption,
    RulesetOption,
    SeedOption,
    StopOption,
    TurnsOption,
    console,
    stderr_console,
    store_for,
)
from clix.analyzer.cli.meta import FreshOption, store_option
from clix.analyzer.common import checks


def melee(
    armies: Annotated[
        list[str],
        typer.Argument(
            metavar="ARMIES...",
            help="Three or four HorrorClix army ids (see `clix roster list armies`) or HeroClix force ids, slots A, "
            "B, C, D in this order.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help="Games to play (rounded up to whole blocks: 6 games for 3 armies, 24 for 4, 8 for teams).",
        ),
    ] = 480,
    teams: Annotated[
        str | None,
        typer.Option(
            "--teams", help="Two teams of two by slot letters, e.g. AB:CD (HC-SPECIAL-11); teammates sit alternately."
        ),
    ] = None,
    map_name: Annotated[
        str | None,
        typer.Option(
            "--map",
            help="Map id (default: graveyard). A field in pods (--pods) may name several, comma-separated "
            "(graveyard,mansion): every pod plays its seat rotations on each.",
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", help="Player style for every army, or one per army separated by commas."),
    ] = None,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
    ties: Annotated[
        str, typer.Option("--ties", help="Equal VP: 'break' (the cheaper army places higher, HC-END-09) or 'draw'.")
    ] = "break",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Output directory for games.csv, summary.json and report.html (default: a new folder "
            "clix-out/A-B-C-melee/run-YYYYMMDD-HHMMSS for each run); one holding an earlier run is refused unless "
            "--force.",
        ),
    ] = None,
    force: ForceOption = False,
    game: Annotated[
        int | None,
        typer.Option("--game", help="Replay only game N of the run (its seat order and seed) and print its placings."),
    ] = None,
    store: Annotated[
        Path | None,
        store_option("games already there are read, not played, and every game played is added as it finishes"),
    ] = None,
    fresh: FreshOption = False,
    pods: Annotated[
        int | None,
        typer.Option(
            "--pods",
            metavar="N",
            help="A field of N or more armies played in pods of N (3 or 4) drawn so every pair meets about equally, "
            "each pod in its N seat rotations, rated by a Plackett-Luce model on placings (95% bootstrap intervals "
            "over pods); --games counts the field's games. `clix meta --pods N` plays the same.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of text.")] = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
    ruleset: RulesetOption = None,
) -> None:
    """Play three or four armies at one table, free-for-all or two teams of two: every army in every seat (a block
    of games shares one seed), each army's win share and mean placing with 95% intervals over blocks against the
    equal-strength share, VP, victims slain, seat and first-player effects, attack spread and king-making."""
    from clix.analyzer.melee.command import build_melee, run_melee

    checks.games(games, minimum=1)
    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, stderr_console())
    if pods is not None:
        from clix.analyzer.melee.field import check_pod_size

        check_pod_size(pods)
    field = pods or 0
    melee_spec = build_melee(
        rosters,
        armies,
        map_name,
        players,
        teams,
        turns,
        ties,
        warn=lambda line: stderr_console().print(line, markup=False),
        field=field,
        ruleset=ruleset,
    )
    from clix.analyzer.report.folder import Target

    name = "-".join(melee_spec.armies) + ("-field" if field else "-teams" if melee_spec.teams else "-melee")
    target = Target(Path("clix-out") / name, new_run=True) if out is None else Target(out, force=force)
    if field:
        from clix.analyzer.melee.field import FieldPlay, run_field

        if game is not None:
            from clix.analyzer.melee.replay import print_field_game

            raise typer.Exit(print_field_game(melee_spec, field, games, seed, game, console, as_json))
        play = FieldPlay(games, seed, cores, field, store=store_for(store), fresh=fresh)
        raise typer.Exit(run_field(melee_spec, play, target, as_json, console))
    if game is not None:
        from clix.analyzer.melee.replay import print_game

        raise typer.Exit(print_game(melee_spec, seed, game, console, as_json))
    raise typer.Exit(
        run_melee(
            melee_spec,
            games,
            seed,
            cores,
            target,
            as_json,
            console,
            stderr_console(),
            stop_on_error,
            store_for(store),
            fresh,
        )
    )
