"""Playing the meta's games on an existing Dask cluster (`clix meta --backend dask --scheduler ADDRESS`).

The roster travels with the tasks: it is scattered to every worker once per run and each task installs it
as the library its games read, so workers need clix installed but no copy of the roster files. Every game
depends only on its matchup, the master seed and its index (`analyzer.runner`), so the rows are those of a
local run. Games go in batches (one task per batch) to keep the scheduler's overhead small.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from clix.analyzer.errors import ClixError
from clix.analyzer.pool import Outcome
from clix.analyzer.runner import Matchup, play_one, report_line
from clix.engine.roster.loader import Roster

BATCH = 16
"""Games per task."""
CONNECT_TIMEOUT = 20
"""Seconds to wait for the scheduler."""


def _install(roster: Roster, library: Path | tuple[Path, ...]) -> None:
    """Make `roster` the library this worker's games read for `library` (its paths need not exist here)."""
    from clix.analyzer import conformance

    layers = (library,) if isinstance(library, Path) else library
    conformance._ROSTERS[tuple(str(path.resolve()) for path in layers)] = roster


def play_batch(roster: Roster, master_seed: int, batch: list[tuple[Matchup, int]]) -> list[tuple[bool, Any]]:
    """A task: play a batch of games with the roster sent along; (True, rows) or (False, why) per game."""
    results: list[tuple[bool, Any]] = []
    for matchup, index in batch:
        _install(roster, matchup.library)
        try:
            results.append((True, play_one(matchup, master_seed, index)))
        except Exception as exc:  # a game that raises is reported, as the local pool does
            results.append((False, f"{type(exc).__name__}: {exc}"))
    return results


def connect(address: str) -> Any:
    """A client of the scheduler at `address` (a ClixError when Dask is missing or it cannot be reached)."""
    try:
        from distributed import Client
    except ImportError:
        raise ClixError(
            "--backend dask: the Dask packages are not installed; pip install 'clix[dask]' (or 'dask[distributed]')"
        ) from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClixError(f"--scheduler {address}: cannot reach the Dask scheduler ({exc})") from None


def dask_runner(
    address: str,
    roster: Roster,
    master_seed: int,
    report: Callable[[str], None] = report_line,
    stop_on_error: bool = False,
    batch: int = BATCH,
) -> Callable[[Sequence[tuple[Matchup, int]], Callable[[int], None] | None], Outcome]:
    """A runner for `analyzer.meta_play.play_field` that plays on the cluster at `address`."""
    state: dict[str, Any] = {}

    def run(items: Sequence[tuple[Matchup, int]], progress: Callable[[int], None] | None) -> Outcome:
        from distributed import as_completed

        if "client" not in state:
            state["client"] = connect(address)
            state["roster"] = state["client"].scatter(roster, broadcast=True)
        client = state["client"]
        outcome = Outcome()
        batches = [list(range(start, min(start + batch, len(items)))) for start in range(0, len(items), batch)]
        futures = {
            client.submit(
                play_batch, state["roster"], master_seed, [items[p] for p in positions], pure=False
            ): positions
            for positions in batches
        }
        pending = as_completed(list(futures), loop=client.loop)
        try:
            for future in pending:
                positions = futures[future]
                try:
                    results = future.result()
                except Exception as exc:  # the task itself failed (a worker lost twice): all its games
                    results = [(False, f"task failed: {type(exc).__name__}: {exc}")] * len(positions)
                for position, (ok, value) in zip(positions, results, strict=True):
                    if ok:
                        outcome.results[position] = value
                    else:
                        outcome.failed[position] = value
                        matchup, index = items[position]
                        report(
                            f"game {index} of {matchup.army_a} vs {matchup.army_b} on {matchup.map_name} failed: {value}"
                        )
                if progress is not None:
                    progress(len(positions))
                if stop_on_error and outcome.failed:
                    outcome.stopped = True
                    break
        except KeyboardInterrupt:
            outcome.interrupted = True
        if outcome.interrupted or outcome.stopped:
            client.cancel([f for f in futures if not f.done()])
        return outcome

    def close() -> None:
        if "client" in state:
            state.pop("client").close()

    run.close = close  # type: ignore[attr-defined]
    return run
