"""The ladder's ratings: Bradley-Terry ratings in Elo points fitted to the styles' games, with a bootstrap over
seat-swapped pairs, each style's score against each other and against the field, and the search player's skill
trace (`clix ladder`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.play.runner import SEARCH, search_budget
from clix.analyzer.stats.scoring import mean_interval, pair_means, paired_score

PAIR_KEY = ("army", "map", "pair")
"""The columns naming a seat-swapped pair in a frame that holds several cells."""


def fit_ratings(wins: np.ndarray, games: np.ndarray, prior: float = 1.0, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry ratings in Elo points (mean 0) by the MM iteration (Hunter 2004).

    `wins[i, j]` is i's score against j (wins + ½ draws), `games[i, j]` the games they played. `prior`
    adds that many virtual games, split evenly, to every pair that played: without it a style that never
    scores gets a rating of minus infinity.
    """
    wins = np.asarray(wins, dtype=float)
    games = np.asarray(games, dtype=float)
    played = (games > 0) & ~np.eye(len(games), dtype=bool)
    if not played.any(axis=1).all():
        raise ValueError("every style needs at least one game against another")
    w = np.where(played, wins + prior / 2, 0.0)
    n = np.where(played, games + prior, 0.0)
    total = w.sum(axis=1)
    log_p = np.zeros(len(games))
    for _ in range(100_000):
        p = np.exp(log_p)
        new = np.log(total / (n / (p[:, None] + p[None, :])).sum(axis=1))
        new -= new.mean()
        done = np.max(np.abs(new - log_p)) < tol
        log_p = new
        if done:
            break
    elo = 400 * log_p / np.log(10)
    return elo - elo.mean()


def _totals(cells: list[tuple[int, int, np.ndarray, np.ndarray]], styles: int) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((styles, styles))
    games = np.zeros((styles, styles))
    for i, j, sums, counts in cells:
        wins[i, j] += sums.sum()
        wins[j, i] += counts.sum() - sums.sum()
        games[i, j] += counts.sum()
        games[j, i] += counts.sum()
    return wins, games


def ladder_summary(games_df: pd.DataFrame, styles: Sequence[str], seed: int, resamples: int = 200) -> dict[str, Any]:
    """Scores, the score matrix and Bradley-Terry ratings with bootstrap intervals from the ladder's games.

    `games_df` holds every game with columns style_a, style_b, army, map, pair and winner (from style_a's
    side). Styles are returned ordered by rating, best first.
    """
    present = [s for s in styles if ((games_df["style_a"] == s) | (games_df["style_b"] == s)).any()]
    index = {s: i for i, s in enumerate(present)}
    pairs: list[dict[str, Any]] = []
    matrix: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in present}
    field_means: dict[str, list[np.ndarray]] = {s: [] for s in present}
    # per cell: style indexes and, per pair, style_a's summed score and the pair's number of games
    cells: list[tuple[int, int, np.ndarray, np.ndarray]] = []
    for (a, b), sub in games_df.groupby(["style_a", "style_b"], sort=False):
        score = paired_score(sub, "A", PAIR_KEY)
        pairs.append({"style_a": a, "style_b": b, **score})
        matrix[a][b] = score
        matrix[b][a] = {**score, "score": 1 - score["score"], "low": 1 - score["high"], "high": 1 - score["low"]}
        field_means[a].append(pair_means(sub, "A", PAIR_KEY))
        field_means[b].append(pair_means(sub, "B", PAIR_KEY))
        for _, cell in sub.groupby(["army", "map"], sort=False):
            won = (cell["winner"] == "A") + 0.5 * (cell["winner"] == "draw")
            grouped = won.groupby(cell["pair"], sort=True)
            cells.append((index[a], index[b], grouped.sum().to_numpy(float), grouped.size().to_numpy(float)))
    elo = fit_ratings(*_totals(cells, len(present)))
    rng = np.random.default_rng(seed)
    boot = np.zeros((resamples, len(present)))
    picks = [rng.integers(0, len(sums), size=(resamples, len(sums))) for _, _, sums, _ in cells]
    for r in range(resamples):
        resampled = [(i, j, sums[p[r]], counts[p[r]]) for (i, j, sums, counts), p in zip(cells, picks, strict=True)]
        boot[r] = fit_ratings(*_totals(resampled, len(present)))
    low, high = np.percentile(boot, [2.5, 97.5], axis=0) if resamples else (elo, elo)
    ratings = []
    for s in present:
        i = index[s]
        versus = mean_interval(np.concatenate(field_means[s]))
        ratings.append(
            {
                "style": s,
                "rating": float(elo[i]),
                "low": float(low[i]),
                "high": float(high[i]),
                "score": versus["score"],
                "score_low": versus["low"],
                "score_high": versus["high"],
                "pairs": versus["pairs"],
                "games": int(((games_df["style_a"] == s) | (games_df["style_b"] == s)).sum()),
            }
        )
    ratings.sort(key=lambda r: -r["rating"])
    return {
        "styles": [r["style"] for r in ratings],
        "ratings": ratings,
        "pairs": pairs,
        "matrix": matrix,
        "skill_trace": skill_trace(ratings, matrix),
    }


def skill_trace(ratings: list[dict[str, Any]], matrix: dict[str, dict[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The search styles by budget (issue 17): each one's rating and its score against the next smaller budget
    played, and whether that score's interval is above 50% (`stronger`: True), below (False) or holds it (None:
    the strength levels off there)."""
    budgets = {r["style"]: search_budget(r["style"]) for r in ratings if r["style"].split(":")[0] == SEARCH}
    trace: list[dict[str, Any]] = []
    previous: str | None = None
    by_style = {r["style"]: r for r in ratings}
    for style in sorted(budgets, key=budgets.__getitem__):
        versus = matrix[style].get(previous) if previous is not None else None
        stronger = None
        if versus is not None and versus.get("score") is not None:
            stronger = True if versus["low"] > 0.5 else False if versus["high"] < 0.5 else None
        trace.append(
            {
                "style": style,
                "budget": budgets[style],
                "rating": by_style[style]["rating"],
                "low": by_style[style]["low"],
                "high": by_style[style]["high"],
                "smaller": previous,
                "versus_smaller": versus,
                "stronger": stronger,
            }
        )
        previous = style
    return trace
