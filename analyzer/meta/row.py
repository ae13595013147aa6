"""A meta row (`clix meta --row`, the page's "against the field"): the first army of the field against each other
army on each map with each style, nothing else. Its cells are exactly `clix meta FIELD`'s cells holding the first
army (`field_cells`: the earlier army of the field is A), played by the same `play_meta` and kept under the same
result store keys, so a row's games are the meta's and the duel's (`clix duel ARMY OTHER --map M --seed S`).

From the cells: the army's score against each opponent (its cells' equal-weight mean, the error √(Σ se²)/cells,
as the meta's score matrix) and against the field (the equal-weight mean over the opponents, as the meta's field
score), each with its 95% interval; row.html, summary.json, cells.csv and games.csv in the run folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.names import army_names
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.meta.command import (
    MetaOptions,
    _kind,
    _settings,
    check_meta_options,
    finished_games,
    meta_start,
    play_meta,
)
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.stats import _normal, cell_table
from clix.analyzer.play.result import report_line, run_exit_code
from clix.analyzer.play.runner import Matchup
from clix.analyzer.report.folder import Interrupted, Target, claim_output, writing
from rich.console import Console


def row_cells(library: Path | tuple[Path, ...], field: Sequence[str], *rest: Any, **settings: Any) -> list[Matchup]:
    """The cells of `clix meta FIELD` that hold the field's first army (it is A in each: it comes first); the
    maps, styles, turns, ties and ruleset as `field.field_cells` takes them."""
    if len(field) < 2:
        raise ClixError("a meta row needs an army and at least one other army to play against")
    if field[0] in field[1:]:
        raise ClixError(f"a meta row plays {field[0]} against the others: leave it out of the field it faces")
    return [m for m in field_cells(library, field, *rest, **settings) if m.army_a == field[0]]


def row_summary(field: Sequence[str], cells: pd.DataFrame, names: dict[str, str]) -> dict[str, Any]:
    """The first army's score against each opponent and against the field, JSON-ready (None where no game
    finished)."""
    army, rows = field[0], []
    for other in field[1:]:
        sub = cells[(cells["army_b"] == other)].dropna(subset=["score"]) if "score" in cells else cells.iloc[0:0]
        if len(sub):
            err = float(np.sqrt((sub["se"] ** 2).sum()) / len(sub))
            rows.append({"opponent": other, "name": names[other], "games": int(sub["games"].sum()),
                         **_normal(float(sub["score"].mean()), err, se=err)})  # fmt: skip
        else:
            rows.append({"opponent": other, "name": names[other], "games": 0, **_normal(None, 0.0, se=None)})
    known = [r for r in rows if r["score"] is not None]
    overall = _normal(None, 0.0)
    if len(known) == len(rows):
        err = float(np.sqrt(sum(r["se"] ** 2 for r in known)) / len(known))
        overall = _normal(float(np.mean([r["score"] for r in known])), err, se=err)
    return {"army": army, "name": names[army], "field": overall, "opponents": rows}


def row_headline(summary: dict[str, Any]) -> str:
    """One line: the army's score against the field, or why there is none."""
    score = summary["field"]
    if score["score"] is None:
        return f"{summary['name']}: not every opponent has a finished game, so no score against the field"
    return (
        f"{summary['name']} scores {100 * score['score']:.1f}% against the field "
        f"(95% interval {100 * score['low']:.1f}% to {100 * score['high']:.1f}%)"
    )


def row_lines(summary: dict[str, Any]) -> list[str]:
    """The terminal's lines: the headline, then each opponent's score."""
    lines = [row_headline(summary)]
    for row in summary["opponents"]:
        if row["score"] is None:
            lines.append(f"  vs {row['name']}: no finished game")
        else:
            lines.append(
                f"  vs {row['name']}: {100 * row['score']:.1f}% ({100 * row['low']:.1f}% to {100 * row['high']:.1f}%), "
                f"{row['games']} games"
            )
    return lines


def write_row(
    out: Path, summary: dict[str, Any], cells: pd.DataFrame, games: pd.DataFrame, settings: dict[str, Any], pdf: bool
) -> dict[str, Path]:
    """Write summary.json, cells.csv, games.csv and row.html (and row.pdf with `pdf`) to `out`; return the paths."""
    from clix.analyzer.report.duel import TEMPLATES, write_pdf
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    written = {"summary": out / "summary.json", "cells_csv": out / "cells.csv", "games_csv": out / "games.csv"}
    with writing(written["summary"]):
        written["summary"].write_text(
            json.dumps({"settings": settings, **summary}, indent=1, default=str), encoding="utf-8"
        )
    with writing(written["cells_csv"]):
        cells.to_csv(written["cells_csv"], index=False)
    with writing(written["games_csv"]):
        games.to_csv(written["games_csv"], index=False)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    records = [{k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in r.items()}
               for r in cells.to_dict("records")]  # fmt: skip
    html = env.get_template("meta_row.html.j2").render(
        headline=row_headline(summary), summary=summary, settings=settings, cells=records
    )
    written["report"] = out / "row.html"
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "row.pdf")
    return written


def run_meta_row(
    roster: Any,
    library: Path | tuple[Path, ...],
    field: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    *,
    out: Path | Target,
    as_json: bool,
    console: Console,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Play the row of `field[0]`, print its summary (or JSON, as `run_meta`) and write its outputs; the exit
    code as `run_meta`'s. `progress` is told of the games as they finish (first of those the store holds)."""
    check_meta_options(options)
    matchups = row_cells(library, field, maps, styles, options.turns, options.ties, options.ruleset)
    runner, keeper = meta_start(roster, matchups, options)
    if keeper is not None and progress is not None and any(keeper.known):
        progress(sum(len(known) for known in keeper.known))  # the games the store holds count as done
    with claim_output(out) as folder:
        run = play_meta(matchups, options, runner, keeper, progress=progress, on_look=None)
        games = finished_games(matchups, run, keeper, options)
        if games.empty:
            if run.interrupted and not run.crashed:
                raise Interrupted()
            report_line("no game finished: nothing to report")
            return run_exit_code(run.interrupted, True, True)
        cells = cell_table(matchups, run, games)
        summary = row_summary(field, cells, army_names(roster, field))
        settings = _settings(field, maps, styles, options, run, len(matchups), library)
        settings["command"] = settings["command"].replace("clix meta ", "clix meta --row ", 1)
        settings["kind"] = _kind(options.ruleset)
        with folder.staged() as staging:
            written = write_row(staging, summary, cells, games, settings, options.pdf)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        outputs = {k: str(v) for k, v in written.items()}
        print_json({"settings": settings, "verdict": row_headline(summary), **summary, "outputs": outputs})
    else:
        print_lines(console, row_lines(summary))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(run.interrupted, bool(run.failed), run.stopped)
