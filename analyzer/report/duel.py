"""Writing a duel's outputs: tables (CSV, Parquet), summary JSON, PNG plots, the HTML report and its PDF."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.mapdraw import draw_map_png
from clix.analyzer.library.views import ArmyContents
from clix.analyzer.play.compact import CompactRows
from clix.analyzer.report import charts
from clix.analyzer.report.folder import writing
from clix.engine.core.ruleset import ruleset_named
from jinja2 import Environment, FileSystemLoader, select_autoescape

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster
    from clix.engine.horrorclix.roster.models import MapLayout

TEMPLATES = Path(__file__).resolve().parents[2] / "reports"


def provenance_line(roster: Roster, army_ids: list[str]) -> str:
    """Where the numbers come from, and which powers the engine plays with no effect yet."""
    figures = [roster.figures[e.figure] for a in army_ids for e in roster.armies[a].figures]
    sample = sorted({f.id for f in figures if "sample" in f.provenance.lower()})
    names = {p.name for f in figures for side in f.card.sides().values() for p in side.powers}
    unsupported = sorted(ruleset_named().unsupported_powers(names))
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


def verdict(summary: dict[str, Any], settings: dict[str, Any], names: dict[str, str]) -> str:
    """The report's headline, e.g. "firing-line wins 70% of games against butcher-shop [95% CI 66–74%] on
    graveyard (400 games, tuned vs tuned)", or "No clear favourite: ..." when the score's interval holds 50%."""
    sc = summary["score"]
    games = summary["outcome"]["games"]
    mirror = names["a"] == names["b"]
    label = {side: names[side] + (f" ({side.upper()})" if mirror else "") for side in ("a", "b")}
    styles = dict(zip("ab", str(settings["players"]).split(","), strict=False))
    if sc["score"] is None:
        return f"No result: no seat-swapped pair of {label['a']} against {label['b']} finished."
    # the sentence's subject is the favourite (A when there is none); its score and interval are its own
    first, second = ("b", "a") if sc["excludes_half"] and sc["score"] < 0.5 else ("a", "b")
    score, low, high = sc["score"], sc["low"], sc["high"]
    if first == "b":
        score, low, high = 1 - score, 1 - high, 1 - low
    # a bound shown as "50%" would blur whether the interval holds 50%: show a decimal then
    digits = 1 if any(round(100 * x) == 50 and abs(100 * x - 50) >= 0.05 for x in (low, high)) else 0
    pct = f"{{:.{digits}f}}"
    drawn = bool(summary["outcome"]["draw"]["rate"])
    result = (
        f"scores {pct.format(100 * score)}% (wins + ½ draws)" if drawn else f"wins {pct.format(100 * score)}% of games"
    )
    who = f"{styles.get(first, '?')} vs {styles.get(second, '?')}"
    text = (
        f"{label[first]} {result} against {label[second]} [95% CI {pct.format(100 * low)}–{pct.format(100 * high)}%] "
        f"on {settings['map']} ({games} games, {who})"
    )
    if not sc["excludes_half"]:
        return f"No clear favourite: {text}; the interval includes 50%."
    return text + "."


def areas_used(games: pd.DataFrame) -> dict[int, dict[str, int]]:
    """How many games each side started in each starting area: {area: {"a": games, "b": games}}, areas in order.
    Empty when the table does not record the areas."""
    if not {"area_a", "area_b"} <= set(games.columns):
        return {}
    used: dict[int, dict[str, int]] = {}
    for side in ("a", "b"):
        for area, count in games[f"area_{side}"].dropna().astype(int).value_counts().items():
            used.setdefault(int(area), {"a": 0, "b": 0})[side] = int(count)
    return dict(sorted(used.items()))


