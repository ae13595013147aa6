"""A side's score over many games (win 1, draw ½, loss 0) with a 95% interval that takes the seat-swapped
pair, not the game, as the unit: the two games of a pair share a seed, so they are not independent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

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


def mean_interval(values: Sequence[float] | np.ndarray) -> dict[str, Any]:
    """Mean of per-pair scores with its 95% t interval, clipped to [0, 1].

    With a single pair the spread cannot be estimated, so the interval is the whole [0, 1].
    """
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return {"score": None, "low": None, "high": None, "pairs": 0}
    mean = float(x.mean())
    if n == 1:
        return {"score": mean, "low": 0.0, "high": 1.0, "pairs": 1}
    sd = float(x.std(ddof=1))
    half = float(st.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * sd / np.sqrt(n) if sd > 0 else 0.0
    return {"score": mean, "low": max(0.0, mean - half), "high": min(1.0, mean + half), "pairs": n}


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
