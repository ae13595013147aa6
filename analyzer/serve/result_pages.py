"""The result pages of `clix serve` (issue 41, part 4): the store's runs and the meta rows under the output folder
in one table, a run's tables as CSV or Parquet, two runs side by side, a row's heatmap with each cell linked to
its duel, the output folder's files and a report as PDF."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.serve.security import inside
from clix.analyzer.serve.state import OUTPUT_SUFFIXES
from clix.analyzer.serve.state import error as _error
from clix.analyzer.serve.state import report_link as _report_link
from clix.analyzer.serve.state import state_of as _state
from starlette.requests import Request
from starlette.responses import FileResponse, Response


async def results_page(request: Request) -> Response:
    """The store's runs and the meta rows under the output folder, newest first, filtered by army, map and the day
    they started."""
    from clix.analyzer.play.store import Store, local_time
    from clix.analyzer.results.command import horrified_settings, record_names, report_name, run_label
    from clix.analyzer.serve.results import field_runs

    state = _state(request)
    params = request.query_params
    army, map_name, since = params.get("army", "").strip(), params.get("map", "").strip(), params.get("since", "")
    try:
        day = date.fromisoformat(since) if since else None
    except ValueError:
        return _error(state, ClixError(f"since: {since!r} is not a date; give it as YYYY-MM-DD"), 400, request)
    records = []
    if state.settings.store.is_file():
        try:
            records = Store.existing(state.settings.store).runs()
        except ClixError as exc:
            return _error(state, exc, 400, request)
    rows: list[dict[str, Any]] = []
    for record in reversed(records):
        names = record_names(record)
        started = local_time(record.started)
        if army and army.lower() not in f"{record.army_a} {record.army_b} {names['a']} {names['b']}".lower():
            continue
        if map_name and map_name != record.map:
            continue
        if day is not None and started.date() < day:
            continue
        report = Path(record.out) / report_name(record)
        kinds = ("games",) if horrified_settings(record) is not None else ("games", "figures")  # no figure rows
        tables = [f"{t}.{f}" for f in ("csv", "parquet") for t in kinds]
        rows.append({
            "run": record.id, "started": started, "played": run_label(record), "map": record.map,
            "players": record.players, "games": f"{record.games}{'*' if record.interrupted else ''}",
            "score": "–" if record.score is None else f"{100 * record.score:.1f}%",
            "report": _report_link(state, str(report)) if report.is_file() else None,
            "files": [(t, f"/results/{record.id}/{t}") for t in tables], "compare": record.id,
        })  # fmt: skip
    for found in field_runs(state.settings.out, army, map_name, day):
        folder = _report_link(state, str(found["folder"]))
        if folder is None:  # not under --out (a folder linked out of it): no address to give
            continue
        rows.append({
            "run": "field", "started": found["started"], "played": f"{found['army']} against the field "
            f"({', '.join(found['field'])})", "map": found["maps"], "players": found["players"],
            "games": f"{found['games']}{'*' if found['interrupted'] else ''}", "score": found["score"],
            "report": f"{folder}/row.html", "compare": None,
            "files": [("heatmap", folder.replace("/files/", "/results/field/", 1)), ("cells.csv", f"{folder}/cells.csv"),
                      ("games.csv", f"{folder}/games.csv")],
        })  # fmt: skip
    rows.sort(key=lambda row: row["started"], reverse=True)
    return state.page("results.html.j2", rows=rows, army=army, map=map_name, since=since, store=state.settings.store)


async def run_table(request: Request) -> Response:
    """A recorded run's games or figures as CSV or Parquet (`clix results export`): /results/RUN/games.csv,
    figures.parquet..."""
    from clix.analyzer.serve.results import FORMATS, table_of

    state = _state(request)
    try:
        name, body = await asyncio.to_thread(
            table_of, state.settings.store, str(request.path_params["run"]), request.path_params["file"]
        )
    except ClixError as exc:
        return _error(state, exc, 404, request)
    media = FORMATS[name.rsplit(".", 1)[1]]
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def field_cells_page(request: Request) -> Response:
    """A meta row's heatmap (/results/field/FOLDER, its run folder under --out): its score against each opponent
    on each map, each cell linked to its duel."""
    from clix.analyzer.serve.results import heatmap

    state = _state(request)
    given = str(request.path_params["path"])
    try:
        folder = inside(state.settings.out, given, "run")
        if not (folder / "cells.csv").is_file():
            raise ClixError(f"run: no field run {given!r} in {state.settings.out}; choose one in the results table")
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        shown = heatmap(folder / "cells.csv", str(summary["settings"].get("ruleset", "")))
    except (ClixError, OSError, ValueError, KeyError) as exc:
        return _error(state, exc if isinstance(exc, ClixError) else ClixError(f"run: {given}: {exc}"), 404, request)
    return state.page(
        "field_cells.html.j2", heat=shown, summary=summary, report=_report_link(state, str(folder / "row.html"))
    )


async def compare_page(request: Request) -> Response:
    """Two recorded runs side by side (`?compare=RUN&compare=RUN`, the results table's ticks)."""
    from clix.analyzer.serve.results import compare

    state = _state(request)
    chosen = [run.strip() for run in request.query_params.getlist("compare") if run.strip()]
    try:
        if len(chosen) != 2:
            raise ClixError(f"compare: tick two runs in the results table to compare them ({len(chosen)} ticked)")
        columns = compare(state.settings.store, chosen[0], chosen[1])
    except ClixError as exc:
        return _error(state, exc, 400, request)
    return state.page("compare.html.j2", columns=columns, rows=list(columns[0]))


async def output_file(request: Request) -> Response:
    """A file of the output folder (a report and its plots); any other path is refused."""
    state = _state(request)
    try:
        path = inside(state.settings.out, request.path_params["path"], "path")
    except ClixError as exc:
        return _error(state, exc, 404, request)
    if not path.is_file() or path.suffix.lower() not in OUTPUT_SUFFIXES:
        return _error(state, ClixError(f"path: no report file {request.path_params['path']!r}"), 404, request)
    return FileResponse(path)


async def report_pdf(request: Request) -> Response:
    """A run's report as PDF (`--pdf`'s WeasyPrint rendering of the same HTML, loading nothing outside its run folder
    and the static files: `pdf.py`): written beside the report in its run folder when it is missing or older than
    the report, then sent. Only an HTML report under `--out`."""
    from clix.analyzer.report.duel import check_pdf
    from clix.analyzer.serve.pdf import write_report_pdf

    state = _state(request)
    form = await request.form()
    given = str(form.get("report", "")).strip().removeprefix("/files/")
    try:
        report = inside(state.settings.out, given, "report")
        if report.suffix.lower() != ".html" or not report.is_file():
            raise ClixError(f"report: no HTML report {given!r} in {state.settings.out}; open the run's report first")
        pdf = report.with_suffix(".pdf")
        if not pdf.is_file() or pdf.stat().st_mtime < report.stat().st_mtime:
            await asyncio.to_thread(check_pdf)
            await asyncio.to_thread(write_report_pdf, report, pdf)
    except ClixError as exc:
        return _error(state, exc, 404 if "no HTML report" in str(exc) else 400, request)
    name = (
        f"{report.parent.parent.name}-{report.parent.name}-{pdf.name}"
        if report.parent != state.settings.out.resolve()
        else pdf.name
    )
    return FileResponse(pdf, media_type="application/pdf", filename=name)
