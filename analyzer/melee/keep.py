"""A melee's games in the result store (analyzer/play/store.py, the duel's store): keyed by a hash of all that
decides them (the code, the data of the armies and the map, the players with their weights, the teams, the turn
limit, the ties rule and the master seed) plus the game's index, so the same melee again plays only the games the
store lacks. A melee's key has `kind: melee`, so no duel's game is ever taken for one. Each run is recorded in the
store's `runs` (`record`), so `clix results list` shows it beside the duels."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.melee import design
from clix.analyzer.melee.design import Melee, melee_part
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
from clix.engine.core.ruleset import DEFAULT_RULESET


def melee_key(
    melee: Melee,
    master_seed: int,
    pods: tuple[tuple[int, ...], ...] = (),
    size: int = 0,
    maps: tuple[str, ...] = (),
) -> GameKey:
    """The store key of a melee's games (see the module); a field in pods (`analyzer.melee.field`) adds its pod
    size and its pods (army indexes), so a field drawn otherwise never takes another's games, and the maps with
    their data when it plays on several."""
    MATCHUPS = melee_part(melee, "matchups").MATCHUPS
    roster = MATCHUPS.library(melee.library)
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
    if melee.ruleset != DEFAULT_RULESET:
        fields["ruleset"] = melee.ruleset  # HorrorClix's keys stay as they were
    if size:
        fields |= {"kind": "field", "pod_size": size, "pods": [list(p) for p in pods]}
    if maps:
        data = [_digest(MATCHUPS.data_document(roster, list(melee.armies), {}, m)) for m in maps]
        fields |= {"maps": list(maps), "maps_data": data}
    return GameKey(_digest(fields), fields)


def run_settings(melee: Melee, summary: dict[str, Any], command: str) -> dict[str, Any]:
    """What a melee (or a field in pods) was asked, as its summary.json and the store's runs record it: enough to
    play any of its games again from the folder alone (`clix replay --run DIR --game N`). `clix results` lists a
    field as a melee and shows it as a field (`pods`)."""
    settings: dict[str, Any] = {
        "kind": "melee",
        "command": command,
        "armies": list(melee.armies),
        "teams": summary["teams"],
        "map": melee.map_name,
        "players": ",".join(melee.styles),
        "seed": str(summary["seed"]),
        "turns": melee.turn_limit,
        "ties": melee.ties,
        "games": summary["games"],
        "rosters": [str(Path(layer).resolve()) for layer in melee.library],
    }
    if "pod_size" in summary:
        settings["pods"] = summary["pod_size"]
    return settings


def first_army_share(melee: Melee, summary: dict[str, Any]) -> float | None:
    """The win share of the army named first (slot A; in a field, its share of the pods it played), the score
    `clix results list` shows for a melee ("A's score"); a field's summary lists its armies best rated first."""
    found = [a for a in summary["armies"] if a["army"] == melee.armies[0]]
    return found[0]["win_share"] if found else None


class MeleeKeeper:
    """A melee's games kept in the store: those it has (`known`, by index) and a writer for those played."""

    def __init__(
        self, path: Path, melee: Melee, master_seed: int, games: int, fresh: bool, key: GameKey | None = None
    ) -> None:
        self.store = Store.open(path)
        self.key = key or melee_key(melee, master_seed)
        found = {} if fresh else self.store.load(self.key, below=games)
        self.known: dict[int, dict[str, Any]] = {index: row for index, (row, _) in found.items()}
        self.writer = GameWriter(self.store, self.key, report_line)
        self.started = utc_now()
        self.run_id = self.store.new_run_id()

    def add(self, index: int, row: dict[str, Any]) -> None:
        """A game played (its row; a melee keeps no figure rows)."""
        self.writer.add(index, (row, []))

    def close(self) -> None:
        self.writer.close()

    def record(self, melee: Melee, summary: dict[str, Any], indexes: list[int], command: str, out: str) -> None:
        """Add the run to the store's `runs` (a warning if the store cannot be written now): its armies joined by
        commas in `army_a` (`army_b` empty), its summary as the document with `settings.kind` "melee"."""
        import duckdb

        ended = summary["ended"]
        settings = summary.get("settings") or run_settings(melee, summary, command)
        record = RunRecord(
            id=self.run_id,
            started=self.started,
            seconds=round((utc_now() - self.started).total_seconds(), 3),
            command=command,
            key=self.key.digest,
            army_a=",".join(melee.armies),
            army_b="",
            map=melee.map_name,
            players=settings["players"],
            seed=settings["seed"],
            turns=melee.turn_limit,
            ties=melee.ties,
            games=summary["games"],
            from_store=ended["from_store"],
            played=len(indexes) - ended["from_store"],
            interrupted=bool(ended["interrupted"]),
            score=first_army_share(melee, summary),
            out=out,
            indexes=json.dumps(index_ranges(indexes)),
            document=json.dumps({**summary, "settings": settings}, default=str),
        )
        try:
            self.store.record_run(record)
        except (duckdb.Error, StoreBusy, ClixError) as exc:
            report_line(
                f"clix: warning: run {self.run_id} was not recorded in the store {self.store.path} ({first_line(exc)})"
            )


__all__ = ["MeleeKeeper", "melee_key"]
