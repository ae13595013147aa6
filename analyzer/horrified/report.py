"""`clix horrified`'s report (issue 40): horrified.html (and horrified.pdf with `--pdf`) from reports/horrified.html.j2,
for every table. The title, a one-sentence headline, then what the numbers rest on (every component of the library
that is not from the rulebook, by its `provenance`), then the results with their intervals, a plot of what ends the
games by turn, and for a sensitivity table each verdict marked "survives" or "flips under ..."."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.horrified.games import Cell, kit
from clix.analyzer.horrified.summary import ENDS, percent, signed, verdict

LEVELS = ("assumed", "public, one source", "public, two sources agree")
"""Provenance from the least to the best supported; `rulebook` components are counted, not listed."""
SKIPPED = ("sensitivity",)
"""Tables that are not components (the sensitivity table's ranges are shown with its results)."""
if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLOURS = {"win": "#2f6690", "terror": "#b23a48", "deck out": "#c9a227"}


def rests_on(layers: tuple[Path, ...]) -> dict[str, Any]:
    """Every component of the library under `layers` by provenance: {"levels": [{provenance, count, groups:
    [{table, items}]}] for the LEVELS, "rulebook": how many components come from the rulebook}."""
    library = kit().library(layers or (kit().sample,))
    found: dict[str, dict[str, list[str]]] = {level: {} for level in (*LEVELS, "rulebook")}
    for table, value in library.tables.items():
        if table in SKIPPED:
            continue
        for entry in value if isinstance(value, list) else [value]:
            _walk(entry.model_dump(), table, table, found)
    levels = [
        {
            "provenance": level,
            "count": sum(len(items) for items in found[level].values()),
            "groups": [
                {"table": t.replace("_", " "), "items": [i for i in items if i != t]}
                for t, items in found[level].items()
            ],
        }
        for level in LEVELS
    ]
    return {"levels": levels, "rulebook": sum(len(items) for items in found["rulebook"].values())}


def _walk(data: Any, table: str, name: str, found: dict[str, dict[str, list[str]]]) -> None:
    """Record every part of `data` that carries a `provenance` (a monster's is per field: 'dracula start')."""
    if isinstance(data, list):
        for item in data:
            _walk(item, table, name, found)
        return
    if not isinstance(data, dict):
        return
    own = _name(data) or name
    provenance = data.get("provenance")
    if isinstance(provenance, dict):
        for part, level in provenance.items():
            found.setdefault(level, {}).setdefault(table, []).append(f"{own} {part.replace('_', ' ')}")
    elif isinstance(provenance, str):
        found.setdefault(provenance, {}).setdefault(table, []).append(own)
    for key, value in data.items():
        if key != "provenance":
            _walk(value, table, own, found)


def _name(data: dict[str, Any]) -> str | None:
    """A component's name: its id, colour, or a path's two ends."""
    if "id" in data:
        return str(data["id"])
    if "colour" in data:
        return str(data["colour"])
    if "a" in data and "b" in data:
        return f"{data['a']}–{data['b']}"
    return None


def _team(names: Sequence[str]) -> str:
    return " + ".join(names)


def headline(summary: dict[str, Any]) -> str:
    """The report's one sentence: its main number with its interval and the games it rests on."""
    table = summary["table"]
    monsters, heroes, games = _team(summary["monsters"]), _team(summary["heroes"]), summary["games"]
    if table == "lineup":
        rate = summary["win_rate"]
        where = {"above half": "above half", "below half": "below half"}.get(verdict(rate), "not clear of half")
        lost = games - summary["ends"]["win"]
        cause = max(("terror", "deck out"), key=lambda end: summary["ends"][end])
        many = summary["ends"][cause]
        tail = (f"; {'all' if many == lost else f'{many} of the'} {lost} losses are {cause}") if lost else ""
        return f"{heroes} beat {monsters} in {percent(rate)} of {games:,} games ({where}){tail}."
    if table == "difficulty":
        rows = [row for row in summary["cells"] if row["win_rate"]["rate"] is not None]
        if not rows:
            return f"No line-up could be played ({games:,} games per cell)."
        best = max(rows, key=lambda row: row["win_rate"]["rate"])
        worst = min(rows, key=lambda row: row["win_rate"]["rate"])
        return (
            f"Over {len(rows)} line-ups and player counts at {games:,} games each, the win rate runs from "
            f"{percent(best['win_rate'])} ({_cell(best)}) down to {percent(worst['win_rate'])} ({_cell(worst)})."
        )
    if table == "heroes":
        base = f"{heroes} beat {monsters} in {percent(summary['baseline']['win_rate'])} of {games:,} games"
        if not summary["swaps"]:
            return base + "; no other hero can take a seat."
        top = summary["swaps"][0]
        return (
            f"{base}; the best swap, {top['in']} in for {top['out']} (seat {top['seat']}), changes that by "
            f"{signed(top['change'])} (paired, same seeds)."
        )
    marks = summary["marks"]
    said = [f"{_said(key, summary['verdicts'][key])}: {mark}" for key, mark in marks.items()]
    return (
        f"Over {len(summary['variants'])} plausible values of the assumed numbers at {games:,} games per cell, "
        f"the baseline's verdicts: {'; '.join(said)}."
    )


def _cell(row: dict[str, Any]) -> str:
    return f"{_team(row['monsters'])}, {row['players']} player{'s' if row['players'] != 1 else ''}"


def _said(key: str, value: str) -> str:
    """A verdict in words: 'win rate below half', 'deck out the commoner loss'."""
    if key == "win rate":
        return "win rate " + ("not clear of half" if value == "undecided" else value)
    return f"{value} the commoner loss"


def focus(cells: Sequence[Cell], found: Sequence[Sequence[dict[str, Any]]], base: Cell) -> tuple[str, Any]:
    """The cell the plot of ends by turn shows and its games: the baseline if it was played, else the first cell
    with its monsters and player count, else the first cell."""
    keys = [lambda c: c == base, lambda c: c.monsters == base.monsters and len(c.heroes) == len(base.heroes)]
    for key in keys:
        for cell, rows in zip(cells, found, strict=True):
            if key(cell):
                return cell.label, rows
    return cells[0].label, found[0]


def ends_plot(ends: dict[str, list[int]], path: Path) -> Path:
    """ends.png: `ends_figure`."""
    ends_figure(ends).savefig(path)
    return path


def ends_figure(ends: dict[str, list[int]]) -> Figure:
    """The share of games over by each turn, stacked by what ended them (won, terror, deck out)."""
    import numpy as np
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3.6), dpi=110, layout="constrained")
    ax = fig.subplots()
    turns = [*ends["turn"], ends["turn"][-1] + 1] if ends["turn"] else []
    total = sum(sum(ends[end]) for end in ENDS) or 1
    shares = [np.cumsum([*ends[end], 0]) / total for end in ENDS]  # the last turn drawn as a step of width one
    ax.stackplot(turns, *shares, labels=[_legend(end) for end in ENDS], colors=[COLOURS[end] for end in ENDS],
                 step="post", alpha=0.85)  # fmt: skip
    ax.set_xlabel("turn (every player's turn counts one)", fontsize=9)
    ax.set_ylabel("share of games over", fontsize=9)
    ax.set_ylim(0, 1)
    if turns:
        ax.set_xlim(turns[0], turns[-1])
    ax.tick_params(labelsize=8)
    ax.set_title(f"What ends the games, by turn ({sum(sum(ends[e]) for e in ENDS)} games)", fontsize=10)
    ax.legend(loc="upper left", fontsize=8, frameon=True)
    ax.grid(alpha=0.3)
    return fig


