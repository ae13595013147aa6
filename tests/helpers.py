"""Helpers shared by test files (imported as `helpers`: pytest puts tests/ on the path)."""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from clix.analyzer import cli
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.store import Store, StoreBusy


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`clix ARGS` through `main()` in this process (much faster than a subprocess): exit code, stdout, stderr.
    What `main()` installs for the process (SIGTERM raising KeyboardInterrupt, the unraisable and thread
    exception hooks) is put back."""
    before, hook, saved = signal.getsignal(signal.SIGTERM), sys.unraisablehook, sys.argv
    thread_hook = threading.excepthook
    sys.argv = ["clix", *args]
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.argv = saved
        sys.unraisablehook = hook
        threading.excepthook = thread_hook
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def until(condition, timeout: float = 60, step: float = 0.02):
    """Poll `condition` until it returns something true; fail after `timeout` seconds (a bound on a wait, long
    enough for a loaded machine, not a measure of speed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {condition}")


def stored_games(path: Path) -> int:
    """Games in the result store at `path` (0 while there is none yet, or while the run holds it)."""
    if not path.is_file():
        return 0
    try:
        with Store(path, create=False).connect() as connection:
            tables = {row[0] for row in connection.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
            if "games" not in tables:
                return 0
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except (StoreBusy, ClixError):
        return 0


def horrorclix_files(paths: list[Path]) -> list[Path]:
    """The scenario files under `paths` that HorrorClix plays (those naming no other ruleset), sorted."""
    from clix.engine.core.files.folders import yaml_files
    from clix.engine.core.ruleset import DEFAULT_RULESET, file_ruleset

    return sorted(p for p in yaml_files(paths) if file_ruleset(p) == DEFAULT_RULESET)
