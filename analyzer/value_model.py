"""The value model of `clix value`: each army's figure counts and cards, the regularized logistic (Bradley-Terry)
fit of army strength to the games with its bootstrap over seat-swapped pairs, and each figure's and card's value
in points with its interval and verdict (the model is described in analyzer/value.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.errors import ClixError
from clix.analyzer.scoring import game_scores
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army
from scipy.optimize import minimize

FIGURE_PRIOR = 1.0
"""Prior sd (logits) of a figure's departure from the cost line: a figure 2 sd off is far off."""
CARD_PRIOR = 0.5
"""Prior sd (logits) of a plot-twist card's worth."""
FLAT_PRIOR = 100.0
"""Prior sd of the cost slope and the seat effect: flat in practice, there only to keep the fit defined."""
RESAMPLES = 200


@dataclass
class Features:
    """Each army's figure counts and card indicators, and what the columns are."""

    names: list[str]
    figures: list[str]
    cards: list[str]
    costs: np.ndarray
    counts: np.ndarray
    """armies x figures: copies of each figure."""
    crypts: np.ndarray
    """armies x cards: 1 where the card is in the army's crypt."""

    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}


def army_features(roster: Roster, armies: dict[str, Army]) -> Features:
    """The features of `armies`: every figure one of them fields, every card one holds."""
    figures = sorted(
        {e.figure for a in armies.values() for e in a.figures}, key=lambda f: (roster.figures[f].points, f)
    )
    cards = sorted({c for a in armies.values() for c in a.crypt})
    fi, ci = {f: i for i, f in enumerate(figures)}, {c: i for i, c in enumerate(cards)}
    counts = np.zeros((len(armies), len(figures)))
    crypts = np.zeros((len(armies), len(cards)))
    for row, army in enumerate(armies.values()):
        for entry in army.figures:
            counts[row, fi[entry.figure]] += 1
        for card in army.crypt:
            crypts[row, ci[card]] = 1
    costs = np.array([roster.figures[f].points for f in figures], dtype=float)
    return Features(list(armies), figures, cards, costs, counts, crypts)


@dataclass
class GameTable:
    """The games as the model sees them: both armies' rows in `Features`, A's seat, A's score, the pair unit."""

    a: np.ndarray
    b: np.ndarray
    seat: np.ndarray
    """+1 when A sat in seat 1, -1 otherwise."""
    score: np.ndarray
    unit: np.ndarray
    """The seat-swapped pair each game belongs to (the bootstrap's unit)."""
    style: np.ndarray


def game_table(games: pd.DataFrame, features: Features) -> GameTable:
    """`games` (rows with army_a, army_b, seat_a, winner, cell, pair, style) as the model's arrays."""
    index = features.index()
    units = games["cell"].astype(np.int64) * 1_000_000 + games["pair"].astype(np.int64)
    return GameTable(
        a=games["army_a"].map(index).to_numpy(int),
        b=games["army_b"].map(index).to_numpy(int),
        seat=np.where(games["seat_a"].to_numpy() == 1, 1.0, -1.0),
        score=game_scores(games, "A").to_numpy(float),
        unit=pd.factorize(units)[0],
        style=games["players_a"].to_numpy(str),
    )


def _design_matrix(features: Features, table: GameTable) -> np.ndarray:
    """Columns: cost/100 (the slope), each figure, each card, the seat."""
    counts = features.counts[table.a] - features.counts[table.b]
    crypts = features.crypts[table.a] - features.crypts[table.b]
    slope = counts @ features.costs / 100
    return np.column_stack([slope, counts, crypts, table.seat])


def _precision(features: Features) -> np.ndarray:
    return np.concatenate(
        [
            [FLAT_PRIOR**-2],
            np.full(len(features.figures), FIGURE_PRIOR**-2),
            np.full(len(features.cards), CARD_PRIOR**-2),
            [FLAT_PRIOR**-2],
        ]
    )


def fit_logistic(
    x: np.ndarray, y: np.ndarray, weight: np.ndarray, precision: np.ndarray, start: np.ndarray
) -> np.ndarray:
    """The penalized maximum-likelihood weights (a normal prior of precision `precision` on each), by
    scipy's trust-region Newton method; `y` may hold ½ for a draw."""

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        eta = x @ w
        loss = float(np.sum(weight * (np.logaddexp(0.0, eta) - y * eta)) + 0.5 * np.sum(precision * w * w))
        p = 1.0 / (1.0 + np.exp(-eta))
        return loss, x.T @ (weight * (p - y)) + precision * w

    def hessian(w: np.ndarray) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        return (x * (weight * p * (1 - p))[:, None]).T @ x + np.diag(precision)

    found = minimize(objective, start, jac=True, hess=hessian, method="trust-exact", options={"gtol": 1e-8})
    return np.asarray(found.x)