def write_outputs(
    out: Path,
    games: pd.DataFrame,
    figures: pd.DataFrame,
    summary: dict[str, Any],
    settings: dict[str, Any],
    names: dict[str, str],
    provenance: str,
    *,
    armies: dict[str, ArmyContents] | dict[str, Any] | None = None,
    layout: MapLayout | None = None,
    pdf: bool = False,
    rows: tuple[CompactRows, CompactRows] | None = None,
    draw_map: Callable[[Path, Mapping[int, str] | None], Any] | None = None,
) -> dict[str, Path]:
    """Write every output of a duel to `out`; return the paths written. A failed write names its file.

    `rows`, the run's game and figure rows in compact form (`RowTable.compact`; the frames are then theirs), are
    written to the CSV and Parquet files a batch at a time, typed as the rows are; without, the frames are written.

    `armies` (by side, "a" and "b") adds the armies' contents to the report, `layout` the map with the
    starting areas used (or `draw_map(path, notes)` draws it: another ruleset's map); `pdf` also renders the report
    to report.pdf. A HeroClix duel (its summary has `knockouts`) has a report of its own (duel_heroclix.html.j2:
    knockouts, pushing, knockback and healing in place of victims and plot twists)."""
    hero = "knockouts" in summary
    out.mkdir(parents=True, exist_ok=True)
    written = {
        "games_csv": out / "games.csv",
        "games_parquet": out / "games.parquet",
        "figures_csv": out / "figures.csv",
        "figures_parquet": out / "figures.parquet",
        "summary": out / "summary.json",
        "report": out / "report.html",
    }
    for name, frame, which in (("games", games, 0), ("figures", figures, 1)):
        streamed = None if rows is None else rows[which]
        csv, parquet = written[f"{name}_csv"], written[f"{name}_parquet"]
        with writing(csv):
            if streamed is not None:
                streamed.to_csv(csv)
            else:
                frame.to_csv(csv, index=False)
        with writing(parquet):
            if streamed is not None:
                streamed.to_parquet(parquet)
            else:
                frame.to_parquet(parquet, index=False)
    with writing(written["summary"]):
        written["summary"].write_text(
            json.dumps({"settings": settings, "provenance": provenance, **summary}, indent=2, default=str),
            encoding="utf-8",
        )
    per_figure = pd.DataFrame(summary["figures"])  # VP per point of cost: what a figure scored, not its worth
    used = areas_used(games)
    drawings: list[tuple[str, Path, Callable[[Path], Any]]] = [
        ("score", out / "score.png", lambda p: charts.score_plot(summary, names, p)),
        (
            ("knockouts", out / "knockouts.png", lambda p: charts.knockout_plot(summary, names, p))
            if hero
            else ("rush", out / "victim_rush.png", lambda p: charts.victim_rush_plot(summary, names, p))
        ),
        ("vp", out / "victory_points.png", lambda p: charts.vp_distribution_plot(games, names, p)),
        ("margin", out / "vp_margin.png", lambda p: charts.vp_margin_plot(games, names, p)),
    ]
    if len(per_figure):
        drawings.append(("efficiency", out / "efficiency.png", lambda p: charts.efficiency_plot(per_figure, names, p)))
    notes = {area: _area_note(counts) for area, counts in used.items()}
    if layout is not None:
        drawings.append(("map", out / "map.png", lambda p: draw_map_png(layout, p, notes or None, legend_below=True)))
    elif draw_map is not None:
        drawings.append(("map", out / "map.png", lambda p: draw_map(p, notes or None)))
    images = {}
    for key, path, draw in drawings:
        with writing(path):
            draw(path)
        written[f"{key}_png"] = path
        images[key] = _data_uri(path)
    if hero:
        table = _characters_table(per_figure) if len(per_figure) else "<p>No characters.</p>"
    else:
        table = _figures_table(per_figure) if len(per_figure) else "<p>No figures.</p>"
    html = (
        _environment()
        .get_template("duel_heroclix.html.j2" if hero else "duel.html.j2")
        .render(
            summary=summary,
            settings=settings,
            names=names,
            provenance=provenance,
            images=images,
            figures_table=_safe(table),
            headline=verdict(summary, settings, names),
            armies=armies,
            areas=used,
            map_name=getattr(layout, "name", settings["map"]),
        )
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "report.pdf")
    return written


def _area_note(counts: dict[str, int]) -> str:
    """A starting area's note on the map: the games each side started there, one side a line."""
    return "\n".join(f"{side.upper()} {counts[side]}" for side in ("a", "b") if counts[side])


def _environment() -> Environment:
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))


