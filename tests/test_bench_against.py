"""`clix bench --against CHECKOUT`: two builds side by side in one run (issue 16: "clix bench side by side with the
previous main in one run"). The timed comparison runs end to end against this checkout itself (the same code,
so the same games); the counted one (valgrind, minutes) is covered by its parts."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from clix.analyzer.bench import against as bench_against
from clix.analyzer.bench.against import Build, ratio_interval
from clix.analyzer.common.errors import ClixError
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent


def test_a_build_against_itself_plays_the_same_games_and_reports_the_ratio(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", "bench", "--against", str(ROOT), "--games", "2", "--rounds", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"side by side: this build and {ROOT}" in out
    assert "2 games a round, 2 rounds" in out
    assert out.count("games/s of processor time") == 2
    assert "this build plays " in out and f"of {ROOT}'s games/s" in out
    assert "same games: yes, outcome for outcome (4 games each)" in out


def test_the_ratio_is_the_geometric_mean_of_the_rounds_with_a_t_interval():
    assert ratio_interval([2.0, 2.0, 2.0], [1.0, 1.0, 1.0]) == pytest.approx((2.0, 2.0, 2.0))
    estimate, low, high = ratio_interval([1.0, 4.0], [1.0, 1.0])
    assert estimate == pytest.approx(2.0)  # sqrt(1 * 4)
    assert low < 1.0 < 4.0 < high  # two rounds: t(1) = 12.7 makes it wide
    assert low * high == pytest.approx(estimate**2)  # symmetric on the log scale
    single = ratio_interval([3.0], [2.0])
    assert single[0] == pytest.approx(1.5) and math.isnan(single[1]) and math.isnan(single[2])


def test_games_that_differ_between_the_builds_are_reported():
    this = Build("this build", None, "pure Python", [10.0, 10.0], [10.0, 10.0], ["a", "b"])
    other = Build("../base", Path("../base"), "pure Python", [10.0, 10.0], [10.0, 10.0], ["a", "c"])
    console = Console(record=True, width=400)
    bench_against._print_timed([this, other], ("x", "y", "m"), 5, 2, console)
    text = console.export_text()
    assert "this build plays 1.00 [1.00-1.00] of ../base's games/s" in text
    assert "same games: no, the outcomes differ in 1 of 2 rounds" in text


def test_counting_needs_valgrind(monkeypatch):
    monkeypatch.setattr(bench_against.shutil, "which", lambda name: None)
    with pytest.raises(ClixError, match="apt-get install valgrind"):
        bench_against.run_counted(ROOT, [ROOT / "rosters" / "horrorclix"], ("a", "b", "m"), 2, Console())


def test_the_other_checkout_comes_first_on_the_workers_search_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = bench_against.worker_environment(Path("/base"), counting=True)
    assert env["PYTHONPATH"].split(":") == ["/base", "/elsewhere"]
    assert env["PYTHONHASHSEED"] == "0" and env["OPENBLAS_NUM_THREADS"] == "1"
    assert bench_against.worker_environment(None)["PYTHONPATH"] == "/elsewhere"  # this build: as it is
