"""The measured builds of `clix build`: each one's score against the field and each field army with why it wins,
and which builds are sidegrades of the best (a paired difference that includes 0)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
from clix.analyzer.scoring import game_scores, mean_interval
from clix.engine.roster.loader import Roster


def _units(games: pd.DataFrame, name: str, field_armies: Sequence[tuple[str, float]]) -> pd.Series:
    """A build's weighted score per (map, pair) unit: the same seeds against every field army."""
    sub = games[games["build"] == name]
    scores = game_scores(sub, "A")
    per = scores.groupby([sub["opponent"], sub["map_played"], sub["pair"]]).mean()
    weight = dict(field_armies)
    weighted = per * per.index.get_level_values(0).map(weight).to_numpy()
    return weighted.groupby(level=[1, 2]).sum()


def summarize_builds(
    games: pd.DataFrame,
    names: Sequence[str],
    field_armies: Sequence[tuple[str, float]],
    roster: Roster,
    estimates: dict[str, float],
) -> list[dict[str, Any]]:
    """Each measured army's score against the field and each field army, and why it wins."""
    rows = []
    for name in names:
        sub = games[games["build"] == name]
        if sub.empty:
            continue
        overall = mean_interval(_units(games, name, field_armies).to_numpy())
        versus = []
        for opponent, weight in field_armies:
            part = sub[sub["opponent"] == opponent]
            pairs = game_scores(part, "A").groupby([part["map_played"], part["pair"]]).mean().to_numpy()
            versus.append({"opponent": opponent, "weight": weight, **mean_interval(pairs)})
        first = sub["first"] == "A"
        won = game_scores(sub, "A")
        army = roster.armies[name]
        rows.append(
            {
                "name": name,
                "figures": [e.figure for e in army.figures],
                "points": sum(roster.figures[e.figure].points for e in army.figures),
                "crypt": list(army.crypt),
                "score": overall,
                "race_estimate": estimates.get(name),
                "versus": versus,
                "why": {
                    "vp_victims": float(sub["vp_a_victims"].mean()),
                    "vp_kills": float(sub["vp_a_kills"].mean()),
                    "vp_subplots": float(sub["vp_a_subplots"].mean()),
                    "vp_against": float(sub["vp_b"].mean()),
                    "first_slay_round": float(pd.to_numeric(sub["first_slay_a"], errors="coerce").mean()),
                    "score_first": float(won[first].mean()) if first.any() else None,
                    "score_second": float(won[~first].mean()) if (~first).any() else None,
                },
            }
        )
    return rows


def _mark_sidegrades(
    builds: list[dict[str, Any]], games: pd.DataFrame, field_armies: Sequence[tuple[str, float]]
) -> None:
    """Sort the builds by score; a build whose paired difference from the best includes 0 is a sidegrade."""
    builds.sort(key=lambda r: -r["score"]["score"])
    if not builds:
        return
    best = _units(games, builds[0]["name"], field_armies)
    builds[0]["role"] = "best"
    for row in builds[1:]:
        other = _units(games, row["name"], field_armies)
        common = best.index.intersection(other.index)
        diff = mean_interval(((best[common] - other[common]) / 2 + 0.5).to_numpy())
        low, high = 2 * diff["low"] - 1, 2 * diff["high"] - 1
        row["behind_best"] = {"difference": 2 * diff["score"] - 1, "low": low, "high": high}
        row["role"] = "sidegrade" if low <= 0 else "worse"
