"""What Horrified gives the analyzer (`Ruleset.matchups()`): its components by library folders, its player styles.
Horrified has no armies or maps to look up by id; its analyses (`clix horrified`) are not built yet (issue 40)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from clix.engine.core.files.problems import InvalidFile, Problem
from clix.engine.core.matchups import LibraryCache, UnknownStyle
from clix.engine.core.players import RandomAgent
from clix.engine.horrified.components import Components, build_components
from clix.engine.horrified.library import Library, load_library
from clix.engine.horrified.players import TeamPlayer

_LIBRARIES: LibraryCache[Library] = LibraryCache(load_library)
_COMPONENTS: dict[tuple[str, ...], Components] = {}
SAMPLE = Path(__file__).resolve().parents[2] / "rosters" / "horrified"


def components_at(layers: Path | Sequence[Path] = (SAMPLE,)) -> Components:
    """The components of the library under `layers` (built once per process); InvalidFile listing every problem."""
    key_layers = (layers,) if isinstance(layers, Path) else (tuple(layers) or (SAMPLE,))
    key = LibraryCache.key(key_layers)
    if key not in _COMPONENTS:
        library, problems = load_library(list(key_layers))
        if not library.files:
            where = ", ".join(map(str, key_layers))
            problems.append(Problem(where, 0, "", "no Horrified file (ruleset: horrified) here; use rosters/horrified"))
        if problems:
            raise InvalidFile(problems)
        _COMPONENTS[key] = build_components(library)
    return _COMPONENTS[key]


class HorrifiedMatchups:
    """Horrified's kit: player styles and its library; no armies or maps by id (a line-up is monsters and heroes)."""

    styles = ("random", "team")
    default_style = "team"
    army_kind = "line-up"
    default_map = ""
    plays_matchups = False
    no_matchups = "its analyses (`clix horrified`) are not built yet; `clix selfcheck --ruleset horrified` plays it"

    def player_factory(self, style: str) -> Any:
        if style == "random":
            return RandomAgent
        if style == "team":
            return TeamPlayer
        raise UnknownStyle(f"Horrified has the players random and team, not {style!r}")

    def library(self, layers: tuple[Path, ...]) -> Library:
        return _LIBRARIES.get(layers)

    def adopt(self, layers: tuple[Path, ...], library: Library) -> None:
        _LIBRARIES.adopt(layers, library)

    def armies(self, library: Any) -> Mapping[str, Any]:
        return {}

    def maps(self, library: Any) -> Mapping[str, Any]:
        return {}

    def needs(self, library: Any, armies: Sequence[str], map_name: str | None) -> list[tuple[str, str]]:
        return []

    def source(self, library: Any, kind: str, name: str) -> str | None:
        return None

    def start(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("Horrified plays no army-against-army matchups; `clix horrified` is not built yet")

    def play(self, state: Any, agents: Sequence[Any], watch: Any = None) -> Any:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def game_rows(self, state: Any, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def data_document(self, *args: Any) -> dict[str, Any]:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def style_weights(self, style: str) -> dict[str, float] | None:
        return None


MATCHUPS = HorrifiedMatchups()


def matchups() -> HorrifiedMatchups:
    return MATCHUPS
