"""Hostile and broken files (issue 15): every kind of file clix reads, broken one fault at a time.

Each case copies the sample library (rosters/) to a temporary folder, breaks one file (or the path to it),
and runs the command a player would: `roster check` on the library for roster files, `map show FILE` for
maps (as well), `scenario run` for scenarios. Every case must end with exit code 2, exactly one problem
line naming the broken file or folder (the summary line may follow), no traceback, within `TIME_LIMIT`
seconds of processor time (not wall-clock time: a loaded machine must not fail the test, while a parser that
does quadratic work on a hostile file still does).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from clix.analyzer.cli import app
from clix.analyzer.common.errors import ClixError
from fuzz_faults import (
    CASES,
    COMMON_BYTES_FAULTS,
    COMMON_TEXT_FAULTS,
    LIST_FOLDER,
    PATH_FAULTS,
    TARGETS,
    Case,
)
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "rosters" / "horrorclix"
TIME_LIMIT = 10.0
"""Processor seconds a case may take; every case takes well under one on this machine."""
SCENARIO = """\
name: a close attack hits and Blood Drinker heals (the base of the fuzz cases)
rules: [HC-COMBAT-05]
build_total: 100
map:
  kind: outdoor
  rows:
    - "......"
    - "......"
    - "......"
monsters:
  - id: A
    player: 1
    dial: ["6 9 16 2", "6 9 16 2", "6 9 16 2", "x"]
    powers: [{name: Blood Drinker, params: {amount: 1}}]
    click: 2
    at: [2, 1]
  - id: B
    player: 2
    dial: ["6 8 15 2", "6 8 15 2", "6 8 15 2", "x"]
    at: [3, 1]
victims:
  - {id: V1, archetype: Jock, speed: 4, at: [0, 0]}
teams: {1: 1, 2: 2}
dice: [4, 4]
steps:
  - {close: A, target: B}
expect:
  monsters:
    A: {click: 1}
    B: {click: 2}
