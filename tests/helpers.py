"""Helpers shared by test files (imported as `helpers`: pytest puts tests/ on the path)."""

from __future__ import annotations

import signal
import sys
import threading

import pytest
from clix.analyzer import cli


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
