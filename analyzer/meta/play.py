"""Playing the meta's cells: every cell to the games cap or, under --target-ci, in planned looks until each settles
(precise or clear); games played by a runner on this machine's workers (or the cluster's, `analyzer.play.cluster`)."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.play.pool import Outcome, run_items
from clix.analyzer.play.result import GameRows, report_line
from clix.analyzer.play.runner import Matchup, batch_size_for, game_seed_path, play_one
from clix.analyzer.stats.scoring import CONFIDENCE, pair_means
from clix.analyzer.stats.sequential import look_confidence, mean_interval_at, planned_looks

META_FIRST_PAIRS = 20
"""Pairs of a cell's first look under --target-ci: fewer than a duel's (50), since most cells of a field are
lopsided and settle as clear at once; the looks then double as the duel's do."""
PAIR_KEY = ["army_a", "army_b", "map", "players_a", "pair"]
"""The columns naming a seat-swapped pair among all the meta's games."""

Runner = Callable[..., Outcome]
"""Plays items (matchup, game index) and returns the outcome by position (`run_items`'s contract):
`runner(items, progress)`, and, when it can tell of each game as it finishes (the local runner does),
`runner(items, progress, on_result=..., on_batch=...)`, `on_result(position, rows)` called in this process as each
game finishes and `on_batch()` after each batch of them; a runner that cannot (`streams` is False) has its games
told after the look."""


def _play_item(master_seed: int, item: tuple[Matchup, int]) -> GameRows:
    matchup, index = item
    return play_one(matchup, master_seed, index)


def local_runner(
    master_seed: int, jobs: int, report: Callable[[str], None] = report_line, stop_on_error: bool = False
) -> Runner:
    """Play items on this machine's worker processes (`analyzer.play.pool`)."""

    def run(
        items: Sequence[tuple[Matchup, int]],
        progress: Callable[[int], None] | None,
        on_result: Callable[[int, GameRows], None] | None = None,
        on_batch: Callable[[], None] | None = None,
    ) -> Outcome:
        return run_items(
            partial(_play_item, master_seed),
            items,
            jobs,
            batch_size_for(len(items), jobs),
            describe=lambda position: describe_item(*items[position]),
            report=report,
            progress=progress,
            stop_on_error=stop_on_error,
            stop_on_raise=True,
            on_result=on_result,
            on_batch=on_batch,
            keep=on_result is None,
        )

    return run


def streams(runner: Runner) -> bool:
    """Whether `runner` tells of each game as it finishes (takes `on_result`)."""
    try:
        return "on_result" in inspect.signature(runner).parameters
    except (TypeError, ValueError):
        return False


def describe_item(matchup: Matchup, index: int) -> str:
    """A failed game of the meta, named so `clix replay` plays it again."""
    path = ":".join(map(str, game_seed_path(matchup, index)))
    return (
        f"game {index} of {matchup.army_a} vs {matchup.army_b} on {matchup.map_name}, players {matchup.style_a} "
        f"(seed path {path})"
    )


@dataclass
class CellState:
    """How far a cell got: its games by index, the games it needs, and whether (and why) it settled."""

    games: dict[int, GameRows] = field(default_factory=dict)
    """Its games by index (the game row; the figure rows, which the meta does not read, are dropped once
    stored)."""
    upto: int = 0
    settled: str = "open"
    """open (still playing), precise (half-width reached), clear (interval off 50%), cap (--games reached)."""
    look: int = 0
    interval: dict[str, Any] = field(default_factory=dict)
    failed: int = 0


@dataclass
class FieldRun:
    """The played field: each cell's state, failures, and how the run went."""

    cells: list[CellState]
    looks: list[int]
    confidence: float
    failed: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    stopped: bool = False
    crashed: bool = False
    """Stopped at a game that raised (a bug or bad data)."""
    seconds: float = 0.0
    played: int = 0
    from_store: int = 0


def settle(interval: dict[str, Any], target: float | None) -> str:
    """Whether a cell is done after a look: precise when its half-width reached `target`, clear when its
    interval lies wholly above or below 50%, else open."""
    if target is None or interval.get("half_width") is None:
        return "open"
    if interval["half_width"] <= target:
        return "precise"
    if interval["low"] > 0.5 or interval["high"] < 0.5:
        return "clear"
    return "open"


