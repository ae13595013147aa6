"""What Horrified gives the analyzer (`Ruleset.matchups()`): its components by library folders, its player styles,
the line-ups its data supports, and one seeded game played to its end as a row (`clix horrified`, issue 40).
Horrified has no armies or maps to look up by id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from clix.engine.core.dice import Dice
from clix.engine.core.driver import play
from clix.engine.core.files.problems import InvalidFile, Problem
from clix.engine.core.matchups import LibraryCache, UnknownStyle
from clix.engine.core.players import RandomAgent
from clix.engine.core.players.search import is_search, search_budget
from clix.engine.horrified.components import Components, build_components, vary
from clix.engine.horrified.library import PLAYED_MONSTERS, Library, load_library
from clix.engine.horrified.players import TeamPlayer
from clix.engine.horrified.search import search_factory
from clix.engine.horrified.setup import SetupError, check_lineup, new_game

_LIBRARIES: LibraryCache[Library] = LibraryCache(load_library)
_COMPONENTS: dict[tuple[str, ...], Components] = {}
_VARIED: dict[tuple[tuple[str, ...], str, int], Components] = {}
ENDS = {"all monsters defeated": "win", "terror": "terror", "out of time": "deck out"}
"""A game's end (HF-GOAL-01..03) as `clix horrified` counts it."""
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
    sample = SAMPLE
    """The sample components (rosters/horrified): the layer a user's files go over."""
    default_style = "team"
    army_kind = "line-up"
    default_map = ""
    plays_matchups = False
    no_matchups = "it is co-operative: `clix horrified` measures a line-up's win rate"

    def player_factory(self, style: str) -> Any:
        if style == "random":
            return RandomAgent
        if style == "team":
            return TeamPlayer
        if is_search(style):  # the search player, `search` or `search:N` playouts a decision (issue 40)
            try:
                return search_factory(search_budget(style), name=style)
            except ValueError as exc:
                raise UnknownStyle(str(exc)) from None
        raise UnknownStyle(f"Horrified has the players team and random, and search or search:N, not {style!r}")

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
        raise NotImplementedError("Horrified plays no army-against-army matchups; `clix horrified` plays its games")

    def play(self, state: Any, agents: Sequence[Any], watch: Any = None) -> Any:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def game_rows(self, state: Any, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def data_document(self, *args: Any) -> dict[str, Any]:
        raise NotImplementedError("Horrified plays no army-against-army matchups")

    def style_weights(self, style: str) -> dict[str, float] | None:
        return None

    # --- `clix horrified`: co-operative games ---------------------------------------------------------

    def components(self, layers: tuple[Path, ...], knob: str | None = None, value: int = 0) -> Components:
        """The components under `layers`, with the assumed number `knob` set to `value` if given (`vary`)."""
        base = components_at(layers)
        if knob is None:
            return base
        key = (LibraryCache.key(layers or (SAMPLE,)), knob, value)
        if key not in _VARIED:
            _VARIED[key] = vary(_LIBRARIES.get(layers or (SAMPLE,)), knob, value)
        return _VARIED[key]

    def lineup_problem(self, layers: tuple[Path, ...], monsters: Sequence[str], heroes: Sequence[str]) -> str | None:
        """What is wrong with a line-up (unknown or unplayed monster, unknown hero, too many heroes), or None."""
        try:
            check_lineup(components_at(layers), monsters, heroes)
        except SetupError as exc:
            return str(exc)
        return None

    def heroes(self, layers: tuple[Path, ...]) -> dict[str, bool]:
        """Every hero by id, with whether it may play solo (HF-SOLO-01), in file order."""
        return {h.id: h.solo for h in components_at(layers).heroes.values()}

    def lineups(self, layers: tuple[Path, ...]) -> list[dict[str, Any]]:
        """Every difficulty the data names (HF-DIFF-01) with the monster line-ups of its size the engine plays: the
        fixed monsters and every combination of the played ones filling the rest (a difficulty may have none), each
        line-up once, under the first difficulty that has it (the First Game's is not repeated under novice)."""
        from itertools import combinations

        components = components_at(layers)
        library = _LIBRARIES.get(layers or (SAMPLE,))
        played = [m for m in PLAYED_MONSTERS if m in components.monsters]
        found = []
        listed: set[frozenset[str]] = set()
        for level in library.tables["difficulty"]:
            fixed = list(level.fixed)
            rest = [m for m in played if m not in fixed]
            line_ups = []
            if all(m in played for m in fixed) and level.monsters >= len(fixed):
                line_ups = [tuple(fixed) + c for c in combinations(rest, level.monsters - len(fixed))]
                line_ups = [lu for lu in line_ups if frozenset(lu) not in listed]
                listed |= {frozenset(lu) for lu in line_ups}
            found.append({"difficulty": level.id, "monsters": level.monsters, "line_ups": line_ups})
        return found

    def assumptions(self, layers: tuple[Path, ...]) -> list[dict[str, Any]]:
        """The sensitivity table: each assumed number, its baseline and plausible values, provenance and why."""
        library = _LIBRARIES.get(layers or (SAMPLE,))
        return [a.model_dump() for a in library.tables.get("sensitivity", [])]

    def play_game(
        self,
        components: Components,
        monsters: Sequence[str],
        heroes: Sequence[str],
        style: str,
        seed: np.random.SeedSequence,
    ) -> dict[str, Any]:
        """One game from `seed` (its first child rolls the dice and shuffles, the next one per seat choose), played to
        its end by `style` players: won, end ('win', 'terror', 'deck out'), turns, terror, monsters left. The same
        `seed` always plays the same game (its children are taken from a fresh copy: `spawn` counts its calls)."""
        fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
        dice_seed, *seat_seeds = fresh.spawn(1 + len(heroes))
        player = self.player_factory(style)
        state = new_game(components, monsters, heroes, Dice(np.random.default_rng(dice_seed)))
        play(state, [player(np.random.default_rng(s)) for s in seat_seeds])
        return {
            "won": int(state.winner is not None),
            "end": ENDS.get(state.end_reason or "", state.end_reason or "unfinished"),
            "turns": state.turn,
            "terror": state.terror,
            "monsters_left": len(state.in_game()),
        }


MATCHUPS = HorrifiedMatchups()


def matchups() -> HorrifiedMatchups:
    return MATCHUPS
