"""Playing the meta's games on an existing Dask cluster (`clix meta --backend dask --scheduler ADDRESS`).

The roster travels with the tasks: it is scattered to every worker once per run and each task installs it
as the library its games read, so workers need clix installed but no copy of the roster files. Every game
depends only on its matchup, the master seed and its index (`analyzer.play.runner`), so the rows are those of a
local run. Games go in batches (one task per batch) to keep the scheduler's overhead small.

The address is checked before anything else (`check_scheduler`): parsed, connected to and asked what it is, all
within CONNECT_TIMEOUT, so a wrong one (malformed, a closed port, a web server, a worker) is one line, not a hang.
A scheduler lost mid-run stops the run with the games finished kept (the outcome is `stopped`: exit code 1), said
in one line; Dask's own logging is silenced while clix talks to the cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.pool import Outcome
from clix.analyzer.play.result import report_line
from clix.analyzer.play.runner import Matchup, kit, play_one

BATCH = 16
"""Games per task."""
CONNECT_TIMEOUT = 10
"""Seconds to wait for the scheduler: for its TCP connection and its answer (`check_scheduler`), then for the
client's connection; a wrong address is one line within about twice this."""
CLOSE_TIMEOUT = 5
"""Seconds to wait for the client to close (a lost scheduler cannot answer)."""


def _require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClixError(
            "--backend dask: the Dask packages are not installed; pip install 'clix[dask]' (or 'dask[distributed]')"
        ) from None


def check_scheduler(address: str, timeout: float | None = None) -> None:
    """Check that `address` is a Dask scheduler's within about `timeout` seconds (CONNECT_TIMEOUT), or raise a
    ClixError with one line: the address is parsed, a TCP connection made, and whatever answers is asked what it
    is (a scheduler says so; an HTTP server, a worker or a closed port does not)."""
    _require_dask()
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    wrong = _malformed(address)
    if wrong:
        raise ClixError(
            f"--scheduler {address}: not a scheduler address ({wrong}); give it as tcp://HOST:PORT, as "
            "tcp://10.0.0.5:8786"
        )
    found: dict[str, Any] = {}
    with _quiet():
        probe = threading.Thread(target=_probe, args=(address, wait, found), daemon=True, name="clix-scheduler-probe")
        probe.start()
        probe.join(wait + 2)  # the probe bounds itself; this bounds a name lookup that does not
    error = found.get("error", TimeoutError() if probe.is_alive() else None)
    reply = found.get("reply")
    answered = found.get("connected", False)
    if error is None and isinstance(reply, dict) and reply.get("type") == "Scheduler":
        return
    if error is None:
        what = reply.get("type") if isinstance(reply, dict) else None
        kind = f"a Dask {what}" if isinstance(what, str) and what else "something else"
        raise ClixError(
            f"--scheduler {address}: that port answers, but as {kind}, not a Dask scheduler; give the scheduler's "
            "address (port 8786 by default)"
        )
    if not answered:
        raise ClixError(f"--scheduler {address}: cannot reach the Dask scheduler ({_why(error, wait)})")
    why = _why(error, wait) if isinstance(error, (TimeoutError, OSError)) else "it answers in another protocol"
    raise ClixError(
        f"--scheduler {address}: the port is open, but no Dask scheduler answers there ({why}); give the "
        "scheduler's address (port 8786 by default, not the dashboard's 8787)"
    )


def _malformed(address: str) -> str:
    """What is wrong with a scheduler address ("" when nothing)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.registry import get_backend

    text = address.strip()
    if not text:
        return "it is empty"
    if any(character.isspace() for character in text):
        return "it holds a space"
    try:
        scheme, location = parse_address(text)
        get_backend(scheme)
        if scheme not in ("tcp", "tls"):
            return ""
        host, port = parse_host_port(location)
    except ValueError as exc:
        return str(exc).split(" (known schemes")[0]
    if not host:
        return "no host"
    if not 1 <= port <= 65535:
        return f"port {port} is not 1 to 65535"
    return ""


def _probe(address: str, wait: float, found: dict[str, Any]) -> None:
    """In a thread of its own: connect to `address` and ask it who it is; `found` gets "connected" (a TCP
    connection was made), and "reply" or "error"."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    started = time.monotonic()
    try:
        scheme, location = parse_address(address.strip())
        if scheme in ("tcp", "tls"):  # a closed port fails at once here; Dask's connect would retry until `wait`
            host, port = parse_host_port(location)
            socket.create_connection((host, port), timeout=wait).close()
        found["connected"] = scheme in ("tcp", "tls")
        left = max(0.5, wait - (time.monotonic() - started))
        found["reply"] = asyncio.run(asyncio.wait_for(_identity(address.strip(), left), left))
        found["connected"] = True
    except BaseException as exc:  # anything that answers garbage can raise anything (even a MemoryError)
        found["error"] = exc


