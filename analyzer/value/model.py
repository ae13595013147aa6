"""The value model of `clix value`: each army's figure counts and cards, the regularized logistic (Bradley-Terry)
fit of army strength to the games with its bootstrap over seat-swapped pairs, and each figure's and card's value
in points with its interval and verdict (the model is described in analyzer/value/command.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.stats.scoring import game_scores
from clix.analyzer.value.pieces import pieces_of
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
    groups: np.ndarray | None = None
    """Each army's group for the bootstrap (an army and its variants, such as itself a figure short, share one);
    None: each army is its own group."""

    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}


def army_features(roster: Any, armies: Mapping[str, Any], parents: Mapping[str, str] | None = None) -> Features:
    """The features of `armies`: every figure one of them fields, every card one holds; `parents` names the army a
    variant was made from (the bootstrap draws it with its parent). `roster`: a ruleset's library data or its
    pieces (analyzer/value/pieces.py; a HeroClix force holds characters and no cards)."""
    pieces = pieces_of(roster)
    figures = sorted({f for a in armies.values() for f in pieces.contents(a)}, key=lambda f: (pieces.points(f), f))
    cards = sorted({c for a in armies.values() for c in pieces.cards(a)})
    fi, ci = {f: i for i, f in enumerate(figures)}, {c: i for i, c in enumerate(cards)}
    counts = np.zeros((len(armies), len(figures)))
    crypts = np.zeros((len(armies), len(cards)))
    for row, army in enumerate(armies.values()):
        for figure in pieces.contents(army):
            counts[row, fi[figure]] += 1
        for card in pieces.cards(army):
            crypts[row, ci[card]] = 1
    costs = np.array([pieces.points(f) for f in figures], dtype=float)
    names = list(armies)
    groups = pd.factorize(pd.Series([(parents or {}).get(n, n) for n in names], dtype=object))[0]
    return Features(names, figures, cards, costs, counts, crypts, np.asarray(groups))


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
    weight_draws: np.ndarray | None = None
    """resamples x weights: each bootstrap resample's fitted weights (what predictions take their interval from)."""


def fit_values(features: Features, table: GameTable, resamples: int = RESAMPLES, seed: int = 0) -> Fit:
    """Fit the value model to the games and bootstrap it over the armies (`Features.groups`, `game_weights`)."""
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
    groups = features.groups if features.groups is not None else np.arange(len(features.names))
    first, second = groups[table.a], groups[table.b]
    count = int(groups.max()) + 1 if len(groups) else 0
    fdraws = np.full((resamples, len(values)), np.nan)
    cdraws = np.full((resamples, len(cards)), np.nan)
    ldraws = np.full(resamples, np.nan)
    wdraws = np.full((resamples, len(w)), np.nan)
    for r in range(resamples):
        picked = np.bincount(rng.integers(0, count, count), minlength=count).astype(float)
        wr = fit_logistic(x, table.score, game_weights(picked, first, second), precision, w)
        fdraws[r], cdraws[r], ldraws[r] = _points(wr, features, used)
        wdraws[r] = wr
    return Fit(features, w, lam, values, cards, fdraws, cdraws, ldraws, len(table.score), units, wdraws)