def _legend(end: str) -> str:
    return {"win": "won (HF-GOAL-01)", "terror": "terror (HF-GOAL-02)", "deck out": "deck out (HF-GOAL-03)"}[end]


def write_report(
    out: Path, summary: dict[str, Any], layers: tuple[Path, ...], focus_label: str, pdf: bool = False
) -> dict[str, Path]:
    """horrified.html (self-contained: the plot as a data URI) and ends.png in `out`; horrified.pdf with `pdf`."""
    from clix.analyzer.horrified.robust import sentence
    from clix.analyzer.report.duel import TEMPLATES, _data_uri, write_pdf
    from clix.analyzer.report.folder import writing
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    written = {"report": out / "horrified.html", "ends_png": out / "ends.png"}
    with writing(written["ends_png"]):
        ends_plot(summary["ends_by_turn"], written["ends_png"])
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("horrified.html.j2").render(
        s=summary,
        rests=rests_on(layers),
        plot=_data_uri(written["ends_png"]),
        focus=focus_label,
        percent=percent,
        signed=signed,
        ends=ENDS,
        said=_said,
        sentence=lambda check: sentence(check, summary["table"]),
        worlds=lambda check: ", ".join(f"{w['assumption']} {w['value']}" for w in check["worlds"]),
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "horrified.pdf")
    return written
