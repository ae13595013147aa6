"""The web app of `clix serve` (issue 41): the builder, duels started from the page, the result store's runs.

`create_app(Settings(...))` makes a Starlette app behind the `security.Guard` middleware; each page is a Jinja2
template of analyzer/serve/templates, each live part an htmx fragment. The library is the command line's
(`load_library` on --rosters plus the armies folder), the checks its checks, the store its store."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import library_layers, load_library
from clix.analyzer.serve import builder, forms, heroes
from clix.analyzer.serve.runs import Runs
from clix.analyzer.serve.security import Guard, inside
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

HERE = Path(__file__).resolve().parent
OUTPUT_SUFFIXES = frozenset({".html", ".png", ".svg", ".css", ".csv", ".json", ".pdf", ".parquet", ".txt"})
"""The kinds of file the page serves from the output folder: a run's outputs, never the store or its journal."""


@dataclass
class Settings:
    """What `clix serve` was given."""

    host: str = "127.0.0.1"
    port: int | None = 8000
    rosters: list[Path] = field(default_factory=list)
    armies: Path = Path("clix-armies")
    """The user's army folder: armies saved from the page go there; it is the top layer of the library."""
    store: Path = Path("clix-out") / "clix.duckdb"
    out: Path = Path("clix-out")
    max_runs: int = 2