def game_weights(picked: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Each game's weight in one resample of the bootstrap over armies: `picked` holds how many times each group
    of armies was drawn, `first` and `second` each game's two groups. A game weighs the product of its armies'
    draws (it is in the resample once for each way of drawing both), or its group's draws when both armies are of
    one group (an army against itself a figure short)."""
    return np.where(first == second, picked[first], picked[first] * picked[second])


def strengths(fit: Fit, counts: np.ndarray, crypts: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Each army's strength in logits by the fit's weights (or `weights`): `counts` and `crypts` are armies x
    the fit's figures and cards (a figure the fit never saw is worth its cost on the cost line, a card 0)."""
    w = fit.weights if weights is None else weights
    nf, nc = len(fit.features.figures), len(fit.features.cards)
    beta = w[0] * fit.features.costs / 100 + w[1 : 1 + nf]
    return counts @ beta + crypts @ w[1 + nf : 1 + nf + nc]


def pair_score(difference: np.ndarray | float, seat: float) -> np.ndarray:
    """A's expected score over seat-swapped pairs from the strength difference A - B (logits): the mean of the
    two seats' win chances."""
    d = np.asarray(difference, dtype=float)
    return 0.5 * (1 / (1 + np.exp(-(d + seat))) + 1 / (1 + np.exp(-(d - seat))))


def army_columns(roster: Any, fit: Fit, armies: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`armies` as the fit's columns: figure counts, card indicators, and each army's cost of the figures the
    fit never saw (worth their cost, on the cost line)."""
    pieces = pieces_of(roster)
    fi = {f: i for i, f in enumerate(fit.features.figures)}
    ci = {c: i for i, c in enumerate(fit.features.cards)}
    counts = np.zeros((len(armies), len(fi)))
    crypts = np.zeros((len(armies), len(ci)))
    unseen = np.zeros(len(armies))
    for row, army in enumerate(armies):
        for figure in pieces.contents(army):
            if figure in fi:
                counts[row, fi[figure]] += 1
            else:
                unseen[row] += pieces.points(figure)
        for card in pieces.cards(army):
            if card in ci:
                crypts[row, ci[card]] = 1
    return counts, crypts, unseen


def predict_scores(roster: Any, fit: Fit, pairs: Sequence[tuple[Any, Any]]) -> dict[str, np.ndarray]:
    """A's predicted score in each pair of armies, by the model's own link (seat-swapped pairs): "score", its
    95% interval over the bootstrap resamples ("low", "high"), and "cost": the prediction by cost alone (every
    figure worth its cost, every card nothing, one point = the fit's logits per point)."""
    counts, crypts, unseen = army_columns(roster, fit, [army for pair in pairs for army in pair])
    a, b = slice(0, None, 2), slice(1, None, 2)
    seat = float(fit.weights[-1])

    def scored(w: np.ndarray) -> np.ndarray:
        s = strengths(fit, counts, crypts, w) + w[0] * unseen / 100
        return pair_score(s[a] - s[b], float(w[-1]))

    score = scored(fit.weights)
    draws = fit.weight_draws if fit.weight_draws is not None else fit.weights[None, :]
    sampled = np.array([scored(w) for w in draws if np.all(np.isfinite(w))])
    low, high = _interval(sampled) if len(sampled) else (score, score)
    cost = (counts @ fit.features.costs + unseen) * fit.lam
    return {
        "score": score,
        "low": np.asarray(low),
        "high": np.asarray(high),
        "cost": pair_score(cost[a] - cost[b], seat),
    }


Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def model_error(predicted: np.ndarray, measured: np.ndarray, se: np.ndarray, spread: np.ndarray) -> float:
    """The sd of the model's own error (what an additive model cannot see, such as composition), from pairings
    measured outside the design: the mean squared miss less what measurement noise (`se`) and the fit's own
    uncertainty (`spread`, the bootstrap sd) account for; 0 when they account for all of it, NaN without pairings
    (method of moments)."""
    if not len(predicted):
        return float("nan")
    excess = (np.asarray(measured) - np.asarray(predicted)) ** 2 - np.asarray(se) ** 2 - np.asarray(spread) ** 2
    return float(np.sqrt(max(0.0, float(np.mean(excess)))))


def bootstrap_sd(low: np.ndarray | float, high: np.ndarray | float) -> np.ndarray:
    """The sd a 95% bootstrap interval implies (its width over 2 × 1.96)."""
    return (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / (2 * Z95)


def prediction_interval(
    predicted: float, low: float, high: float, error: float, se: float = 0.0
) -> tuple[float, float]:
    """A 95% interval for a score the model predicts: the fit's bootstrap interval [`low`, `high`] widened on each
    side by the model's own error (`error`, `model_error`; NaN adds nothing) and, for a score to be measured over a
    finite number of games, its standard error `se` (the parts added in quadrature); within [0, 1]."""
    extra = Z95**2 * ((0.0 if np.isnan(error) else error) ** 2 + se**2)
    below = float(np.sqrt(max(0.0, predicted - low) ** 2 + extra))
    above = float(np.sqrt(max(0.0, high - predicted) ** 2 + extra))
    return max(0.0, predicted - below), min(1.0, predicted + above)


def _interval(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if draws.ndim == 2 and draws.shape[1] == 0:  # no column (a HeroClix force holds no cards)
        return np.empty(0), np.empty(0)
    with np.errstate(invalid="ignore"):
        finite = np.where(np.isfinite(draws), draws, np.nan)
        low, high = np.nanpercentile(finite, [2.5, 97.5], axis=0) if len(draws) else (np.nan, np.nan)
    return np.asarray(low), np.asarray(high)


STRONG = 3.5
"""A finding (under-costed, better than the average card...) needs its point estimate this many bootstrap standard
errors from zero; one whose 95% interval only excludes zero "leans". Chosen on seeds 211-215 and 221-224 (runs of
the defaults): at 3, 11 of 127 findings were contradicted by another run (8.7%, up to 3 of 24 on one pair of
runs); at 3.5, 1 of 97 (at most 1 of 16 a pair); at 1.96 (the 95% interval alone), 18 of 40 on seeds 211-212.
docs/statistics.md has the check on fresh seeds."""

FAIR = "fair (within the data)"
NOT_TOLD = "not told from the average card"
FINDINGS = {"under-costed": 1, "better than the average card": 1, "over-costed": -1, "worse than the average card": -1}
"""The verdicts that are findings, with their direction (worth above cost or the average card: +1); each also
comes as "leans ..." when the evidence is weaker."""


def _tiered(low: float, high: float, estimate: float, above: str, below: str, neither: str) -> str:
    sd = float(bootstrap_sd(low, high))
    if low > 0:
        return above if estimate >= STRONG * sd else f"leans {above}"
    if high < 0:
        return below if estimate <= -STRONG * sd else f"leans {below}"
    return neither


def verdict(low: float, high: float, estimate: float) -> str:
    """A figure by its residual (value - cost) and the residual's 95% interval: under-costed or over-costed when
    the estimate is `STRONG` standard errors from 0, "leans ..." when only the interval excludes 0, else fair."""
    return _tiered(low, high, estimate, "under-costed", "over-costed", FAIR)


def card_verdict(low: float, high: float, estimate: float) -> str:
    """A plot twist by its value against the average card, tiered as `verdict`."""
    return _tiered(low, high, estimate, "better than the average card", "worse than the average card", NOT_TOLD)


def direction(found: str) -> int:
    """+1 for a verdict of worth above cost (or the average card), -1 below, 0 for fair or not told."""
    return FINDINGS.get(found.removeprefix("leans "), 0)


def contradicts(one: str, two: str) -> bool:
    """Whether two verdicts on one item disagree: they point opposite ways, or one is a finding and the other does
    not lean its way. A finding against "leans" the same way agrees: the evidence differs, not the answer."""
    if direction(one) * direction(two) < 0:
        return True
    return any(a in FINDINGS and direction(b) != direction(a) for a, b in ((one, two), (two, one)))


def verdicts(fit: Fit) -> dict[str, str]:
    """Each fielded figure's and held card's verdict by the fit's intervals, by name."""
    f = fit.features
    residual = fit.figure_values - f.costs
    rlow, rhigh = _interval(fit.figure_draws - f.costs)
    found = {name: verdict(float(rlow[i]), float(rhigh[i]), float(residual[i])) for i, name in enumerate(f.figures)}
    if f.cards:
        clow, chigh = _interval(fit.card_draws)
        found |= {
            name: card_verdict(float(clow[i]), float(chigh[i]), float(fit.card_values[i]))
            for i, name in enumerate(f.cards)
        }
    return found


def split_halves(table: GameTable, seed: int) -> tuple[GameTable, GameTable]:
    """The games in two halves of the seat-swapped pairs, drawn at random (seeded) so each half holds half the
    pairs; each half's pairs renumbered from 0."""
    units = int(table.unit.max()) + 1 if len(table.unit) else 0
    first = np.zeros(units, dtype=bool)
    first[np.random.default_rng([seed, 4]).permutation(units)[: units // 2]] = True
    halves = []
    for keep in (first[table.unit], ~first[table.unit]):
        halves.append(
            GameTable(
                a=table.a[keep],
                b=table.b[keep],
                seat=table.seat[keep],
                score=table.score[keep],
                unit=pd.factorize(table.unit[keep])[0],
                style=table.style[keep],
            )
        )
    return halves[0], halves[1]


@dataclass
class Stability:
    """The verdicts of each half of the data (None for a half whose fit found no link between points and
    winning) and how many of them contradict each other between the halves (`contradicts`)."""

    halves: tuple[dict[str, str] | None, dict[str, str] | None]
    differ: int
    compared: int


def half_verdicts(features: Features, table: GameTable, resamples: int, seed: int) -> Stability:
    """Fit each half of the pairs (`split_halves`) with its own bootstrap and count the verdicts that contradict
    each other: each half has half the games, so this overstates what a rerun of the whole would change."""
    found: list[dict[str, str] | None] = []
    for half in split_halves(table, seed):
        try:
            found.append(verdicts(fit_values(features, half, resamples, seed)))
        except ClixError:
            found.append(None)
    one, two = found
    names = [*features.figures, *features.cards]
    differ = sum(1 for n in names if one is None or two is None or contradicts(one[n], two[n]))
    return Stability((one, two), differ, len(names))


def value_rows(
    roster: Any, fit: Fit, budget: int, pool: Sequence[str], stability: Stability | None = None
) -> list[dict[str, Any]]:
    """One row per figure of the library (those the armies never fielded say why) and one per plot twist; with
    `stability`, each row also gives the two halves' verdicts ("verdict_halves")."""
    f = fit.features
    low, high = _interval(fit.figure_draws)
    residual = fit.figure_draws - f.costs
    rlow, rhigh = _interval(residual)
    clow, chigh = _interval(fit.card_draws)
    used = f.counts.sum(axis=0)
    at = {name: i for i, name in enumerate(f.figures)}

    def judged(name: str, full: str) -> dict[str, Any]:
        if stability is None:
            return {"verdict": full}
        return {"verdict": full, "verdict_halves": [None if h is None else h[name] for h in stability.halves]}

    rows: list[dict[str, Any]] = []
    pieces = pieces_of(roster)
    for fid, figure in sorted(pieces.figures.items(), key=lambda kv: (kv[1].points, kv[0])):
        row: dict[str, Any] = {"kind": "figure", "name": fid, "cost": figure.points}
        i = at.get(fid)
        if i is None:
            if (illegal := pieces.not_fielded(fid)) is not None:
                why = illegal
            elif figure.points > budget:
                why = f"costs more than --budget {budget}"
            elif pool and fid not in pool:
                why = "not in --pool"
            else:
                why = f"no random {pieces.army_kind} drew it"
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
            }
            | judged(fid, verdict(float(rlow[i]), float(rhigh[i]), value - figure.points))
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
            }
            | judged(card, card_verdict(float(clow[i]), float(chigh[i]), value))
        )
    return rows
