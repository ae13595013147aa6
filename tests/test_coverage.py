"""Do the duel's 95% intervals cover what they claim (issue 13)? Many short mirror duels, each with its own
master seed: in a mirror A's true score is exactly 50%, and the first player's true score is estimated by
pooling every game of every run. Also: the two games of a mirror pair are two different games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.duel import first_player_effects, score

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"

RUNS = 200
GAMES = 60
TURNS = 4
"""A short game whose results vary: at 2 turns nine games in ten are drawn, at 3 two in three (the pair means
then sit on a coarse lattice and the first player's interval over-covers: 96.6% over 1000 runs), at 4 about 43%."""
COVERAGE = (0.92, 0.98)
"""95% ± 2 binomial standard errors over RUNS runs (√(0.95 · 0.05 / 200) = 1.5 points): how far a correct
interval's measured coverage strays. The issue's target is 94-96%; over 1000 runs (seeds 0-999) at 4 turns the
score's interval covers 50% in 94.6% of runs and the first player's covers the pooled score in 94.8%."""


@pytest.fixture(scope="module")
def mirror_runs() -> list[pd.DataFrame]:
    matchup = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "tuned", "tuned", turn_limit=TURNS)
    return [pd.DataFrame(run_matchup(matchup, GAMES, seed, jobs=1).games) for seed in range(RUNS)]


def test_the_runs_have_varied_outcomes(mirror_runs: list[pd.DataFrame]) -> None:
    winners = pd.concat(mirror_runs)["winner"].value_counts(normalize=True)
    assert winners["A"] > 0.2 and winners["B"] > 0.2 and winners["draw"] < 0.6


def test_score_interval_covers_50_percent_in_mirror_duels(mirror_runs: list[pd.DataFrame]) -> None:
    intervals = [score(games) for games in mirror_runs]
    assert all(s["pairs"] == GAMES // 2 for s in intervals)
    covered = np.mean([s["low"] <= 0.5 <= s["high"] for s in intervals])
    assert COVERAGE[0] <= covered <= COVERAGE[1], f"the score's interval covers 50% in {covered:.1%} of runs"


def test_first_player_interval_covers_the_pooled_first_player_score(mirror_runs: list[pd.DataFrame]) -> None:
    games = pd.concat(mirror_runs)
    pooled = float(((games["winner"] == games["first"]) + 0.5 * (games["winner"] == "draw")).mean())
    intervals = [first_player_effects(games) for games in mirror_runs]
    covered = np.mean([f["low"] <= pooled <= f["high"] for f in intervals])
    assert COVERAGE[0] <= covered <= COVERAGE[1], f"covers the pooled {pooled:.1%} in {covered:.1%} of runs"


def _result_by_seat(row: pd.Series) -> tuple:
    """The winner's seat (or "draw") and the VP of seat 1 and seat 2."""
    a_in_1 = row["seat_a"] == 1
    winner = row["winner"] if row["winner"] == "draw" else (1 if (row["winner"] == "A") == a_in_1 else 2)
    return (winner, *((row["vp_a"], row["vp_b"]) if a_in_1 else (row["vp_b"], row["vp_a"])))


def _by_seat(row: pd.Series) -> tuple:
    """What happened in a game, told by seat rather than by army: a replay with the seats swapped gives the same."""
    sides = ("a", "b") if row["seat_a"] == 1 else ("b", "a")
    columns = ("vp_{}_kills", "slay_rounds_{}", "first_slay_turn_{}", "plot_twist_windows_{}", "idle_turns_{}")
    first_seat = 1 if (row["first"] == "A") == (row["seat_a"] == 1) else 2
    return (first_seat, row["rounds"], *_result_by_seat(row), *(str(row[c.format(s)]) for s in sides for c in columns))


def test_no_two_games_of_a_mirror_pair_are_the_same_game() -> None:
    """The second game of a mirror pair has its own seed, so it is not the first replayed with seats swapped
    (which, seat for seat, would tell the same story)."""
    matchup = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "tuned", "tuned", turn_limit=6)
    games = pd.DataFrame(run_matchup(matchup, 20, 11, jobs=1).games)
    pairs = [(pair.iloc[0], pair.iloc[1]) for _, pair in games.groupby("pair")]
    assert len(pairs) == 10
    for first, second in pairs:
        assert first["seed_path"] != second["seed_path"]
        assert _by_seat(first) != _by_seat(second)
    # not only in the details: the result or the VP by seat differ somewhere in the run
    assert any(_result_by_seat(first) != _result_by_seat(second) for first, second in pairs)
