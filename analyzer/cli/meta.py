"""`clix meta`: balance across a whole field of armies, its options checked and its run started."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from clix.analyzer.cli.common import (
    CellSeedOption,
    ForceOption,
    JsonOption,
    PdfOption,
    RostersOption,
    RulesetOption,
    StopOption,
    TurnsOption,
    analysis_library_for,
    analysis_ruleset,
    console,
    library_for,
    of_total,
    split_names,
    stderr_console,
    store_for,
)
from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.engine.core.ruleset import DEFAULT_RULESET

if TYPE_CHECKING:
    pass

FreshOption = Annotated[
    bool, typer.Option("--fresh", help="Play every game even if the store has it (and store the new rows).")
]
"""`--fresh` of the commands that keep their games in the result store (meta, melee)."""


def store_option(what: str) -> Any:
    """`--store` of a command that keeps its games in the result store; `what` says what it reads and adds."""
    return typer.Option(
        "--store", help=f"Result store (a DuckDB file; default: ./clix-out/clix.duckdb, whatever --out is): {what}."
    )


def meta(
    armies: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="ARMIES",
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
            "-p",
            help="Player style of both sides: default (tuned), a style, styles comma-separated, or sweep (every "
            "heuristic style; the report shows each army's range over them).",
        ),
    ] = "default",
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help="Games per cell (army pair, map, style), rounded up to pairs; the cap with --target-ci.",
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
    seed: CellSeedOption = 0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Worker processes (0: all cores, the default; more than the machine's cores are capped to them); "
            "not with --backend dask, whose workers are the cluster's.",
        ),
    ] = None,
    turns: TurnsOption = 15,
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
            "-o",
            help="Output directory (default: a new folder clix-out/meta/run-YYYYMMDD-HHMMSS for each run); one "
            "holding an earlier run is refused unless --force.",
        ),
    ] = None,
    force: ForceOption = False,
    store: Annotated[
        Path | None,
        store_option("each cell's games are the duel's, read from it and added to it (--pods: the field's games)"),
    ] = None,
    fresh: FreshOption = False,
    as_json: JsonOption = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
    ruleset: RulesetOption = None,
    row: Annotated[
        bool,
        typer.Option(
            "--row",
            help="One row of the meta: only the first army against each of the others (the same cells, seeds and "
            "stored games as the whole meta's); writes row.html, summary.json, cells.csv and games.csv.",
        ),
    ] = False,
    pods: Annotated[
        int | None,
        typer.Option(
            "--pods",
            metavar="N",
            help="Multiplayer: the field in pods of N (3 or 4) at one table, drawn so every pair meets about "
            "equally, each pod in its N seat rotations; Plackett-Luce ratings on placings with 95% bootstrap "
            "intervals over pods (--resamples). --games counts the field's games; every pod plays on each map "
            "(--maps, default: every map with a starting area per seat); as `clix melee ARMIES --pods N`.",
        ),
    ] = None,
) -> None:
    """Balance across a field of armies: every pair plays on every map (the same seeds in every cell). Prints the
    score matrix, each army's score against the field, ratings, the Nash mixture of the matchup game, outliers,
    dominated armies, first-player, map and plot-twist balance; writes cells and games (CSV, Parquet), heatmap,
    meta.html (meta.pdf with --pdf), summary.json and field.json (the Nash mixture) to --out. A field of HeroClix
    forces (or --ruleset heroclix-2005 --budget N) plays HeroClix, its knockouts and victory points in place of
    plot twists."""
    from clix.analyzer.meta.command import MetaOptions, expand_army_arguments, field_armies, field_styles
    from clix.analyzer.report.folder import Target

    checks.games(games, what="per cell")
    checks.turns(turns)
    checks.seed(seed)
    if budget is not None:
        checks.budget(budget)
    if backend == "dask":
        if jobs is not None:
            raise ClixError(
                f"--jobs {jobs}: with --backend dask the cluster's workers play the games; leave out --jobs (the "
                "cluster's size is set where it is started)"
            )
        cores: int | None = None
    else:
        cores = checks.jobs(0 if jobs is None else jobs, stderr_console())
    named = expand_army_arguments(armies or [])
    if pods is not None:
        from clix.analyzer.melee.pods import PodsAsked, run_meta_pods

        refused = {"--row": row, "--target-ci": target_ci is not None, "--backend": backend != "local"}
        for flag in (f for f, given in refused.items() if given):
            raise ClixError(f"{flag}: not with --pods (a field in pods is played and rated as a whole); leave it out")
        asked = PodsAsked(
            armies=named, budget=budget, maps=split_names(maps), players=players, games=games, seed=seed,
            jobs=cores or 1, turns=turns, ties=ties, resamples=resamples, pdf=pdf, store=store_for(store),
            fresh=fresh, rosters=rosters, ruleset=ruleset, pods=pods,
        )  # fmt: skip
        target = Target(Path("clix-out/meta-pods"), new_run=True) if out is None else Target(out, force=force)
        warn = lambda line: stderr_console().print(line, markup=False)  # noqa: E731
        raise typer.Exit(run_meta_pods(asked, field_armies, target, as_json, console, warn))
    chosen = analysis_ruleset(
        rosters, [("ARMIES", a) for a in named] + [("--maps", m) for m in split_names(maps)], ruleset
    )
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
        store=store_for(store),
        fresh=fresh,
        backend=backend,
        scheduler=scheduler,
        ruleset=chosen,
    )
    if chosen != DEFAULT_RULESET:
        if backend == "dask":
            raise ClixError(f"--backend dask: a cluster plays HorrorClix armies only so far, not {chosen} forces")
        other = analysis_library_for(rosters, chosen, named, split_names(maps), label="ARMIES")
        rules = other.kit
        known = rules.armies(other.data)
        field = field_armies(None, [other.id(a) for a in named], budget, known, rules.army_kind)
        map_names = [other.id(m) for m in split_names(maps)] or sorted(rules.maps(other.data))
        styles = field_styles(players, chosen)
        pairs = len(field) - 1 if row else len(field) * (len(field) - 1) // 2
        checks.cells_games(games, pairs * len(map_names) * len(styles))
        raise _meta_exit(other.data, other.layers, field, map_names, styles, options, out, force, as_json, console, row)
    library = library_for(
        rosters,
        armies=named,
        maps=split_names(maps),
        choose=lambda roster: {
            "armies": of_total(roster, budget) if budget is not None else [],
            "maps": [] if split_names(maps) else sorted(roster.maps),
        },
    )
    field = field_armies(library.roster, [library.id(a) for a in named], budget)
    map_names = [library.id(m) for m in split_names(maps)] or sorted(library.roster.maps)
    styles = field_styles(players)
    cells = (len(field) - 1 if row else len(field) * (len(field) - 1) // 2) * len(map_names) * len(styles)
    checks.cells_games(games, cells)
    if backend == "dask" and scheduler:
        from clix.analyzer.play.cluster import check_scheduler

        check_scheduler(scheduler)  # a bounded look before any game: a wrong address is one line, not a hang
    raise _meta_exit(
        library.roster, library.layers, field, map_names, styles, options, out, force, as_json, console, row
    )


def _meta_exit(
    data: Any,
    layers: Any,
    field: Any,
    map_names: list[str],
    styles: list[str],
    options: Any,
    out: Path | None,
    force: bool,
    as_json: bool,
    console: Any,
    row: bool = False,
) -> typer.Exit:
    """Play and report the meta, or its first army's row (to `clix-out/meta` when no --out is given); the exit
    with its code."""
    from clix.analyzer.meta.command import run_meta
    from clix.analyzer.meta.row import run_meta_row
    from clix.analyzer.report.folder import Target

    target = Target(Path("clix-out/meta"), new_run=True) if out is None else Target(out, force=force)
    play = run_meta_row if row else run_meta
    return typer.Exit(
        play(data, layers, field, map_names, styles, options, out=target, as_json=as_json, console=console)
    )
