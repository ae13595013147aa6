"""Precision on demand (`clix duel --target-ci W`) and equivalence claims (`--margin M`).

Stopping a run once its interval is narrow enough is optional stopping: an ordinary 95% interval looked at after
every batch covers the truth less often than 95%. clix plans its looks before the first game: pairs doubling from
`FIRST_PAIRS` up to the `--games` cap, K looks in all. Each look's interval is computed at level 1 - 0.05/K
(Bonferroni over the planned looks), so with probability at least 95% every look's interval covers A's true
score, and in particular the one where the run stops, whichever that is. tests/test_sequential.py checks the
coverage by simulation. The price is a wider interval per look (for K = 5 looks, 99% instead of 95%).

An equivalence claim ("balanced within ±M") is two one-sided tests (TOST) at 5% each: A's score is shown to be
above 0.5 - M and below 0.5 + M when the 90% interval (at the same per-look level under `--target-ci`) lies
inside that band.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from clix.analyzer.play.result import GameRows, RunResult
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.scoring import pair_interval, pair_means

FIRST_PAIRS = 50
"""Pairs played before the first look."""
ALPHA = 0.05


def planned_looks(games: int, first_pairs: int = FIRST_PAIRS) -> list[int]:
    """The game counts at which a run with cap `games` looks at its interval: pairs doubling from
    `first_pairs`, and the cap last."""
    cap = max(1, math.ceil(games / 2))
    looks: list[int] = []
    pairs = min(first_pairs, cap)
    while pairs < cap:
        looks.append(2 * pairs)
        pairs *= 2
    looks.append(2 * cap)
    return looks


def look_confidence(looks: int, alpha: float = ALPHA) -> float:
    """Each look's confidence level, so that all `looks` intervals hold together with probability 1 - alpha."""
    return 1 - alpha / max(1, looks)


def mean_interval_at(values: Sequence[float] | np.ndarray, confidence: float) -> dict[str, Any]:
    """The mean of per-pair scores with its pair interval at `confidence` (`scoring.pair_interval`, never of no
    width, so a look whose pairs all agree is not taken as settled): {score, low, high, half_width, pairs}."""
    found = pair_interval(values, confidence)
    return {key: found[key] for key in ("score", "low", "high", "half_width", "pairs")}


def equivalence(values: Sequence[float] | np.ndarray, margin: float, alpha: float = ALPHA) -> dict[str, Any]:
    """Two one-sided tests that the mean pair score lies within 0.5 ± `margin`, each at level `alpha`:
    `equivalent` when the (1 - 2·alpha) pair interval lies inside the band. The p-value is the larger of the two
    one-sided tests' with the standard error that interval implies (never zero, so pairs that all agree still
    leave doubt)."""
    from scipy import stats as st  # here, not at import: a duel plays its games before it needs scipy

    x = np.asarray(values, dtype=float)
    n = len(x)
    band = (0.5 - margin, 0.5 + margin)
    if n < 2:
        return {"margin": margin, "band": band, "equivalent": False, "p_value": 1.0, "low": None, "high": None}
    found = pair_interval(x, 1 - 2 * alpha)
    mean, se = found["score"], found["se"]
    p_low = float(st.norm.sf((mean - band[0]) / se))  # H0: mean <= 0.5 - margin
    p_high = float(st.norm.cdf((mean - band[1]) / se))  # H0: mean >= 0.5 + margin
    return {
        "margin": margin,
        "band": band,
        "equivalent": band[0] < found["low"] and found["high"] < band[1],
        "p_value": max(p_low, p_high),
        "low": found["low"],
        "high": found["high"],
        "confidence": 1 - 2 * alpha,
    }


def stopping_rule(pair_scores: np.ndarray, target: float, looks: list[int]) -> dict[str, Any]:
    """Apply the planned looks to a sequence of pair scores (in play order): the look where the interval's
    half-width first reaches `target` (or the last look), with that look's interval."""
    confidence = look_confidence(len(looks))
    for number, games in enumerate(looks, 1):
        ci = mean_interval_at(pair_scores[: games // 2], confidence)
        if ci["half_width"] is not None and ci["half_width"] <= target:
            return {**ci, "look": number, "games": games, "reached": True, "confidence": confidence}
    return {**ci, "look": len(looks), "games": looks[-1], "reached": False, "confidence": confidence}


def run_to_precision(
    matchup: Matchup,
    target: float,
    games: int,
    master_seed: int,
    jobs: int | None,
    progress: Callable[[int], None] | None = None,
    first_pairs: int = FIRST_PAIRS,
    stop_on_error: bool = False,
    known: Mapping[int, GameRows] | RunResult | None = None,
    on_result: Callable[[int, GameRows], None] | None = None,
    on_batch: Callable[[], None] | None = None,
) -> tuple[RunResult, dict[str, Any]]:
    """Play the planned looks until A's score is known to ±`target` (or the `games` cap); return every game
    played and how the run stopped: {target, planned, confidence, look, games, score, low, high, half_width,
    reached}. Each look takes the games it finds in `known` (the result store) before playing the others."""
    looks = planned_looks(games, first_pairs)
    confidence = look_confidence(len(looks))
    result = RunResult()
    info: dict[str, Any] = {"target": target, "planned": looks, "confidence": confidence, "reached": False}
    done = 0
    for number, upto in enumerate(looks, 1):
        part = run_matchup(
            matchup,
            upto,
            master_seed,
            jobs,
            progress=progress,
            first=done,
            stop_on_error=stop_on_error,
            known=known,
            on_result=on_result,
            on_batch=on_batch,
        )
        result.extend(part)
        done = upto
        ci = mean_interval_at(pair_means(result.games_frame()), confidence)
        info.update(ci, look=number, games=result.count)
        if part.interrupted or part.stopped:
            result.interrupted, result.stopped, result.crashed = part.interrupted, part.stopped, part.crashed
            break
        if ci["half_width"] is not None and ci["half_width"] <= target:
            info["reached"] = True
            break
    return result, info
