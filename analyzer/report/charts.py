"""The duel's charts as PNG files (matplotlib without pyplot's global state).

Every plot names both armies with their side (A or B) in its legend, draws 95% intervals where the summary
has them, and marks the fair value where one applies (50%, a VP margin of 0, half of the victims, the army's
average VP per point).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

COLOURS = {"a": "#b23a48", "b": "#2f6690"}
REFERENCE = "#555555"
"""The colour of fair-value lines."""

MAX_BINS = 40
NICE = (1, 2, 5)
VICTIMS = 12
"""Victims on the map in a two-player game (six from each army, HC-SETUP-05)."""


def side_labels(names: dict[str, str]) -> dict[str, str]:
    """Legend labels that say which army is A and which is B: {"a": "A: butcher-shop", ...}."""
    return {side: f"{side.upper()}: {names[side]}" for side in ("a", "b")}


def _whole(values: Iterable[float]) -> np.ndarray:
    return np.rint(np.asarray(list(values), dtype=float)).astype(np.int64)


def vp_step(values: Iterable[float]) -> int:
    """The step victory points come in: the greatest common divisor of the values seen, at least 1."""
    v = _whole(values)
    return max(1, int(np.gcd.reduce(np.abs(v)))) if len(v) else 1


def vp_bins(values: Iterable[float], max_bins: int = MAX_BINS) -> np.ndarray:
    """Histogram bin edges that follow the game's VP steps.

    The step is the greatest common divisor of the values seen (at least 1): 5 when every VP is a multiple
    of 5, 10 when every one is a multiple of 10. A bin is a "nice" multiple of the step (1, 2, 5, 10, 20, ...
    steps) wide, the smallest that keeps at most `max_bins` bins; edges sit half a step off the values, so
    no value falls on an edge and every bin holds the same number of possible values.
    """
    v = _whole(values)
    if len(v) == 0:
        return np.array([-0.5, 0.5])
    step = vp_step(v)
    low, high = int(v.min()), int(v.max())
    needed = math.ceil(((high - low) // step + 1) / max_bins)
    per_bin = next(n * 10**k for k in range(20) for n in NICE if n * 10**k >= needed)
    width = step * per_bin
    first = math.floor(low / width) * width
    count = (high - first) // width + 1
    return first - step / 2 + width * np.arange(count + 1)


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path)
    return path


def score_plot(summary: dict[str, Any], names: dict[str, str], path: Path) -> Path:
    """`score_figure` saved to `path`."""
    return _save(score_figure(summary, names), path)


def score_figure(summary: dict[str, Any], names: dict[str, str]) -> Figure:
    """A's score overall, going first and second and in each seat, and the first player's score, each with its
    95% interval over pairs, against the 50% line; the top axis reads the same points as B's score."""
    fp = summary["first_player"]
    labels = side_labels(names)
    rows = [
        ("A: all games", summary["score"], COLOURS["a"]),
        ("A going first", fp["by_army"]["a"]["first"], COLOURS["a"]),
        ("A going second", fp["by_army"]["a"]["second"], COLOURS["a"]),
        ("A in seat 1", fp["seat"]["seat_1"], COLOURS["a"]),
        ("A in seat 2", fp["seat"]["seat_2"], COLOURS["a"]),
        ("first player\n(either army)", fp, REFERENCE),
    ]
    rows = [r for r in rows if r[1].get("score") is not None]
    fig = Figure(figsize=(7, 0.4 * len(rows) + 2.2), dpi=110, layout="constrained")
    ax = fig.subplots()
    for y, (_, s, colour) in enumerate(rows):
        ax.errorbar(
            100 * s["score"],
            y,
            xerr=[[100 * (s["score"] - s["low"])], [100 * (s["high"] - s["score"])]],
            fmt="o",
            color=colour,
            ecolor=colour,
            capsize=4,
            lw=2,
        )
    ax.axvline(50, color=REFERENCE, ls="--", lw=1)
    ax.set_yticks(range(len(rows)), [label for label, _, _ in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"{labels['a']}: score (wins + ½ draws), %")
    top = ax.secondary_xaxis("top", functions=(_other_side, _other_side))
    top.set_xlabel(f"{labels['b']}: score, % (the same games)", color=COLOURS["b"])
    top.tick_params(colors=COLOURS["b"])
    fig.legend(
        handles=[
            Line2D([], [], marker="o", color=COLOURS["a"], label=f"{labels['a']} (whiskers: 95% interval over pairs)"),
            Line2D([], [], color=REFERENCE, ls="--", label="50%: no advantage"),
        ],
        loc="outside lower center",
        ncol=2,
        fontsize=8,
        frameon=False,
    )
    ax.grid(axis="x", alpha=0.3)
    return fig


def _other_side(score: Any) -> Any:
    """A's score in % read as B's (the same games): 100 − score."""
    return 100 - score


def victim_rush_plot(summary: dict[str, Any], names: dict[str, str], path: Path) -> Path:
    """Mean victims slain by each side by round, with its 95% band, against half of the victims."""
    rush = summary["victim_rush"]
    rounds = rush["curve_rounds"]
    labels = side_labels(names)
    fig = Figure(figsize=(7, 4), dpi=110, layout="constrained")
    ax = fig.subplots()
    for side in ("a", "b"):
        ax.plot(rounds, rush[side]["curve_mean"], color=COLOURS[side], label=labels[side], lw=2)
        ax.fill_between(rounds, rush[side]["curve_low"], rush[side]["curve_high"], color=COLOURS[side], alpha=0.2)
    ax.axhline(VICTIMS / 2, color=REFERENCE, ls="--", lw=1, label=f"{VICTIMS // 2}: half of the {VICTIMS} victims")
    ax.set_xlabel("round (each side's turn number)")
    ax.set_ylabel("victims slain or rescued (mean)")
    ax.set_ylim(0, VICTIMS)
    ax.set_title("Victim rush (bands: 95% interval of the mean)")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def knockout_plot(summary: dict[str, Any], names: dict[str, str], path: Path) -> Path:
    """Mean opposing characters each side has KO'd by each round (HeroClix), with its 95% band."""
    kos = summary["knockouts"]
    rounds = kos["curve_rounds"]
    labels = side_labels(names)
    fig = Figure(figsize=(7, 4), dpi=110, layout="constrained")
    ax = fig.subplots()
    for side in ("a", "b"):
        ax.plot(rounds, kos[side]["curve_mean"], color=COLOURS[side], label=labels[side], lw=2)
        ax.fill_between(rounds, kos[side]["curve_low"], kos[side]["curve_high"], color=COLOURS[side], alpha=0.2)
    ax.set_xlabel("round (each side's turn number)")
    ax.set_ylabel("opposing characters KO'd (mean)")
    ax.set_ylim(bottom=0)
    ax.set_title("Knockouts by round (bands: 95% interval of the mean)")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def vp_distribution_plot(games: pd.DataFrame, names: dict[str, str], path: Path) -> Path:
    """Histograms of each side's victory points, bins following the game's VP steps, with each side's mean."""
    labels = side_labels(names)
    fig = Figure(figsize=(7, 4), dpi=110, layout="constrained")
    ax = fig.subplots()
    both = [*games["vp_a"], *games["vp_b"]]
    bins = vp_bins(both)
    for side in ("a", "b"):
        values = games[f"vp_{side}"]
        ax.hist(values, bins=bins.tolist(), alpha=0.55, color=COLOURS[side], label=labels[side])
        ax.axvline(
            values.mean(), color=COLOURS[side], ls="--", lw=1.5, label=f"{side.upper()} mean {values.mean():.1f}"
        )
    ax.set_xlabel(f"victory points (seen in steps of {vp_step(both)}; bins {bins[1] - bins[0]:g} VP wide)")
    ax.set_ylabel("games")
    ax.set_title("Victory points per game")
    ax.legend(fontsize=8)
    return _save(fig, path)


def vp_margin_plot(games: pd.DataFrame, names: dict[str, str], path: Path) -> Path:
    """The distribution of A's VP minus B's per game, with 0 (level) marked and the mean margin with its 95%
    interval over pairs."""
    margin = (games["vp_a"] - games["vp_b"]).astype(float)
    fig = Figure(figsize=(7, 4), dpi=110, layout="constrained")
    ax = fig.subplots()
    bins = vp_bins(margin)
    counts, _ = np.histogram(margin, bins)
    middles = (bins[:-1] + bins[1:]) / 2
    # each bar in the colour of the side ahead in its games (grey: level)
    colours = [COLOURS["a"] if m > 0 else COLOURS["b"] if m < 0 else "#888888" for m in middles]
    ax.bar(middles, counts, width=bins[1] - bins[0], color=colours, alpha=0.8)
    level = ax.axvline(0, color="black", lw=1.5, label="0: level on VP")
    mean, low, high = _pair_mean_interval(margin, games)
    average = ax.axvline(
        mean, color=REFERENCE, ls="--", lw=1.5, label=f"mean {mean:+.1f} (95%: {low:+.1f} to {high:+.1f})"
    )
    ax.axvspan(low, high, color=REFERENCE, alpha=0.15)
    labels = side_labels(names)
    ahead = [Patch(color=COLOURS[side], label=f"{labels[side]} ahead") for side in ("a", "b")]
    ax.legend(handles=[*ahead, level, average], fontsize=8)
    ax.set_xlabel(
        f"VP margin per game: A's VP − B's VP (seen in steps of {vp_step(margin)}; bins {bins[1] - bins[0]:g} VP wide)"
    )
    ax.set_ylabel("games")
    ax.set_title("Victory-point margin")
    return _save(fig, path)


def _pair_mean_interval(values: pd.Series, games: pd.DataFrame) -> tuple[float, float, float]:
    """The mean of per-game values with its 95% t interval over seat-swapped pairs (the pair is the unit)."""
    from scipy import stats as st

    pairs = values.groupby(games["pair"] if "pair" in games else np.arange(len(values)) // 2).mean()
    mean = float(values.mean())
    if len(pairs) < 2:
        return mean, mean, mean
    half = float(st.t.ppf(0.975, len(pairs) - 1) * pairs.std(ddof=1) / np.sqrt(len(pairs)))
    return mean, mean - half, mean + half


def efficiency_plot(figures: pd.DataFrame, names: dict[str, str], path: Path) -> Path:
    """Victory points earned per point of cost, per figure, with its interval when the table has one, and each
    army's average (the VP its figures earned over the points they cost) as the fair value."""
    labels = side_labels(names)
    fig = Figure(figsize=(7, max(3.2, 0.4 * len(figures) + 2.2)), dpi=110, layout="constrained")
    ax = fig.subplots()
    ticks = [f"{r.figure} ({r.side})" for r in figures.itertuples()]
    colours = [COLOURS[str(r.side).lower()] for r in figures.itertuples()]
    errors = None
    if {"vp_per_point_low", "vp_per_point_high"} <= set(figures.columns):
        errors = [
            (figures["vp_per_point"] - figures["vp_per_point_low"]).clip(lower=0),
            (figures["vp_per_point_high"] - figures["vp_per_point"]).clip(lower=0),
        ]
    ax.barh(ticks, figures["vp_per_point"], color=colours, xerr=errors, ecolor="#444", capsize=3)
    ax.invert_yaxis()
    handles: list[Any] = []
    for side in ("a", "b"):
        own = figures[figures["side"].astype(str).str.lower() == side]
        handles.append(Patch(color=COLOURS[side], label=labels[side]))
        if len(own) and own["points"].sum() > 0:
            average = float(own["vp"].sum() / own["points"].sum())
            ax.axvline(average, color=COLOURS[side], ls="--", lw=1.2)
            handles.append(
                Line2D([], [], color=COLOURS[side], ls="--", label=f"{side.upper()} army average {average:.2f}")
            )
    fig.legend(handles=handles, fontsize=8, loc="outside lower center", ncol=2, frameon=False)
    ax.set_xlabel(
        "victory points earned per point of cost (mean per game)\nwhiskers: 95% bootstrap interval over pairs"
    )
    ax.set_title(
        "VP per point of cost\n(what a figure scored, not its worth; see clix value)"
    )  # on one line it ran off the figure
    return _save(fig, path)
