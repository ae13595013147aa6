"""Precision on demand and equivalence claims (issue 13): the stopping rule keeps its 95% coverage."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.sequential import (
    equivalence,
    look_confidence,
    mean_interval_at,
    planned_looks,
    run_to_precision,
    stopping_rule,
)

ROOT = Path(__file__).resolve().parent.parent


def test_looks_double_from_the_first_batch_to_the_cap() -> None:
    assert planned_looks(4000) == [100, 200, 400, 800, 1600, 3200, 4000]
    assert planned_looks(100) == [100]
    assert planned_looks(101) == [100, 102]
    assert look_confidence(5) == 0.99


def _pair_scores(rng: np.random.Generator, runs: int, pairs: int, probs: tuple[float, ...]) -> np.ndarray:
    """Pair means of two games each scoring 0, ½ or 1 with `probs`."""
    values = np.array([0.0, 0.5, 1.0])
    games = rng.choice(values, size=(runs, pairs, 2), p=probs)
    return games.mean(axis=2)


def test_the_interval_where_the_run_stops_covers_the_true_score_95_percent_of_the_time() -> None:
    """Optional stopping: stopping at the first look whose interval is narrow enough. With each look's
    interval at 1 - 0.05/K the reported interval covers the true score at least 95% of the time; the same rule
    with plain 95% intervals at every look covers less (the reason for the correction)."""
    rng = np.random.default_rng(13)
    looks = planned_looks(2000)  # 7 looks
    for probs in ((0.3, 0.05, 0.65), (0.48, 0.04, 0.48)):
        truth = probs[1] * 0.5 + probs[2]
        scores = _pair_scores(rng, 2000, 1000, probs)
        covered = naive_covered = 0
        for run in scores:
            found = stopping_rule(run, 0.03, looks)
            covered += found["low"] <= truth <= found["high"]
            for games in looks:  # the same rule with plain 95% intervals
                ci = mean_interval_at(run[: games // 2], 0.95)
                if ci["half_width"] <= 0.03 or games == looks[-1]:
                    naive_covered += ci["low"] <= truth <= ci["high"]
                    break
        assert covered / len(scores) >= 0.95, covered / len(scores)
        assert naive_covered <= covered


def test_equivalence_needs_the_whole_90_percent_interval_inside_the_band() -> None:
    rng = np.random.default_rng(2)
    balanced = _pair_scores(rng, 1, 800, (0.45, 0.1, 0.45))[0]
    tilted = _pair_scores(rng, 1, 800, (0.35, 0.1, 0.55))[0]
    yes = equivalence(balanced, 0.05)
    assert yes["equivalent"] and 0.45 < yes["low"] < yes["high"] < 0.55 and yes["p_value"] < 0.05
    no = equivalence(tilted, 0.05)
    assert not no["equivalent"] and no["p_value"] >= 0.05
    assert not equivalence(balanced[:10], 0.01)["equivalent"]  # too few pairs to claim so narrow a band


def test_run_to_precision_plays_the_same_games_as_a_plain_run() -> None:
    """The looks continue one another: the games of a run stopped at a look are the plain run's first games;
    a loose target stops at the first look, an unreachable one plays to the cap and says so."""
    matchup = Matchup(ROOT / "rosters" / "horrorclix", "butcher-shop", "firing-line", "graveyard", turn_limit=6)
    loose, info = run_to_precision(matchup, 0.5, 24, 4, jobs=1, first_pairs=2)
    assert info["planned"] == [4, 8, 16, 24]
    assert info["reached"] and info["look"] == 1 and info["games"] == len(loose.games) == 4
    strict, info = run_to_precision(matchup, -1.0, 24, 4, jobs=1, first_pairs=2)
    assert not info["reached"] and info["look"] == 4 and info["games"] == 24
    plain = run_matchup(matchup, 24, 4, jobs=1)
    assert [(g["game"], g["winner"], g["vp_a"]) for g in strict.games] == [
        (g["game"], g["winner"], g["vp_a"]) for g in plain.games
    ]


def _clix(*args: str, cwd: Path):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_duel_reports_precision_and_equivalence(tmp_path: Path) -> None:
    """`--target-ci` and `--margin` through the command line: the JSON says where the run stopped and what
    the equivalence test found; out-of-range values are one clear line, exit 2."""
    import json

    common = [
        "duel",
        "butcher-shop",
        "firing-line",
        "--turns",
        "4",
        "--jobs",
        "1",
        "--rosters",
        str(ROOT / "rosters" / "horrorclix"),
    ]
    done = _clix(
        *common,
        "--games",
        "8",
        "--target-ci",
        "0.45",
        "--margin",
        "0.2",
        "--json",
        "--out",
        str(tmp_path / "a"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    precision, tost = summary["precision"], summary["equivalence"]
    assert precision["target"] == 0.45 and precision["games"] == summary["outcome"]["games"]
    assert precision["low"] <= precision["score"] <= precision["high"]
    assert tost["margin"] == 0.2 and isinstance(tost["equivalent"], bool)
    assert "--target-ci 0.45" in summary["settings"]["command"]
    for option, value in (("--target-ci", "0.7"), ("--margin", "0")):
        bad = _clix(*common, "--games", "4", option, value, "--out", str(tmp_path / "b"), cwd=tmp_path)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and option in bad.stderr
