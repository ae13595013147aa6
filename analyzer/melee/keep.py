"""A melee's games in the result store (analyzer/play/store.py, the duel's store): keyed by a hash of all that
decides them (the code, the data of the armies and the map, the players with their weights, the teams, the turn
limit, the ties rule and the master seed) plus the game's index, so the same melee again plays only the games the
store lacks. A melee's key has `kind: melee`, so no duel's game is ever taken for one."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from clix.analyzer.melee import design
from clix.analyzer.melee.design import Melee, horrorclix_part
from clix.analyzer.play.result import report_line
from clix.analyzer.play.store import GameKey, Store, _digest, code_fields
from clix.analyzer.play.writer import GameWriter


def melee_key(melee: Melee, master_seed: int) -> GameKey:
    """The store key of a melee's games (see the module)."""
    matchups = horrorclix_part("matchups")
    MATCHUPS, roster_at = matchups.MATCHUPS, matchups.roster_at
    roster = roster_at(melee.library)
    fields: dict[str, Any] = {
        **code_fields(),
        "kind": "melee",
        "melee_rows": hashlib.sha256(Path(design.__file__).read_bytes()).hexdigest(),
        "data": _digest(MATCHUPS.data_document(roster, list(melee.armies), {}, melee.map_name)),
        "armies": list(melee.armies),
        "map": melee.map_name,
        "players": [{"style": s, "weights": MATCHUPS.style_weights(s)} for s in melee.styles],
        "teams": list(melee.teams),
        "turn_limit": melee.turn_limit,
        "ties": melee.ties,
        "master_seed": str(master_seed),
    }
    return GameKey(_digest(fields), fields)


class MeleeKeeper:
    """A melee's games kept in the store: those it has (`known`, by index) and a writer for those played."""

    def __init__(self, path: Path, melee: Melee, master_seed: int, games: int, fresh: bool) -> None:
        self.store = Store.open(path)
        self.key = melee_key(melee, master_seed)
        found = {} if fresh else self.store.load(self.key, below=games)
        self.known: dict[int, dict[str, Any]] = {index: row for index, (row, _) in found.items()}
        self.writer = GameWriter(self.store, self.key, report_line)

    def add(self, index: int, row: dict[str, Any]) -> None:
        """A game played (its row; a melee keeps no figure rows)."""
        self.writer.add(index, (row, []))

    def close(self) -> None:
        self.writer.close()


__all__ = ["MeleeKeeper", "melee_key"]
