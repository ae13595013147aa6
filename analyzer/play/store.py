"""The result store: every duel game's rows in an embedded DuckDB database, so a run never plays a game twice.

A game's rows depend only on what decides the game (`analyzer.play.runner`): the rules, the code, the data of the
armies and the map, the players, the turn limit, the ties rule, the master seed and the game's index. The store
keys each game by a hash of all of that (`game_key`) plus its index, and keeps its game row and figure rows as
JSON text, so a table rebuilt from the store is the table a fresh run makes, value for value and type for type.

A run reads the games its key already has and plays only the missing indexes; the games it plays are written
as they finish (`writer.GameWriter`: one transaction per batch, at least every `FLUSH_SECONDS`, and at the end, with
Ctrl-C and SIGTERM held back while a batch is written), so an interrupted run loses nothing it finished. Every
run is recorded in `runs` (what `clix results` lists, shows and exports).

The database is opened for each batch and closed again (DuckDB lets one process at a time open a file):
concurrent runs share one store, each waiting up to `LOCK_WAIT` seconds for the other's batch.

Tables: `clix_meta` (the schema version), `keys` (each key's fields as JSON, for the curious), `games` (key,
game, game_row, figure_rows), `runs` and `run_ids` (every id given out, so none is given twice).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.signals import signals_held
from clix.analyzer.play.result import RunResult
from clix.analyzer.play.runner import Matchup, kit
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named

SCHEMA_VERSION = "1"
STORE_NAME = "clix.duckdb"
DEFAULT_STORE = Path("clix-out") / STORE_NAME
"""Where `clix duel` keeps its games by default (beside the default output folders) and `clix results` looks."""

LOAD_BATCH = 10_000
"""Stored games read from the database at a time (their JSON text: some 30 MB)."""
CONNECTION: dict[str, Any] = {"threads": 1, "memory_limit": "128MB"}
"""Every connection's DuckDB settings. Left to its defaults DuckDB may take 80% of the machine's memory, and does
when it checkpoints a growing store: a store of 400,000 games took 600 MB more for a moment, a million would have
taken over a gigabyte, inside the process that plays (issue 31). Bounded, the moment costs 130 MB at most, and
what needs more (sorting a large export) spills to `FILE.tmp` beside the store. One thread: a store's work is
small pieces, and the process is busy playing."""
LOCK_WAIT = 10.0
"""Seconds to wait for another process's hold on the store (a batch takes milliseconds) before giving up."""

GameResult = tuple[dict[str, Any], list[dict[str, Any]]]

TABLES = ("clix_meta", "keys", "games", "run_ids", "runs")
"""The store's tables (made by `_SCHEMA`)."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS clix_meta (name VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS keys (key VARCHAR PRIMARY KEY, fields VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS games (key VARCHAR NOT NULL, game BIGINT NOT NULL, game_row VARCHAR NOT NULL, "
    "figure_rows VARCHAR NOT NULL, PRIMARY KEY (key, game))",
    "CREATE TABLE IF NOT EXISTS run_ids (id BIGINT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS runs (id BIGINT PRIMARY KEY, started TIMESTAMP NOT NULL, seconds DOUBLE, "
    "command VARCHAR, key VARCHAR NOT NULL, army_a VARCHAR, army_b VARCHAR, map VARCHAR, players VARCHAR, "
    "seed VARCHAR, turns INTEGER, ties VARCHAR, games BIGINT, from_store BIGINT, played BIGINT, "
    "interrupted BOOLEAN, score DOUBLE, out VARCHAR, indexes VARCHAR, document VARCHAR)",
)


# --- the key ------------------------------------------------------------------------------------------


def _digest(document: Any) -> str:
    """sha256 of a document's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def data_hash(library: Any, matchup: Matchup) -> str:
    """A hash of the data a game of the matchup's armies on its map reads, as its ruleset's kit lists it
    (`MatchupKit.data_document`: for HorrorClix the armies, their figures, plot twists and victims, and the map)."""
    return _digest(
        kit(matchup.ruleset).data_document(
            library, [matchup.army_a, matchup.army_b], dict(matchup.given), matchup.map_name
        )
    )


def row_fingerprint() -> str:
    """A hash of the code that turns a game into its rows and derives its seed (analyzer/play/runner.py)."""
    from clix.analyzer.play import runner

    return hashlib.sha256(Path(runner.__file__).read_bytes()).hexdigest()


@dataclass(frozen=True)
class GameKey:
    """What decides a run's games, but the index: `fields`, and their hash `digest` (the store's key)."""

    digest: str
    fields: dict[str, Any]


