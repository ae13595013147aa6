"""Designed experiments over many matchups (`clix value`, `clix build`): armies given as data, cells of games
played in one worker pool, and every game kept in the result store.

An army that is no library file (a random army, a candidate build) travels to the workers inside its
`Matchup` (`Matchup.given`, the army's JSON). A cell is a matchup and a range of game indexes: a later stage
of a race plays the next indexes of the same matchup, so it continues the games it already has. Seeds come
from the master seed as in `analyzer.play.runner` (a game depends only on its matchup, seed and index), so the
results are the same for any --jobs.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.signals import signals_held
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.result import report_line
from clix.analyzer.play.runner import Matchup, batch_size_for, game_seed_path, play_one
from clix.analyzer.play.store import GameKey, Store, StoreBusy, _text, code_fields, game_key, stored_game
from clix.analyzer.play.writer import FLUSH_GAMES, FLUSH_SECONDS
from clix.engine.core.ruleset import DEFAULT_RULESET
from pydantic import BaseModel

GameRows = tuple[dict[str, Any], list[dict[str, Any]]]


# --- armies as data -------------------------------------------------------------------------------------


def army_data(army: BaseModel) -> str:
    """An army (or force: its ruleset's pydantic model) as the JSON a `Matchup` carries to the workers."""
    return army.model_dump_json(exclude_none=True)


def given_matchup(
    library: Path | tuple[Path, ...],
    names: tuple[str, str],
    armies: Mapping[str, BaseModel],
    map_name: str,
    style: tuple[str, str],
    turns: int,
    ties: str = "break",
    ruleset: str = DEFAULT_RULESET,
) -> Matchup:
    """A matchup of two armies (of `ruleset`), each either a library army or one of `armies` (given as data)."""
    given = tuple((name, army_data(armies[name])) for name in dict.fromkeys(names) if name in armies)
    return Matchup(library, names[0], names[1], map_name, style[0], style[1], turns, ties, given, ruleset)


# --- the store's keys -----------------------------------------------------------------------------------


@functools.cache
def _fixed_fields(ruleset: str) -> dict[str, Any]:
    return code_fields(ruleset)


def matchup_key(library: Any, matchup: Matchup, master_seed: int) -> GameKey:
    """`store.game_key` with the code's hashes computed once per process (its armies may be given as data: the
    same key `clix duel` uses for the same armies, so either finds the other's games)."""
    return game_key(library, matchup, master_seed, code=_fixed_fields(matchup.ruleset))


def _load_many(store: Store, keys: Sequence[GameKey], below: int) -> dict[tuple[str, int], GameRows]:
    """The stored games of every key with an index below `below`, in one query; damaged ones (not JSON, not
    that game's rows) are left out, to be played again, with a warning."""
    import duckdb

    digests = sorted({k.digest for k in keys})
    if not digests:
        return {}
    try:
        with store.connect() as connection:
            connection.execute("CREATE TEMP TABLE wanted (key VARCHAR)")
            connection.executemany("INSERT INTO wanted VALUES (?)", [[d] for d in digests])
            rows = connection.execute(
                "SELECT g.key, g.game, g.game_row, g.figure_rows FROM games g JOIN wanted w ON g.key = w.key "
                "WHERE g.game < ?",
                [below],
            ).fetchall()
    except (duckdb.Error, StoreBusy) as exc:
        raise ClixError(f"--store {store.path}: cannot read the stored games ({exc})") from None
    found: dict[tuple[str, int], GameRows] = {}
    damaged: list[tuple[int, str]] = []
    for key, game, row, figures in rows:
        rows_of_game, why = stored_game(game, row, figures)
        if rows_of_game is None:
            damaged.append((game, why))
        else:
            found[(key, game)] = rows_of_game
    if damaged:
        report_line(
            f"clix: warning: {len(damaged)} stored game{'s' if len(damaged) > 1 else ''} in {store.path} "
            f"{'are' if len(damaged) > 1 else 'is'} damaged (game {damaged[0][0]}: {damaged[0][1]}); "
            f"{'they are' if len(damaged) > 1 else 'it is'} played again"
        )
    return found


def save_many(store: Store, batches: Sequence[tuple[GameKey, list[tuple[int, GameRows]]]]) -> None:
    """Write the games of many keys in one transaction (as `Store.save` does for one key)."""
    import json

    import pyarrow as pa

    rows = [(key, index, result) for key, games in batches for index, result in games]
    table = pa.table(
        {
            "key": [key.digest for key, _, _ in rows],
            "game": [index for _, index, _ in rows],
            "game_row": [_text(result[0]) for _, _, result in rows],
            "figure_rows": [_text(result[1]) for _, _, result in rows],
        }
    )
    with store.connect() as connection:
        connection.execute("BEGIN")
        connection.executemany(
            "INSERT OR IGNORE INTO keys VALUES (?, ?)",
            [[key.digest, json.dumps(key.fields, sort_keys=True)] for key, _ in batches],
        )
        connection.register("batch", table)
        connection.execute("INSERT OR REPLACE INTO games SELECT key, game, game_row, figure_rows FROM batch")
        connection.execute("COMMIT")


class StoreWriter:
    """Games of many keys on their way to the store as they finish (`clix value`, `clix build`, `clix meta`):
    `add` each game, `tick` after each batch of them, `close` at the end.

    A batch's games come together, so the writer flushes after a batch (`tick`) rather than at the first game of
    one: it writes when FLUSH_SECONDS have passed since its last write (or FLUSH_GAMES are waiting), so a kill -9
    loses only the games in flight and those of the last second or so. A write that fails (the store busy for
    long) keeps its games waiting for the next; `close` warns about any left."""

    def __init__(self, store: Store, report: Callable[[str], None]) -> None:
        self.store = store
        self.report = report
        self.pending: dict[str, tuple[GameKey, list[tuple[int, GameRows]]]] = {}
        self.waiting = 0
        self.written = 0
        self.last = time.monotonic()
        self.problem = ""

    def add(self, key: GameKey, index: int, rows: GameRows) -> None:
        """A finished game (in this process, as its batch comes back)."""
        self.pending.setdefault(key.digest, (key, []))[1].append((index, rows))
        self.waiting += 1
        if self.waiting >= FLUSH_GAMES:
            self.flush()

    def tick(self) -> None:
        """After a batch of games: write them if the last write is FLUSH_SECONDS old."""
        if self.pending and time.monotonic() - self.last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> bool:
        """Write every waiting game in one transaction; False (keeping them waiting) if that failed."""
        import duckdb

        self.last = time.monotonic()
        if not self.pending:
            return True
        with signals_held():
            try:
                save_many(self.store, list(self.pending.values()))
            except (duckdb.Error, StoreBusy, ClixError, OSError) as exc:
                self.problem = str(exc)
                return False
            self.written += self.waiting
            self.pending, self.waiting = {}, 0
        return True

    def close(self) -> bool:
        """Write what is left; warn (and return False) if some games could not be stored."""
        if self.flush():
            return True
        self.report(
            f"clix: warning: {self.waiting} finished games were not written to the store {self.store.path} "
            f"({self.problem}); the outputs have them, a later run plays them again"
        )
        return False


# --- playing cells --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """Games `first` .. `end - 1` of a matchup (whole seat-swapped pairs)."""

    matchup: Matchup
    first: int
    end: int


@dataclass
class Played:
    """Each cell's game rows in index order, and how the run went."""

    games: list[list[dict[str, Any]]] = field(default_factory=list)
    interrupted: bool = False
    stopped: bool = False
    crashed: bool = False
    """Stopped at a game that raised (a bug or bad data)."""
    failed: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0
    from_store: int = 0
    seconds: float = 0.0


def _play(master_seed: int, item: tuple[Matchup, int]) -> GameRows:
    matchup, index = item
    return play_one(matchup, master_seed, index)


def play_cells(
    library: Any,
    cells: Sequence[Cell],
    master_seed: int,
    jobs: int | None,
    store: Store | None = None,
    progress: Callable[[int], None] | None = None,
    report: Callable[[str], None] | None = None,
    stop_on_error: bool = False,
) -> Played:
    """Play every cell's games (those the store lacks) in one pool and return their game rows.

    A cell's game `i` is game `i` of `run_matchup(cell.matchup, ..., master_seed)`. Games played are added to
    `store` as they finish (`StoreWriter`). A KeyboardInterrupt stops the run keeping what finished
    (`interrupted`); so does a game that raises (`stopped`, `crashed`: a bug or bad data), named on `report`."""
    started = time.perf_counter()
    cores = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    keys: dict[Matchup, GameKey] = {}
    known: dict[tuple[str, int], GameRows] = {}
    if store is not None:
        for cell in cells:
            if cell.matchup not in keys:
                keys[cell.matchup] = matchup_key(library, cell.matchup, master_seed)
        known = _load_many(store, list(keys.values()), max((c.end for c in cells), default=0))
    finished: dict[tuple[int, int], dict[str, Any]] = {}
    """Each game's row by (cell, index) (the figure rows go to the store only)."""
    items: list[tuple[Matchup, int]] = []
    where: list[tuple[int, int]] = []
    for number, cell in enumerate(cells):
        key = keys.get(cell.matchup)
        for index in range(cell.first, cell.end):
            found = known.get((key.digest, index)) if key is not None else None
            if found is not None:
                finished[(number, index)] = found[0]
            else:
                items.append((cell.matchup, index))
                where.append((number, index))
    result = Played(from_store=len(finished))
    if progress is not None and finished:
        progress(len(finished))
    writer = StoreWriter(store, report or report_line) if store is not None else None

    def keep(position: int, rows: GameRows) -> None:
        number, index = where[position]
        finished[(number, index)] = rows[0]
        result.played += 1
        if writer is not None:
            writer.add(keys[cells[number].matchup], index, rows)

    if items:
        try:
            outcome = run_items(
                partial(_play, master_seed),
                items,
                cores,
                batch_size_for(len(items), cores),
                describe=lambda p: _describe(*items[p]),
                report=report or report_line,
                progress=progress,
                stop_on_error=stop_on_error,
                on_result=keep,
                stop_on_raise=True,
                on_batch=None if writer is None else writer.tick,
                keep=False,
            )
        finally:
            if writer is not None:
                writer.close()
        result.interrupted, result.stopped, result.crashed = outcome.interrupted, outcome.stopped, outcome.crashed
        for position, why in sorted(outcome.failed.items()):
            number, index = where[position]
            path = ":".join(map(str, game_seed_path(cells[number].matchup, index)))
            result.failed.append({"cell": number, "game": index, "seed_path": path, "reason": why})
    result.games = [[] for _ in cells]
    for number, index in sorted(finished):
        result.games[number].append(finished[(number, index)])
    result.seconds = time.perf_counter() - started
    return result


def _describe(matchup: Matchup, index: int) -> str:
    path = ":".join(map(str, game_seed_path(matchup, index)))
    return f"game {index} of {matchup.army_a} vs {matchup.army_b} on {matchup.map_name} (seed path {path})"