class State:
    """The app's library (loaded once, again after a save), its runs and its templates."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runs = Runs(settings.max_runs)
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html", "j2"])
        )
        self._library: Any = None
        self._heroes: Any = None

    def layers(self) -> list[Path]:
        """The library's layers: --rosters (or the default library), then the armies folder when it exists."""
        found = list(library_layers(self.settings.rosters or None))
        if self.settings.armies.is_dir():
            found.append(self.settings.armies)
        return found

    def library(self) -> Any:
        """The HorrorClix library (a ClixError names its first problem)."""
        if self._library is None:
            self._library = load_library(self.layers())
        return self._library

    def heroes(self) -> Any:
        """The HeroClix library under the same layers (its characters and forces)."""
        if self._heroes is None:
            self._heroes = heroes.load(self.layers())
        return self._heroes

    def reload(self) -> None:
        self._library = None
        self._heroes = None

    def page(self, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        return HTMLResponse(self.templates.get_template(name).render(**values), status_code=status)


def _state(request: Request) -> State:
    state: State = request.app.state.clix
    return state


def _error(state: State, exc: ClixError, status: int = 400, request: Request | None = None) -> HTMLResponse:
    """The mistake as one line: a fragment for htmx, a whole page for a plain form or link (`request` given)."""
    whole = request is not None and request.headers.get("hx-request") != "true"
    return state.page("error_page.html.j2" if whole else "error.html.j2", status=status, message=str(exc))


async def home(request: Request) -> Response:
    return RedirectResponse("/builder", status_code=303)


async def builder_page(request: Request) -> Response:
    """The builder, empty or holding a library army (`?army=ID`, `&copy=1` for a renamed copy)."""
    state = _state(request)
    try:
        roster = state.library().roster
        army_id, draft = _loaded(request, "army", roster.armies, builder.Draft.of_army, builder.Draft())
    except ClixError as exc:
        return _error(state, exc, 400, request)
    return state.page(
        "builder.html.j2",
        checked=builder.check(draft, roster),
        roster=roster,
        budgets=builder.BUDGETS,
        sides=builder.SIDES,
        choices=builder.choices(roster),
        figures=builder.filter_figures(roster, builder.FigureQuery()),
        powers=builder.figure_powers,
        file=army_id if request.query_params.get("copy") != "1" else "",
        armies=sorted(roster.armies.items()),
    )


def _loaded(
    request: Request, key: str, table: Any, of: Callable[[Any, str | None], Any], empty: Any
) -> tuple[str, Any]:
    """The draft the builder opens with: the library's army (or force) `?KEY=ID` (`&copy=1`: renamed as a copy), else
    `empty`; the id given ("" when none). A ClixError names an id the library lacks."""
    chosen = request.query_params.get(key, "")
    if not chosen:
        return "", empty
    if chosen not in table:
        raise ClixError(f"{key}: no {key} {chosen!r} in the library; choose one from the list")
    item = table[chosen]
    return chosen, of(item, f"{item.name} (copy)" if request.query_params.get("copy") == "1" else None)


async def builder_check(request: Request) -> Response:
    """The army panel again (points used and left, every problem with its fix): htmx posts the form on each change."""
    state = _state(request)
    form = await request.form()
    try:
        roster = state.library().roster
        draft = builder.Draft.of_form(form)
    except ClixError as exc:
        return _error(state, exc)
    return state.page(
        "army_panel.html.j2",
        checked=builder.check(draft, roster),
        roster=roster,
        budgets=builder.BUDGETS,
        sides=builder.SIDES,
    )


async def builder_figures(request: Request) -> Response:
    """The figure list, filtered (class, cabal, power, most points, name)."""
    state = _state(request)
    params = request.query_params
    try:
        most = params.get("max_points", "").strip()
        if most and not most.isdigit():
            raise ClixError(f"max_points: {most!r} is not a whole number of points")
        query = builder.FigureQuery(
            params.get("text", ""), params.get("class", ""), params.get("cabal", ""), params.get("power", ""),
            int(most) if most else None,
        )  # fmt: skip
        roster = state.library().roster
    except ClixError as exc:
        return _error(state, exc)
    return state.page(
        "figure_rows.html.j2", figures=builder.filter_figures(roster, query), powers=builder.figure_powers
    )


async def builder_save(request: Request) -> Response:
    """Save the army to the armies folder (legal armies only; nothing written on a mistake)."""
    state = _state(request)
    form = await request.form()
    try:
        roster = state.library().roster
        checked = builder.check(builder.Draft.of_form(form), roster)
        path = builder.save(checked, state.settings.armies, str(form.get("file", "")), form.get("replace") == "on")
    except ClixError as exc:
        return _error(state, exc, 422)  # the page shows a 422 where it asked (base.html.j2)
    state.reload()
    return state.page("saved.html.j2", path=path, army=path.stem)


async def hero_builder_page(request: Request) -> Response:
    """The HeroClix builder, empty or holding a library force (`?force=ID`, `&copy=1` for a renamed copy)."""
    state = _state(request)
    try:
        library = state.heroes()
        force_id, draft = _loaded(request, "force", library.forces, heroes.HeroDraft.of_force, heroes.HeroDraft())
    except ClixError as exc:
        return _error(state, exc, 400, request)
    return state.page(
        "hero_builder.html.j2",
        checked=heroes.check(draft, library),
        library=library,
        budgets=heroes.BUDGETS,
        objects=heroes.OBJECTS,
        characters=heroes.filter_characters(library),
        file=force_id if request.query_params.get("copy") != "1" else "",
        forces=sorted(library.forces.items()),
    )


async def hero_builder_check(request: Request) -> Response:
    """The force panel again (points used and left, every problem): htmx posts the form on each change."""
    state = _state(request)
    form = await request.form()
    try:
        library = state.heroes()
        draft = heroes.HeroDraft.of_form(form)
    except ClixError as exc:
        return _error(state, exc)
    return state.page("hero_panel.html.j2", checked=heroes.check(draft, library), library=library)


async def hero_builder_characters(request: Request) -> Response:
    """The character list, filtered by name and most points."""
    state = _state(request)
    most = request.query_params.get("max_points", "").strip()
    if most and not most.isdigit():
        return _error(state, ClixError(f"max_points: {most!r} is not a whole number of points"))
    found = heroes.filter_characters(state.heroes(), request.query_params.get("text", ""), int(most) if most else None)
    return state.page("character_rows.html.j2", characters=found)


async def hero_builder_save(request: Request) -> Response:
    """Save the force to the armies folder (legal forces only; nothing written on a mistake)."""
    state = _state(request)
    form = await request.form()
    try:
        checked = heroes.check(heroes.HeroDraft.of_form(form), state.heroes())
        path = heroes.save(checked, state.settings.armies, str(form.get("file", "")), form.get("replace") == "on")
    except ClixError as exc:
        return _error(state, exc, 422)
    state.reload()
    return state.page("saved.html.j2", path=path, army=path.stem, ruleset=heroes.HEROCLIX)


async def duel_page(request: Request) -> Response:
    """The form of a duel: two armies (`?ruleset=heroclix-2005`: two HeroClix forces) on a map."""
    return _run_form(request, "duel.html.j2", lambda run: True)


async def field_page(request: Request) -> Response:
    """The form of a meta row: one army (or HeroClix force) against the field on the maps (`clix meta --row`)."""
    return _run_form(request, "field.html.j2", lambda run: run.request.get("kind") == "row")


def _run_form(request: Request, template: str, shown: Callable[[Any], bool]) -> Response:
    """A form starting a run in the ruleset the address names, with the runs of its kind started here."""
    state = _state(request)
    try:
        ruleset = forms.ruleset_of(request.query_params.get("ruleset"))
        armies, maps = forms.choices(state, ruleset)
    except ClixError as exc:
        return _error(state, exc, 400, request)
    return state.page(
        template,
        armies=sorted(armies.items()),
        maps=maps,
        ruleset=ruleset,
        rulesets=forms.RULESETS,
        kind=forms.kind(ruleset),
        path=request.url.path,
        chosen=request.query_params.get("army", ""),
        runs=[run for run in reversed(state.runs.all()) if shown(run)],
    )


async def field_start(request: Request) -> Response:
    return await _start(request, forms.row_request)


async def duel_start(request: Request) -> Response:
    return await _start(request, forms.duel_request)


async def _start(request: Request, make: Callable[[State, Any], dict[str, Any]]) -> Response:
    """Start the run the posted form asks for (`make` checks it) and go to its page; a mistake is one line."""
    state = _state(request)
    form = await request.form()
    try:
        run = state.runs.start(make(state, form))
    except ClixError as exc:
        return _error(state, exc, 400, request)
    return RedirectResponse(f"/runs/{run.id}", status_code=303)


async def run_page(request: Request) -> Response:
    state = _state(request)
    try:
        run = state.runs.get(int(request.path_params["run"]))
    except ClixError as exc:
        return _error(state, exc, 404, request)
    return state.page("run.html.j2", run=run, report=_report_link(state, run.report))


def _report_link(state: State, report: str | None) -> str | None:
    """The page's address of a report file, when it is inside the output folder."""
    if not report:
        return None
    try:
        relative = Path(report).resolve().relative_to(state.settings.out.resolve())
    except ValueError:
        return None
    return f"/files/{relative.as_posix()}"


async def run_events(request: Request) -> Response:
    """The run's progress as server-sent events: `progress` (games done of total) until `end`."""
    state = _state(request)
    try:
        run = state.runs.get(int(request.path_params["run"]))
    except ClixError as exc:
        return _error(state, exc, 404)

    async def events() -> AsyncIterator[str]:
        last = -1
        while True:
            if run.done != last:
                last = run.done
                yield f"event: progress\ndata: {json.dumps({'done': run.done, 'total': run.total})}\n\n"
            if run.ended.is_set():
                end = {"state": run.state, "report": _report_link(state, run.report), "headline": run.headline,
                       "messages": run.messages[-5:]}  # fmt: skip
                yield f"event: end\ndata: {json.dumps(end)}\n\n"
                return
            await asyncio.sleep(0.25)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


async def run_cancel(request: Request) -> Response:
    state = _state(request)
    try:
        run_id = int(request.path_params["run"])
        state.runs.get(run_id)
    except ClixError as exc:
        return _error(state, exc, 404, request)
    state.runs.cancel(run_id)
    return RedirectResponse(f"/runs/{run_id}", status_code=303)


async def results_page(request: Request) -> Response:
    """The store's runs, filtered by army, map and the day they started."""
    from clix.analyzer.play.store import Store, local_time
    from clix.analyzer.results.command import record_names

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
    rows = []
    for record in reversed(records):
        names = record_names(record)
        started = local_time(record.started)
        if army and army.lower() not in f"{record.army_a} {record.army_b} {names['a']} {names['b']}".lower():
            continue
        if map_name and map_name != record.map:
            continue
        if day is not None and started.date() < day:
            continue
        report = Path(record.out) / "report.html"
        rows.append({"record": record, "names": names, "started": f"{started:%Y-%m-%d %H:%M}",
                     "report": _report_link(state, str(report)) if report.is_file() else None})  # fmt: skip
    return state.page("results.html.j2", rows=rows, army=army, map=map_name, since=since, store=state.settings.store)


async def run_csv(request: Request) -> Response:
    """A recorded run's games or figures as CSV (`clix results export`)."""
    from clix.analyzer.serve.results import csv_of

    state = _state(request)
    try:
        name, body = await asyncio.to_thread(
            csv_of, state.settings.store, str(request.path_params["run"]), request.path_params["table"]
        )
    except ClixError as exc:
        return _error(state, exc, 404, request)
    return Response(body, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'})


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
    """A run's report as PDF (`--pdf`'s WeasyPrint rendering of the same HTML): written beside the report in its
    run folder when it is missing or older than the report, then sent. Only an HTML report under `--out`."""
    from clix.analyzer.report.duel import check_pdf, write_pdf

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
            await asyncio.to_thread(write_pdf, report.read_text(encoding="utf-8"), pdf)
    except ClixError as exc:
        return _error(state, exc, 404 if "no HTML report" in str(exc) else 400, request)
    name = (
        f"{report.parent.parent.name}-{report.parent.name}-{pdf.name}"
        if report.parent != state.settings.out.resolve()
        else pdf.name
    )
    return FileResponse(pdf, media_type="application/pdf", filename=name)


def create_app(settings: Settings) -> Starlette:
    """The app for `settings`, behind the Host and Origin guard."""
    state = State(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await asyncio.to_thread(state.runs.close)

    routes = [
        Route("/", home),
        Route("/builder", builder_page),
        Route("/builder/check", builder_check, methods=["POST"]),
        Route("/builder/figures", builder_figures),
        Route("/builder/save", builder_save, methods=["POST"]),
        Route("/builder/heroclix", hero_builder_page),
        Route("/builder/heroclix/check", hero_builder_check, methods=["POST"]),
        Route("/builder/heroclix/characters", hero_builder_characters),
        Route("/builder/heroclix/save", hero_builder_save, methods=["POST"]),
        Route("/duel", duel_page),
        Route("/duel", duel_start, methods=["POST"]),
        Route("/field", field_page),
        Route("/field", field_start, methods=["POST"]),
        Route("/runs/{run:int}", run_page),
        Route("/runs/{run:int}/events", run_events),
        Route("/runs/{run:int}/cancel", run_cancel, methods=["POST"]),
        Route("/results", results_page),
        Route("/results/compare", compare_page),
        Route("/results/{run:int}/{table}.csv", run_csv),
        Route("/files/{path:path}", output_file),
        Route("/pdf", report_pdf, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes, middleware=[Middleware(Guard, host=settings.host, port=settings.port)], lifespan=lifespan
    )
    app.state.clix = state
    return app
