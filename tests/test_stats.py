"""Statistics checked against cases with a known answer (issue 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.duel import outcome, proportion, summarize, victim_rush
from scipy import stats as st

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"


@pytest.mark.parametrize("method", ["wilson", "exact"])
def test_interval_coverage_on_a_simulated_coin_is_near_95_percent(method):
    rng = np.random.default_rng(12345)
    p, n, trials = 0.3, 60, 2000
    heads = rng.binomial(n, p, size=trials)
    covered = 0
    for k in heads:
        ci = proportion(int(k), n, method)
        covered += ci["low"] <= p <= ci["high"]
    assert 0.93 <= covered / trials <= 0.98


def test_outcome_counts_and_sign_test():
    games = pd.DataFrame({"winner": ["A"] * 30 + ["B"] * 8 + ["draw"] * 2})
    result = outcome(games)
    assert result["win"]["rate"] == 30 / 40 and result["draw"]["rate"] == 2 / 40 and result["loss"]["rate"] == 8 / 40
    assert result["p_value"] == pytest.approx(st.binomtest(30, 38, 0.5).pvalue)
    assert result["significant"]
    even = outcome(pd.DataFrame({"winner": ["A", "B"] * 20}))
    assert even["p_value"] == pytest.approx(1.0) and not even["significant"]


def test_victim_rush_curve_and_first_slayer_on_a_known_table():
    games = pd.DataFrame(
        {
            "winner": ["A", "B", "A"],
            "slay_rounds_a": ["1 3", "", "2"],
            "slay_rounds_b": ["2", "1 1 4", ""],
            "first_slay_a": [1, None, 2],
            "first_slay_b": [2, 1, None],
            "first_slay_turn_a": [1, None, 3],
            "first_slay_turn_b": [4, 2, None],
            "victims_a": [2, 0, 1],
            "victims_b": [1, 3, 0],
        }
    )
    rush = victim_rush(games, 4)
    assert rush["a"]["curve_mean"] == pytest.approx([1 / 3, 2 / 3, 1.0, 1.0], abs=1e-3)
    assert rush["b"]["curve_mean"] == pytest.approx([2 / 3, 1.0, 1.0, 4 / 3], abs=1e-3)
    assert rush["a"]["win_when_first"]["n"] == 2 and rush["a"]["win_when_first"]["rate"] == 1.0
    assert rush["b"]["win_when_first"]["n"] == 1 and rush["b"]["win_when_first"]["rate"] == 1.0
    assert rush["a"]["never_slays"] == pytest.approx(1 / 3)
    assert rush["b"]["share_of_victims"] == pytest.approx(4 / 36)


def test_victim_rush_when_one_side_never_slays():
    """A side that never slays in any game gives columns of None; the statistics must still work."""
    games = pd.DataFrame(
        {
            "winner": ["A", "A"],
            "slay_rounds_a": ["1", "2 3"],
            "slay_rounds_b": ["", ""],
            "first_slay_a": [1, 2],
            "first_slay_b": [None, None],
            "first_slay_turn_a": [1, 3],
            "first_slay_turn_b": [None, None],
            "victims_a": [1, 2],
            "victims_b": [0, 0],
        }
    )
    rush = victim_rush(games, 3)
    assert rush["b"]["never_slays"] == 1.0 and rush["b"]["curve_mean"] == [0.0, 0.0, 0.0]
    assert rush["a"]["win_when_first"]["n"] == 2 and rush["b"]["win_when_first"]["n"] == 0


@pytest.fixture(scope="module")
def mirror():
    matchup = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "balanced", "balanced", turn_limit=8)
    return run_matchup(matchup, 40, 2024, jobs=1)


def test_a_mirror_match_is_within_its_interval_of_50_percent(mirror):
    games = pd.DataFrame(mirror.games)
    decided = games[games["winner"] != "draw"]
    ci = proportion(int((decided["winner"] == "A").sum()), len(decided))
    assert ci["low"] <= 0.5 <= ci["high"]
    assert (games["seat_a"] == 1).sum() == (games["seat_a"] == 2).sum() == 20


def test_results_are_identical_for_any_number_of_jobs_and_batch_size(mirror):
    matchup = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "balanced", "balanced", turn_limit=8)
    parallel = run_matchup(matchup, 40, 2024, jobs=2, batch_size=3)
    assert parallel.games == mirror.games
    assert parallel.figures == mirror.figures


def test_summary_is_complete(mirror):
    summary = summarize(pd.DataFrame(mirror.games), pd.DataFrame(mirror.figures))
    assert set(summary) == {
        "score",
        "outcome",
        "tie_break",
        "victory_points",
        "victim_rush",
        "game_length",
        "first_player",
        "first_player_wins",
        "figures",
        "play",
    }
    assert {f["figure"] for f in summary["figures"]} == {"meatlocker-butcher-v", "crimson-thrall-e"}
    assert summary["game_length"]["rounds"]["mean"] <= 8


@pytest.mark.parametrize("style", ["balanced", "rusher", "hunter"])
def test_each_style_beats_random(style):
    matchup = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", style, "random", turn_limit=10)
    games = pd.DataFrame(run_matchup(matchup, 20, 7, jobs=1).games)
    assert (games["winner"] == "A").mean() >= 0.9
