"""`clix meta`: balance across a whole field of armies (issue 18).

Every unordered pair of the field's armies plays on every map with every player style asked (both sides the
same style): one cell each. A cell's games are exactly `clix duel A B --map M --seed S --players s,s`'s (the
same matchup, master seed and game indexes, so the same seed paths): every cell shares the seeds (common random
numbers), games come in seat-swapped pairs, and a cell's score carries the duel's interval over pairs.

With a target half-width (`--target-ci W`) the cells play in planned looks (pairs doubling from 20, each look
at the Bonferroni level of `analyzer.stats.sequential`); after each look a cell settles when its interval is
narrow enough ("precise") or lies wholly on one side of 50% ("clear": who is favoured is known); the others play
on, up to `--games`. A cell's score is then known to the same confidence as a `clix duel --target-ci` run's.

From the cells: the score matrix (each army pair's score, an equal-weight mean over maps and styles), each
army's score against the field, Bradley-Terry ratings, the Nash mixture of the matchup game (`analyzer.meta.nash`)
with a bootstrap of the pairs, dominated armies, outliers, the first-player advantage by army and map, draws
and tie-breaks, plot-twist balance, map balance and, with a style sweep, the range over styles.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.meta.field import expand_army_arguments, field_armies, field_cells, field_styles
from clix.analyzer.meta.play import FieldRun, Runner, field_games, local_runner, play_field
from clix.analyzer.meta.report import meta_headline, meta_lines, write_meta
from clix.analyzer.meta.summary import RESAMPLES, field_document, meta_summary
from clix.analyzer.play.result import GameRows, ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import SWEPT_STYLES, Matchup
from clix.analyzer.report.folder import Interrupted, Target, claim_output
from clix.engine import RULESET_VERSION, compiled
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

if TYPE_CHECKING:
    import pandas as pd
    from clix.engine.horrorclix.roster.loader import Roster

__all__ = [
    "MetaOptions",
    "expand_army_arguments",
    "field_armies",
    "field_styles",
    "run_meta",
]
"""What `clix meta` (analyzer/cli/__init__.py) takes from here; the field, the play, the statistics and the outputs live in
meta_field, meta_play, meta_stats, meta_balance, meta_summary and meta_report."""


# --- the command ---------------------------------------------------------------------------------------------


@dataclass
class MetaOptions:
    """What `clix meta` was asked (besides the field)."""

    games: int = 200
    seed: int = 0
    jobs: int | None = None
    turns: int = 15
    ties: str = "break"
    target_ci: float | None = None
    budget: int | None = None
    resamples: int = RESAMPLES
    stop_on_error: bool = False
    pdf: bool = False
    store: Path | None = None
    fresh: bool = False
    backend: str = "local"
    scheduler: str | None = None
    ruleset: str = DEFAULT_RULESET
    """The ruleset of the field's armies (HeroClix forces: its kit's data and rows, no plot twists)."""


class _Progress:
    """A progress bar whose total grows look by look (under --target-ci, cells settle as the run goes)."""

    def __init__(self, console: Console, quiet: bool) -> None:
        self.console, self.quiet = console, quiet
        self.progress: Any = None
        self.task: Any = None
        self.total = 0
        self.started = time.perf_counter()

    @contextmanager
    def shown(self, description: str) -> Iterator[_Progress]:
        if self.quiet or not self.console.is_terminal:  # off a terminal rich would leave a blank line
            yield self
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=self.console, transient=True) as progress:
            self.progress = progress
            self.task = progress.add_task(description, total=0)
            yield self

    def look(self, games: int) -> None:
        self.total += games
        if self.progress is not None:
            self.progress.update(self.task, total=self.total)

    def advance(self, games: int) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, games)


def run_meta(
    roster: Roster | Any,
    library: Path | tuple[Path, ...],
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    *,
    out: Path | Target,
    as_json: bool,
    console: Console,
) -> int:
    """Play the meta, print its summary (or JSON) and write its outputs; return the exit code (as `run_duel`'s).
    `roster` is the library's data in `options.ruleset` (a HorrorClix `Roster`, a HeroClix `Library`)."""
    check_meta_options(options)
    matchups = field_cells(library, armies, maps, styles, options.turns, options.ties, options.ruleset)
    runner, keeper = meta_start(roster, matchups, options)
    with claim_output(out) as folder:
        bar = _Progress(console, as_json)
        with bar.shown(f"meta of {len(armies)} armies, {len(matchups)} cells"):
            run = play_meta(matchups, options, runner, keeper, progress=bar.advance, on_look=bar.look)
        games = finished_games(matchups, run, keeper, options)
        if games.empty and run.crashed:
            report_line("no game finished before the crash: nothing to report")
            return run_exit_code(run.interrupted, True, True)
        if games.empty:
            if run.interrupted:
                raise Interrupted()
            report_line("no game finished: each failed (named above); nothing to report")
            return run_exit_code(False, True, run.stopped)
        summary, cells, settings, field_doc = meta_outcome(
            roster, library, armies, maps, styles, options, matchups, run, games
        )
        kind = _kind(options.ruleset)
        with folder.staged() as staging:
            written = write_meta(staging, summary, cells, games, settings, field_doc, pdf=options.pdf, kind=kind)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        verdict = meta_headline(summary, settings, kind)
        payload = {
            "settings": settings,
            "verdict": verdict,
            **summary,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        print_json(payload)
    else:
        print_lines(console, meta_lines(summary, settings, kind))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(run.interrupted, bool(run.failed), run.stopped)


def meta_start(
    roster: Roster | Any, matchups: Sequence[Matchup], options: MetaOptions
) -> tuple[Runner, MetaStore | None]:
    """Before a meta's (or its row's) games: --pdf checked, the runner and the result store's keeper (None
    without a store)."""
    if options.pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    runner = meta_runner(roster, options)
    keeper = MetaStore.open(options.store, roster, matchups, options) if options.store is not None else None
    return runner, keeper


def finished_games(
    matchups: Sequence[Matchup], run: FieldRun, keeper: MetaStore | None, options: MetaOptions
) -> pd.DataFrame:
    """The games a meta (or its row) finished, saying first where an interrupted run keeps them and how it ended."""
    if keeper is not None and run.interrupted and run.played:
        report_line(f"the finished games are kept in the store {options.store}: the same command plays only the rest")
    games = field_games(matchups, run)
    ended_early(len(games), "games", run.interrupted, run.stopped, len(run.failed), run.crashed)
    return games


def _kind(ruleset: str) -> str:
    """What `ruleset` calls an army ("army", "force")."""
    from clix.analyzer.play.runner import kit

    return str(kit(ruleset).army_kind)


def check_meta_options(options: MetaOptions) -> None:
    """--ties and --target-ci within their ranges (a ClixError naming the option if not)."""
    if options.ties not in ("break", "draw"):
        raise ClixError(f"--ties takes 'break' or 'draw' (got {options.ties!r})")
    if options.target_ci is not None and not 0 < options.target_ci < 0.5:
        raise ClixError(
            f"--target-ci is a half-width between 0 and 0.5, like 0.03 for ±3 points (got {options.target_ci})"
        )


def play_meta(
    matchups: Sequence[Matchup],
    options: MetaOptions,
    runner: Runner,
    keeper: MetaStore | None,
    *,
    progress: Callable[[int], None] | None,
    on_look: Callable[[int], None] | None,
) -> FieldRun:
    """Play the field's cells (games from the store's `keeper` taken from it, the others written to it as they
    finish); `on_look` is told of the games each look plans, `progress` of the games as they finish. The runner
    and the store's writer are closed at the end."""
    try:
        return play_field(
            matchups,
            options.games,
            runner,
            options.target_ci,
            known=keeper.known if keeper else None,
            on_game=keeper.add if keeper else None,
            progress=progress,
            on_look=on_look,
            on_batch=keeper.writer.tick if keeper else None,
        )
    finally:
        if keeper is not None:
            keeper.writer.close()
        close = getattr(runner, "close", None)
        if close is not None:
            close()


def meta_outcome(
    roster: Roster,
    library: Path | tuple[Path, ...],
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    matchups: Sequence[Matchup],
    run: FieldRun,
    games: pd.DataFrame,
) -> tuple[dict[str, Any], pd.DataFrame, dict[str, Any], dict[str, Any]]:
    """The meta's summary, its cell table, its settings and field.json's document (the Nash mixture), from the
    games played (`games`: `field_games`, not empty)."""
    heroclix = options.ruleset != DEFAULT_RULESET
    summary, cells = meta_summary(
        armies, styles, matchups, run, games, roster, options.seed, options.resamples, heroclix=heroclix
    )
    settings = _settings(armies, maps, styles, options, run, len(matchups), library)
    if not heroclix:
        return summary, cells, settings, field_document(summary, settings["command"], options.budget, roster)
    from clix.analyzer.play.runner import kit

    known = kit(options.ruleset).armies(roster)
    return summary, cells, settings, field_document(summary, settings["command"], options.budget, None, known)


def meta_runner(roster: Roster | Any, options: MetaOptions) -> Runner:
    if options.backend == "local":
        if options.scheduler is not None:
            raise ClixError("--scheduler: only with --backend dask (the local backend plays on this machine)")
        return local_runner(options.seed, options.jobs or os.cpu_count() or 1, stop_on_error=options.stop_on_error)
    if options.backend == "dask":
        from clix.analyzer.play.cluster import dask_runner

        if not options.scheduler:
            raise ClixError("--backend dask: give the cluster's scheduler, --scheduler tcp://HOST:8786")
        if options.ruleset != DEFAULT_RULESET:
            raise ClixError(f"--backend dask: a cluster plays HorrorClix armies only so far, not {options.ruleset}")
        return dask_runner(options.scheduler, roster, options.seed, stop_on_error=options.stop_on_error)
    raise ClixError(f"--backend takes local or dask (got {options.backend!r})")


def _settings(
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    run: FieldRun,
    cells: int,
    library: Path | tuple[Path, ...],
) -> dict[str, Any]:
    swept = list(SWEPT_STYLES) if options.ruleset == DEFAULT_RULESET else _swept(options.ruleset)
    players = "sweep" if len(styles) > 1 and list(styles) == swept else ",".join(styles)
    command = (  # the field by its army ids: the same cells even after the library gains an army of that budget
        f"clix meta {' '.join(armies)} --maps {','.join(maps)} --players {players} --games {options.games} "
        f"--seed {options.seed} --turns {options.turns}"
        + (" --ties draw" if options.ties == "draw" else "")
        + (f" --target-ci {options.target_ci}" if options.target_ci is not None else "")
    )
    return {
        "armies": list(armies),
        "maps": list(maps),
        "players": list(styles),
        "budget": options.budget,
        "cells": cells,
        "games_cap": options.games + options.games % 2,
        "target_ci": options.target_ci,
        "looks": run.looks,
        "look_confidence": run.confidence,
        "games": sum(len(s.games) for s in run.cells),
        "played": run.played,
        "from_store": run.from_store,
        "seed": options.seed,
        "turns": options.turns,
        "ties": options.ties,
        "resamples": options.resamples,
        "ruleset": RULESET_VERSION if options.ruleset == DEFAULT_RULESET else ruleset_named(options.ruleset).version,
        "rosters": [str(p) for p in ((library,) if isinstance(library, Path) else library)],
        "backend": options.backend,
        "scheduler": options.scheduler,
        "jobs": options.jobs or os.cpu_count(),
        "seconds": round(run.seconds, 2),
        "games_per_second": round(run.played / max(run.seconds, 1e-9), 2) if run.played else None,
        "engine": compiled.status,
        "store": None if options.store is None else str(options.store),
        "interrupted": run.interrupted,
        "stopped_on_error": run.stopped,
        "stopped_at_crash": run.crashed,
        "failed_games": run.failed,
        "command": command,
    }


def _swept(ruleset: str) -> list[str]:
    """The styles a `--players sweep` of `ruleset` plays (its kit's, but random)."""
    from clix.analyzer.play.runner import kit

    return [style for style in kit(ruleset).styles if style != "random"]


class MetaStore:
    """The meta's use of the result store: each cell's games (keyed as the duel keys them) read before the run
    and each game played written as it finishes (`StoreWriter`), as `clix duel` does: a killed run loses only
    the games in flight, and the same command plays only the rest."""

    def __init__(self, store: Any, keys: list[Any], known: list[dict[int, GameRows]]) -> None:
        from clix.analyzer.play.experiment import StoreWriter

        self.store, self.keys, self.known = store, keys, known
        self.writer = StoreWriter(store, report_line)

    @classmethod
    def open(cls, path: Path, roster: Roster | Any, matchups: Sequence[Matchup], options: MetaOptions) -> MetaStore:
        from clix.analyzer.play.store import Store, game_key

        store = Store.open(path)
        keys = [game_key(roster, m, options.seed) for m in matchups]
        cap = options.games + options.games % 2
        known = [{} if options.fresh else store.load(k, below=cap) for k in keys]
        return cls(store, keys, known)

    def add(self, cell: int, index: int, rows: GameRows) -> None:
        """A game of `cell` that finished: on its way to the store."""
        self.writer.add(self.keys[cell], index, rows)
