"""The meta's balance checks beside the matrix: the first player by army, each map (first player, field scores,
starting areas), the plot-twist cards (played against held or not drawn) and the range over player styles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.meta.stats import Z, field_score_rows, score_matrix
from clix.analyzer.stats.duel import difference_interval, pair_interval

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

MIN_GROUP = 20
"""Games each side of a comparison needs (played vs not, first vs second): with fewer, a difference between
games chosen by how the game went is not worth a line."""


def _difference(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """x's mean − y's mean with a 95% interval (Newcombe's, from each side's `stats.pair_interval`; games as
    independent); none when either side has fewer than MIN_GROUP games."""
    if len(x) < MIN_GROUP or len(y) < MIN_GROUP:
        return {"difference": None, "low": None, "high": None}
    return difference_interval(x, y)


def _interval(values: np.ndarray) -> dict[str, Any]:
    """A mean of scores in [0, 1] with its 95% interval (`stats.pair_interval`): {score, low, high, pairs}."""
    found = pair_interval(values)
    return {k: found[k] for k in ("score", "low", "high", "pairs")}


def _games_interval(values: np.ndarray) -> dict[str, Any]:
    """A mean over games with its 95% interval (`stats.pair_interval`, games as independent)."""
    result = _interval(values)
    result["games"] = result.pop("pairs")
    return result


def first_player_by_army(long: pd.DataFrame, armies: Sequence[str]) -> list[dict[str, Any]]:
    """Each army's score going first and going second over all its games, and the difference."""
    rows = []
    for army in armies:
        sub = long[long["army"] == army]
        first = sub.loc[sub["first"], "score"].to_numpy(float)
        second = sub.loc[~sub["first"], "score"].to_numpy(float)
        rows.append(
            {
                "army": army,
                "first": _games_interval(first),
                "second": _games_interval(second),
                "effect": _difference(first, second),
            }
        )
    return rows


def map_balance(games: pd.DataFrame, long: pd.DataFrame, armies: Sequence[str], cells: pd.DataFrame) -> dict[str, Any]:
    """By map: the first player's score (pairs as the unit), draws, each army's field score on the map, and
    the score of the army that started in each starting area."""
    maps = []
    for map_name, sub in games.groupby("map", sort=True):
        first_scores = (sub["winner"] == sub["first"]).astype(float) + 0.5 * (sub["winner"] == "draw")
        per_pair = first_scores.groupby([sub["cell"], sub["pair"]], sort=True).mean().to_numpy(float)
        on_map = cells[cells["map"] == map_name]
        try:
            scores, se = score_matrix(armies, on_map)
            field_scores = field_score_rows(armies, scores, se)
        except ClixError:
            field_scores = []
        areas = []
        mine = long[long["map"] == map_name]
        for area, part in mine.groupby("area", sort=True):
            areas.append({"area": area, **_games_interval(part["score"].to_numpy(float))})
        maps.append(
            {
                "map": map_name,
                "games": len(sub),
                "first_player": _interval(per_pair),
                "draws": float((sub["winner"] == "draw").mean()),
                "field": field_scores,
                "areas": areas,
            }
        )
    return {"maps": maps}


def _cards(text: str) -> list[tuple[str, str]]:
    """A game's plot_twist_cards cell, "Watch Out!@slaying; Cold Spot@preview", as (card, window) pairs."""
    found = []
    for part in str(text).split("; "):
        card, _, window = part.rpartition("@")
        if card:
            found.append((card, window))
    return found


def plot_twist_balance(long: pd.DataFrame, roster: Roster, armies: Sequence[str]) -> dict[str, Any]:
    """For every plot-twist card in the field's crypts, per army that holds it: how often it is played, in
    which windows, and the army's score in games where it was played against games where it was held or not
    drawn (an observed association: a card is played when the game gives it a chance)."""
    rows: list[dict[str, Any]] = []
    cards_of = {a: list(dict.fromkeys(roster.armies[a].crypt)) for a in armies}
    for army in armies:
        sub = long[long["army"] == army]
        if sub.empty:
            continue
        parsed = [_cards(t) for t in sub["cards"]]
        score = sub["score"].to_numpy(float)
        for card in cards_of[army]:
            plays = np.array([sum(1 for c, _ in p if c == card) for p in parsed])
            windows: dict[str, int] = {}
            for p in parsed:
                for c, w in p:
                    if c == card:
                        windows[w] = windows.get(w, 0) + 1
            played = plays > 0
            rows.append(
                {
                    "card": card,
                    "army": army,
                    "kind": getattr(roster.plot_twists.get(card), "kind", None),
                    "games": len(sub),
                    "played_share": float(played.mean()),
                    "plays_per_game": float(plays.mean()),
                    "windows": dict(sorted(windows.items())),
                    "played": _games_interval(score[played]),
                    "not_played": _games_interval(score[~played]),
                    "effect": _difference(score[played], score[~played]),
                }
            )
    cards: list[dict[str, Any]] = []
    for card in sorted({r["card"] for r in rows}):
        mine = [r for r in rows if r["card"] == card]
        games_total = sum(r["games"] for r in mine)
        pooled: dict[str, int] = {}
        for r in mine:
            for w, n in r["windows"].items():
                pooled[w] = pooled.get(w, 0) + n
        effects = [r for r in mine if r["effect"]["difference"] is not None]
        # the within-army differences, weighted by games: army strength cancels out of the comparison
        weight = sum(r["games"] for r in effects)
        effect: dict[str, float] | None = None
        if weight:
            d = sum(r["games"] * r["effect"]["difference"] for r in effects) / weight
            se = math.sqrt(
                sum(
                    (r["games"] / weight) ** 2 * ((r["effect"]["high"] - r["effect"]["low"]) / (2 * Z)) ** 2
                    for r in effects
                )
            )
            effect = {"difference": d, "low": max(-1.0, d - Z * se), "high": min(1.0, d + Z * se)}
        cards.append(
            {
                "card": card,
                "armies": [r["army"] for r in mine],
                "games": games_total,
                "played_share": sum(r["played_share"] * r["games"] for r in mine) / games_total,
                "plays_per_game": sum(r["plays_per_game"] * r["games"] for r in mine) / games_total,
                "windows": dict(sorted(pooled.items())),
                "effect": effect or {"difference": None, "low": None, "high": None},
            }
        )
    return {"cards": cards, "by_army": rows}


def style_range(
    long: pd.DataFrame, cells: pd.DataFrame, armies: Sequence[str], styles: Sequence[str]
) -> list[dict[str, Any]]:
    """With several styles: each army's field score under each style, and the range (max − min)."""
    if len(styles) < 2:
        return []
    per_style = {}
    for style in styles:
        try:
            scores, se = score_matrix(armies, cells[cells["players"] == style])
        except ClixError:
            continue
        per_style[style] = {r["army"]: r for r in field_score_rows(armies, scores, se)}
    rows = []
    for army in armies:
        values = {s: per_style[s][army] for s in per_style}
        points = [v["score"] for v in values.values()]
        rows.append({"army": army, "by_style": values, "range": (max(points) - min(points)) if points else None})
    return rows
