"""The meta's summary, JSON-ready: the matrix, the field table (score, rating, Nash weight), outliers, dominated
armies, first player, draws, maps, plot twists and styles; and field.json, the Nash mixture as a field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from clix.analyzer.common.names import army_names
from clix.analyzer.meta import nash
from clix.analyzer.meta.balance import (
    _games_interval,
    first_player_by_army,
    map_balance,
    plot_twist_balance,
    style_range,
)
from clix.analyzer.meta.play import FieldRun
from clix.analyzer.meta.stats import (
    Z,
    _normal,
    bootstrap_matrices,
    cell_table,
    field_score_rows,
    long_games,
    ratings,
    score_matrix,
)
from clix.analyzer.play.runner import (
    Matchup,
)

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

OUTLIER_HIGH, OUTLIER_LOW = 0.60, 0.40
"""An army whose field score interval lies wholly above 60% or below 40% is an outlier to look at."""
RESAMPLES = 200


def dominated(armies: Sequence[str], scores: np.ndarray, se: np.ndarray) -> list[dict[str, Any]]:
    """Armies dominated by another: army k scores at least as well as army i against every army of the field
    (both included) and better against one, on point estimates (as `nash.dominated`). `by_intervals` says
    whether the intervals show it: k's score minus i's against every army has a 95% interval wholly above 0
    (normal, from the cells' standard errors; against each other, k's head-to-head score minus ½). When some k
    is shown by the intervals it is the one named; otherwise the first on point estimates."""
    m = nash.symmetric_payoff(scores)
    n = len(m)
    found = []
    for i in range(n):
        candidates = []
        for k in range(n):
            if k == i or not (np.all(m[k] >= m[i] - 1e-12) and np.any(m[k] > m[i] + 1e-12)):
                continue
            error = np.sqrt(se[k] ** 2 + se[i] ** 2)
            error[i] = error[k] = se[k, i]  # against i or k: the head-to-head, one measurement
            candidates.append((bool(np.all(m[k] - m[i] - Z * error > 0)), k))
        if candidates:
            shown, k = max(candidates, key=lambda c: c[0])  # the first shown by the intervals, else the first
            found.append({"army": armies[i], "by": armies[k], "by_intervals": shown})
    return found


def meta_summary(
    armies: Sequence[str],
    styles: Sequence[str],
    matchups: Sequence[Matchup],
    run: FieldRun,
    games: pd.DataFrame,
    roster: Roster | Any,
    seed: int,
    resamples: int = RESAMPLES,
    heroclix: bool = False,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """Every summary of the meta, JSON-ready, and the cells table. `heroclix`: a HeroClix field (`roster` a
    HeroClix library), whose knockouts and victory points stand in place of plot twists."""
    cells = cell_table(matchups, run, games)
    scores, se = score_matrix(armies, cells)
    boot, counts = bootstrap_matrices(armies, games, resamples, seed)
    elo, elo_low, elo_high = ratings(scores, counts, boot)
    equilibrium = nash.equilibrium(scores, boot)
    field_rows = field_score_rows(armies, scores, se)
    long = long_games(games)
    for i, row in enumerate(field_rows):
        row |= {
            "rating": float(elo[i]),
            "rating_low": float(elo_low[i]),
            "rating_high": float(elo_high[i]),
            "nash_weight": equilibrium["weights"][i],
            "support_frequency": equilibrium.get("support_frequency", [None] * len(armies))[i],
            "against_mixture": equilibrium["against_mixture"][i],
            "games": int((long["army"] == armies[i]).sum()),
        }
    matrix = {
        a: {
            b: {"score": float(scores[i, j]), **_normal(float(scores[i, j]), float(se[i, j]))}
            for j, b in enumerate(armies)
            if j != i
        }
        for i, a in enumerate(armies)
    }
    outliers = [
        {
            "army": r["army"],
            "score": r["score"],
            "low": r["low"],
            "high": r["high"],
            "why": "above 60%" if r["low"] > OUTLIER_HIGH else "below 40%",
        }
        for r in field_rows
        if r["low"] > OUTLIER_HIGH or r["high"] < OUTLIER_LOW
    ]
    settled = cells["settled"].value_counts().to_dict()
    summary = {
        "armies": list(armies),
        "names": army_names(roster, armies),
        "styles": list(styles),
        "matrix": matrix,
        "scores": scores.round(6).tolist(),
        "field": field_rows,
        "nash": {
            "support": [{"army": armies[i], "weight": w} for i, w in enumerate(equilibrium["weights"]) if w > 0],
            **equilibrium,
        },
        "dominated": dominated(armies, scores, se),
        "outliers": outliers,
        "first_player": {
            "overall": _games_interval(
                ((games["winner"] == games["first"]) + 0.5 * (games["winner"] == "draw")).to_numpy(float)
            ),
            "by_army": first_player_by_army(long, armies),
        },
        "draws": {
            "share": float((games["winner"] == "draw").mean()),
            "tie_break_share": float(games["tie_break"].astype(bool).mean()),
        },
        "maps": map_balance(games, long, armies, cells)["maps"],
        "plot_twists": None if heroclix else plot_twist_balance(long, roster, armies),
        "styles_range": style_range(long, cells, armies, styles),
        "cells_settled": {k: int(v) for k, v in settled.items()},
    }
    if heroclix:
        from clix.analyzer.meta.knockouts import knockout_rows

        del summary["plot_twists"]
        summary["knockouts"] = knockout_rows(games, armies)
    return summary, cells


def field_document(
    summary: dict[str, Any],
    command: str,
    budget: int | None,
    roster: Roster | None,
    known: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """field.json: the Nash mixture's support as a field `clix build` can read (issue 19). `known`: the library's
    armies by id (default: `roster.armies`)."""
    total = budget
    if total is None:
        armies = known if known is not None else roster.armies if roster is not None else {}
        totals = {armies[s["army"]].build_total for s in summary["nash"]["support"]}
        total = totals.pop() if len(totals) == 1 else None
    return {
        "source": command,
        "budget": total,
        "field": [{"army": s["army"], "weight": round(float(s["weight"]), 6)} for s in summary["nash"]["support"]],
    }
