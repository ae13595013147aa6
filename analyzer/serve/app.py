"""The web app of `clix serve` (issue 41): the builder, duels started from the page, the result store's runs.

`create_app(Settings(...))` makes a Starlette app behind the `security.Guard` middleware; each page is a Jinja2
template of analyzer/serve/templates, each live part an htmx fragment. The library is the command line's
(`load_library` on --rosters plus the armies folder), the checks its checks, the store its store."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.serve import builder, forms, heroes
from clix.analyzer.serve.result_pages import (
    compare_page,
    field_cells_page,
    output_file,
    report_pdf,
    results_page,
    run_table,
)
from clix.analyzer.serve.security import Guard
from clix.analyzer.serve.state import HERE, Settings, State
from clix.analyzer.serve.state import error as _error
from clix.analyzer.serve.state import report_link as _report_link
from clix.analyzer.serve.state import state_of as _state
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

__all__ = ["Settings", "create_app"]


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
        given=request.query_params,
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
        Route("/results/field/{path:path}", field_cells_page),
        Route("/results/{run:int}/{file}", run_table),
        Route("/files/{path:path}", output_file),
        Route("/pdf", report_pdf, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes, middleware=[Middleware(Guard, host=settings.host, port=settings.port)], lifespan=lifespan
    )
    app.state.clix = state
    return app
