"""`clix value`: what each figure and plot-twist card is worth, in points, from a designed experiment.

Many random near-full legal armies of one budget (`pieces.full_army`: figures added while any still fits,
over the library or a pool of figures) each play a few opponents among them, in seat-swapped pairs on every map and player style asked. An
additive model of army strength is fitted to the games: a regularized logistic (Bradley-Terry) model,

    logit P(A beats B) = s(A) - s(B) + seat,   s(army) = sum over figures f of n_f * beta_f + sum over cards c of gamma_c,
    beta_f = theta * cost_f / 100 + d_f,

with a normal prior on each d_f and gamma_c (each figure is fairly costed, each card worth nothing, until the
games say otherwise). Every crypt holds six cards (more only with figures that grant them), so the games tell
cards apart but not their common worth: a card's value is relative to the average card, which the prior
centres on 0. Logits become points by one number, lambda, set so that one point of cost is worth one
point on average over the figures the armies fielded (weighted by how often they did): value_f = beta_f /
lambda, and the cost-curve residual is value_f - cost_f. Intervals are the 2.5% and 97.5% points of a
bootstrap over the random armies (each army drawn with its variant a figure short; a game weighs as many times
as both its armies were drawn; the whole fit, lambda included, is redone on each resample): another draw of
armies moves the values beyond what the games' own noise does, and a bootstrap over pairs missed that.

A verdict (under-costed, over-costed; better or worse than the average card) needs the estimate `STRONG` (3.5)
bootstrap standard errors from zero; "leans ..." when only the 95% interval excludes zero. The run counts the
verdicts that contradict each other between fits to two random halves of the pairs. Every run checks itself on a holdout: `--holdout` armies drawn
outside the design (their own seed stream) play each other around a ring, and each pairing's measured score is set
against the fit's prediction (the model's own link, with a bootstrap interval) and against cost alone.

The swap test (`--swap FIGURE --in ARMY`) is the scale-factor view of one figure in one army: the army and
variants with the figure replaced by equal points of alternatives play the same games (common random numbers)
against a field, and the score change is reported with a paired interval.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.names import side_names
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.play.experiment import Played
from clix.analyzer.play.result import ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import PLAYER_STYLES, kit
from clix.analyzer.play.store import Store
from clix.analyzer.value.design import Design, design_games
from clix.analyzer.value.measure import ValueResult, measure_values
from clix.analyzer.value.model import RESAMPLES, Fit, predict_scores, prediction_interval
from clix.analyzer.value.numbers import value_numbers
from clix.analyzer.value.pieces import pieces_of
from clix.analyzer.value.report import value_headline, value_lines, write_value
from clix.analyzer.value.swap import run_swap
from clix.engine import compiled
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET
from rich.console import Console

__all__ = ["Design", "run_swap", "run_value", "value_numbers"]
"""What `clix value` (analyzer/cli/__init__.py) takes from here; the design, the model, the measuring, the outputs and the
swap test live in value_design, value_model, value_measure, value_report and value_swap."""


# --- the command ----------------------------------------------------------------------------------------


def run_value(
    roster: Any,
    library: Path | tuple[Path, ...],
    design: Design,
    *,
    jobs: int | None,
    out: Any,
    store: Path | None,
    as_json: bool,
    console: Console,
    resamples: int = RESAMPLES,
    pdf: bool = False,
    stop_on_error: bool = False,
    predict: tuple[str, str] | None = None,
) -> int:
    """`clix value`: play the design, fit, print the table (or JSON), write value.csv, value.json, games.csv and
    value.html (value.pdf with `pdf`) to `out`; return the exit code. `predict`, two of the roster's armies: also
    the first's predicted score against the second (`predict_pair`). `roster`: a ruleset's library data or its
    pieces (analyzer/value/pieces.py): a HeroClix `Library` values characters."""
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.report.folder import claim_output

    roster = pieces_of(roster)
    check_styles(design, roster.ruleset)
    if pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    opened = Store.open(store) if store is not None else None
    total = design_games(roster, design)
    with claim_output(out) as folder:
        with progress_bar(console, f"value at {design.budget} points", total, as_json) as advance:
            result = measure_values(
                roster,
                library,
                design,
                jobs=jobs,
                store=opened,
                resamples=resamples,
                progress=advance,
                stop_on_error=stop_on_error,
            )
        played = result.played
        assert played is not None
        ended_early(len(result.games), "games", played.interrupted, played.stopped, len(played.failed), played.crashed)
        if played.crashed and not result.rows:
            report_line("too few games finished before the crash to fit the values: nothing to report")
            return run_exit_code(played.interrupted, True, True)
        finish_value(roster, result, design, jobs=jobs, store=store, predict=predict)
        with folder.staged() as staging:
            written = write_value(staging, result, pdf)
        written = {k: folder.final(p) for k, p in written.items()}
    if as_json:
        payload = {
            "verdict": value_headline(result),
            "settings": result.settings,
            "model": result.model,
            "values": result.rows,
            "holdout": result.holdout,
            "prediction": result.prediction,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        print_json(payload)
    else:
        print_lines(console, value_lines(result))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def check_styles(design: Design, ruleset: str = DEFAULT_RULESET) -> None:
    """The design's player styles are known to the ruleset (a ClixError naming --players if not)."""
    known = PLAYER_STYLES if ruleset == DEFAULT_RULESET else kit(ruleset).styles
    for style in design.styles:
        if style not in known:
            raise ClixError("--players: " + did_you_mean("player style", style, known))


