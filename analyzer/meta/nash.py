"""The metagame of a field of armies as a game: the Nash equilibrium of the symmetric zero-sum matchup game,
dominated armies, and how stable the equilibrium's support is under a bootstrap of the games.

The matchup game: two players each pick an army of the field; the payoff to the first is its army's score
against the other's minus ½ (so the game is zero-sum and symmetric, its value 0). A Nash mixture is a
weighting of the field no army beats on average: what a field settles into when players adapt.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.optimize import linprog

SUPPORT = 1e-6
"""A weight above this is in the support (the LP's solutions carry round-off below it)."""


def nash_mixture(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """A maximin mixture of the row player of a zero-sum game with payoff matrix `payoff` (row's gain), and
    the game's value, by linear programming: maximise v subject to xᵀ·payoff ≥ v for every column, x ≥ 0,
    Σx = 1. For a symmetric game (payoff = −payoffᵀ) the mixture is a symmetric Nash equilibrium, value 0."""
    m = np.asarray(payoff, dtype=float)
    rows, cols = m.shape
    if rows == 0 or cols == 0:
        raise ValueError("a game needs at least one strategy per player")
    # variables: x_1..x_rows, v; linprog minimises, so minimise -v
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((cols, 1))])  # v - (x^T m)_j <= 0
    b_ub = np.zeros(cols)
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    found = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not found.success:  # a bounded feasible LP always solves; this is a numerical failure
        raise RuntimeError(f"the equilibrium's linear program failed: {found.message}")
    x = np.clip(found.x[:rows], 0.0, None)
    x[x < SUPPORT] = 0.0
    return x / x.sum(), float(found.x[-1])


def symmetric_payoff(scores: np.ndarray) -> np.ndarray:
    """The matchup game's payoff from a score matrix (row army's score against the column's, diagonal ½):
    score − ½, made exactly antisymmetric (the two cells of a pair are one measurement seen from both sides)."""
    s = np.asarray(scores, dtype=float)
    m = s - 0.5
    return (m - m.T) / 2


def dominated(scores: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (i, k): army i is dominated by army k, scoring no better than k against every army of the field
    (themselves included) and worse against at least one. On point estimates."""
    m = symmetric_payoff(scores)
    found = []
    for i in range(len(m)):
        for k in range(len(m)):
            if i != k and np.all(m[k] >= m[i] - 1e-12) and np.any(m[k] > m[i] + 1e-12):
                found.append((i, k))
                break
    return found


def support_frequency(matrices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For a stack of score matrices (bootstrap resamples): how often each army is in the Nash support, and
    its mean weight."""
    stack = np.asarray(matrices, dtype=float)
    weights = np.array([nash_mixture(symmetric_payoff(s))[0] for s in stack])
    return (weights > 0).mean(axis=0), weights.mean(axis=0)


def equilibrium(scores: np.ndarray, resampled: np.ndarray | None = None) -> dict[str, Any]:
    """The Nash mixture of a score matrix, its value (0 up to round-off), each army's payoff against the
    mixture (≤ 0; 0 for the support), and with `resampled` the bootstrap support frequency."""
    payoff = symmetric_payoff(scores)
    weights, value = nash_mixture(payoff)
    result: dict[str, Any] = {
        "weights": weights.tolist(),
        "value": value,
        "against_mixture": (payoff @ weights).tolist(),
    }
    if resampled is not None and len(resampled):
        frequency, mean = support_frequency(resampled)
        result["support_frequency"] = frequency.tolist()
        result["mean_weight"] = mean.tolist()
        result["resamples"] = len(resampled)
    return result
