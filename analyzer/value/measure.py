"""Measuring values: play the design and the holdout, fit the model (pooled over maps and styles, per style when
several, and on each half of the pairs to judge which verdicts are stable), and check the fit on the holdout."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.experiment import Played, play_cells
from clix.analyzer.play.store import Store
from clix.analyzer.report.folder import Interrupted
from clix.analyzer.stats.scoring import pair_interval, pair_means
from clix.analyzer.value.design import (
    Design,
    design_cells,
    handicap_armies,
    holdout_cells,
    holdout_pairings,
    least_spent,
    random_armies,
)
from clix.analyzer.value.model import (
    CARD_PRIOR,
    FIGURE_PRIOR,
    FINDINGS,
    RESAMPLES,
    STRONG,
    Fit,
    _interval,
    army_features,
    bootstrap_sd,
    fit_values,
    game_table,
    half_verdicts,
    model_error,
    predict_scores,
    prediction_interval,
    value_rows,
)
from clix.analyzer.value.pieces import HorrorPieces, pieces_of
from clix.engine import compiled


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
    holdout: dict[str, Any] | None = None
    """The holdout check (`check_holdout`), None when the design has no holdout."""
    prediction: dict[str, Any] | None = None
    """`clix value --predict A B`: A's predicted score against B (`value.predict_pair`)."""


