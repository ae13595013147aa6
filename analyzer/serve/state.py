"""The state `clix serve`'s pages share (issue 41): what the server was given (`Settings`), the library, runs and
templates (`State`), and the helpers every page uses: the state of a request, a mistake as one line, a report's
address on the page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import library_layers, load_library
from clix.analyzer.serve import heroes
from clix.analyzer.serve.runs import Runs
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

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


def state_of(request: Request) -> State:
    state: State = request.app.state.clix
    return state


def error(state: State, exc: ClixError, status: int = 400, request: Request | None = None) -> HTMLResponse:
    """The mistake as one line: a fragment for htmx, a whole page for a plain form or link (`request` given)."""
    whole = request is not None and request.headers.get("hx-request") != "true"
    return state.page("error_page.html.j2" if whole else "error.html.j2", status=status, message=str(exc))


def report_link(state: State, report: str | None) -> str | None:
    """The page's address of a report file, when it is inside the output folder."""
    if not report:
        return None
    try:
        relative = Path(report).resolve().relative_to(state.settings.out.resolve())
    except ValueError:
        return None
    return f"/files/{relative.as_posix()}"
