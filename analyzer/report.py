"""Writing a duel's outputs: tables (CSV, Parquet), summary JSON, PNG plots and the HTML report."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pandas as pd
from clix.analyzer import plots
from clix.analyzer.outputs import writing
from clix.engine import effects
from clix.engine.roster.loader import Roster
from jinja2 import Environment, FileSystemLoader, select_autoescape

TEMPLATES = Path(__file__).resolve().parent.parent / "reports"


def provenance_line(roster: Roster, army_ids: list[str]) -> str:
    """Where the numbers come from, and which powers the engine plays with no effect yet."""
    figures = [roster.figures[e.figure] for a in army_ids for e in roster.armies[a].figures]
    sample = sorted({f.id for f in figures if "sample" in f.provenance.lower()})
    names = {p.name for f in figures for side in f.card.sides().values() for p in side.powers}
    unsupported = sorted(effects.unsupported_powers(names))
    parts = []
    if sample:
        parts.append(
            f"These results rest on clix's sample data ({len(sample)} of {len(set(f.id for f in figures))} "
            "figures are sample designs, not official dials), so they show how the armies play in clix's "
            "model, not how the real figures perform."
        )
    else:
        parts.append("All figures carry their own provenance (no sample data).")
    if unsupported:
        parts.append(f"Powers the engine does not model yet (they had no effect): {', '.join(unsupported)}.")
    else:
        parts.append("Every power on these cards is modelled by the engine.")
    return " ".join(parts)


def write_outputs(
    out: Path,
    games: pd.DataFrame,
    figures: pd.DataFrame,
    summary: dict[str, Any],
    settings: dict[str, Any],
    names: dict[str, str],
    provenance: str,
) -> dict[str, Path]:
    """Write every output of a duel to `out`; return the paths written. A failed write names its file."""
    out.mkdir(parents=True, exist_ok=True)
    written = {
        "games_csv": out / "games.csv",
        "games_parquet": out / "games.parquet",
        "figures_csv": out / "figures.csv",
        "figures_parquet": out / "figures.parquet",
        "summary": out / "summary.json",
        "report": out / "report.html",
    }
    with writing(written["games_csv"]):
        games.to_csv(written["games_csv"], index=False)
    with writing(written["games_parquet"]):
        games.to_parquet(written["games_parquet"], index=False)
    with writing(written["figures_csv"]):
        figures.to_csv(written["figures_csv"], index=False)
    with writing(written["figures_parquet"]):
        figures.to_parquet(written["figures_parquet"], index=False)
    with writing(written["summary"]):
        written["summary"].write_text(
            json.dumps({"settings": settings, "provenance": provenance, **summary}, indent=2, default=str),
            encoding="utf-8",
        )
    efficiency = pd.DataFrame(summary["figures"])
    for key, path, draw in (
        ("rush_png", out / "victim_rush.png", lambda p: plots.victim_rush_plot(summary, names, p)),
        ("vp_png", out / "victory_points.png", lambda p: plots.vp_distribution_plot(games, names, p)),
        ("efficiency_png", out / "efficiency.png", lambda p: plots.efficiency_plot(efficiency, p)),
    ):
        with writing(path):
            written[key] = draw(path)
    images = {key: _data_uri(written[f"{key}_png"]) for key in ("rush", "vp", "efficiency")}
    table = _figures_table(efficiency) if len(efficiency) else "<p>No figures.</p>"
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("duel.html.j2").render(
        summary=summary,
        settings=settings,
        names=names,
        provenance=provenance,
        images=images,
        figures_table=_safe(table),
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    return written


def _figures_table(efficiency: pd.DataFrame) -> str:
    """The per-figure table: means per game; VP, VP per point and the shares with their 95% bootstrap intervals."""

    def fixed(column: str) -> pd.Series:
        return efficiency[column].map(lambda x: f"{x:.3f}")

    def interval(column: str, form: str) -> list[str]:
        values = zip(efficiency[column], efficiency[f"{column}_low"], efficiency[f"{column}_high"], strict=True)
        return [
            "–" if pd.isna(x) else f"{form.format(x)} [{form.format(lo)}–{form.format(hi)}]" for x, lo, hi in values
        ]

    shown = pd.DataFrame(
        {
            "side": efficiency["side"],
            "figure": efficiency["figure"],
            "points": efficiency["points"],
            "survival": fixed("survival"),
            "damage dealt": fixed("damage_dealt"),
            "damage taken": fixed("damage_taken"),
            "kills": fixed("kills"),
            "victims": fixed("victims"),
            "VP [95%]": interval("vp", "{:.2f}"),
            "VP / point [95%] *": interval("vp_per_point", "{:.3f}"),
            "share of its army's VP [95%] †": interval("vp_share", "{:.0%}"),
            "share of its army's damage [95%] †": interval("damage_share", "{:.0%}"),
            "damage / point": fixed("damage_dealt_per_point"),
            "kills / point": fixed("kills_per_point"),
        }
    )
    return '<div style="overflow-x:auto">' + shown.to_html(index=False, border=0) + "</div>"


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _safe(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)