"""


# --- running the CLI ---------------------------------------------------------------------------------


class _Timeout(Exception):
    pass


@dataclass
class Run:
    code: int
    lines: list[str]
    seconds: float


def run_cli(args: list[str]) -> Run:
    """Run clix in-process as `clix.main` would (user errors: one line, exit 2), with a hard limit on the
    processor time it may use (SIGPROF counts this process's CPU time, not the wall clock)."""

    def expire(signum: int, frame: object) -> None:
        raise _Timeout(f"clix {' '.join(args)} used over {TIME_LIMIT * 2} s of processor time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT * 2)
    start = time.process_time()
    try:
        result = CliRunner().invoke(app, args)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    seconds = time.process_time() - start
    output, code = result.output, result.exit_code
    error = result.exception
    if isinstance(error, ClixError | OSError):  # what analyzer.cli.main prints for these
        output += f"clix: error: {error}\n"
        code = 2
    elif error is not None and not isinstance(error, SystemExit):
        trace = "".join(traceback.format_exception(error))
        pytest.fail(f"clix {' '.join(args)} raised {error!r}:\n{trace}")
    return Run(code, output.splitlines(), seconds)


SUMMARY = re.compile(r"^(\d+ problems? in \d+ files? checked|\d+ passed, \d+ failed)")


def assert_one_line(run: Run, named: Path) -> None:
    """Exit 2, one problem line and it names `named`, no traceback, in time."""
    text = "\n".join(run.lines)
    assert "Traceback" not in text, text
    assert run.seconds < TIME_LIMIT, f"took {run.seconds:.1f} s of processor time"
    assert run.code == 2, f"exit {run.code}:\n{text}"
    problems = [line for line in run.lines if line.strip() and not SUMMARY.match(line)]
    names = {str(named), os.path.relpath(named), str(named.resolve()) if named.exists() else str(named)}
    naming = [line for line in problems if any(name in line for name in names)]
    assert len(problems) == 1, f"expected one problem line naming {named}, got:\n{text}"
    assert len(naming) == 1, f"the problem line does not name {named}:\n{text}"
    assert len(problems[0]) < 400, problems[0]


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Path]:
    """A copy of the sample library (lib/rosters) beside the base scenario (lib/scenarios)."""
    lib = tmp_path / "lib"
    shutil.copytree(SAMPLE, lib / "rosters")
    scenario = lib / TARGETS["scenario"]
    scenario.parent.mkdir()
    scenario.write_text(SCENARIO, encoding="utf-8")
    yield lib
    for folder in [scenario.parent, *(lib / "rosters" / f for f in ("figures", "maps", "armies", LIST_FOLDER))]:
        if folder.exists():
            folder.chmod(0o755)  # so pytest can clean up after a mode-000 case


def test_case_count() -> None:
    """At least 150 generated cases, and every kind meets every fault that applies to it."""
    assert len(CASES) >= 150, len(CASES)
    assert len({c.id for c in CASES}) == len(CASES)
    for kind in TARGETS:
        faults = {c.fault for c in CASES if c.kind == kind}
        expected = {*COMMON_TEXT_FAULTS, *COMMON_BYTES_FAULTS, "out-of-bounds", "full-width-digits", *PATH_FAULTS}
        assert expected <= faults, (kind, expected - faults)


def test_unbroken_files_pass(library: Path) -> None:
    """The copy the cases break is valid: the roster checks clean, the base scenario passes."""
    rosters = library / "rosters"
    run = run_cli(["roster", "check", str(rosters), "--rosters", str(rosters)])
    assert run.code == 0, run.lines
    run = run_cli(["scenario", "run", str(library / TARGETS["scenario"]), "--rosters", str(rosters)])
    assert run.code == 0, run.lines
    run = run_cli(["map", "show", str(rosters / TARGETS["map"]), "--rosters", str(rosters)])
    assert run.code == 0, run.lines


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_broken_file_gives_one_line(case: Case, library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exit 2 and one line naming the broken file (or folder), no traceback, within the time limit."""
    rosters = library / "rosters"
    if case.kind == "scenario":
        named = case.apply(library, monkeypatch)
        # a fault of the path is met running the folder the file was in
        path_level = case.fault in (*PATH_FAULTS, "special-file") or not named.is_file()
        target = library / "scenarios" if path_level else named
        run = run_cli(["scenario", "run", str(target), "--rosters", str(SAMPLE)])
    elif case.command == "map show":
        elsewhere = library / "elsewhere"
        (elsewhere / "maps").mkdir(parents=True)
        shutil.copy(rosters / TARGETS["map"], elsewhere / TARGETS["map"])
        named = case.apply(elsewhere, monkeypatch)
        run = run_cli(["map", "show", str(named), "--rosters", str(SAMPLE)])
    else:
        named = case.apply(rosters, monkeypatch)
        run = run_cli(["roster", "check", str(rosters), "--rosters", str(rosters)])
    assert_one_line(run, named)


@pytest.mark.parametrize(
    "nested",
    [
        pytest.param("[" * 10_000 + "]" * 10_000, id="10000-deep"),
        pytest.param("[" * 499_990 + "]" * 499_990, id="1MB-deep"),
        pytest.param("{a: " * 249_990, id="1MB-unclosed-mappings"),
        pytest.param("[" * 999 + "]" * 999 + "\n  broken: : [", id="999-deep-then-a-syntax-error"),
    ],
)
def test_deep_nesting_is_refused_in_linear_time(nested, monkeypatch):
    """Issue 31: a deep-nested file is refused without the pure-Python reparse, whose work grows with the square
    of the depth (10,000 deep took 18 s); the bound is processor time with a margin of hundreds."""
    from clix.engine.core.files import yaml_lines

    def reparsed(text: str) -> None:
        raise AssertionError("the slow pure-Python reparse ran on deep-nested text")

    monkeypatch.setattr(yaml_lines, "_python_error", reparsed)
    text = "id: fuzz\nname: " + nested + "\n"
    assert len(text.encode()) <= yaml_lines.MAX_FILE_BYTES
    start = time.process_time()
    with pytest.raises(yaml_lines.YamlError) as refused:
        yaml_lines.load_yaml(text)
    assert time.process_time() - start < 2.0
    assert refused.value.line == 2
    assert f"nested more than {yaml_lines.MAX_DEPTH} levels deep" in refused.value.message
