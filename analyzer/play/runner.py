"""Playing many seeded games of one matchup in parallel and turning each into flat rows.

It knows no ruleset: a matchup names its ruleset, found through the core's registry, whose matchup kit
(engine/core/matchups.py) sets up, plays and reads each game. Per-game seeds are derived in the parent from one
master seed (`engine.core.dice.child_seed`), and
games come in pairs sharing a seed with the armies' seats swapped (the usual way to cut variance and
to measure the first-player advantage). Results are identical for any number of jobs and any batch
size, and when a dead worker's games are played again (`analyzer.play.pool`): each game depends only on its
own index and seed.
"""

from __future__ import annotations

import atexit
import functools
import gc
import math
import os
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.pool import Outcome, run_items
from clix.analyzer.play.result import GameRows, RunResult, report_line
from clix.engine import compiled
from clix.engine.core.dice import child_seed
from clix.engine.core.driver import Watch
from clix.engine.core.matchups import MatchupKit, UnknownStyle
from clix.engine.core.players import Agent
from clix.engine.core.players.search import SEARCH as SEARCH  # the search player's style name, for the commands
from clix.engine.core.players.search import search_budget as _search_budget
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from numpy.random import SeedSequence


@functools.cache
def kit(ruleset: str = DEFAULT_RULESET) -> MatchupKit:
    """The matchup kit of the ruleset called `ruleset` (`Ruleset.matchups`), found through the core's registry."""
    return ruleset_named(ruleset).matchups()


PLAYER_STYLES = kit().styles
"""The default ruleset's fast styles (a ladder's default, the golden games' pairings); `search` and `search:N` are
named on demand."""
DEFAULT_STYLE = kit().default_style
"""The default ruleset's default player."""
SWEPT_STYLES = tuple(style for style in PLAYER_STYLES if style != "random")
"""The default ruleset's heuristic styles (its fast styles but `random`): those a sweep pairs."""


def player_factory(style: str, ruleset: str = DEFAULT_RULESET) -> Callable:
    """The factory `rng -> agent` of a named player style."""
    try:
        return kit(ruleset).player_factory(style)
    except UnknownStyle as exc:
        raise ClixError(f"--players: {exc}") from None


def search_budget(style: str) -> int:
    """The playouts a decision of a `search` or `search:N` style (the default budget for `search`)."""
    try:
        return _search_budget(style)
    except ValueError as exc:
        raise ClixError(f"--players: {exc}") from None


@dataclass(frozen=True)
class Matchup:
    """Everything that decides a game except its seed."""

    library: Path | tuple[Path, ...]
    """The roster library: a folder, or layers (later ones replace items of earlier ones by name)."""
    army_a: str
    army_b: str
    map_name: str
    style_a: str = DEFAULT_STYLE
    style_b: str = DEFAULT_STYLE
    turn_limit: int = 15
    ties: str = "break"
    """Equal VP: "break" applies HC-END-09 (the cheaper army wins), "draw" makes it a draw."""
    given: tuple[tuple[str, str], ...] = ()
    """Armies given as data rather than by the library, as (name, the army's JSON): random armies and candidate
    builds (`clix value`, `clix build`). A name here is used instead of the library's army of that name."""
    ruleset: str = DEFAULT_RULESET
    """The ruleset the armies and the map are of, by its name in the core's registry."""

    @property
    def layers(self) -> tuple[Path, ...]:
        """The library as a tuple of folders, later over earlier."""
        return (self.library,) if isinstance(self.library, Path) else self.library


def game_seed_path(matchup: Matchup, index: int) -> tuple[int, ...]:
    """The spawn key of game `index`'s seed below the master seed (docs/statistics.md, "Pairs").

    The two games of a pair share the pair's seed, seats swapped, so the pair measures the seat and the
    first player rather than the dice. When both sides are identical (same army, same style) the swap would
    replay the same game, so the second game gets a seed of its own, (pair, 1)."""
    pair = index // 2
    if index % 2 == 1 and matchup.army_a == matchup.army_b and matchup.style_a == matchup.style_b:
        return (pair, 1)
    return (pair,)


def game_seed(master_seed: int, path: Sequence[int]) -> int | SeedSequence:
    """The seed of the game at spawn key `path` below the master seed (`game_seed_path`)."""
    seed: int | SeedSequence = master_seed
    for key in path:
        seed = child_seed(seed, key)
    return seed


