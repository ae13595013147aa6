"""Numbers from Horrified game rows: a win rate with its 95% Wilson interval, end reasons, turns; a paired change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from clix.analyzer.stats.duel import paired_difference_interval, proportion

ENDS = ("win", "terror", "deck out")
"""How a game ends (HF-GOAL-01..03): every monster defeated, the terror track's skull, an empty monster deck."""


def win_rate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The team's win rate with its 95% Wilson interval: {rate, low, high, n}."""
    return proportion(sum(row["won"] for row in rows), len(rows))


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Win rate, end reasons (counts), turns (mean overall, mean in won games, range) and final terror."""
    turns = np.array([row["turns"] for row in rows], dtype=float)
    won = np.array([row["turns"] for row in rows if row["won"]], dtype=float)
    ends = {end: sum(row["end"] == end for row in rows) for end in ENDS}
    ends.update({row["end"]: ends.get(row["end"], 0) + 1 for row in rows if row["end"] not in ENDS})
    return {
        "win_rate": win_rate(rows),
        "ends": ends,
        "turns": {
            "mean": float(turns.mean()) if len(turns) else None,
            "mean_won": float(won.mean()) if len(won) else None,
            "min": int(turns.min()) if len(turns) else None,
            "max": int(turns.max()) if len(turns) else None,
        },
        "terror_mean": float(np.mean([row["terror"] for row in rows])) if rows else None,
    }


def paired_change(rows: Sequence[dict[str, Any]], base: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The win rate of `rows` minus that of `base`, game by game on the same seeds, with its 95% interval."""
    d = np.array([a["won"] - b["won"] for a, b in zip(rows, base, strict=True)], dtype=float)
    return paired_difference_interval(d)


def verdict(rate: dict[str, Any], line: float = 0.5) -> str:
    """Where a win rate's interval lies against `line`: 'above half', 'below half' or 'undecided'."""
    if rate["low"] is None:
        return "undecided"
    if rate["low"] > line:
        return "above half"
    if rate["high"] < line:
        return "below half"
    return "undecided"


def percent(rate: dict[str, Any]) -> str:
    """'43% [38-48]' for a rate with its interval."""
    if rate.get("rate") is None:
        return "-"
    return f"{rate['rate']:.0%} [{rate['low'] * 100:.0f}-{rate['high'] * 100:.0f}]"


def signed(change: dict[str, Any]) -> str:
    """'+5 pts [+1,+9]' for a paired change in win rate."""
    if change.get("difference") is None:
        return "-"
    return f"{change['difference'] * 100:+.0f} pts [{change['low'] * 100:+.0f},{change['high'] * 100:+.0f}]"


def ends_by_turn(rows: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    """How many games ended at each turn, by end (HF-GOAL-01..03): {"turn": [first..last], "win": [...], ...}."""
    if not rows:
        return {"turn": [], **{end: [] for end in ENDS}}
    first, last = min(row["turns"] for row in rows), max(row["turns"] for row in rows)
    turns = list(range(first, last + 1))
    counts = {end: [0] * len(turns) for end in ENDS}
    for row in rows:
        if row["end"] in counts:
            counts[row["end"]][row["turns"] - first] += 1
    return {"turn": turns, **counts}
