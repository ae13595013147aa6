"""Finished games on their way to the result store (`store.Store`): written in batches as a run goes on, so a
run stopped at any moment keeps every game finished but the last second's (issue 31)."""

from __future__ import annotations

import time
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.signals import signals_held
from clix.analyzer.play.store import GameKey, GameResult, Store, StoreBusy

FLUSH_SECONDS = 1.0
"""Finished games wait at most this long (while the run goes on) before they are written to the store."""
FLUSH_GAMES = 500
"""... or until this many are waiting."""


class GameWriter:
    """Finished games on their way to the store: `add` as they finish, written in batches; `close` at the end.

    A batch that cannot be written (the store busy for long) stays waiting for the next; at `close` a failure
    is reported as a warning, since the run's own outputs are still written."""

    def __init__(self, store: Store, key: GameKey, warn: Any) -> None:
        self.store = store
        self.key = key
        self.warn = warn
        self.pending: list[tuple[int, GameResult]] = []
        self.written = 0
        self.last = time.monotonic()
        self.problem = ""

    def add(self, index: int, result: GameResult) -> None:
        """A finished game (called in the parent process as games finish)."""
        self.pending.append((index, result))
        if len(self.pending) >= FLUSH_GAMES or time.monotonic() - self.last >= FLUSH_SECONDS:
            self.flush()

    def tick(self) -> None:
        """After a batch of games: write the waiting ones if the last write is FLUSH_SECONDS old (a batch's
        games arrive together, so `add` alone would leave all but its first waiting for the next batch)."""
        if self.pending and time.monotonic() - self.last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> bool:
        """Write the waiting games in one transaction; False (keeping them waiting) if that failed."""
        import duckdb

        self.last = time.monotonic()
        if not self.pending:
            return True
        with signals_held():  # a Ctrl-C comes after the bookkeeping too: a stored game is not written twice
            try:
                self.store.save(self.key, self.pending)
            except (duckdb.Error, StoreBusy, ClixError, OSError) as exc:
                self.problem = str(exc)
                return False
            self.written += len(self.pending)
            self.pending = []
        return True

    def close(self) -> bool:
        """Write what is left; warn (and return False) if some games could not be stored."""
        if self.flush():
            return True
        self.warn(
            f"clix: warning: {len(self.pending)} finished games were not written to the store {self.store.path} "
            f"({self.problem}); the outputs have them, a later run plays them again"
        )
        return False
