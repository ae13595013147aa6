"""`clix duel` end to end on a few games: outputs written, JSON summary, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
from clix.engine import compiled
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent


def clix(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_duel_writes_every_output_and_json(tmp_path):
    out = tmp_path / "duel"
    done = clix(
        "duel",
        "butcher-shop",
        "firing-line",
        "--games",
        "6",
        "--turns",
        "6",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--json",
        "--rosters",
        str(ROOT / "rosters" / "horrorclix"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["outcome"]["games"] == 6
    assert summary["settings"]["seed"] == 0 and "sample data" in summary["provenance"]
    assert summary["settings"]["engine"] == compiled.status  # which engine played: the same as in this process
    assert summary["verdict"].split(" [95% CI")[0].split()[-1] in ("butcher-shop", "firing-line")  # the headline
    assert summary["outputs"]["report"] == str(out / "report.html")  # where each output is, as meta and ladder say
    assert len(str(summary["score"]["low"])) <= 8  # rounded: no 0.21659200000000001
    for name in (
        "games.csv",
        "games.parquet",
        "figures.csv",
        "figures.parquet",
        "summary.json",
        "report.html",
        "victim_rush.png",
        "victory_points.png",
        "efficiency.png",
    ):
        assert (out / name).stat().st_size > 0, name
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 6 and set(games["winner"]) <= {"A", "B", "draw"}
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "Data provenance" in html and "butcher-shop" in html


def test_duel_mistakes_are_one_line_errors(tmp_path):
    done = clix(
        "duel",
        "butcher-shop",
        "nosuch",
        "--games",
        "2",
        "--rosters",
        str(ROOT / "rosters" / "horrorclix"),
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("clix: error: no army named 'nosuch'")
    done = clix(
        "duel",
        "butcher-shop",
        "firing-line",
        "--players",
        "balanced,genius",
        "--games",
        "2",
        "--rosters",
        str(ROOT / "rosters" / "horrorclix"),
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "genius" in done.stderr and "Traceback" not in done.stderr


def test_bench_reports_both_rates_and_identical_results(tmp_path):
    done = clix(
        "bench",
        "--games",
        "4",
        "--jobs",
        "2",
        "--rounds",
        "2",
        "--search-games",
        "0",
        "--rosters",
        str(ROOT / "rosters" / "horrorclix"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.strip().startswith("1 core:") and "games/s" in line for line in lines)
    assert "median of 2 rounds" in done.stdout
    assert any("2 cores:" in line and "parallel efficiency" in line for line in lines)
    assert "results identical for 1 and 2 jobs: True" in done.stdout
    assert "own parallel efficiency for plain Python work on 2 cores" in done.stdout
    assert any(line.strip().startswith("200-point duel (crimson-court vs drowned-choir") for line in lines)
    assert not any("search game" in line for line in lines)  # --search-games 0


def test_bench_times_a_search_game_and_says_when_the_200_point_armies_are_missing(tmp_path, capsys, monkeypatch):
    """Issue 38: the bench gives games/s on one core for the 200-point duel and the search's cost a game; a library
    without the 200-point armies says so on that line instead."""
    import shutil

    from clix.analyzer.bench import command

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(command, "SEARCH_STYLE", "search:4")
    library = tmp_path / "lib"
    shutil.copytree(ROOT / "rosters" / "horrorclix", library)
    (library / "armies" / "crimson-court.yaml").unlink()
    code, out, err = run_main(["bench", "--games", "2", "--rounds", "1", "--jobs", "1", "--rosters", str(library)],
                              capsys)  # fmt: skip
    assert code == 0, err
    assert "200-point duel: not timed (crimson-court and drowned-choir on graveyard are not in the library)" in out
    assert "search game (search:4 vs tuned on the reference duel, 2 games), 1 core:" in out and "s a game" in out
    code, _, err = run_main(["bench", "--search-games", "-1"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--search-games takes 0 to 1,000 games" in err