def measure_values(
    roster: Any,
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
    there are too few, the result has no rows (the caller reports the crash, exit 1). `roster`: a ruleset's library
    data or its pieces (analyzer/value/pieces.py)."""
    roster = pieces_of(roster)
    armies = random_armies(roster, design)
    short = handicap_armies(roster, armies, design)
    extra = random_armies(roster, design, holdout=True) if design.holdout >= 2 else {}
    cells, labels = design_cells(library, armies, design, short, roster)
    more, more_labels = holdout_cells(library, extra, design, roster)
    view = roster.view(armies | short | extra)
    played = play_cells(view, cells + more, design.seed, jobs, store, progress=progress, stop_on_error=stop_on_error)
    rows = [
        {"cell": n, **labels[n], **row} for n, cell_rows in enumerate(played.games[: len(cells)]) for row in cell_rows
    ]
    if not rows and played.interrupted:
        raise Interrupted()
    if not rows and not played.crashed:
        raise ClixError("no game finished: each failed (named above); nothing to report")
    games = pd.DataFrame(rows)
    features = army_features(roster, armies | short, {f"{name}-less": name for name in armies})
    try:
        table = game_table(games, features)
        fit = fit_values(features, table, resamples, design.seed)
    except (ClixError, KeyError):
        if not played.crashed:
            raise
        return ValueResult([], {}, {}, games, played=played)
    stability = half_verdicts(features, table, resamples, design.seed)
    result_rows = value_rows(roster, fit, design.budget, design.pool, stability)
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
        "verdicts_differ": stability.differ,
        "verdicts_compared": stability.compared,
        "verdicts_shown": sum(1 for r in result_rows if r["verdict"] in FINDINGS),
        "strong_at": STRONG,
    }
    spend = least_spent(roster, armies)
    settings = {
        **asdict(design),
        "armies_played": len(armies),
        "engine": compiled.status,
        "matchups": len(cells) // (len(design.maps) * len(design.styles)) - len(short),
        "handicap_matchups": len(short),
        "least_spent": spend,
        "near_full": f"{'armies' if roster.army_kind == 'army' else 'forces'} spend at least {spend} of "
        f"{design.budget} points",
    }
    holdout_rows = [
        {"cell": n, **more_labels[n], **row}
        for n, cell_rows in enumerate(played.games[len(cells) :])
        for row in cell_rows
    ]
    checked = check_holdout(roster, fit, extra, holdout_rows, design) if extra else None
    return ValueResult(result_rows, settings, model, games, per_style, played, fit, checked)


def check_holdout(
    roster: Any, fit: Fit, armies: dict[str, Any], rows: list[dict[str, Any]], design: Design
) -> dict[str, Any]:
    """The holdout check: each holdout pairing's measured score (pooled over maps and styles, with its pair
    interval) against the fit's prediction (with its bootstrap interval) and cost alone's; the mean miss of
    each in points, how many measured intervals hold the prediction, and the miss that measurement noise alone
    would give (the mean absolute error of a perfect prediction, from each pairing's standard error)."""
    pieces = pieces_of(roster)
    names = list(armies)
    order = holdout_pairings(len(names))
    games = pd.DataFrame(rows)
    predicted = predict_scores(roster, fit, [(armies[names[i]], armies[names[j]]) for i, j in order])
    per_pair: list[dict[str, Any]] = []
    for k, (i, j) in enumerate(order):
        first = k * len(design.maps) * len(design.styles)
        mine = (
            games[games["cell"].between(first, first + len(design.maps) * len(design.styles) - 1)]
            if len(games)
            else games
        )
        measured = pair_interval(pair_means(mine, "A", ["cell", "pair"])) if len(mine) else None
        per_pair.append(
            {
                "army_a": names[i],
                "army_b": names[j],
                "figures_a": pieces.contents(armies[names[i]]),
                "figures_b": pieces.contents(armies[names[j]]),
                "predicted": float(predicted["score"][k]),
                "predicted_low": float(predicted["low"][k]),
                "predicted_high": float(predicted["high"][k]),
                "cost_alone": float(predicted["cost"][k]),
                "games": len(mine),
                "measured": None if measured is None else measured["score"],
                "measured_low": None if measured is None else measured["low"],
                "measured_high": None if measured is None else measured["high"],
                "se": None if measured is None else measured["se"],
            }
        )
    done = [p for p in per_pair if p["measured"] is not None]
    _prediction_intervals(done)
    miss = [abs(p["predicted"] - p["measured"]) for p in done]
    cost_miss = [abs(p["cost_alone"] - p["measured"]) for p in done]
    noise = [p["se"] * np.sqrt(2 / np.pi) for p in done]
    return {
        "armies": len(armies),
        "pairings": len(per_pair),
        "measured": len(done),
        "games_per_pairing": design.holdout_games * len(design.maps) * len(design.styles),
        "mean_miss": 100 * float(np.mean(miss)) if done else None,
        "max_miss": 100 * float(np.max(miss)) if done else None,
        "cost_mean_miss": 100 * float(np.mean(cost_miss)) if done else None,
        "noise_miss": 100 * float(np.mean(noise)) if done else None,
        "held": sum(1 for p in done if p["measured_low"] <= p["predicted"] <= p["measured_high"]),
        "model_error": 100 * _model_error(done) if len(done) >= 2 else None,
        "predictions_held": sum(
            1
            for p in done
            if p["interval_low"] is not None and p["interval_low"] <= p["measured"] <= p["interval_high"]
        ),
        "predictions_checked": sum(1 for p in done if p["interval_low"] is not None),
        "pairs": per_pair,
    }


def _model_error(pairs: list[dict[str, Any]]) -> float:
    """`model_error` of the measured holdout pairings."""
    arrays = {k: np.array([p[k] for p in pairs], dtype=float) for k in ("predicted", "measured", "se")}
    spread = bootstrap_sd(np.array([p["predicted_low"] for p in pairs]), np.array([p["predicted_high"] for p in pairs]))
    return model_error(arrays["predicted"], arrays["measured"], arrays["se"], spread)


def _prediction_intervals(pairs: list[dict[str, Any]]) -> None:
    """Each measured pairing's 95% prediction interval for its measured score, the model's error estimated from
    the other pairings (leave one out, so a pairing's own miss does not widen its interval): `interval_low`,
    `interval_high`, None with fewer than three pairings."""
    for k, pair in enumerate(pairs):
        others = pairs[:k] + pairs[k + 1 :]
        if len(others) < 2:
            pair["interval_low"] = pair["interval_high"] = None
            continue
        pair["interval_low"], pair["interval_high"] = prediction_interval(
            pair["predicted"], pair["predicted_low"], pair["predicted_high"], _model_error(others), pair["se"]
        )


def _spent(pieces: HorrorPieces, armies: dict[str, Any]) -> dict[str, float]:
    spent = np.array([sum(pieces.points(f) for f in pieces.contents(a)) for a in armies.values()], dtype=float)
    return {"mean": float(spent.mean()), "min": float(spent.min()), "max": float(spent.max())}
