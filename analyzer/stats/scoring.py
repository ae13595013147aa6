"""A side's score over many games (win 1, draw ½, loss 0) with a 95% interval that takes the seat-swapped
pair, not the game, as the unit: the two games of a pair share a seed, so they are not independent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

CONFIDENCE = 0.95


def game_scores(games_df: pd.DataFrame, side: str = "A") -> pd.Series:
    """Each game's score for `side` ("A" or "B"): 1 for a win, ½ for a draw, 0 for a loss."""
    if side not in ("A", "B"):
        raise ValueError(f"side must be 'A' or 'B', not {side!r}")
    winner = games_df["winner"]
    return (winner == side).astype(float) + 0.5 * (winner == "draw").astype(float)


def pair_means(games_df: pd.DataFrame, side: str = "A", pair_key: str | Sequence[str] = "pair") -> np.ndarray:
    """The mean score of `side` in each pair (the games sharing `pair_key`), in the order of the keys."""
    if games_df.empty:
        return np.zeros(0)
    keys = [pair_key] if isinstance(pair_key, str) else list(pair_key)
    scores = game_scores(games_df, side)
    return scores.groupby([games_df[k] for k in keys], sort=True).mean().to_numpy(dtype=float)


PRIOR_PAIRS = 0.25
"""The weight of each of the two imagined pairs, one lost and one won, that every pair interval adds to the data
when it measures how much the pair means vary, so that pairs that all agree never give an interval of no width."""


def pair_interval(values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """The mean of scores in [0, 1] (a pair's mean score, or a game's score) with its interval at `confidence`:
    {score, low, high, half_width, se, pairs}.

    A Wilson score interval (the win rates' interval) with the number of pairs scaled by how much the pair means
    vary compared with all-or-nothing pairs: dispersion = variance / (mean·(1 − mean)), both measured with two
    imagined pairs of weight PRIOR_PAIRS added, one scoring 0 and one scoring 1. When the pairs vary, this is
    within a point or two of the t interval; when every pair agrees the dispersion is about 1 and the interval
    is the Wilson interval of that many all-or-nothing trials (20 pairs all won: [83%, 100%]), never of no
    width. One value gives all of [0, 1]. `half_width` is half the interval's length (it need not be centred
    on the mean); `se` is the interval's longer side over the normal quantile, the standard error it implies
    (what a mean over several cells combines). docs/statistics.md, "Score", and tests/test_interval_coverage.py.
    """
    from scipy import stats as st  # here, not at import: a duel plays its games before it needs scipy

    x = np.asarray(values, dtype=float)
    n = len(x)
    z = float(st.norm.ppf(0.5 + confidence / 2))
    if n == 0:
        return {"score": None, "low": None, "high": None, "half_width": None, "se": None, "pairs": 0}
    mean = float(x.mean())
    if n == 1:
        return {"score": mean, "low": 0.0, "high": 1.0, "half_width": 0.5, "se": max(mean, 1 - mean) / z, "pairs": 1}
    w = PRIOR_PAIRS
    centre_of_all = (float(x.sum()) + w) / (n + 2 * w)
    squares = float(((x - centre_of_all) ** 2).sum()) + w * centre_of_all**2 + w * (1 - centre_of_all) ** 2
    dispersion = squares / (n + 2 * w - 1) / (centre_of_all * (1 - centre_of_all))
    a = z * z * dispersion / n
    centre = (mean + a / 2) / (1 + a)
    half = float(np.sqrt(a * mean * (1 - mean) + a * a / 4)) / (1 + a)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    low, high = (0.0 if mean <= 0 else low), (1.0 if mean >= 1 else high)  # exact ends, not 0.9999...
    return {
        "score": mean,
        "low": low,
        "high": high,
        "half_width": (high - low) / 2,
        "se": max(mean - low, high - mean) / z,
        "pairs": n,
    }


def mean_interval(values: Sequence[float] | np.ndarray) -> dict[str, Any]:
    """Mean of per-pair scores in [0, 1] with its 95% pair interval (`pair_interval`): {score, low, high, pairs}.
    With a single pair the interval is the whole [0, 1]; it never has zero width."""
    found = pair_interval(values)
    return {key: found[key] for key in ("score", "low", "high", "pairs")}


def paired_score(games_df: pd.DataFrame, side: str = "A", pair_key: str | Sequence[str] = "pair") -> dict[str, Any]:
    """`side`'s mean score with a 95% interval over seat-swapped pairs: {score, low, high, pairs, games}.

    `pair_key` names the column(s) identifying a pair; pass e.g. ("army", "map", "pair") when the frame
    holds several runs whose pair numbers repeat.
    """
    result = mean_interval(pair_means(games_df, side, pair_key))
    result["games"] = len(games_df)
    return result


def percent(score: dict[str, Any], digits: int = 0) -> str:
    """A score as "62% [58-66]" (or "–" when there is none)."""
    if score.get("score") is None:
        return "–"
    f = f"{{:.{digits}f}}"
    return f"{f.format(100 * score['score'])}% [{f.format(100 * score['low'])}-{f.format(100 * score['high'])}]"