def _points(w: np.ndarray, features: Features, used: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Figure and card values in points and lambda (logits per point), from fitted weights."""
    nf = len(features.figures)
    beta = w[0] * features.costs / 100 + w[1 : 1 + nf]
    gamma = w[1 + nf : 1 + nf + len(features.cards)]
    lam = float(np.sum(used * beta) / np.sum(used * features.costs))
    if lam <= 0:
        return np.full(nf, np.nan), np.full(len(gamma), np.nan), lam
    return beta / lam, gamma / lam, lam


@dataclass
class Fit:
    """A fitted value model: point estimates and bootstrap draws of every value in points."""

    features: Features
    weights: np.ndarray
    lam: float
    figure_values: np.ndarray
    card_values: np.ndarray
    figure_draws: np.ndarray
    card_draws: np.ndarray
    lam_draws: np.ndarray
    games: int
    pairs: int


def fit_values(features: Features, table: GameTable, resamples: int = RESAMPLES, seed: int = 0) -> Fit:
    """Fit the value model to the games and bootstrap it over the seat-swapped pairs."""
    x = _design_matrix(features, table)
    precision = _precision(features)
    used = features.counts.sum(axis=0)
    ones = np.ones(len(table.score))
    w = fit_logistic(x, table.score, ones, precision, np.zeros(x.shape[1]))
    values, cards, lam = _points(w, features, used)
    if not np.isfinite(lam) or lam <= 0:
        raise ClixError(
            "the games show no link between points and winning (armies of more points do not win more); "
            "play more games (--armies, --games) or check the library"
        )
    rng = np.random.default_rng([seed, 3])
    units = int(table.unit.max()) + 1 if len(table.unit) else 0
    fdraws = np.full((resamples, len(values)), np.nan)
    cdraws = np.full((resamples, len(cards)), np.nan)
    ldraws = np.full(resamples, np.nan)
    for r in range(resamples):
        picked = np.bincount(rng.integers(0, units, units), minlength=units)
        wr = fit_logistic(x, table.score, picked[table.unit].astype(float), precision, w)
        fdraws[r], cdraws[r], ldraws[r] = _points(wr, features, used)
    return Fit(features, w, lam, values, cards, fdraws, cdraws, ldraws, len(table.score), units)


def _interval(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(invalid="ignore"):
        finite = np.where(np.isfinite(draws), draws, np.nan)
        low, high = np.nanpercentile(finite, [2.5, 97.5], axis=0) if len(draws) else (np.nan, np.nan)
    return np.asarray(low), np.asarray(high)


def verdict(low: float, high: float) -> str:
    """A figure by its residual's interval: under-costed (worth more than it costs), over-costed, or fair."""
    if low > 0:
        return "under-costed"
    if high < 0:
        return "over-costed"
    return "fair (within the data)"


def value_rows(roster: Roster, fit: Fit, budget: int, pool: Sequence[str]) -> list[dict[str, Any]]:
    """One row per figure of the library (those the armies never fielded say why) and one per plot twist."""
    f = fit.features
    low, high = _interval(fit.figure_draws)
    residual = fit.figure_draws - f.costs
    rlow, rhigh = _interval(residual)
    clow, chigh = _interval(fit.card_draws)
    used = f.counts.sum(axis=0)
    at = {name: i for i, name in enumerate(f.figures)}
    rows: list[dict[str, Any]] = []
    for fid, figure in sorted(roster.figures.items(), key=lambda kv: (kv[1].points, kv[0])):
        row: dict[str, Any] = {"kind": "figure", "name": fid, "cost": figure.points}
        i = at.get(fid)
        if i is None:
            if figure.rank == "demo":
                why = "a demo figure, not legal in an army"
            elif figure.points > budget:
                why = f"costs more than --budget {budget}"
            elif pool and fid not in pool:
                why = "not in --pool"
            else:
                why = "no random army drew it"
            rows.append(
                row
                | {
                    "fielded": 0,
                    "value": None,
                    "low": None,
                    "high": None,
                    "residual": None,
                    "residual_low": None,
                    "residual_high": None,
                    "verdict": f"not measured: {why}",
                }
            )
            continue
        value = float(fit.figure_values[i])
        rows.append(
            row
            | {
                "fielded": int(used[i]),
                "value": value,
                "low": float(low[i]),
                "high": float(high[i]),
                "residual": value - figure.points,
                "residual_low": float(rlow[i]),
                "residual_high": float(rhigh[i]),
                "verdict": verdict(float(rlow[i]), float(rhigh[i])),
            }
        )
    held = f.crypts.sum(axis=0)
    for i, card in enumerate(f.cards):
        value = float(fit.card_values[i])
        rows.append(
            {
                "kind": "plot twist",
                "name": card,
                "cost": 0,
                "fielded": int(held[i]),
                "value": value,
                "low": float(clow[i]),
                "high": float(chigh[i]),
                "residual": value,
                "residual_low": float(clow[i]),
                "residual_high": float(chigh[i]),
                "verdict": "better than the average card"
                if clow[i] > 0
                else "worse than the average card"
                if chigh[i] < 0
                else "not told from the average card",
            }
        )
    return rows