def play_state(
    matchup: Matchup,
    master_seed: int,
    index: int,
    path: tuple[int, ...] | None = None,
    swapped: bool | None = None,
    players: Sequence[Callable] | None = None,
    watch: Watch | None = None,
) -> tuple[Any, bool]:
    """Play game `index` of a run (pair index // 2, seats swapped on odd indexes, seed from `game_seed_path`);
    return its final state and whether the seats were swapped. `path` and `swapped` default to what the index
    gives (a replay passes a game row's own); `players`, the agent factories of sides A and B, default to the
    matchup's styles; `watch` is told of every choice made (tests/golden records them)."""
    settle_collector()
    if swapped is None:
        swapped = index % 2 == 1
    state, agents = start_state(matchup, master_seed, index, path, swapped, players, watch)
    return kit(matchup.ruleset).play(state, agents, watch), swapped


COLLECTOR_THRESHOLD = 10_000
"""Allocations between young-generation collections while games are played (Python's default: 700)."""


@functools.cache
def settle_collector() -> None:
    """Once per process, before its first game: collect, freeze what is left (the libraries, the rosters and
    maps) out of the garbage collector's sight, and collect the young generation less often. A game makes
    and drops many small objects, and with the defaults the collector kept walking the long-lived heap: settled,
    games ran about 4% faster side by side (1,500-game runs, 2026-11-24). Objects are freed as before, and games
    stay the same: nothing in a game depends on when the collector runs."""
    gc.collect()
    gc.freeze()
    atexit.register(_thaw_collector)
    gc.set_threshold(COLLECTOR_THRESHOLD, *gc.get_threshold()[1:])


def _thaw_collector() -> None:
    """At exit: hand the frozen heap back and collect it while the modules are still whole, so that what it
    held is finalized then, not during the interpreter's teardown (when finalizers find modules gone)."""
    gc.unfreeze()
    gc.collect()


def start_state(
    matchup: Matchup,
    master_seed: int,
    index: int,
    path: tuple[int, ...] | None = None,
    swapped: bool | None = None,
    players: Sequence[Callable] | None = None,
    watch: Watch | None = None,
) -> tuple[Any, list[Agent]]:
    """Game `index` of a run (as `play_state` plays it) set up and ready for its first action, with its
    players by seat."""
    rules = kit(matchup.ruleset)
    if swapped is None:
        swapped = index % 2 == 1
    seed = game_seed(master_seed, path if path is not None else game_seed_path(matchup, index))
    names = [matchup.army_a, matchup.army_b]
    factories = (
        list(players)
        if players is not None
        else [player_factory(matchup.style_a, matchup.ruleset), player_factory(matchup.style_b, matchup.ruleset)]
    )
    if swapped:
        names.reverse()
        factories.reverse()
    library = rules.library(matchup.layers)
    return rules.start(
        library, names, dict(matchup.given), matchup.map_name, factories, seed, matchup.turn_limit,
        matchup.ties != "draw", watch,
    )  # fmt: skip


def library_at(matchup: Matchup) -> Any:
    """The matchup's library (its ruleset's data under its folders), loaded once per process."""
    return kit(matchup.ruleset).library(matchup.layers)


def engine_name() -> str:
    """The engine this process plays on, as a game row records it: "compiled" or "pure"."""
    return "compiled" if compiled.status == compiled.COMPILED else "pure"