def code_fields(ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """The part of a key that depends on the code alone: the store's schema, the ruleset's version, the engine's
    sources, the row-making code and numpy's version (NEP 19 lets Generator streams change)."""
    import numpy as np
    from clix.engine.compiled import source_fingerprint

    return {
        "schema": SCHEMA_VERSION,
        "ruleset": ruleset_named(ruleset).version,
        "engine": source_fingerprint(),
        "rows": row_fingerprint(),
        "numpy": np.__version__,
    }


def game_key(library: Any, matchup: Matchup, master_seed: int, code: dict[str, Any] | None = None) -> GameKey:
    """The key of a run's games, `library` being the matchup's ruleset's data (a HorrorClix `Roster`). Names are
    part of it (they are in the rows), paths are not: the same data in another folder finds the same games.
    `code`: `code_fields()`, when the caller has worked it out."""
    rules = kit(matchup.ruleset)
    fields = {
        **(code_fields(matchup.ruleset) if code is None else code),
        "data": data_hash(library, matchup),
        "army_a": matchup.army_a,
        "army_b": matchup.army_b,
        "map": matchup.map_name,
        "players": [
            {"style": matchup.style_a, "weights": rules.style_weights(matchup.style_a)},
            {"style": matchup.style_b, "weights": rules.style_weights(matchup.style_b)},
        ],
        "turn_limit": matchup.turn_limit,
        "ties": matchup.ties,
        "master_seed": str(master_seed),
    }
    return GameKey(_digest(fields), fields)


# --- the database ----------------------------------------------------------------------------------------


class StoreBusy(Exception):
    """Another process held the store for longer than LOCK_WAIT."""


@dataclass
class RunRecord:
    """One row of `runs`."""

    id: int
    started: datetime
    seconds: float
    command: str
    key: str
    army_a: str
    army_b: str
    map: str
    players: str
    seed: str
    turns: int
    ties: str
    games: int
    from_store: int
    played: int
    interrupted: bool
    score: float | None
    out: str
    indexes: str
    document: str

    def game_indexes(self) -> list[int]:
        """The indexes of the run's games."""
        return [i for start, end in json.loads(self.indexes) for i in range(start, end)]


RUN_COLUMNS = [name for name in RunRecord.__dataclass_fields__]


def index_ranges(indexes: Sequence[int]) -> list[list[int]]:
    """Sorted indexes as [start, end) ranges: a run's games are usually one range, an interrupted run's a few."""
    ranges: list[list[int]] = []
    for index in sorted(indexes):
        if ranges and ranges[-1][1] == index:
            ranges[-1][1] = index + 1
        else:
            ranges.append([index, index + 1])
    return ranges


class Store:
    """The result store in one DuckDB file (see the module's docstring)."""

    def __init__(self, path: Path, create: bool = True) -> None:
        self.path = path
        self.create = create

    @classmethod
    def open(cls, path: Path) -> Store:
        """The store at `path`, made (with its folder) if missing; ClixError when it is busy or not a store."""
        store = cls(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ClixError(f"--store {path}: cannot create its folder ({exc.strerror or exc})") from None
        store._check_writable()
        return store

    def _check_writable(self) -> None:
        """Write to the store once (a transaction that changes nothing): a store in a read-only folder, whose
        journal (the .wal file beside it) cannot be made, is refused here rather than at the first game."""
        import duckdb

        try:
            with self.connect(check=True) as connection:  # busy for long: the "in use" line
                connection.execute("BEGIN")
                connection.execute("UPDATE clix_meta SET value = value WHERE name = 'schema'")
                connection.execute("COMMIT")
        except duckdb.Error as exc:
            raise ClixError(self._unwritable(exc)) from None

    def _unwritable(self, exc: BaseException) -> str:
        return (
            f"--store {self.path}: cannot write to the result store ({first_line(exc)}); make the file and its "
            "folder writable (DuckDB writes a journal, NAME.wal, beside it), or pass --store with another file"
        )

    @classmethod
    def existing(cls, path: Path) -> Store:
        """The store at `path` for reading; ClixError when there is none."""
        if not path.is_file():
            raise ClixError(
                f"--store {path}: no result store there; `clix duel` makes one (clix-out/clix.duckdb by default), "
                "or pass --store with the file a run used"
            )
        store = cls(path, create=False)
        with store.connect(check=True):
            pass
        return store

    @contextmanager
    def connect(self, check: bool = False) -> Iterator[Any]:
        """A connection for one short piece of work, closed at the end; waits for another process's hold.
        With `check`, refuses a file that is not a store (a ClixError), and makes the tables when allowed."""
        import duckdb

        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                connection = duckdb.connect(str(self.path), read_only=not self.create, config=dict(CONNECTION))
                break
            except duckdb.Error as exc:
                message = str(exc)
                if "Could not set lock" not in message and "Conflicting lock" not in message:
                    raise ClixError(self._unreadable(message)) from None
                if time.monotonic() > deadline:
                    holder = re.search(r"PID (\d+)", message)
                    who = f" (pid {holder.group(1)})" if holder else ""
                    if check:
                        raise ClixError(
                            f"--store {self.path}: the result store is in use by another process{who}; wait for it "
                            "to end, or pass --store with another file"
                        ) from None
                    raise StoreBusy(f"{self.path} is in use by another process{who}") from None
                time.sleep(0.05)
        try:
            if check:
                self._check(connection)
            yield connection
        finally:
            connection.close()

    def _unreadable(self, message: str) -> str:
        reason = "not a DuckDB database" if "not a valid DuckDB database" in message else _first(message)
        if "Read-only file system" in message or "Permission denied" in message:
            return (
                f"--store {self.path}: cannot open the result store for writing ({reason}); make it writable, or pass "
                "--store with another file"
            )
        return (
            f"--store {self.path}: cannot open the result store ({reason}); move the file away (a new store is "
            "then made) or pass --store with another file"
        )

    def _check(self, connection: Any) -> None:
        import duckdb

        try:
            tables = {row[0] for row in connection.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
            if tables and "clix_meta" not in tables:
                raise ClixError(
                    f"--store {self.path}: a DuckDB database that clix did not make; pass --store with another file"
                )
            if "clix_meta" in tables:
                found = connection.execute("SELECT value FROM clix_meta WHERE name = 'schema'").fetchone()
                if found is None or found[0] != SCHEMA_VERSION:
                    raise ClixError(
                        f"--store {self.path}: a result store of another clix version (schema "
                        f"{found[0] if found else '?'}, this clix reads {SCHEMA_VERSION}); pass --store with another "
                        "file"
                    )
                missing = [name for name in TABLES if name not in tables]
                if missing:
                    raise ClixError(
                        f"--store {self.path}: the result store is damaged (its table{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(missing)} {'are' if len(missing) > 1 else 'is'} gone); move the file away (a new "
                        "store is then made) or pass --store with another file"
                    )
                return
            if not self.create:
                raise ClixError(f"--store {self.path}: an empty database, not a result store; run `clix duel` first")
            connection.execute("BEGIN")
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute("INSERT INTO clix_meta VALUES ('schema', ?)", [SCHEMA_VERSION])
            connection.execute("COMMIT")
        except duckdb.Error as exc:
            raise ClixError(self._unreadable(str(exc))) from None

    # --- games --------------------------------------------------------------------------------------------

    def load(
        self,
        key: GameKey,
        below: int | None = None,
        indexes: Sequence[int] | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> dict[int, GameResult]:
        """The stored games of `key` (those with an index below `below`, or among `indexes`), by index. Damaged
        games (rows that are not a game's) are left out, so they are played again and replaced; `warn` (stderr by
        default) is told in one line."""
        wanted = None if indexes is None else set(indexes)
        return {index: rows for index, rows in self._stored(key, below, warn) if wanted is None or index in wanted}

    def load_packed(
        self, key: GameKey, below: int | None = None, warn: Callable[[str], None] | None = None
    ) -> RunResult:
        """`load`'s games as a run's packed rows (`result.RunResult`, every game from the store): read a batch at a
        time, a million stored games take a few hundred MB instead of the ~9 GB of their dicts."""
        result = RunResult()
        for index, rows in self._stored(key, below, warn):
            result.add(index, rows)
        result.from_store = result.count
        return result

    def _stored(
        self, key: GameKey, below: int | None, warn: Callable[[str], None] | None
    ) -> Iterator[tuple[int, GameResult]]:
        """The stored games of `key` (below `below`) in the order the store holds them (the tables that take them
        sort by index), read a batch at a time; the damaged ones are left out and named on `warn` (stderr by
        default) at the end, in one line."""
        import duckdb

        query = "SELECT game, game_row, figure_rows FROM games WHERE key = ?"
        parameters: list[Any] = [key.digest]
        if below is not None:
            query += " AND game < ?"
            parameters.append(below)
        damaged: list[tuple[int, str]] = []
        try:
            with self.connect() as connection:
                cursor = connection.execute(query, parameters)  # no ORDER BY: sorting them all takes memory
                while batch := cursor.fetchmany(LOAD_BATCH):
                    for index, row_text, figures_text in batch:
                        found, why = stored_game(index, row_text, figures_text)
                        if found is None:
                            damaged.append((index, why))
                        else:
                            yield index, found
        except (duckdb.Error, StoreBusy) as exc:
            raise ClixError(f"--store {self.path}: cannot read the stored games ({first_line(exc)})") from None
        if damaged:
            (warn or _warn)(
                f"clix: warning: {len(damaged)} stored game{'s' if len(damaged) > 1 else ''} in {self.path} "
                f"{'are' if len(damaged) > 1 else 'is'} damaged (game {damaged[0][0]}: {damaged[0][1]}); "
                f"{'they are' if len(damaged) > 1 else 'it is'} played again"
            )

    def save(self, key: GameKey, games: Sequence[tuple[int, GameResult]]) -> None:
        """Write games of `key` in one transaction (replacing any stored under the same index)."""
        import pyarrow as pa

        batch = pa.table(
            {
                "key": [key.digest] * len(games),
                "game": [index for index, _ in games],
                "game_row": [_text(row) for _, (row, _) in games],
                "figure_rows": [_text(figures) for _, (_, figures) in games],
            }
        )
        with signals_held(), self.connect() as connection:
            connection.execute("BEGIN")
            connection.execute(
                "INSERT OR IGNORE INTO keys VALUES (?, ?)", [key.digest, json.dumps(key.fields, sort_keys=True)]
            )
            connection.register("batch", batch)
            connection.execute("INSERT OR REPLACE INTO games SELECT key, game, game_row, figure_rows FROM batch")
            connection.execute("COMMIT")

    # --- runs ---------------------------------------------------------------------------------------------

    def new_run_id(self) -> int:
        """A run id never given before in this store (ids of runs that wrote nothing are skipped); a ClixError
        when the store cannot be written."""
        import duckdb

        try:
            with signals_held(), self.connect() as connection:
                found = connection.execute(
                    "INSERT INTO run_ids SELECT coalesce(max(id), 0) + 1 FROM run_ids RETURNING id"
                )
                return int(found.fetchone()[0])
        except duckdb.Error as exc:
            raise ClixError(self._unwritable(exc)) from None

    def record_run(self, run: RunRecord) -> None:
        """Add a finished run to `runs`."""
        values = [getattr(run, name) for name in RUN_COLUMNS]
        with signals_held(), self.connect() as connection:
            connection.execute(
                f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}) VALUES ({', '.join('?' * len(values))})", values
            )

    def runs(self) -> list[RunRecord]:
        """Every recorded run, oldest first (a ClixError when they cannot be read)."""
        import duckdb

        try:
            with self.connect() as connection:
                found = connection.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM runs ORDER BY id").fetchall()
        except (duckdb.Error, StoreBusy) as exc:
            raise ClixError(f"--store {self.path}: cannot read the recorded runs ({first_line(exc)})") from None
        return [RunRecord(*row) for row in found]


def stored_game(index: int, row_text: Any, figures_text: Any) -> tuple[GameResult | None, str]:
    """A stored game's rows from their JSON text, or None and why they are damaged (not JSON, not the rows of
    game `index`)."""
    try:
        row, figures = json.loads(row_text), json.loads(figures_text)
    except (TypeError, ValueError) as exc:
        return None, f"not JSON ({type(exc).__name__})"
    if not isinstance(row, dict) or not isinstance(figures, list):
        return None, "not a game row and a list of figure rows"
    if "game" not in row:
        return None, "the row has no game"
    if row["game"] != index or any(not isinstance(f, dict) or f.get("game") != index for f in figures):
        return None, f"the rows are not game {index}'s"
    return (row, figures), ""


def first_line(exc: BaseException) -> str:
    """An exception's message on one line (DuckDB's run to several: the error, then hints)."""
    return _first(str(exc)) or type(exc).__name__


def _first(message: str) -> str:
    return next((line.strip() for line in message.splitlines() if line.strip()), "")


def _warn(line: str) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(line, markup=False)


def _text(value: Any) -> str:
    """A row as JSON text; json gives floats back exactly and keeps the keys' order (the table's columns)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=True)


def utc_now() -> datetime:
    """The time now in UTC, without a zone (as the store's TIMESTAMP columns hold it)."""
    return datetime.now(UTC).replace(tzinfo=None)


def local_time(stamp: datetime) -> datetime:
    """A stored UTC time in this machine's zone."""
    return stamp.replace(tzinfo=UTC).astimezone()