def play_field(
    matchups: Sequence[Matchup],
    games: int,
    runner: Runner,
    target: float | None = None,
    known: Sequence[dict[int, GameRows]] | None = None,
    on_played: Callable[[int, list[tuple[int, GameRows]]], None] | None = None,
    progress: Callable[[int], None] | None = None,
    on_look: Callable[[int], None] | None = None,
    first_pairs: int = META_FIRST_PAIRS,
    on_game: Callable[[int, int, GameRows], None] | None = None,
    on_batch: Callable[[], None] | None = None,
) -> FieldRun:
    """Play every cell to `games` games (pairs), or with `target` in planned looks until each settles.

    `known[c]` holds cell c's games from the result store (by index): taken, not played. `on_game(c, index,
    rows)` is told of each game played as it finishes (to store it, as `clix meta` does; after the look with a
    runner that does not stream, `streams`), `on_batch()` after each batch of them; `on_played(c, games)` of the
    games each look played for cell c, once the look ends; `on_look(n)` of the games a look will play, before
    it plays them. A Ctrl-C keeps every finished game and stops after the look; a game that raises stops the
    run (`stopped`, `crashed`) keeping the games finished."""
    games += games % 2
    looks = planned_looks(games, first_pairs) if target is not None else [games]
    confidence = look_confidence(len(looks)) if target is not None else CONFIDENCE
    run = FieldRun([CellState() for _ in matchups], looks, confidence)
    started = time.perf_counter()
    stored = [dict(k) for k in known] if known is not None else [{} for _ in matchups]
    for number, upto in enumerate(looks, 1):
        open_cells = [c for c, state in enumerate(run.cells) if state.settled == "open"]
        if not open_cells:
            break
        items: list[tuple[Matchup, int]] = []
        keys: list[tuple[int, int]] = []
        for c in open_cells:
            state = run.cells[c]
            for index in range(state.upto, upto):
                if index in stored[c]:
                    state.games[index] = (stored[c][index][0], [])
                    run.from_store += 1
                else:
                    items.append((matchups[c], index))
                    keys.append((c, index))
            state.upto, state.look = upto, number
        # pair by pair across the cells, so that an interrupted look leaves every cell with games
        order = sorted(range(len(items)), key=lambda k: (keys[k][1] // 2, keys[k][0], keys[k][1]))
        items, keys = [items[k] for k in order], [keys[k] for k in order]
        if on_look is not None:
            on_look(len(items))

        fresh: dict[int, list[tuple[int, GameRows]]] = {}

        def kept(position: int, rows: GameRows, keys: list[tuple[int, int]] = keys, fresh: dict = fresh) -> None:
            c, index = keys[position]
            run.cells[c].games[index] = (rows[0], [])
            run.played += 1
            if on_game is not None:
                on_game(c, index, rows)
            if on_played is not None:
                fresh.setdefault(c, []).append((index, rows))

        outcome = Outcome()
        if items and streams(runner):
            outcome = runner(items, progress, on_result=kept, on_batch=on_batch)
        elif items:
            outcome = runner(items, progress)
            for position, rows in sorted(outcome.results.items()):
                kept(position, rows)
            if on_batch is not None:
                on_batch()
        for position, why in sorted(outcome.failed.items()):
            c, index = keys[position]
            run.cells[c].failed += 1
            run.failed.append({**_cell_names(matchups[c]), "game": index, "reason": why})
            run.failed[-1]["seed_path"] = ":".join(map(str, game_seed_path(matchups[c], index)))
        if on_played is not None:
            for c, played in sorted(fresh.items()):
                on_played(c, sorted(played, key=lambda game: game[0]))
        for c in open_cells:
            state = run.cells[c]
            frame = pd.DataFrame([state.games[i][0] for i in sorted(state.games)]) if state.games else pd.DataFrame()
            state.interval = mean_interval_at(pair_means(frame) if len(frame) else np.zeros(0), confidence)
            state.settled = settle(state.interval, target)
        if outcome.interrupted or outcome.stopped:
            run.interrupted, run.stopped, run.crashed = outcome.interrupted, outcome.stopped, outcome.crashed
            break
    for state in run.cells:
        if state.settled == "open" and not (run.interrupted or run.stopped):
            state.settled = "cap" if target is not None else "all"
    run.seconds = time.perf_counter() - started
    return run


def _cell_names(m: Matchup) -> dict[str, Any]:
    return {"army_a": m.army_a, "army_b": m.army_b, "map": m.map_name, "players": m.style_a}


def field_games(matchups: Sequence[Matchup], run: FieldRun) -> pd.DataFrame:
    """Every game of the field, cell by cell in game order, with its cell number first."""
    rows = [{"cell": c, **state.games[i][0]} for c, state in enumerate(run.cells) for i in sorted(state.games)]
    return pd.DataFrame(rows)
