"""What a ruleset gives the analyzer to play its games by the thousand (`Ruleset.matchups()`): its players by
style name, its data library, a game of two named armies (or forces) on a map set up from a seed, and each
finished game read into flat rows. The analyzer's runner (`analyzer/play/runner.py`) knows only this, and
reaches a ruleset by its name through the core's registry; each ruleset implements it in its own
`matchups.py`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.players import RandomAgent
from clix.engine.core.players.search import SEARCH, is_search, search_budget

LibraryT = TypeVar("LibraryT")


class UnknownStyle(ValueError):
    """A player style the ruleset has no player for, or a malformed one (the message says which and why)."""


def heuristic_player(
    style: str,
    styles: Sequence[str],
    weighted: Mapping[str, Any],
    style_factory: Callable[[str], Callable[..., Any]],
    search_factory: Callable[..., Callable[..., Any]],
    what: str = "player style",
) -> Callable[..., Any]:
    """The factory `rng -> agent` of a style of a ruleset that plays a weighted heuristic: `random`, one of its
    `weighted` styles, or `search`/`search:N` (its search player); UnknownStyle naming the styles otherwise."""
    if style == "random":
        return RandomAgent
    if style in weighted:
        return style_factory(style)
    if is_search(style):
        try:
            return search_factory(search_budget(style), name=style)
        except ValueError as exc:
            raise UnknownStyle(str(exc)) from None
    raise UnknownStyle(did_you_mean(what, style, (*styles, SEARCH)))


class MatchupKit(Protocol):
    """A ruleset's way of playing matchups (see the module)."""

    styles: tuple[str, ...]
    """The fast player styles, "random" first (a ladder's default)."""
    default_style: str
    army_kind: str
    """What the ruleset calls a side's army in messages: "army" (HorrorClix), "force" (HeroClix)."""
    default_map: str
    """The map a matchup plays on when none is named (a library without it: its first map by name)."""

    def player_factory(self, style: str) -> Callable[..., Any]:
        """The factory `rng -> agent` of a named style; UnknownStyle for a name it has no player for."""
        ...

    def library(self, layers: tuple[Path, ...]) -> Any:
        """The data under the folders `layers` (later over earlier), loaded once per process."""
        ...

    def adopt(self, layers: tuple[Path, ...], library: Any) -> None:
        """Make `library` the data this process reads for `layers` (a worker on another machine sent it)."""
        ...

    def armies(self, library: Any) -> Mapping[str, Any]:
        """The library's armies (or forces) by id."""
        ...

    def maps(self, library: Any) -> Mapping[str, Any]:
        """The library's maps by id."""
        ...

    def needs(self, library: Any, armies: Sequence[str], map_name: str | None) -> list[tuple[str, str]]:
        """Every item a game of `armies` on `map_name` reads, as (kind, name) in order (each army, then what it
        fields, then the map), kinds in words ("force", "character", "map"): the files a command uses."""
        ...

    def source(self, library: Any, kind: str, name: str) -> str | None:
        """The file (as its problems name it) that defines the item `name` of `kind` (`needs`' words); None when
        the library has no such item."""
        ...

    def start(
        self,
        library: Any,
        armies: Sequence[str],
        given: dict[str, str],
        map_name: str,
        factories: Sequence[Callable[..., Any]],
        seed: Any,
        turn_limit: int,
        tie_break: bool,
        watch: Any = None,
    ) -> tuple[Any, list[Any]]:
        """A game of `armies` (names in seat order; `given` maps a name to an army's JSON, used instead of the
        library's) on the map `map_name`, set up from `seed` and ready for its first action, with its players."""
        ...

    def play(self, state: Any, agents: Sequence[Any], watch: Any = None) -> Any:
        """The game played to its end; its final state."""
        ...

    def game_rows(self, state: Any, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A finished game as one flat row from army A's point of view (`head`'s columns first: game, seeds,
        armies, map, players...) and one row per figure; `swapped`: army A sat in seat 2."""
        ...

    def data_document(
        self, library: Any, armies: Sequence[str], given: dict[str, str], map_name: str
    ) -> dict[str, Any]:
        """Every piece of data a game of `armies` (`given` as in `start`) on `map_name` reads, as JSON-able values
        (the result store keys its games by a hash of it: the same data in another folder finds the same games)."""
        ...

    def style_weights(self, style: str) -> dict[str, float] | None:
        """The weights a player style plays with (part of a stored game's key); None for a player without any."""
        ...


class LibraryCache(Generic[LibraryT]):
    """A ruleset's libraries by the folders they were loaded from, each loaded once per process (joblib workers
    reuse them); a worker on another machine is given one with `adopt`."""

    def __init__(self, load: Callable[[list[Path]], tuple[LibraryT, list[Any]]]) -> None:
        self.load = load
        self.loaded: dict[tuple[str, ...], LibraryT] = {}

    def get(self, layers: tuple[Path, ...]) -> LibraryT:
        """The library under `layers` (later over earlier), loaded on first use."""
        key = self.key(layers)
        if key not in self.loaded:
            self.loaded[key], _ = self.load(list(layers))
        return self.loaded[key]

    def adopt(self, layers: tuple[Path, ...], library: LibraryT) -> None:
        """Make `library` the one this process reads for `layers`."""
        self.loaded[self.key(layers)] = library

    @staticmethod
    def key(layers: tuple[Path, ...]) -> tuple[str, ...]:
        return tuple(str(path.resolve()) for path in layers)
