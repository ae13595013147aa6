"""`clix duel`: one army against another over many seeded games, summarized and reported."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.names import side_names
from clix.analyzer.common.progress import progress_bar, stage
from clix.analyzer.duel.check import CHECK_GAMES, check_style, run_check
from clix.analyzer.duel.check import summary_lines as check_summary_lines
from clix.analyzer.duel.console import precision_lines, print_summary
from clix.analyzer.duel.keeper import DuelKeeper
from clix.analyzer.library.rulesets import library_views
from clix.analyzer.library.views import army_contents
from clix.analyzer.play.pool import close_pool
from clix.analyzer.play.result import GameRows, RunResult, ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import Matchup, kit, player_factory, run_matchup
from clix.analyzer.report.folder import Interrupted, Target, claim_output
from clix.analyzer.stats.scoring import pair_means
from clix.analyzer.stats.sequential import equivalence, run_to_precision
from clix.engine import compiled
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

if TYPE_CHECKING:
    from clix.analyzer.play.compact import CompactRows


def _counts(column: Any) -> dict[str, int]:
    """How often each value occurs, most often first (a categorical column's unused categories left out)."""
    return {str(value): int(count) for value, count in column.value_counts().items() if count}


def parse_players(spec: str | None, ruleset: str = DEFAULT_RULESET) -> tuple[str, str]:
    """ "A_STYLE,B_STYLE" (or one style for both; None: the ruleset's default style for both), each a style the
    ruleset's kit has a player for (else its did-you-mean line)."""
    if spec is None:
        default = kit(ruleset).default_style
        return default, default
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise ClixError(f"--players takes two styles separated by a comma, like balanced,rusher (got {spec!r})")
    for name in names:
        player_factory(name, ruleset)
    return names[0], names[1]


def run_duel(
    roster: Any,
    library: Path | tuple[Path, ...],
    army_a: str,
    army_b: str,
    *,
    games: int,
    map_name: str,
    players: str | None,
    seed: int,
    jobs: int | None,
    turns: int,
    out: Path | Target,
    as_json: bool,
    console: Console,
    ties: str = "break",
    target_ci: float | None = None,
    margin: float | None = None,
    stop_on_error: bool = False,
    pdf: bool = False,
    store: Path | None = None,
    fresh: bool = False,
    check_with: str | None = None,
    ruleset: str = DEFAULT_RULESET,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Play the duel, print its summary and write its outputs; return the exit code: 0, 1 when games failed
    (each named on stderr; the outputs cover the others), 130 when interrupted.

    `roster` is the library's data in `ruleset` (a HorrorClix `Roster`, a HeroClix `Library`: see
    analyzer/library/rulesets.py); `players` None plays the ruleset's default style on both sides.

    `out` is claimed (checked, locked) before the first game and replaced atomically after the last. `pdf`
    also writes report.pdf (WeasyPrint is loaded, and checked, before the first game). With a `store`
    (analyzer.play.store) the games stored for this duel's key are taken from it (unless `fresh`), only the others
    are played, each written to it as it finishes, and the run is recorded there. `check_with` (a style, as
    search:200) replays the first games with it on both sides and compares the verdicts (analyzer.duel.check).
    `progress(games)` is told of the games as they finish when no progress bar is shown (`clix serve`'s worker)."""
    check_duel_options(ties, target_ci, margin)
    if players is not None and players.strip() == "sweep":
        from clix.analyzer.duel.sweep import run_sweep

        if pdf:
            raise ClixError(
                "--pdf: --players sweep writes no report to render (sweep.csv and games.csv); leave out --pdf"
            )
        if check_with is not None:
            raise ClixError("--check-with: --players sweep has no single verdict to check; leave out --check-with")

        return run_sweep(
            roster,
            library,
            army_a,
            army_b,
            games=games,
            map_name=map_name,
            players=players,
            seed=seed,
            jobs=jobs,
            turns=turns,
            out=out,
            as_json=as_json,
            console=console,
            ties=ties,
            stop_on_error=stop_on_error,
            ruleset=ruleset,
        )
    matchup, checker = duel_matchup(
        roster,
        library,
        army_a,
        army_b,
        map_name=map_name,
        players=players,
        turns=turns,
        ties=ties,
        check_with=check_with,
        note=lambda line: console.print(line, markup=False),
        ruleset=ruleset,
    )
    if pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    names = side_names(roster, army_a, army_b)
    with claim_output(out) as folder:
        keeper = DuelKeeper.start(store, roster, matchup, seed, games + games % 2, fresh) if store is not None else None
        try:
            result, precision = play_duel(
                matchup,
                games,
                seed,
                jobs,
                quiet=as_json,
                console=console,
                target=target_ci,
                stop_on_error=stop_on_error,
                label=f"{names['a']} vs {names['b']}",
                known=keeper.known if keeper else None,
                on_result=keeper.writer.add if keeper else None,
                on_batch=keeper.writer.tick if keeper else None,
                progress=progress,
            )
        finally:
            if keeper is not None:
                keeper.writer.close()
        if keeper is not None and result.interrupted and result.count:
            again = "the same command without --fresh" if fresh else "the same command"
            report_line(f"the finished games are kept in the store {store}: {again} plays only the rest")
        if not result.count:
            if result.interrupted or not result.crashed:
                raise Interrupted()
            report_line("no game finished before the crash: nothing to report")
            return run_exit_code(False, True, True)
        # the report loads here, not at import: a long duel plays its games without it
        from clix.analyzer.report.duel import write_outputs

        close_pool()
        game_rows, figure_rows, summary = summarize_duel(
            result,
            precision,
            matchup,
            margin=margin,
            checker=checker,
            seed=seed,
            jobs=jobs,
            console=console,
            quiet=as_json,
        )
        games_df, figures_df = game_rows.frame, figure_rows.frame
        settings = duel_settings(
            matchup,
            names,
            result,
            games_df,
            games=games,
            seed=seed,
            jobs=jobs,
            target_ci=target_ci,
            margin=margin,
            checker=checker,
            store=None if keeper is None else store,
            fresh=fresh,
            run=None if keeper is None else keeper.run_id,
        )
        views = duel_views(ruleset, roster, army_a, army_b, map_name)
        provenance = views.provenance
        try:
            with folder.staged() as staging, stage(console, "writing the tables and the report", as_json):
                written = write_outputs(
                    staging,
                    games_df,
                    figures_df,
                    summary,
                    settings,
                    names,
                    provenance,
                    armies=views.armies,
                    layout=views.layout,
                    rows=(game_rows, figure_rows),
                    draw_map=views.draw_map,
                )
                if pdf:
                    written["pdf"] = pdf_from(written["report"], staging / "report.pdf")
        finally:  # recorded even when the outputs could not be written: its games are in the store
            if keeper is not None:
                document = {"settings": settings, "provenance": provenance, **summary}
                keeper.record(result, document, folder.target)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        from clix.analyzer.report.duel import verdict

        outputs = {key: str(path) for key, path in written.items()}
        print_json(
            {
                "settings": settings,
                "provenance": provenance,
                "verdict": verdict(summary, settings, names),
                **summary,
                "outputs": outputs,
            }
        )
    else:
        print_summary(console, summary, settings, names, provenance, written["report"])
        if "pdf" in written:
            console.print(f"pdf: {written['pdf']}", markup=False)
        for line in precision_lines(summary, names):
            console.print(line, markup=False)
        if "verdict_check" in summary:
            for line in check_summary_lines(summary["verdict_check"], names):
                console.print(line, markup=False)
    return run_exit_code(result.interrupted, bool(result.failed), result.stopped)


def check_duel_options(ties: str, target_ci: float | None, margin: float | None) -> None:
    """--ties, --target-ci and --margin within their ranges (a ClixError naming the option if not)."""
    if ties not in ("break", "draw"):
        raise ClixError(f"--ties takes 'break' (the cheaper army wins, HC-END-09) or 'draw' (got {ties!r})")
    if target_ci is not None and not 0 < target_ci < 0.5:
        raise ClixError(f"--target-ci is a half-width between 0 and 0.5, like 0.03 for ±3 points (got {target_ci})")
    if margin is not None and not 0 < margin < 0.5:
        raise ClixError(f"--margin is a band around 50% between 0 and 0.5, like 0.05 for 45-55% (got {margin})")


def duel_matchup(
    roster: Any,
    library: Path | tuple[Path, ...],
    army_a: str,
    army_b: str,
    *,
    map_name: str,
    players: str | None,
    turns: int,
    ties: str,
    check_with: str | None,
    note: Callable[[str], None],
    ruleset: str = DEFAULT_RULESET,
) -> tuple[Matchup, str | None]:
    """The duel's matchup (its armies and map checked in `roster`, the ruleset's data, through its kit; its styles
    parsed) and its checking style; `note` is told when the armies' build totals differ."""
    rules = kit(ruleset)
    armies, maps = rules.armies(roster), rules.maps(roster)
    kind = str(rules.army_kind)
    listing = "armies" if kind == "army" else f"{kind}s"
    for army in (army_a, army_b):
        if army not in armies:
            raise ClixError(did_you_mean(kind, army, armies, f"`clix roster list {listing}` shows every {kind}"))
    if map_name not in maps:
        raise ClixError("--map: " + did_you_mean("map", map_name, maps))
    if armies[army_a].build_total != armies[army_b].build_total:
        note(
            f"note: the {listing} have different build totals ({armies[army_a].build_total} and "
            f"{armies[army_b].build_total}); the game uses the larger"
        )
    style_a, style_b = parse_players(players, ruleset)
    checker = check_style(check_with, ruleset)
    return Matchup(library, army_a, army_b, map_name, style_a, style_b, turns, ties, ruleset=ruleset), checker


@dataclass
class DuelViews:
    """What a duel's report shows of its data: where it comes from (`provenance`), each side's army or force (by
    side, "a" and "b"), and the map (`layout`, a HorrorClix map drawn by the report; or `draw_map(path, notes)`)."""

    provenance: str
    armies: dict[str, Any]
    layout: Any = None
    draw_map: Callable[[Path, Mapping[int, str] | None], None] | None = None


def duel_views(ruleset: str, roster: Any, army_a: str, army_b: str, map_name: str) -> DuelViews:
    """The report's views of the duel's data in `ruleset` (analyzer/library: `views` for HorrorClix, the
    ruleset's own module of `rulesets.VIEWS` for another)."""
    if ruleset == DEFAULT_RULESET:
        from clix.analyzer.report.duel import provenance_line

        return DuelViews(
            provenance_line(roster, [army_a, army_b]),
            {"a": army_contents(roster, army_a), "b": army_contents(roster, army_b)},
            layout=roster.maps[map_name],
        )
    views = library_views(ruleset)
    game_map = kit(ruleset).maps(roster)[map_name]
    return DuelViews(
        views.provenance_line(roster, [army_a, army_b]),
        {"a": views.force_contents(roster, army_a), "b": views.force_contents(roster, army_b)},
        draw_map=lambda path, notes: views.draw_map_png(game_map, path, notes),
    )


def summarize_duel(
    result: RunResult,
    precision: dict[str, Any] | None,
    matchup: Matchup,
    *,
    margin: float | None,
    checker: str | None,
    seed: int,
    jobs: int | None,
    console: Console,
    quiet: bool,
    progress: Callable[[int], None] | None = None,
) -> tuple[CompactRows, CompactRows, dict[str, Any]]:
    """The duel's game and figure rows in compact form (`result`'s tables are freed) and its summary: every
    statistic, with the precision reached, the equivalence test (`margin`) and the check with `checker`."""
    from clix.analyzer.stats.duel import summarize  # loaded here: a long duel plays its games without it

    with stage(console, f"summarizing {result.count:,} games", quiet):
        # the rows in compact form, then freed: the statistics and the files come from the compact rows
        figure_rows = result.figure_table.compact(release=True)
        game_rows = result.game_table.compact(release=True)
        games_df, figures_df = game_rows.frame, figure_rows.frame
        summary = summarize(games_df, figures_df)
    if precision is not None:
        summary["precision"] = precision
    if margin is not None:
        alpha = 0.05 if precision is None else 1 - precision["confidence"]  # the per-look level under --target-ci
        summary["equivalence"] = equivalence(pair_means(games_df), margin, alpha)
    if checker is not None:
        with progress_bar(console, f"check with {checker}", min(CHECK_GAMES, len(games_df)), quiet) as step:
            summary["verdict_check"] = run_check(matchup, games_df, checker, seed, jobs, progress=step or progress)
    return game_rows, figure_rows, summary


def duel_settings(
    matchup: Matchup,
    names: Mapping[str, str],
    result: RunResult,
    games_df: Any,
    *,
    games: int,
    seed: int,
    jobs: int | None,
    target_ci: float | None,
    margin: float | None,
    checker: str | None,
    store: Path | None,
    fresh: bool,
    run: int | None,
) -> dict[str, Any]:
    """The settings of summary.json: what was asked (the armies by id, and by name as shown: `names`, by side,
    from `analyzer.common.names.side_names`), how it was played, and the command that plays it again."""
    army_a, army_b, map_name, library = matchup.army_a, matchup.army_b, matchup.map_name, matchup.library
    style_a, style_b, turns, ties = matchup.style_a, matchup.style_b, matchup.turn_limit, matchup.ties
    command = (
        f"clix duel {army_a} {army_b} --games {games} --map {map_name} --players {style_a},{style_b} "
        f"--seed {seed} --turns {turns}"
        + (" --ties draw" if ties == "draw" else "")
        + (f" --target-ci {target_ci}" if target_ci is not None else "")
        + (f" --margin {margin}" if margin is not None else "")
        + (f" --check-with {checker}" if checker is not None else "")
    )
    return {
        "army_a": army_a,
        "army_b": army_b,
        "army_a_name": names["a"],
        "army_b_name": names["b"],
        "map": map_name,
        "players": f"{style_a},{style_b}",
        "games": len(games_df),
        "seed": seed,
        "turns": turns,
        "ties": ties,
        "ruleset": ruleset_named(matchup.ruleset).version,
        "rosters": [str(layer.resolve()) for layer in ((library,) if isinstance(library, Path) else library)],
        "version": _version(),
        "jobs": jobs or os.cpu_count(),
        "seconds": round(result.seconds, 2),
        "games_per_second": round(result.played / max(result.seconds, 1e-9), 2) if result.played else None,
        "played": result.played,
        "from_store": result.from_store,
        "store": None if store is None else str(store),
        "fresh": fresh,
        "run": run,
        "engine": compiled.status,
        "game_engines": _counts(games_df["engine"]) if "engine" in games_df else {},
        "interrupted": result.interrupted,
        "failed_games": result.failed,
        "stopped_on_error": result.stopped and not result.crashed,
        "stopped_at_crash": result.crashed,
        "command": command,
    }


def pdf_from(report: Path, pdf: Path) -> Path:
    """Render the HTML report written at `report` to `pdf` (both in the staging folder). The PDF engine failing
    on it is a one-line ClixError (nothing is then published); a failed write names its file as usual."""
    from clix.analyzer.report import duel as report_module

    html = report.read_text(encoding="utf-8")
    try:
        return report_module.write_pdf(html, pdf)
    except (OSError, ClixError):
        raise
    except Exception as exc:  # whatever the engine raised past write_pdf's own check
        raise report_module.pdf_engine_error(exc, pdf) from None


def play_duel(
    matchup: Matchup,
    games: int,
    seed: int,
    jobs: int | None,
    quiet: bool,
    console: Console,
    target: float | None,
    stop_on_error: bool = False,
    known: RunResult | None = None,
    on_result: Callable[[int, GameRows], None] | None = None,
    on_batch: Callable[[], None] | None = None,
    progress: Callable[[int], None] | None = None,
    label: str | None = None,
) -> tuple[RunResult, dict[str, Any] | None]:
    """Play the duel (to `target` precision when given, `games` at most), with a progress bar headed `label` (by
    default the armies' ids) unless quiet (else `progress` is told of the games as they finish); games in `known`
    are taken from it, `on_result` is told of each game played."""

    def play(progress: Callable[[int], None] | None) -> tuple[RunResult, dict[str, Any] | None]:
        if target is None:
            played = run_matchup(
                matchup,
                games,
                seed,
                jobs,
                progress=progress,
                stop_on_error=stop_on_error,
                known=known,
                on_result=on_result,
                on_batch=on_batch,
            )
            return played, None
        return run_to_precision(
            matchup,
            target,
            games,
            seed,
            jobs,
            progress,
            stop_on_error=stop_on_error,
            known=known,
            on_result=on_result,
            on_batch=on_batch,
        )

    total = games + games % 2
    heading = label or f"{matchup.army_a} vs {matchup.army_b}"
    with progress_bar(console, heading, total, quiet, done=0 if known is None else known.count) as advance:
        result, precision = play(advance or progress)
    ended_early(result.count, "games", result.interrupted, result.stopped, len(result.failed), result.crashed)
    return result, precision


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("clix")
    except PackageNotFoundError:
        return "dev"
