"""The meta's score matrix: each game from both sides, the cells table, the matrix of army pairs (equal weight over
maps and styles) with its bootstrap, Bradley-Terry ratings and each army's score against the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.ladder.command import fit_ratings
from clix.analyzer.meta.play import FieldRun, _cell_names
from clix.analyzer.play.runner import (
    Matchup,
)
from clix.analyzer.stats.duel import pair_interval
from clix.analyzer.stats.scoring import CONFIDENCE, game_scores, pair_means
from scipy import stats as st

Z = float(st.norm.ppf(0.5 + CONFIDENCE / 2))


def _normal(mean: float | None, error: float, **more: Any) -> dict[str, Any]:
    if mean is None:
        return {"score": None, "low": None, "high": None, **more}
    return {"score": mean, "low": max(0.0, mean - Z * error), "high": min(1.0, mean + Z * error), **more}


def long_games(games: pd.DataFrame) -> pd.DataFrame:
    """Each game twice, once from each army's side: army, opponent, map, style, its score, whether it went
    first, its starting area and the plot twists it played; with `cell` and `pair` naming the pair."""
    score_a = game_scores(games, "A").to_numpy()
    parts = []
    for side, other, score in (("a", "b", score_a), ("b", "a", 1 - score_a)):
        parts.append(
            pd.DataFrame(
                {
                    "cell": games["cell"].to_numpy(),
                    "pair": games["pair"].to_numpy(),
                    "army": games[f"army_{side}"].to_numpy(),
                    "opponent": games[f"army_{other}"].to_numpy(),
                    "map": games["map"].to_numpy(),
                    "style": games[f"players_{side}"].to_numpy(),
                    "score": score,
                    "first": (games["first"] == side.upper()).to_numpy(),
                    "area": games[f"area_{side}"].to_numpy(),
                    "cards": games.get(f"plot_twist_cards_{side}", pd.Series([""] * len(games))).fillna("").to_numpy(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def cell_table(matchups: Sequence[Matchup], run: FieldRun, games: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: its armies, map and style, games and pairs, A's score with its 95% pair interval (at the
    looks' level under --target-ci; `stats.pair_interval`, never of no width), the standard error that interval
    implies at 95% (`se`, what the matrix and field scores combine), how it settled, draws, tie-breaks and the
    first player's score."""
    rows = []
    by_cell = dict(tuple(games.groupby("cell", sort=True))) if len(games) else {}
    for c, m in enumerate(matchups):
        state = run.cells[c]
        sub = by_cell.get(c)
        row: dict[str, Any] = {
            **_cell_names(m),
            "games": 0 if sub is None else len(sub),
            "settled": state.settled,
            "look": state.look,
        }
        if sub is not None and len(sub):
            means = pair_means(sub)
            ci = pair_interval(means, run.confidence)
            first_scores = (sub["winner"] == sub["first"]) + 0.5 * (sub["winner"] == "draw")
            row |= {
                "pairs": ci["pairs"],
                "score": ci["score"],
                "low": ci["low"],
                "high": ci["high"],
                "half_width": ci["half_width"],
                "se": pair_interval(means)["se"],
                "draws": float((sub["winner"] == "draw").mean()),
                "tie_breaks": float(sub["tie_break"].astype(bool).mean()),
                "first_player": float(first_scores.mean()),
            }
        rows.append(row)
    return pd.DataFrame(rows)


def score_matrix(armies: Sequence[str], cells: pd.DataFrame, columns: str = "score") -> tuple[np.ndarray, np.ndarray]:
    """The field's score matrix (row army's score against the column's; ½ on the diagonal) and its standard
    errors: each army pair's cells (maps, styles) averaged with equal weight, the error √(Σ se²)/cells from the
    cells' `se` (each the error its pair interval implies, so a cell whose pairs all agree still adds some)."""
    n = len(armies)
    index = {a: i for i, a in enumerate(armies)}
    scores = np.full((n, n), 0.5)
    se = np.zeros((n, n))
    seen = np.eye(n, dtype=bool)
    done = cells.dropna(subset=[columns]) if columns in cells else cells.iloc[0:0]
    for (a, b), sub in done.groupby(["army_a", "army_b"], sort=False):
        i, j = index[a], index[b]
        mean = float(sub[columns].mean())
        err = float(np.sqrt((sub["se"] ** 2).sum()) / len(sub))
        scores[i, j], scores[j, i] = mean, 1 - mean
        se[i, j] = se[j, i] = err
        seen[i, j] = seen[j, i] = True
    if not seen.all():
        missing = [(armies[i], armies[j]) for i, j in zip(*np.nonzero(~seen), strict=True) if i < j]
        raise ClixError(
            f"no finished game of {missing[0][0]} vs {missing[0][1]}: the summary needs every army pair (the run "
            "was stopped too early; run it again, the result store keeps the games finished)"
        )
    return scores, se


def bootstrap_matrices(
    armies: Sequence[str], games: pd.DataFrame, resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """`resamples` score matrices from resampling each cell's pairs with replacement (numpy Generator seeded
    with `seed`), and the game counts per army pair."""
    n = len(armies)
    index = {a: i for i, a in enumerate(armies)}
    rng = np.random.default_rng(seed)
    sums = np.zeros((resamples, n, n))
    counts = np.zeros((n, n))
    cells_per_pair = np.zeros((n, n))
    for (_, a, b), sub in games.groupby(["cell", "army_a", "army_b"], sort=True):
        means = pair_means(sub)
        picks = rng.integers(0, len(means), size=(resamples, len(means)))
        i, j = index[a], index[b]
        sums[:, i, j] += means[picks].mean(axis=1)
        counts[i, j] += len(sub)
        counts[j, i] += len(sub)
        cells_per_pair[i, j] += 1
    matrices = np.full((resamples, n, n), 0.5)
    upper = cells_per_pair > 0
    matrices[:, upper] = sums[:, upper] / cells_per_pair[upper]
    lower = upper.T
    matrices[:, lower] = 1 - np.transpose(matrices, (0, 2, 1))[:, lower]
    return matrices, counts


def ratings(scores: np.ndarray, counts: np.ndarray, boot: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bradley-Terry ratings (Elo points, mean 0) from the score matrix weighted by games played, with the
    2.5% and 97.5% points of the same fit on the bootstrap matrices."""
    elo = fit_ratings(scores * counts, counts)
    fits = np.array([fit_ratings(b * counts, counts) for b in boot]) if len(boot) else np.array([elo])
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    return elo, low, high


def field_score_rows(armies: Sequence[str], scores: np.ndarray, se: np.ndarray) -> list[dict[str, Any]]:
    """Each army's score against the field (the mean over the other armies, equal weights) with its interval."""
    n = len(armies)
    rows = []
    for i, army in enumerate(armies):
        others = [j for j in range(n) if j != i]
        mean = float(scores[i, others].mean())
        err = float(np.sqrt((se[i, others] ** 2).sum()) / len(others))
        rows.append({"army": army, **_normal(mean, err, se=err)})
    return rows
