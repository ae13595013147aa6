"""A field in pods written out (issue 39): games.csv, ratings.csv, summary.json, the two plots (each army's rating
and win share with 95% intervals; the win share by seat and by turn position) and report.html with them inline,
report.pdf with `pdf` (the duel's PDF engine, as `clix meta --pdf`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure


def ratings_figure(summary: dict[str, Any]) -> Figure:
    """Left: each army's Plackett-Luce rating with its 95% interval (0 the field's mean); right: its win share,
    against the equal share of a pod (1/N). Best rated at the top."""
    rated = list(reversed(summary["armies"]))
    figure = Figure(figsize=(8, 0.45 * len(rated) + 1.6))
    left, right = figure.subplots(1, 2, sharey=True)
    where = range(len(rated))
    left.errorbar(
        [a["rating"] for a in rated],
        where,
        xerr=[[a["rating"] - a["low"] for a in rated], [a["high"] - a["rating"] for a in rated]],
        fmt="o",
    )
    left.axvline(0, linestyle="--", color="grey")
    left.set_yticks(list(where), [a["army"] for a in rated])
    left.set_xlabel("rating (log-strength, 95% interval)")
    right.barh(list(where), [a["win_share"] or 0 for a in rated], color="#7a9cc6")
    right.axvline(1 / summary["pod_size"], linestyle="--", color="grey")
    right.set_xlabel(f"win share (equal: 1/{summary['pod_size']})")
    figure.tight_layout()
    return figure


def seats_figure(summary: dict[str, Any]) -> Figure:
    """The win share by seat and by turn position (1: the first player) with 95% intervals over pods, against the
    equal share."""
    figure = Figure(figsize=(8, 3))
    for axes, key, label in zip(figure.subplots(1, 2, sharey=True), ("seats", "positions"), ("seat", "position"),
                                strict=True):  # fmt: skip
        rows = summary[key]
        share = [r["win_share"] for r in rows]
        axes.errorbar(
            [r[label] for r in rows],
            share,
            yerr=[[s - r["low"] for s, r in zip(share, rows, strict=True)], [r["high"] - s for s, r in zip(share, rows, strict=True)]],
            fmt="o",
        )  # fmt: skip
        axes.axhline(1 / summary["pod_size"], linestyle="--", color="grey")
        axes.set_xticks([r[label] for r in rows])
        axes.set_xlabel("seat" if label == "seat" else "turn position (1: first player)")
    figure.axes[0].set_ylabel("win share (95% interval)")
    figure.tight_layout()
    return figure


def write_field(out: Path, games: pd.DataFrame, summary: dict[str, Any], pdf: bool = False) -> list[Path]:
    """Everything the field's folder holds (see the module), the report last."""
    from clix.analyzer.common.jsonout import rounded
    from clix.analyzer.report.duel import TEMPLATES, _data_uri, write_pdf
    from clix.analyzer.report.folder import writing
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / n for n in ("games.csv", "ratings.csv", "summary.json", "ratings.png", "seats.png", "report.html")]
    with writing(paths[0]):
        games.to_csv(paths[0], index=False)
    with writing(paths[1]):
        pd.DataFrame(summary["armies"]).to_csv(paths[1], index=False)
    with writing(paths[2]):
        paths[2].write_text(json.dumps(rounded(summary), default=str, indent=1) + "\n")
    for path, figure in ((paths[3], ratings_figure(summary)), (paths[4], seats_figure(summary))):
        with writing(path):
            figure.savefig(path, dpi=110)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("field.html.j2").render(
        summary=summary, pct=_pct, ratings_plot=_data_uri(paths[3]), seats_plot=_data_uri(paths[4])
    )
    with writing(paths[5]):
        paths[5].write_text(html, encoding="utf-8")
    if pdf:
        paths.insert(5, write_pdf(html, out / "report.pdf"))
    return paths


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"
