"""`clix meta`'s pictures: the score heatmap (hatched where a cell's interval contains 50%) and the Nash
mixture with each army's bootstrap support frequency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from clix.analyzer.report.folder import writing
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle


def heatmap_png(summary: dict[str, Any], path: Path, kind: str = "army") -> Path:
    """`heatmap_figure` saved to `path`."""
    fig = heatmap_figure(summary, kind)
    with writing(path):
        fig.savefig(path, dpi=130)
    return path


def heatmap_figure(summary: dict[str, Any], kind: str = "army") -> Figure:
    """The score matrix as a heatmap: each cell the row army's score with its 95% interval, hatched where the
    interval contains 50% (not shown to favour either army); rows ordered as the field. The intervals come from
    the cells' score intervals (`stats.pair_interval`), so a pair of armies whose pairs all went one way still
    shows a width, and is hatched when that width reaches 50%. `kind`: what the ruleset calls an army."""
    armies = summary["armies"]
    n = len(armies)
    scores = np.full((n, n), np.nan)
    for i, a in enumerate(armies):
        for j, b in enumerate(armies):
            if i != j:
                scores[i, j] = summary["matrix"][a][b]["score"]
    size = max(4.5, 0.75 * n + 2.5)
    fig = Figure(figsize=(size + 1.2, size))
    ax = fig.add_subplot()
    image = ax.imshow(scores, cmap="RdBu", norm=TwoSlopeNorm(0.5, 0.0, 1.0))
    for i, a in enumerate(armies):
        for j, b in enumerate(armies):
            if i == j:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#dddddd", edgecolor="white"))
                continue
            cell = summary["matrix"][a][b]
            if cell["low"] <= 0.5 <= cell["high"]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="#777777", lw=0))
            ink = "white" if abs(cell["score"] - 0.5) > 0.3 else "black"
            ax.text(
                j,
                i,
                f"{100 * cell['score']:.0f}\n[{100 * cell['low']:.0f}-{100 * cell['high']:.0f}]",
                ha="center",
                va="center",
                fontsize=7 if n > 6 else 8,
                color=ink,
            )
    labels = [(summary.get("names") or {}).get(a, a) for a in armies]
    ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    ax.set_xlabel(f"opponent (column {kind})")
    ax.set_ylabel(f"{kind} (row)")
    ax.set_title(f"Score of the row {kind} against the column {kind}, % [95% interval]", fontsize=9)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="score")
    ax.legend(
        handles=[Patch(fill=False, hatch="///", edgecolor="#777777", label="interval contains 50%")],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.22 if n > 3 else -0.3),
        fontsize=8,
        frameon=False,
    )
    fig.tight_layout()
    return fig


def nash_png(summary: dict[str, Any], path: Path) -> Path:
    """Each army's Nash weight (bars) and how often it is in the support under the bootstrap (dots)."""
    field = sorted(summary["field"], key=lambda r: -r["nash_weight"])
    shown = summary.get("names") or {}
    names = [shown.get(r["army"], r["army"]) for r in field]
    fig = Figure(figsize=(max(4.5, 0.6 * len(names) + 2), 3.4))
    ax = fig.add_subplot()
    x = np.arange(len(names))
    ax.bar(x, [r["nash_weight"] for r in field], color="#2f6690", label="Nash weight")
    frequency = [r["support_frequency"] for r in field]
    if all(f is not None for f in frequency):
        ax.plot(x, frequency, "o", color="#b23a48", label="in support (bootstrap share)")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(x, names, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("weight / share")
    ax.set_title("Nash mixture of the matchup game", fontsize=9)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    with writing(path):
        fig.savefig(path, dpi=130)
    return path
