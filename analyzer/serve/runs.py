"""The duels `clix serve` plays (issue 41, part 3): each in its own worker process (`worker`: `clix duel`'s
`run_duel`), at most `limit` at once (a bounded semaphore), followed by a reader thread, cancelled with SIGTERM to
its process group (SIGKILL if it has not ended within `GRACE` seconds), so a cancel leaves no process."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.serve.worker import PROGRESS

GRACE = 60.0
"""Seconds a cancelled worker has to report its finished games before it is killed."""


@dataclass
class Run:
    """One duel the page started: its request, its process and what it has said."""

    id: int
    request: dict[str, Any]
    total: int
    process: subprocess.Popen[str] | None = None
    done: int = 0
    state: str = "running"
    """running, finished, cancelled or failed."""
    messages: list[str] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    started: float = field(default_factory=time.monotonic)
    ended: threading.Event = field(default_factory=threading.Event)

    @property
    def report(self) -> str | None:
        """The report's path, once written."""
        outputs = (self.summary or {}).get("outputs", {})
        return outputs.get("report")

    @property
    def title(self) -> str:
        """What the run plays, as its page heads it."""
        if self.request.get("kind") == "row":
            return f"Field {self.id}: {self.request['army']} against {', '.join(self.request['field'])}"
        return f"Duel {self.id}: {self.request['army_a']} vs {self.request['army_b']}"

    @property
    def headline(self) -> str:
        return str((self.summary or {}).get("verdict", ""))


class Runs:
    """The duels started from the page, at most `limit` playing at once."""

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)
        self._runs: dict[int, Run] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, request: dict[str, Any]) -> Run:
        """Start the duel `request` (checked by the caller) in a worker; ClixError when `limit` runs are playing."""
        if not self._slots.acquire(blocking=False):
            raise ClixError(
                f"runs: {self.limit} runs are already playing; wait for one to end or cancel one (clix serve --max-runs)"
            )
        try:
            with self._lock:
                cap = int(request["games"]) + int(request["games"]) % 2
                run = Run(next(self._ids), request, cap * int(request.get("cells", 1)))
                self._runs[run.id] = run
            environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
            root = str(Path(__file__).resolve().parents[2])
            if (Path(root) / "clix" / "__init__.py").is_file():  # a checkout: the worker imports this one
                environment["PYTHONPATH"] = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
            run.process = subprocess.Popen(
                [sys.executable, "-m", "clix.analyzer.serve.worker", json.dumps(request)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                text=True,
                env=environment,
                start_new_session=True,  # its own process group: a cancel reaches every process it starts
            )
        except BaseException:
            self._slots.release()
            raise
        threading.Thread(target=self._follow, args=(run,), daemon=True, name=f"clix-serve-run-{run.id}").start()
        return run

    def _follow(self, run: Run) -> None:
        process = run.process
        assert process is not None and process.stderr is not None and process.stdout is not None
        out: list[str] = []
        reader = threading.Thread(target=_drain, args=(process.stdout, out), daemon=True)
        reader.start()
        try:
            for line in process.stderr:
                line = line.rstrip("\n")
                if line.startswith(PROGRESS):
                    run.done = int(line.split()[1])
                elif line.strip():
                    run.messages.append(line)
            code = process.wait()
            reader.join()
            try:
                run.summary = json.loads("".join(out)) if out else None
            except ValueError:
                run.messages.append("clix serve: the duel's summary could not be read")
            if run.state == "cancelling":
                run.state = "cancelled"
            elif code == 0:
                run.state = "finished"
            else:
                run.state = "cancelled" if code == 130 else "failed"
        finally:
            self._slots.release()
            run.ended.set()

    def get(self, run_id: int) -> Run:
        """The run with this id; ClixError when there is none."""
        found = self._runs.get(run_id)
        if found is None:
            raise ClixError(f"run: no run {run_id} was started from this page")
        return found

    def all(self) -> list[Run]:
        return list(self._runs.values())

    def cancel(self, run_id: int, wait: float = GRACE) -> Run:
        """Stop the run: SIGTERM to its process group now (the worker keeps and reports its finished games, as
        `clix duel` does on Ctrl-C), SIGKILL to the group if it has not ended `wait` seconds later. Returns at once;
        `Run.ended` is set when the worker has ended."""
        run = self.get(run_id)
        process = run.process
        if process is None or run.ended.is_set() or run.state == "cancelling":
            return run
        run.state = "cancelling"
        _signal_group(process, signal.SIGTERM)

        def escalate() -> None:
            if not run.ended.wait(wait):
                _signal_group(process, signal.SIGKILL)

        threading.Thread(target=escalate, daemon=True, name=f"clix-serve-cancel-{run.id}").start()
        return run

    def close(self) -> None:
        """Cancel every run still playing and wait for each to end (the server is stopping)."""
        playing = [run for run in self.all() if not run.ended.is_set()]
        for run in playing:
            self.cancel(run.id, wait=10)
        for run in playing:
            run.ended.wait(15)


def _signal_group(process: subprocess.Popen[str], sign: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sign)


def _drain(stream: IO[str], into: list[str]) -> None:
    for line in stream:
        into.append(line)
