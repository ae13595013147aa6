"""A duel's use of the result store (`clix duel`, and `clix.duel(store=...)`): the games the store already has
for the duel's key, the writer of the new ones as they finish, and the run's record."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.result import RunResult, report_line
from clix.analyzer.play.runner import Matchup
from clix.analyzer.play.store import GameKey, RunRecord, Store, StoreBusy, first_line, game_key, index_ranges, utc_now
from clix.analyzer.play.writer import GameWriter


class DuelKeeper:
    """A duel's use of the result store: the games it already has, the writer of the new ones, the run's id."""

    def __init__(self, store: Store, key: GameKey, known: RunResult | None, started: datetime) -> None:
        self.store = store
        self.key = key
        self.known = known
        self.started = started
        self.run_id = store.new_run_id()
        self.writer = GameWriter(store, key, report_line)

    @classmethod
    def start(cls, path: Path, roster: Any, matchup: Matchup, seed: int, cap: int, fresh: bool) -> DuelKeeper:
        """Open the store (a ClixError if it cannot be used) and read this duel's games below `cap`; `roster` is the
        matchup's ruleset's data (its key hashes what the games read)."""
        store = Store.open(path)
        key = game_key(roster, matchup, seed)
        return cls(store, key, None if fresh else store.load_packed(key, below=cap), utc_now())

    def record(self, result: RunResult, document: dict[str, Any], out: Path) -> None:
        """Add the run to the store's `runs` (a warning if the store cannot be written now)."""
        import duckdb

        settings = document["settings"]
        record = RunRecord(
            id=self.run_id,
            started=self.started,
            seconds=round(result.seconds, 3),
            command=settings["command"],
            key=self.key.digest,
            army_a=settings["army_a"],
            army_b=settings["army_b"],
            map=settings["map"],
            players=settings["players"],
            seed=str(settings["seed"]),
            turns=settings["turns"],
            ties=settings["ties"],
            games=result.count,
            from_store=result.from_store,
            played=result.played,
            interrupted=result.interrupted,
            score=document["score"]["score"],
            out=str(out),
            indexes=json.dumps(index_ranges(result.indexes)),
            document=json.dumps(document, default=str),
        )
        try:
            self.store.record_run(record)
        except (duckdb.Error, StoreBusy, ClixError) as exc:
            report_line(
                f"clix: warning: run {self.run_id} was not recorded in the store {self.store.path} ({first_line(exc)})"
            )
