"""Horrified games in the result store (analyzer/play/store.py, the duel's and melee's store): each cell's games
keyed by a hash of all that decides them (the code, the component data the library loads, the monsters, the heroes
in seat order, the player style with its search budget, the assumed number varied and the master seed) plus the
game's index, so the same `clix horrified` again plays only the games the store lacks, and a table's cell finds
the games of a line-up run with the same cell. The difficulty's name is not in the key: the games read only its
monsters. A key has `kind: horrified`, so no duel's or melee's game is ever taken for one. Each run is recorded
in the store's `runs` (`record`), so `clix results` lists, shows and exports it beside the duels (issue 40)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.horrified import games as games_module
from clix.analyzer.horrified.games import Cell, kit
from clix.analyzer.play.result import report_line
from clix.analyzer.play.store import (
    GameKey,
    RunRecord,
    Store,
    StoreBusy,
    _digest,
    code_fields,
    first_line,
    index_ranges,
    utc_now,
)
from clix.analyzer.play.writer import GameWriter

KIND = "horrified"
"""The `kind` of a Horrified key and of its runs' settings (`clix results` tells them by it)."""


def _plain(value: Any) -> Any:
    """A loaded table as plain JSON data (pydantic models dumped, lists and dicts walked)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def data_digest(layers: tuple[Path, ...]) -> str:
    """A hash of every table the Horrified library loads from `layers` (board, villagers, heroes, items, dice,
    terror, difficulty, monsters, monster deck, perks, sensitivity): an edit of any value changes it, a comment or
    the folder's path does not."""
    library = kit().library(layers or (kit().sample,))
    return _digest({name: _plain(table) for name, table in sorted(library.tables.items())})


def style_budget(style: str) -> int | None:
    """The search player's playouts a decision (`search` or `search:N`), None for another style."""
    from clix.engine.core.players.search import is_search, search_budget

    return search_budget(style) if is_search(style) else None


def horrified_key(cell: Cell, master_seed: int, data: str | None = None, code: dict[str, Any] | None = None) -> GameKey:
    """The store key of a cell's games (see the module); `data` and `code`: `data_digest` and `code_fields`, when
    the caller has worked them out."""
    fields: dict[str, Any] = {
        **(code_fields(KIND) if code is None else code),
        "kind": KIND,
        "horrified_rows": hashlib.sha256(Path(games_module.__file__).read_bytes()).hexdigest(),
        "data": data_digest(cell.layers) if data is None else data,
        "monsters": list(cell.monsters),
        "heroes": list(cell.heroes),
        "players": len(cell.heroes),
        "style": cell.style,
        "search_budget": style_budget(cell.style),
        "assumption": cell.knob,
        "value": cell.value if cell.knob else None,
        "master_seed": str(master_seed),
    }
    return GameKey(_digest(fields), fields)