async def _identity(address: str, wait: float) -> Any:
    """What the server at `address` says it is (a scheduler: {"type": "Scheduler", ...})."""
    from distributed.comm import connect as comm_connect

    comm = await comm_connect(address, timeout=wait)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _why(error: BaseException, wait: float) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer within {wait:g} s"
    text = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    if isinstance(error, socket.gaierror):
        return f"unknown host: {text}" if text else "unknown host"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence logging for a while: Dask's loggers (and asyncio's, tornado's under them) print tracebacks by the
    thousand when a scheduler is lost or a port answers garbage; clix says what happened in one line (and logs
    nothing of its own)."""
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


def _install(roster: Any, matchup: Matchup) -> None:
    """Make `roster` the library this worker's games read for the matchup's (its paths need not exist here)."""
    kit(matchup.ruleset).adopt(matchup.layers, roster)


def play_batch(roster: Any, master_seed: int, batch: list[tuple[Matchup, int]]) -> list[tuple[bool, Any]]:
    """A task: play a batch of games with the roster sent along; (True, rows) or (False, why) per game."""
    results: list[tuple[bool, Any]] = []
    for matchup, index in batch:
        _install(roster, matchup)
        try:
            results.append((True, play_one(matchup, master_seed, index)))
        except Exception as exc:  # a game that raises is reported, as the local pool does
            results.append((False, f"{type(exc).__name__}: {exc}"))
    return results


def connect(address: str) -> Any:
    """A client of the scheduler at `address` (a ClixError when Dask is missing or it is not a scheduler's)."""
    check_scheduler(address)
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as exc:  # the scheduler went away since the check
        raise ClixError(
            f"--scheduler {address}: cannot reach the Dask scheduler ({_why(exc, CONNECT_TIMEOUT)})"
        ) from None


def lost(client: Any, error: BaseException | None = None) -> bool:
    """Whether the client has lost its scheduler: its futures were cancelled for it, or it is no longer running."""
    return isinstance(error, CancelledError) or getattr(client, "status", "running") != "running"


def dask_runner(
    address: str,
    roster: Any,
    master_seed: int,
    report: Callable[[str], None] = report_line,
    stop_on_error: bool = False,
    batch: int | None = None,
) -> Callable[[Sequence[tuple[Matchup, int]], Callable[[int], None] | None], Outcome]:
    """A runner for `analyzer.meta.play.play_field` that plays on the cluster at `address`, `batch` games a task
    (BATCH by default)."""
    state: dict[str, Any] = {}
    size = BATCH if batch is None else batch

    def run(
        items: Sequence[tuple[Matchup, int]],
        progress: Callable[[int], None] | None,
        on_result: Callable[[int, Any], None] | None = None,
        on_batch: Callable[[], None] | None = None,
    ) -> Outcome:
        """Play `items` on the cluster; each finished game goes to `on_result(position, rows)` as its task
        comes back (to `Outcome.results` without it), `on_batch()` after each task. A game that raised (a bug or
        bad data) stops the run there, named once, as the local pool does; a task whose worker was lost fails
        its games."""
        from distributed import as_completed

        if "client" not in state:
            state["quiet"] = _quiet()
            state["quiet"].__enter__()
            state["client"] = connect(address)
            try:
                state["roster"] = state["client"].scatter(roster, broadcast=True)
            except Exception as exc:
                raise ClixError(
                    f"--scheduler {address}: the Dask scheduler was lost before the first game "
                    f"({_why(exc, CONNECT_TIMEOUT)})"
                ) from None
        client = state["client"]
        outcome = Outcome()
        batches = [list(range(start, min(start + size, len(items)))) for start in range(0, len(items), size)]
        futures = {
            client.submit(
                play_batch, state["roster"], master_seed, [items[p] for p in positions], pure=False
            ): positions
            for positions in batches
        }
        pending = as_completed(list(futures), loop=client.loop)
        gone: BaseException | None = None
        try:
            for future in pending:
                positions = futures[future]
                try:
                    results = future.result()
                except Exception as exc:  # the task itself failed (a worker lost twice): all its games
                    if lost(client, exc):
                        gone = exc
                        break
                    results = [(False, f"task failed: {type(exc).__name__}: {exc}")] * len(positions)
                    raised = False
                else:
                    raised = True  # play_batch returns a game's own exception as (False, why)
                for position, (ok, value) in zip(positions, results, strict=True):
                    if ok:
                        if on_result is not None:
                            on_result(position, value)
                        else:
                            outcome.results[position] = value
                        continue
                    outcome.failed[position] = value
                    if outcome.crashed:
                        continue  # the run stops at the first game that raised: one line, not one per game
                    matchup, index = items[position]
                    report(
                        f"game {index} of {matchup.army_a} vs {matchup.army_b} on {matchup.map_name} "
                        f"{'crashed' if raised else 'failed'}: {value}"
                    )
                    outcome.crashed = raised
                if on_batch is not None:
                    on_batch()
                if progress is not None:
                    progress(len(positions))
                if outcome.crashed or (stop_on_error and outcome.failed):
                    outcome.stopped = True
                    break
        except KeyboardInterrupt:
            outcome.interrupted = True
        if gone is not None:  # the games finished are kept; the others are neither played nor failed
            outcome.stopped = True
            state["lost"] = True
            why = "its connection closed" if isinstance(gone, CancelledError) else _why(gone, CONNECT_TIMEOUT)
            report(
                f"clix: error: the Dask scheduler {address} was lost mid-run ({why}): the {len(outcome.results)} games "
                "finished are kept, the others were not played"
            )
        elif outcome.interrupted or outcome.stopped:
            client.cancel([f for f in futures if not f.done()])
        return outcome

    def close() -> None:
        if "client" in state:
            client = state.pop("client")
            with contextlib.suppress(Exception):
                client.close(timeout=CLOSE_TIMEOUT)
        if "quiet" in state:
            state.pop("quiet").__exit__(None, None, None)

    run.close = close  # type: ignore[attr-defined]
    return run