def play_one(matchup: Matchup, master_seed: int, index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play game `index` of a run and turn it into its game row and figure rows."""
    state, swapped = play_state(matchup, master_seed, index)
    return game_rows(state, matchup, master_seed, index, swapped)


INT64_MAX = 2**63 - 1


def table_seed(seed: int) -> int | str:
    """A master seed as a table stores it: seeds beyond int64 (Parquet's widest integer) as decimal text."""
    return seed if seed <= INT64_MAX else str(seed)


def describe_game(matchup: Matchup, index: int) -> str:
    """How a failed game is named: "game 12 (seed path 6)", enough for `clix replay` to play it again."""
    return f"game {index} (seed path {':'.join(map(str, game_seed_path(matchup, index)))})"


def batch_size_for(games: int, jobs: int) -> int:
    """About eight batches per worker, all of one size: the workers finish together (a last odd batch would
    leave one idle) and dispatch costs nothing beside a batch's games."""
    return max(2, min(64, math.ceil(games / (8 * max(1, jobs)))))


def run_matchup(
    matchup: Matchup,
    games: int,
    master_seed: int,
    jobs: int | None = None,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    first: int = 0,
    report: Callable[[str], None] | None = None,
    stop_on_error: bool = False,
    known: Mapping[int, GameRows] | RunResult | None = None,
    on_result: Callable[[int, GameRows], None] | None = None,
    on_batch: Callable[[], None] | None = None,
    stop_on_raise: bool = True,
) -> RunResult:
    """Play games `first` .. `games - 1` (`games` rounded up to whole seat-swapped pairs; `first` even) and
    collect their rows (read in game order); a longer run continues a shorter one with the same games.

    Games found in `known` (index -> rows, or the packed `RunResult` of `Store.load_packed`: from the result
    store) are taken from it, not played;
    `on_result(index, rows)` is told of each game played as it finishes (in this process), `on_batch()` after
    each batch of them (a store's writer flushes there). Rows are packed as they come (`RowTable`), so memory
    grows by about the size of the output table, not by the dicts.

    A KeyboardInterrupt stops the run but keeps every game already finished (`interrupted` is set). A game
    whose worker dies is played again alone; if it dies again it is listed in `failed` and named on `report`
    (stderr by default), and the run goes on (or stops, with `stop_on_error`). A game that raises is a bug or
    bad data: it is named with its seed path and the run stops there (`stopped` and `crashed`), keeping the
    games finished, unless `stop_on_raise` is False (then it is listed in `failed` and the run goes on).
    """
    games += games % 2
    cores = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    result, indexes = _take_known(known, first, games)
    started = time.perf_counter()
    outcome = Outcome()

    def keep(position: int, rows: GameRows) -> None:
        result.add(indexes[position], rows)
        if on_result is not None:
            on_result(indexes[position], rows)

    if indexes:
        outcome = run_items(
            partial(play_one, matchup, master_seed),
            indexes,
            cores,
            batch_size or batch_size_for(len(indexes), cores),
            describe=lambda position: describe_game(matchup, indexes[position]),
            report=report or report_line,
            progress=progress,
            stop_on_error=stop_on_error,
            on_result=keep,
            stop_on_raise=stop_on_raise,
            on_batch=on_batch,
            keep=False,
        )
    result.interrupted, result.stopped, result.crashed = outcome.interrupted, outcome.stopped, outcome.crashed
    result.failed = [
        {"game": indexes[p], "seed_path": ":".join(map(str, game_seed_path(matchup, indexes[p]))), "reason": why}
        for p, why in sorted(outcome.failed.items())
    ]
    result.seconds = time.perf_counter() - started
    return result


def _take_known(known: Mapping[int, GameRows] | RunResult | None, first: int, games: int) -> tuple[RunResult, array]:
    """A run's start: the games of `first` .. `games - 1` that `known` has (taken from the result store), and the
    indexes of the others, to play."""
    import numpy as np

    result = RunResult()
    if isinstance(known, RunResult):  # packed (`Store.load_packed`): taken whole, never unpacked
        result.extend(known.between(first, games))
        wanted = np.arange(first, max(first, games), dtype=np.int64)
        have = np.frombuffer(result.indexes, dtype=np.int64) if len(result.indexes) else np.zeros(0, dtype=np.int64)
        indexes = array("q", wanted[~np.isin(wanted, have)].tobytes())
    else:
        known = known or {}
        indexes = array("q")
        for i in range(first, games):
            found = known.get(i)
            if found is None:
                indexes.append(i)
            else:
                result.add(i, found)
    result.from_store = result.count
    return result, indexes


def game_rows(
    state: Any, matchup: Matchup, master_seed: int, index: int, swapped: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One flat row for the game (from army A's point of view) and one row per figure: the run's columns (game,
    seeds, seats, armies, map, players, ruleset, engine), then what the ruleset reads from the game."""
    head: dict[str, Any] = {
        "game": index,
        "pair": index // 2,
        "master_seed": table_seed(master_seed),
        "seed_path": ":".join(map(str, game_seed_path(matchup, index))),
        "seat_a": 2 if swapped else 1,
        "army_a": matchup.army_a,
        "army_b": matchup.army_b,
        "map": matchup.map_name,
        "players_a": matchup.style_a,
        "players_b": matchup.style_b,
        "ruleset": ruleset_named(matchup.ruleset).version,
        "engine": engine_name(),
        "turn_limit": matchup.turn_limit,
        "ties": matchup.ties,
    }
    return kit(matchup.ruleset).game_rows(state, head, swapped)