class HorrifiedKeeper:
    """A run's games kept in the store: each cell's stored games (`known`), a writer per cell for those played,
    and the run's record."""

    def __init__(self, path: Path, master_seed: int, games: int, fresh: bool) -> None:
        self.store = Store.open(path)
        self.seed = master_seed
        self.games = games
        self.fresh = fresh
        self.started = utc_now()
        self.run_id = self.store.new_run_id()
        self.from_store = 0
        self.played = 0
        self._code = code_fields(KIND)
        self._data: dict[tuple[Path, ...], str] = {}
        self._writers: dict[str, GameWriter] = {}
        self.keys: list[tuple[Cell, GameKey]] = []
        self.checks: list[tuple[Cell, GameKey, int]] = []
        """The sensitivity check's cells (analyzer/horrified/robust.py), each with the games of its stage."""

    def key(self, cell: Cell) -> GameKey:
        """The cell's key (the data's hash worked out once per set of layers)."""
        if cell.layers not in self._data:
            self._data[cell.layers] = data_digest(cell.layers)
        return horrified_key(cell, self.seed, self._data[cell.layers], self._code)

    def known(self, cells: Sequence[Cell], indexes: range, check: bool = False) -> list[dict[int, dict[str, Any]]]:
        """Each cell's stored games of `indexes`, by index (none with --fresh); the cells' keys noted for the run's
        record (`check`: a sensitivity check's cells, noted apart with the games they play)."""
        found = []
        for cell in cells:
            key = self.key(cell)
            if check:
                self.checks.append((cell, key, len(indexes)))
            else:
                self.keys.append((cell, key))
            stored = {} if self.fresh else self.store.load(key, below=indexes.stop)
            found.append({index: row for index, (row, _) in stored.items() if index in indexes})
            self.from_store += len(found[-1])
        return found

    def add(self, cell: Cell, rows: Sequence[dict[str, Any]]) -> None:
        """Games of `cell` played (their rows; Horrified keeps no figure rows)."""
        key = self.key(cell)
        writer = self._writers.setdefault(key.digest, GameWriter(self.store, key, report_line))
        for row in rows:
            writer.add(int(row["game"]), (row, []))
        self.played += len(rows)

    def close(self) -> None:
        """Write the games still waiting (a warning if some cannot be)."""
        for writer in self._writers.values():
            writer.close()

    def settings(self, summary: dict[str, Any], command: str) -> dict[str, Any]:
        """The run's settings as its record keeps them: `kind` horrified and each cell's key (what `clix results
        export` reads)."""
        return {
            "kind": KIND,
            "command": command,
            "table": summary["table"],
            "monsters": summary["monsters"],
            "heroes": summary["heroes"],
            "players": summary["players"],
            "difficulty": summary["difficulty"],
            "style": summary["style"],
            "seed": str(summary["seed"]),
            "games": summary["games"],
            "cells": [
                {
                    "key": key.digest,
                    "monsters": list(cell.monsters),
                    "heroes": list(cell.heroes),
                    "assumption": cell.knob or "",
                    "value": cell.value if cell.knob else "",
                }
                for cell, key in self.keys
            ],
            "checks": len({key.digest for _, key, _ in self.checks}),
            "store": str(self.store.path),
            "run": self.run_id,
            "from_store": self.from_store,
            "played": self.played,
            "fresh": self.fresh,
        }

    def record(self, summary: dict[str, Any], score: float | None, command: str, out: str) -> None:
        """Add the run to the store's `runs` (a warning if the store cannot be written now): its monsters joined by
        commas in `army_a` and its heroes in `army_b` (so `clix serve`'s army filter finds them), no map, the style
        in `players`, every game of every cell in `games`, `score` (the focus cell's win rate), and its summary as
        the document with `settings.kind` "horrified"."""
        import duckdb

        settings = self.settings(summary, command)
        total = summary["games"] * len(self.keys) + summary.get("sensitivity", {}).get("games", 0)
        record = RunRecord(
            id=self.run_id,
            started=self.started,
            seconds=round((utc_now() - self.started).total_seconds(), 3),
            command=command,
            key=self.keys[0][1].digest if self.keys else "",
            army_a=",".join(summary["monsters"]),
            army_b=",".join(summary["heroes"]),
            map="",
            players=summary["style"],
            seed=settings["seed"],
            turns=0,
            ties="",
            games=total,
            from_store=self.from_store,
            played=self.played,
            interrupted=False,
            score=score,
            out=out,
            indexes=json.dumps(index_ranges(range(summary["games"]))),
            document=json.dumps({**summary, "settings": settings}, default=str),
        )
        try:
            self.store.record_run(record)
        except (duckdb.Error, StoreBusy, ClixError) as exc:
            report_line(
                f"clix: warning: run {self.run_id} was not recorded in the store {self.store.path} ({first_line(exc)})"
            )


__all__ = ["KIND", "HorrifiedKeeper", "data_digest", "horrified_key"]
