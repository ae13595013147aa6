"""Playing many independent items (games) on worker processes without losing any or leaving any behind.

Items go to loky workers in batches. Each worker notes in a small file which item it is playing, so when a
worker dies (killed, out of memory, a crash in C) the games it was on are known: they are played again,
each alone in a fresh one-worker pool, and a game whose worker dies twice is reported as failed while the
run goes on with the others (or, with `stop_on_error`, the run stops keeping every game finished). A game
that raises is reported the same way; with `stop_on_raise` (what the analyses ask: a game that raises is a bug
or bad data, and the next thousand would raise the same) the run stops at the first one, keeping every game
finished. Results depend only on the item, never on the batch or the pool, so a recovered run gives the same
rows as an uninterrupted one.

Workers ignore Ctrl-C (the parent stops them) and exit when their parent dies: each watches its parent
pid from a thread, since a SIGKILLed parent cannot stop anything.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from concurrent.futures import BrokenExecutor as _Broken
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.signals import signals_held

IDLE_TIMEOUT = 300
"""Idle workers exit after this many seconds (joblib's default): the next run reuses warm workers."""
WATCH_INTERVAL = 0.5
"""Seconds between a worker's looks at its parent."""
MARKER_PREFIX = "clix-workers-"
BLIND_BREAKS = 3
"""Pool breaks with no game in progress (a worker killed while idle) tolerated before the run stops."""

POLL = 0.2
"""Seconds between the pool loop's looks at a stop request (Ctrl-C, SIGTERM)."""

DIED = "worker died"

Work = Callable[[Any], Any]
Describe = Callable[[int], str]
Report = Callable[[str], None]
Progress = Callable[[int], None] | None
OnResult = Callable[[int, Any], None] | None


@dataclass
class Outcome:
    """Results by item position, failures by position (a one-line reason), and how the run ended."""

    results: dict[int, Any] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    interrupted: bool = False
    stopped: bool = False
    """Stopped at a failure (`stop_on_error`, `stop_on_raise`, or workers dying with no game in progress)."""
    crashed: bool = False
    """Stopped because a game raised (`stop_on_raise`, or `stop_on_error`), not because a worker died."""
    on_result: OnResult = field(default=None, repr=False)
    """Told of each result as it is kept (`run_items`)."""
    on_batch: Callable[[], None] | None = field(default=None, repr=False)
    """Told after each batch's results are kept (and told to `on_result`): a store's writer flushes there."""
    keep: bool = True
    """Keep each result in `results`; when False results only go to `on_result` (a caller that streams them
    keeps memory flat), and `done` alone says which items finished."""
    done: bytearray = field(default_factory=bytearray, repr=False)
    """One byte per item: 1 once it finished (whether or not `results` keeps it)."""

    def settled(self, position: int) -> bool:
        """Whether the item finished or failed."""
        return bool(self.done[position]) or position in self.failed


# --- the worker side ----------------------------------------------------------------------------------

_marker: tuple[str, int] | None = None


def _worker_start(parent: int) -> None:
    """Initializer of every worker: ignore Ctrl-C, and exit when the parent process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="clix-parent-watch").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL)
    os._exit(1)  # the parent died (a SIGKILL gives it no chance to stop us): nobody wants our results


def _mark(directory: str | None, position: int) -> None:
    """Note (in a file named by this process's pid) which item this worker is playing."""
    global _marker
    if directory is None:
        return
    path = os.path.join(directory, str(os.getpid()))
    if _marker is None or _marker[0] != path:
        if _marker is not None:
            with contextlib.suppress(OSError):
                os.close(_marker[1])
        _marker = (path, os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.pwrite(_marker[1], f"{position:>20}".encode(), 0)


def run_batch(
    work: Work, marker: str | None, positions: Sequence[int], items: list[Any], stop_on_raise: bool = False
) -> list[tuple[int, bool, Any]]:
    """Play a batch: (position, True, result) per item, or (position, False, reason) when it raised; with
    `stop_on_raise` the batch ends at the first item that raised (the run stops there)."""
    done = []
    for position, item in zip(positions, items, strict=True):
        _mark(marker, position)
        try:
            done.append((position, True, work(item)))
        except ClixError:
            raise
        except Exception as exc:  # an engine bug in one game: report it, keep the others
            done.append((position, False, f"crashed: {type(exc).__name__}: {exc}"))
            if stop_on_raise:
                break
    return done


# --- the parent side ----------------------------------------------------------------------------------


_pool: tuple[int, Any] | None = None


def _executor(jobs: int) -> Any:
    """This module's pool of `jobs` workers, reused across runs while it works (warm workers keep their
    roster). Not loky's reusable executor: joblib's Parallel (in `clix bench`) shares and reshapes that one."""
    global _pool
    from joblib.externals.loky import ProcessPoolExecutor

    if _pool is not None:
        size, executor = _pool
        flags = getattr(executor, "_flags", None)
        if size == jobs and flags is not None and not flags.broken and not flags.shutdown:
            return executor
        executor.shutdown(wait=False, kill_workers=True)
    executor = ProcessPoolExecutor(
        max_workers=jobs, timeout=IDLE_TIMEOUT, initializer=_worker_start, initargs=(os.getpid(),)
    )
    if _pool is None:
        atexit.register(close_pool)
    _pool = (jobs, executor)
    return executor


def close_pool() -> None:
    """Shut the kept pool down: at exit, while the modules are whole (left to the interpreter's teardown, loky's
    finalizer fails on it: 'Exception ignored ... weakref_cb'), and when a command has played its games (a long
    duel's statistics then have the workers' memory; a later run starts the pool again)."""
    global _pool
    if _pool is not None:
        _pool[1].shutdown(wait=True, kill_workers=True)
        _pool = None


def _clean_stale_markers() -> None:
    """Remove marker folders of runs whose process is gone (a SIGKILLed run cannot remove its own)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{MARKER_PREFIX}*"):
        pid = folder.name[len(MARKER_PREFIX) :].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _in_progress(marker: str) -> set[int]:
    found = set()
    for entry in Path(marker).iterdir():
        with contextlib.suppress(OSError, ValueError):
            found.add(int(entry.read_text().strip()))
    return found


def run_items(
    work: Work,
    items: Sequence[Any],
    jobs: int,
    batch_size: int,
    *,
    describe: Describe,
    report: Report,
    progress: Progress = None,
    stop_on_error: bool = False,
    on_result: OnResult = None,
    stop_on_raise: bool = False,
    on_batch: Callable[[], None] | None = None,
    keep: bool = True,
) -> Outcome:
    """Apply `work` (a picklable function) to every item, in batches of `batch_size` on `jobs` processes
    (in this process when `jobs` is 1). `describe(position)` names an item in the lines given to `report`;
    `progress(n)` is called as items finish, `on_result(position, result)` for each item that finished
    (in this process, as its batch comes back) and `on_batch()` after each batch is kept. A KeyboardInterrupt
    stops the run keeping what finished. `stop_on_error` stops at the first failure (a raise or a worker
    dying twice), `stop_on_raise` at the first item that raises (`crashed` is then set). With `keep` False the
    results are not kept in the outcome (only told to `on_result`): memory stays flat however many items."""
    outcome = Outcome(on_result=on_result, on_batch=on_batch, keep=keep, done=bytearray(len(items)))
    batches = _batches(range(len(items)), batch_size)
    stops = _Stops(stop_on_error, stop_on_raise)
    try:
        if jobs <= 1:
            _run_here(work, items, batches, outcome, describe, report, progress, stops)
        else:
            with _signals_as_requests():
                _run_pooled(work, items, batches, jobs, batch_size, outcome, describe, report, progress, stops)
    except KeyboardInterrupt:
        outcome.interrupted = True
    return outcome


def _batches(positions: Sequence[int], size: int) -> list[Sequence[int]]:
    """Positions cut into batches of `size` (ranges when `positions` is a range: a million items cost nothing)."""
    return [positions[start : start + size] for start in range(0, len(positions), size)]


@dataclass(frozen=True)
class _Stops:
    """When a run stops early: at any failure (`error`), at an item that raises (`raise_`)."""

    error: bool = False
    raise_: bool = False

    def on_crash(self, outcome: Outcome) -> bool:
        """After a batch in which an item raised: stop the run (marking `outcome`) when asked; True if so."""
        if self.error or self.raise_:
            outcome.stopped = outcome.crashed = True
        return outcome.stopped


_stop_requested = threading.Event()


@contextlib.contextmanager
def _signals_as_requests() -> Iterator[None]:
    """While the pool runs, Ctrl-C and SIGTERM only set a flag that the loop reads between waits: a
    KeyboardInterrupt raised inside `concurrent.futures.wait` can leave a future's lock taken, and the
    pool's own thread then hangs on it (seen: the run wrote its outputs and never exited)."""
    _stop_requested.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def request(signum: int, frame: object) -> None:
        _stop_requested.set()

    # only signals that already raise in Python (SIGTERM does once the CLI's handler is installed)
    handled = [signum for signum in (signal.SIGINT, signal.SIGTERM) if callable(signal.getsignal(signum))]
    previous = {signum: signal.signal(signum, request) for signum in handled}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _stop_requested.clear()


def _record(
    rows: list[tuple[int, bool, Any]],
    outcome: Outcome,
    describe: Describe,
    report: Report,
    progress: Progress,
) -> bool:
    """Keep a batch's results; report its failed items. True when one failed."""
    failed = False
    with signals_held():  # a Ctrl-C here comes once the whole batch is kept (and told to `on_result`)
        for position, ok, value in rows:
            if ok:
                outcome.done[position] = 1
                if outcome.keep:
                    outcome.results[position] = value
                if outcome.on_result is not None:
                    outcome.on_result(position, value)
            else:
                outcome.failed[position] = value
                report(f"{describe(position)}: {value}")
                failed = True
        if outcome.on_batch is not None:
            outcome.on_batch()
    if progress is not None:
        progress(len(rows))
    return failed


def _run_here(
    work: Work,
    items: Sequence[Any],
    batches: list[Sequence[int]],
    outcome: Outcome,
    describe: Describe,
    report: Report,
    progress: Progress,
    stops: _Stops,
) -> None:
    for batch in batches:
        rows = run_batch(work, None, batch, [items[p] for p in batch], stops.raise_)
        if _record(rows, outcome, describe, report, progress) and stops.on_crash(outcome):
            return


def _run_pooled(
    work: Work,
    items: Sequence[Any],
    batches: list[Sequence[int]],
    jobs: int,
    batch_size: int,
    outcome: Outcome,
    describe: Describe,
    report: Report,
    progress: Progress,
    stops: _Stops,
) -> None:
    _clean_stale_markers()
    markers = tempfile.mkdtemp(prefix=f"{MARKER_PREFIX}{os.getpid()}-")
    rounds = 0
    blind = 0
    try:
        while batches:
            rounds += 1
            marker = os.path.join(markers, str(rounds))
            os.mkdir(marker)
            broken = _pool_round(work, items, batches, jobs, marker, outcome, describe, report, progress, stops)
            if outcome.stopped or not broken:
                return
            left = [p for batch in batches for p in batch if not outcome.settled(p)]
            suspects = sorted(_in_progress(marker) & set(left))
            if stops.error:
                for position in suspects:
                    outcome.failed[position] = DIED
                    report(f"{describe(position)}: {DIED}")
                if not suspects:
                    report("a worker died between games; stopping")
                outcome.stopped = True
                return
            if not suspects:
                blind += 1
                if blind >= BLIND_BREAKS:
                    report(f"workers keep dying with no game in progress; stopping with {len(left)} games unplayed")
                    outcome.stopped = True
                    return
                report(f"note: a worker died between games; playing the {len(left)} games left in a new pool")
            else:
                named = ", ".join(describe(p) for p in suspects)
                report(f"note: a worker died while playing {named}; playing them again, one at a time")
                _run_alone(work, items, suspects, outcome, describe, report, progress, stops)
                if outcome.stopped:
                    return
            batches = _batches([p for p in left if not outcome.settled(p)], batch_size)
    finally:
        shutil.rmtree(markers, ignore_errors=True)


def _pool_round(
    work: Work,
    items: Sequence[Any],
    batches: list[Sequence[int]],
    jobs: int,
    marker: str,
    outcome: Outcome,
    describe: Describe,
    report: Report,
    progress: Progress,
    stops: _Stops,
) -> bool:
    """Play `batches` on the shared pool; return True when the pool broke (a worker died)."""
    executor = _executor(jobs)
    queue = iter(batches)
    pending: set[Future] = set()

    def submit() -> bool:
        """Keep the pool fed; return True when it broke (a worker died before its future told us so)."""
        # as many batches in flight as loky's call queue holds (jobs + 1): more would wait in loky's own
        # list, which its shutdown with kill_workers empties under its feeding thread (a KeyError there)
        while len(pending) < jobs + 1:
            batch = next(queue, None)
            if batch is None:
                return False
            try:
                pending.add(executor.submit(run_batch, work, marker, batch, [items[p] for p in batch], stops.raise_))
            except _Broken:
                return True
        return False

    try:
        broken = submit()
        while pending:
            done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
            if _stop_requested.is_set():
                raise KeyboardInterrupt
            for future in done:
                try:
                    rows = future.result()
                except (_Broken, CancelledError):
                    broken = True
                    continue
                if outcome.crashed:  # stopping at a game that raised: keep what finished, name no other crash
                    rows = [row for row in rows if row[1]]
                if _record(rows, outcome, describe, report, progress):
                    stops.on_crash(outcome)
            if outcome.crashed:
                continue  # the batches under way (jobs + 1 at most) finish, and no more are sent
            if outcome.stopped:  # keep what finished; the batches under way are dropped with their workers
                executor.shutdown(wait=True, kill_workers=True)
                return False
            if not broken:
                broken = submit()
        return broken
    except BaseException:
        # no future.cancel(): loky's shutdown then fails on the cancelled futures and leaves its workers running
        executor.shutdown(wait=True, kill_workers=True)
        raise


def _run_alone(
    work: Work,
    items: Sequence[Any],
    suspects: list[int],
    outcome: Outcome,
    describe: Describe,
    report: Report,
    progress: Progress,
    stops: _Stops,
) -> None:
    """Play each suspect game alone in a fresh one-worker pool: a second death there is its own; a raise stops
    the run when `stops` asks."""
    from joblib.externals.loky import ProcessPoolExecutor

    executor = None
    try:
        for position in suspects:
            if executor is None:
                executor = ProcessPoolExecutor(max_workers=1, initializer=_worker_start, initargs=(os.getpid(),))
            try:
                rows = executor.submit(run_batch, work, None, [position], [items[position]]).result()
            except _Broken:
                executor = None
                outcome.failed[position] = DIED
                report(f"{describe(position)}: {DIED}")
                if progress is not None:
                    progress(1)
                continue
            if _record(rows, outcome, describe, report, progress) and stops.on_crash(outcome):
                return
            if _stop_requested.is_set():
                raise KeyboardInterrupt
    finally:
        if executor is not None:
            executor.shutdown(wait=True, kill_workers=True)
