"""Measuring values: play the design and fit the model, pooled over maps and styles and per style when several."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.errors import ClixError
from clix.analyzer.experiment import Played, play_cells, with_armies
from clix.analyzer.outputs import Interrupted
from clix.analyzer.store import Store
from clix.analyzer.value_design import Design, design_cells, random_armies
from clix.analyzer.value_model import (
    CARD_PRIOR,
    FIGURE_PRIOR,
    RESAMPLES,
    Fit,
    _interval,
    army_features,
    fit_values,
    game_table,
    value_rows,
)
from clix.engine import compiled
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army


@dataclass
class ValueResult:
    """Everything `clix value` reports."""

    rows: list[dict[str, Any]]
    settings: dict[str, Any]
    model: dict[str, Any]
    games: pd.DataFrame
    styles: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Per player style (when several were played): the rows of a fit to that style's games alone."""
    played: Played | None = None
    fit: Fit | None = None


def measure_values(
    roster: Roster,
    library: Path | tuple[Path, ...],
    design: Design,
    *,
    jobs: int | None,
    store: Store | None,
    resamples: int = RESAMPLES,
    progress: Any = None,
    stop_on_error: bool = False,
) -> ValueResult:
    """Play the design and fit the value model (pooled over maps and styles; per style too when several). After
    a game that raised (`played.crashed`: the run stopped there) the fit is tried on the games finished; when
    there are too few, the result has no rows (the caller reports the crash, exit 1)."""
    armies = random_armies(roster, design)
    cells, labels = design_cells(library, armies, design)
    view = with_armies(roster, armies)
    played = play_cells(view, cells, design.seed, jobs, store, progress=progress, stop_on_error=stop_on_error)
    rows = [{"cell": n, **labels[n], **row} for n, cell_rows in enumerate(played.games) for row in cell_rows]
    if not rows and played.interrupted:
        raise Interrupted()
    if not rows and not played.crashed:
        raise ClixError("no game finished: each failed (named above); nothing to report")
    games = pd.DataFrame(rows)
    features = army_features(roster, armies)
    try:
        fit = fit_values(features, game_table(games, features), resamples, design.seed)
    except (ClixError, KeyError):
        if not played.crashed:
            raise
        return ValueResult([], {}, {}, games, played=played)
    result_rows = value_rows(roster, fit, design.budget, design.pool)
    per_style: dict[str, list[dict[str, Any]]] = {}
    if len(design.styles) > 1:
        for style in design.styles:
            sub = games[games["style"] == style].reset_index(drop=True)
            try:
                style_fit = fit_values(features, game_table(sub, features), resamples, design.seed)
            except ClixError:  # too few games of this style to tie points to winning: no values for it
                per_style[style] = [{**row, "value": None} for row in result_rows]
                continue
            per_style[style] = value_rows(roster, style_fit, design.budget, design.pool)
        for row in result_rows:
            found = [next(r for r in per_style[s] if r["name"] == row["name"])["value"] for s in design.styles]
            values = [v for v in found if v is not None]
            row["by_style"] = dict(zip(design.styles, found, strict=True))
            row["style_range"] = [min(values), max(values)] if values else None
    lam_low, lam_high = _interval(fit.lam_draws[:, None])
    seat = float(fit.weights[-1])
    model = {
        "logits_per_point": fit.lam,
        "logits_per_point_low": float(lam_low[0]),
        "logits_per_point_high": float(lam_high[0]),
        "ten_points_edge": float(1 / (1 + np.exp(-10 * fit.lam))),
        "seat_1_logit": seat,
        "games": fit.games,
        "pairs": fit.pairs,
        "resamples": resamples,
        "figure_prior": FIGURE_PRIOR,
        "card_prior": CARD_PRIOR,
        "armies_spent": _spent(roster, armies),
    }
    settings = {
        **asdict(design),
        "armies_played": len(armies),
        "engine": compiled.status,
        "matchups": len(cells) // (len(design.maps) * len(design.styles)),
    }
    return ValueResult(result_rows, settings, model, games, per_style, played, fit)


def _spent(roster: Roster, armies: dict[str, Army]) -> dict[str, float]:
    spent = np.array([sum(roster.figures[e.figure].points for e in a.figures) for a in armies.values()], dtype=float)
    return {"mean": float(spent.mean()), "min": float(spent.min()), "max": float(spent.max())}