def finish_value(
    roster: Any,
    result: ValueResult,
    design: Design,
    *,
    jobs: int | None,
    store: Path | None,
    predict: tuple[str, str] | None,
) -> None:
    """Complete a measured `result`: the prediction for `predict` (two of the roster's armies) and the run's
    settings (how it was played, the command that plays it again)."""
    assert result.played is not None
    pieces = pieces_of(roster)
    if predict is not None and result.fit is not None:
        result.prediction = predict_pair(pieces, result.fit, result.holdout, *predict)
    result.settings |= _run_settings(result.played, jobs, store, pieces.version())
    if pieces.ruleset != DEFAULT_RULESET:
        result.settings |= {"army_kind": pieces.army_kind, "figure_word": pieces.figure_word, "ties": pieces.ties}
    result.settings["command"] = value_command(design, pieces.ruleset) + (
        f" --predict {predict[0]} {predict[1]}" if predict else ""
    )


def predict_pair(roster: Any, fit: Fit, holdout: dict[str, Any] | None, army_a: str, army_b: str) -> dict[str, Any]:
    """`army_a`'s predicted score against `army_b` (over seat-swapped pairs, many games) from the fitted values,
    with a 95% interval of the fit's bootstrap and the model's own error on the holdout (`model_error`; without a
    measured holdout, the bootstrap alone, and `model_error` is None), and cost alone's prediction."""
    armies = pieces_of(roster).armies
    found = predict_scores(roster, fit, [(armies[army_a], armies[army_b])])
    score = float(found["score"][0])
    error = None if not holdout or holdout.get("model_error") is None else holdout["model_error"] / 100
    low, high = prediction_interval(
        score, float(found["low"][0]), float(found["high"][0]), float("nan") if error is None else error
    )
    names = side_names(roster, army_a, army_b)
    return {
        "army_a": army_a,
        "army_b": army_b,
        "army_a_name": names["a"],
        "army_b_name": names["b"],
        "score": score,
        "low": low,
        "high": high,
        "bootstrap_low": float(found["low"][0]),
        "bootstrap_high": float(found["high"][0]),
        "model_error": error,
        "cost_alone": float(found["cost"][0]),
    }


def _run_settings(played: Played, jobs: int | None, store: Path | None, version: str) -> dict[str, Any]:
    return {
        "ruleset": version,
        "engine": compiled.status,
        "jobs": jobs or os.cpu_count(),
        "seconds": round(played.seconds, 2),
        "played": played.played,
        "from_store": played.from_store,
        "games_per_second": round(played.played / max(played.seconds, 1e-9), 1) if played.played else None,
        "store": None if store is None else str(store),
        "interrupted": played.interrupted,
        "stopped_at_crash": played.crashed,
        "failed_games": played.failed,
    }


def value_command(design: Design, ruleset: str = DEFAULT_RULESET) -> str:
    """The command line that plays this design again."""
    text = (
        ("clix value " if ruleset == DEFAULT_RULESET else f"clix value --ruleset {ruleset} ")
        + f"--budget {design.budget} --armies {design.armies} --opponents {design.opponents} "
        f"--games {design.games} --maps {','.join(design.maps)} --players {','.join(design.styles)} "
        f"--seed {design.seed} --turns {design.turns}"
    )
    text += f" --holdout {design.holdout} --holdout-games {design.holdout_games}"
    return text + (f" --pool {','.join(design.pool)}" if design.pool else "")
