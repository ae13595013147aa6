"""The matchup game's equilibrium and the field's ratings, on games whose answers are known (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest
from clix.analyzer.meta import nash
from clix.analyzer.meta.stats import ratings


def scores_from_payoff(payoff: np.ndarray) -> np.ndarray:
    return np.asarray(payoff, dtype=float) + 0.5


def test_rock_paper_scissors_mixes_evenly():
    rps = scores_from_payoff([[0, -0.5, 0.5], [0.5, 0, -0.5], [-0.5, 0.5, 0]])
    found = nash.equilibrium(rps)
    assert found["weights"] == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert found["value"] == pytest.approx(0.0, abs=1e-9)
    assert found["against_mixture"] == pytest.approx([0.0] * 3, abs=1e-9)


@pytest.mark.parametrize(("a", "b", "c"), [(0.1, 0.2, 0.3), (0.4, 0.05, 0.2), (0.3, 0.3, 0.1)])
def test_weighted_rock_paper_scissors_has_the_known_mixture(a, b, c):
    # payoff [[0, -a, b], [a, 0, -c], [-b, c, 0]]: the equilibrium is proportional to (c, b, a)
    payoff = np.array([[0, -a, b], [a, 0, -c], [-b, c, 0]])
    weights, value = nash.nash_mixture(payoff)
    expected = np.array([c, b, a]) / (a + b + c)
    assert weights == pytest.approx(expected, abs=1e-6)
    assert value == pytest.approx(0.0, abs=1e-9)


def test_a_dominated_army_gets_no_weight_and_is_named():
    # rock-paper-scissors plus a "paper" that does worse against everything
    base = [[0, -0.3, 0.3, 0.4], [0.3, 0, -0.3, 0.1], [-0.3, 0.3, 0, 0.35], [-0.4, -0.1, -0.35, 0]]
    scores = scores_from_payoff(base)
    found = nash.equilibrium(scores)
    assert found["weights"][3] == 0.0
    assert found["weights"][:3] == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert nash.dominated(scores) == [(3, 1)]


def test_a_strictly_best_army_takes_the_whole_mixture():
    scores = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.6], [0.1, 0.4, 0.5]])
    weights, _ = nash.nash_mixture(nash.symmetric_payoff(scores))
    assert weights.tolist() == [1.0, 0.0, 0.0]
    assert sorted(nash.dominated(scores)) == [(1, 0), (2, 0)]


def test_matching_pennies_as_a_general_zero_sum_game():
    weights, value = nash.nash_mixture(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert weights == pytest.approx([0.5, 0.5])
    assert value == pytest.approx(0.0, abs=1e-9)
    weights, value = nash.nash_mixture(np.array([[3.0, 1.0], [0.0, 2.0]]))  # x=(1/2,1/2), value 1.5
    assert weights == pytest.approx([0.5, 0.5]) and value == pytest.approx(1.5)


def test_support_frequency_counts_resamples():
    clear = np.array([[0.5, 0.9], [0.1, 0.5]])
    flipped = np.array([[0.5, 0.2], [0.8, 0.5]])
    frequency, mean = nash.support_frequency(np.stack([clear, clear, clear, flipped]))
    assert frequency.tolist() == [0.75, 0.25]
    assert mean.tolist() == pytest.approx([0.75, 0.25])


def _elo_scores(strength: np.ndarray) -> np.ndarray:
    return 1 / (1 + 10 ** ((strength[None, :] - strength[:, None]) / 400))


def test_ratings_recover_known_strengths_from_exact_scores():
    strength = np.array([-150.0, -20.0, 0.0, 60.0, 110.0])
    counts = np.full((5, 5), 4000.0)
    np.fill_diagonal(counts, 0)
    elo, _low, _high = ratings(_elo_scores(strength), counts, np.zeros((0, 5, 5)))
    # the prior's virtual games pull a little towards 0
    assert elo == pytest.approx(strength - strength.mean(), abs=2.0)


def test_ratings_recover_known_strengths_from_simulated_games():
    rng = np.random.default_rng(7)
    strength = np.array([-200.0, -50.0, 0.0, 100.0, 150.0, 0.0])
    n = len(strength)
    games = 600
    truth = _elo_scores(strength)
    scores = np.full((n, n), 0.5)
    for i in range(n):
        for j in range(i + 1, n):
            scores[i, j] = rng.binomial(games, truth[i, j]) / games
            scores[j, i] = 1 - scores[i, j]
    counts = np.full((n, n), float(games))
    np.fill_diagonal(counts, 0)
    boot = np.array([np.clip(scores + rng.normal(0, 0.02, (n, n)), 0.01, 0.99) for _ in range(50)])
    for b in boot:
        b[np.tril_indices(n)] = 1 - b.T[np.tril_indices(n)]
        np.fill_diagonal(b, 0.5)
    elo, low, high = ratings(scores, counts, boot)
    centred = strength - strength.mean()
    assert np.abs(elo - centred).max() < 40
    assert np.argsort(elo)[[0, -1]].tolist() == [0, 4]
    assert (low <= elo + 1e-9).all() and (elo <= high + 1e-9).all()