def check_pdf() -> None:
    """Fail before any game when the PDF cannot be made: WeasyPrint (imported here, it is slow to import) or
    the system libraries it needs are missing."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        why = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ClixError(
            f"--pdf: WeasyPrint cannot be loaded ({why}); install it with pip install 'weasyprint>=60' (it needs "
            "the Pango library), or leave out --pdf"
        ) from None


def write_pdf(html: str, path: Path) -> Path:
    """Render a report's HTML (the same text as the .html file; its print stylesheet applies) to a PDF file. The
    PDF engine failing on it is a one-line ClixError (`pdf_engine_error`); a failed write names its file."""
    import weasyprint

    with writing(path):
        try:
            weasyprint.HTML(string=html).write_pdf(path)
        except OSError:
            raise
        except Exception as exc:  # WeasyPrint (or a library under it) failing on this report
            raise pdf_engine_error(exc, path) from None
    return path


def pdf_engine_error(exc: Exception, path: Path) -> ClixError:
    """The one line for the PDF engine failing while rendering `path`: nothing of the run is then published."""
    why = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return ClixError(
        f"--pdf: the PDF engine (WeasyPrint) failed while rendering {path.name} ({type(exc).__name__}"
        f"{': ' + why if why else ''}); nothing was written: run again without --pdf"
    )


def _interval(per_figure: pd.DataFrame, column: str, form: str) -> list[str]:
    """A column with its 95% interval (`column_low`, `column_high`) as "x [low–high]", "–" where it has no value."""
    values = zip(per_figure[column], per_figure[f"{column}_low"], per_figure[f"{column}_high"], strict=True)
    return ["–" if pd.isna(x) else f"{form.format(x)} [{form.format(lo)}–{form.format(hi)}]" for x, lo, hi in values]


def _figures_table(per_figure: pd.DataFrame) -> str:
    """The per-figure table: means per game; VP, VP per point of cost and the shares with their 95% bootstrap
    intervals (what each figure scored in these games, not its worth: `clix value` measures that)."""

    def fixed(column: str) -> pd.Series:
        return per_figure[column].map(lambda x: f"{x:.3f}")

    shown = pd.DataFrame(
        {
            "side": per_figure["side"],
            "figure": per_figure["figure"],
            "points": per_figure["points"],
            "survival": fixed("survival"),
            "damage dealt": fixed("damage_dealt"),
            "damage taken": fixed("damage_taken"),
            "kills": fixed("kills"),
            "victims": fixed("victims"),
            "VP [95%]": _interval(per_figure, "vp", "{:.2f}"),
            "VP / point [95%] *": _interval(per_figure, "vp_per_point", "{:.3f}"),
            "share of its army's VP [95%] †": _interval(per_figure, "vp_share", "{:.0%}"),
            "share of its army's damage [95%] †": _interval(per_figure, "damage_share", "{:.0%}"),
            "damage / point": fixed("damage_dealt_per_point"),
            "kills / point": fixed("kills_per_point"),
        }
    )
    return '<div class="scroll">' + shown.to_html(index=False, border=0) + "</div>"


def _characters_table(per_figure: pd.DataFrame) -> str:
    """A HeroClix duel's per-character table: means per game (damage dealt and taken, KOs, pushes, healing), when
    it is KO'd, VP (its KOs' and, surviving, its own points) with 95% bootstrap intervals, and the same per point
    of its cost."""

    def fixed(column: str, form: str = "{:.3f}") -> pd.Series:
        return per_figure[column].map(lambda x: "–" if pd.isna(x) else form.format(x))

    shown = pd.DataFrame(
        {
            "side": per_figure["side"],
            "character": per_figure["figure"],
            "points": per_figure["points"],
            "survival": fixed("survival"),
            "KO'd in round (mean)": fixed("ko_round", "{:.1f}"),
            "attacks": fixed("attacks", "{:.2f}"),
            "damage dealt": fixed("damage_dealt"),
            "damage taken": fixed("damage_taken"),
            "KOs": fixed("kos"),
            "pushes": fixed("pushes", "{:.2f}"),
            "healed": fixed("healed", "{:.2f}"),
            "VP [95%]": _interval(per_figure, "vp", "{:.1f}"),
            "VP / point [95%] *": _interval(per_figure, "vp_per_point", "{:.3f}"),
            "share of its force's VP [95%] †": _interval(per_figure, "vp_share", "{:.0%}"),
            "share of its force's damage [95%] †": _interval(per_figure, "damage_share", "{:.0%}"),
            "damage dealt / point": fixed("damage_dealt_per_point"),
            "damage taken / point": fixed("damage_taken_per_point"),
            "KOs / point": fixed("kos_per_point"),
        }
    )
    return '<div class="scroll">' + shown.to_html(index=False, border=0) + "</div>"


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _safe(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)
