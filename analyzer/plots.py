"""The duel's plots as PNG files (matplotlib without pyplot's global state)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

COLOURS = {"a": "#b23a48", "b": "#2f6690"}


def victim_rush_plot(summary: dict[str, Any], names: dict[str, str], path: Path) -> Path:
    """Mean victims slain by each side by round, with its 95% band."""
    rush = summary["victim_rush"]
    rounds = rush["curve_rounds"]
    fig = Figure(figsize=(7, 4), dpi=110)
    ax = fig.subplots()
    for side in ("a", "b"):
        ax.plot(rounds, rush[side]["curve_mean"], color=COLOURS[side], label=names[side], lw=2)
        ax.fill_between(rounds, rush[side]["curve_low"], rush[side]["curve_high"], color=COLOURS[side], alpha=0.2)
    ax.set_xlabel("round (each side's turn number)")
    ax.set_ylabel("victims slain or rescued (mean)")
    ax.set_ylim(0, 12)
    ax.set_title("Victim rush")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    return path


def vp_distribution_plot(games: pd.DataFrame, names: dict[str, str], path: Path) -> Path:
    """Histograms of each side's victory points."""
    fig = Figure(figsize=(7, 4), dpi=110)
    ax = fig.subplots()
    top = int(max(games["vp_a"].max(), games["vp_b"].max(), 1))
    bins = range(0, top + 6, 5)
    for side in ("a", "b"):
        ax.hist(games[f"vp_{side}"], bins=bins, alpha=0.55, color=COLOURS[side], label=names[side])
    ax.set_xlabel("victory points")
    ax.set_ylabel("games")
    ax.set_title("Victory points per game")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return path


def efficiency_plot(figures: pd.DataFrame, path: Path) -> Path:
    """Victory points earned per point of cost, per figure, with its interval when the table has one."""
    fig = Figure(figsize=(7, max(2.5, 0.45 * len(figures) + 1)), dpi=110)
    ax = fig.subplots()
    labels = [f"{r.figure} ({r.side})" for r in figures.itertuples()]
    colours = [COLOURS[r.side.lower()] for r in figures.itertuples()]
    errors = None
    if {"vp_per_point_low", "vp_per_point_high"} <= set(figures.columns):
        errors = [
            (figures["vp_per_point"] - figures["vp_per_point_low"]).clip(lower=0),
            (figures["vp_per_point_high"] - figures["vp_per_point"]).clip(lower=0),
        ]
    ax.barh(labels, figures["vp_per_point"], color=colours, xerr=errors, ecolor="#444", capsize=3)
    ax.invert_yaxis()
    ax.set_xlabel(
        "victory points earned per point of cost (mean per game)\nwhiskers: 95% bootstrap interval over pairs"
    )
    ax.set_title("Point efficiency by figure")
    fig.tight_layout()
    fig.savefig(path)
    return path
