"""Statistics of a duel's figures (characters, in HeroClix) from its per-figure rows: means per game, VP and the
shares of their side's VP and damage with 95% bootstrap intervals over whole pairs, and the same per point of cost
(docs/statistics.md, "Figures")."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from clix.analyzer.stats.scoring import CONFIDENCE

BOOTSTRAP_RESAMPLES = 1000
WEIGHTS_PER_BLOCK = 2_000_000
"""Pair weights the figures' bootstrap draws at a time (resamples × pairs, 16 MB as floats): a million-game duel
draws eight resamples a block, a short one a hundred."""


def figure_efficiency(
    figures: pd.DataFrame,
    games: pd.DataFrame | None = None,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> pd.DataFrame:
    """Per figure (and side): damage, kills and victory points per point of its cost, survival rate, and the
    figure's share of its side's VP and damage dealt.

    VP, VP per point and the two shares carry 95% intervals (`_low`, `_high`) from a bootstrap over pairs:
    `resamples` resamples of whole pairs with replacement, percentile intervals, a numpy Generator seeded
    with `seed` (so the same run gives the same intervals). The pair of a figure row comes from `games`
    (its `game` and `pair` columns), else from game // 2.
    """
    profile = figure_profile(figures)
    keys = ["side", "army", "figure", "points"]
    group, first_rows = _figure_groups(figures, keys)
    grouped = figures[keys].iloc[first_rows].reset_index(drop=True)
    copies = np.bincount(group, minlength=len(first_rows))
    seen = np.unique(figures["game"].to_numpy(dtype=np.int64) * len(first_rows) + group)  # each (game, group) once
    grouped["games"] = np.bincount(seen % len(first_rows), minlength=len(first_rows))
    grouped["copies"] = copies
    means = {c: c for c in profile["means"]}
    for name, column in {**means, "survival": "survived"}.items():
        weights = figures[column].to_numpy(dtype=float)
        grouped[name] = np.bincount(group, weights=weights, minlength=len(copies)) / copies
    if "ko_round" in figures:  # the mean round of a figure's KO, over the games it was KO'd in
        rounds = pd.to_numeric(figures["ko_round"], errors="coerce").to_numpy(dtype=float)
        knocked = ~np.isnan(rounds)
        with np.errstate(invalid="ignore", divide="ignore"):
            grouped["ko_round"] = np.bincount(
                group[knocked], weights=rounds[knocked], minlength=len(copies)
            ) / np.bincount(group[knocked], minlength=len(copies))
    first_part, *other_parts = profile["vp"]
    grouped["vp"] = grouped[first_part]
    for part in other_parts:
        grouped["vp"] = grouped["vp"] + grouped[part]
    for column in profile["per_point"]:
        grouped[f"{column}_per_point"] = grouped[column] / grouped["points"]
    if len(grouped):
        grouped = pd.concat([grouped, _figure_bootstrap(figures, group, grouped, games, resamples, seed)], axis=1)
    return grouped.sort_values(["side", "vp_per_point"], ascending=[True, False]).reset_index(drop=True)


FIGURE_PROFILES: dict[str, dict[str, tuple[str, ...]]] = {
    "horrorclix": {
        "means": ("damage_dealt", "damage_taken", "kills", "kill_vp", "victims", "victim_vp"),
        "vp": ("kill_vp", "victim_vp"),
        "per_point": ("damage_dealt", "kills", "vp"),
    },
    "heroclix": {
        "means": ("damage_dealt", "damage_taken", "kos", "ko_vp", "survivor_vp", "attacks", "pushes", "healed"),
        "vp": ("ko_vp", "survivor_vp"),
        "per_point": ("damage_dealt", "damage_taken", "kos", "vp"),
    },
}
"""What a figure's row gives, by the rows' kind: the columns averaged per figure, the parts of the VP it earned
its side (HorrorClix: its kills' and victims'; HeroClix: its knockouts' and, surviving, its own points, HX-END-04)
and the columns also given per point of its cost."""


def figure_profile(figures: pd.DataFrame) -> dict[str, tuple[str, ...]]:
    """The `FIGURE_PROFILES` entry the figure rows are of (HeroClix's rows have `ko_vp`)."""
    return FIGURE_PROFILES["heroclix" if "ko_vp" in figures else "horrorclix"]


def _figure_groups(figures: pd.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's group of `keys` (a narrow int array) numbered in the order `groupby(keys)` sorts them (observed
    combinations only), and the first row of each group: a `groupby` of a million games' figure rows takes some
    200 MB for its key codes, this a tenth of it (issue 31)."""
    combined = np.zeros(len(figures), dtype=np.int64)
    for key in keys:
        codes, levels = pd.factorize(figures[key], sort=True)
        combined *= max(1, len(levels))
        combined += codes
        del codes
    codes, _ = pd.factorize(combined, sort=True)
    del combined
    group = codes.astype(np.int32 if codes.max(initial=0) > np.iinfo(np.int16).max else np.int16)
    del codes
    _, first_rows = np.unique(group, return_index=True)
    return group, first_rows


def _figure_bootstrap(
    figures: pd.DataFrame,
    group: np.ndarray,
    grouped: pd.DataFrame,
    games: pd.DataFrame | None,
    resamples: int,
    seed: int,
) -> pd.DataFrame:
    """Shares of the side's VP and damage, and bootstrap intervals over pairs, one row per row of `grouped` (the
    figure rows' `group`s)."""
    if (
        games is not None
        and {"game", "pair"} <= set(games.columns)
        and not np.array_equal(games["pair"].to_numpy(), games["game"].to_numpy() // 2)
    ):  # a pairing other than seat-swapped pairs
        pair_of = figures["game"].map(games.set_index("game")["pair"]).fillna(figures["game"] // 2).to_numpy()
        pairs, pair = np.unique(pair_of, return_inverse=True)
        n_pairs = len(pairs)
    else:  # each row's pair numbered by rank, as np.unique numbers them, in a fraction of its memory
        pair = figures["game"].to_numpy(dtype=np.int64) // 2
        if len(pair):
            pair -= pair.min()
        present = np.bincount(pair) > 0
        n_pairs = int(present.sum())
        pair = (np.cumsum(present) - 1)[pair]
    sides, side_of_group = np.unique(grouped["side"].astype(str).to_numpy(), return_inverse=True)
    n_groups = len(grouped)
    cell = np.multiply(group, n_pairs, dtype=np.int64)  # a row's (group, pair) cell, flat
    cell += pair
    del pair

    def per_side(table: np.ndarray) -> np.ndarray:
        return np.stack([table[side_of_group == s].sum(axis=0) for s in range(len(sides))])

    first_part, *other_parts = figure_profile(figures)["vp"]
    figure_vp = figures[first_part]
    for part in other_parts:
        figure_vp = figure_vp + figures[part]
    vp, damage, rows = (  # per group and pair: sums of VP, damage and rows
        np.bincount(cell, weights=values, minlength=n_groups * n_pairs).reshape(n_groups, n_pairs)
        for values in (
            figure_vp.to_numpy(dtype=float),
            figures["damage_dealt"].to_numpy(dtype=float),
            np.ones(len(figures)),
        )
    )
    del cell
    side_vp, side_damage = per_side(vp), per_side(damage)

    def statistics(weights: np.ndarray) -> dict[str, np.ndarray]:
        """Each statistic (weights × groups) for pair weights (weights × pairs): counts of each pair drawn."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return {
                "vp": (weights @ vp.T) / (weights @ rows.T),
                "vp_share": (weights @ vp.T) / (weights @ side_vp.T)[:, side_of_group],
                "damage_share": (weights @ damage.T) / (weights @ side_damage.T)[:, side_of_group],
            }

    point = {k: v[0] for k, v in statistics(np.ones((1, n_pairs))).items()}
    rng = np.random.default_rng(seed)
    draws: dict[str, list[np.ndarray]] = {k: [] for k in point}
    block = max(1, min(100, WEIGHTS_PER_BLOCK // n_pairs))  # the same draws in blocks of any size
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        weights = rng.multinomial(n_pairs, np.full(n_pairs, 1 / n_pairs), size=size).astype(float)
        for k, v in statistics(weights).items():
            draws[k].append(v)
    result = pd.DataFrame(index=grouped.index)
    points = grouped["points"].to_numpy(dtype=float)
    for name, estimate in point.items():
        samples = np.concatenate(draws[name])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a side that never scored: no share, NaN
            low, high = np.nanpercentile(samples, [100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2], axis=0)
        if name == "vp":  # the mean is in `grouped` already; per point is the same interval over the cost
            result["vp_low"], result["vp_high"] = low, high
            result["vp_per_point_low"], result["vp_per_point_high"] = low / points, high / points
        else:
            result[name], result[f"{name}_low"], result[f"{name}_high"] = estimate, low, high
    return result
