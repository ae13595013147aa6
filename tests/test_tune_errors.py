"""The tuning tool (`python -m clix.analyzer.ladder.tune`, docs/tuning.md) says in one line what is wrong when it has
nothing to race on, instead of a traceback (it divided by zero games)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("arguments", "fix"),
    [
        (["--rosters", "{empty}"], "name the library with --rosters"),
        (["--rosters", str(ROOT / "rosters"), "--armies", "no-such-force"], "with --armies"),
    ],
)
def test_a_race_with_nothing_to_play_is_one_line_and_exit_2(tmp_path, arguments, fix):
    arguments = [a.replace("{empty}", str(tmp_path)) for a in arguments]
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.ladder.tune", "--ruleset", "heroclix-2005", "--candidates", "2",
         "--rounds", "1", *arguments],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "no armies or forces and maps to tune on" in lines[0] and fix in lines[0]
