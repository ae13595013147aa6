"""Replaying one game of a melee: game N of a run is played again from the run's settings and master seed alone
(its seat order and seed follow from N, `design.seed_path`), giving the row the run wrote for it."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.melee.design import Melee, play_row
from clix.analyzer.melee.stats import HEROCLIX_PREFIX


def replay_row(melee: Melee, seed: int, game: int) -> dict[str, Any]:
    """Game `game`'s row, played again (the same row as the run's games.csv has for it)."""
    if game < 0:
        raise ClixError(f"--game takes a game number 0 or more (got {game})")
    return play_row(melee, seed, game)


def print_field_game(melee: Melee, size: int, games: int, seed: int, game: int, console: Any, as_json: bool) -> int:
    """Game `game` of the field `clix melee ... --pods SIZE --games GAMES` played again (its pod, seats and seed
    follow from `game`; pods are drawn in the same order for any --games) and printed as `print_game`."""
    from clix.analyzer.melee.field import build_field, play_field_row

    if game < 0:
        raise ClixError(f"--game takes a game number 0 or more (got {game})")
    field = build_field(melee, max(games, game + 1), seed, size)
    row = play_field_row(field, seed, game)
    return print_row(row, field.pod_melee(row["pod"]).slots, game, console, as_json)


def print_game(melee: Melee, seed: int, game: int, console: Any, as_json: bool) -> int:
    """Print game `game`'s placings (or its whole row as JSON); exit code 0."""
    return print_row(replay_row(melee, seed, game), melee.slots, game, console, as_json)


def print_row(row: dict[str, Any], slots: str, game: int, console: Any, as_json: bool) -> int:
    """Print a game's placings from its row (or the whole row as JSON); exit code 0."""
    if as_json:
        print_json(row)
        return 0
    console.print(
        f"game {game} (block {row['block']}, seed path {row['seed_path']}, seats {row['order']}, first player "
        f"{row['first']}): {row['end_reason']} after {row['rounds']} rounds, winner {row['winner']}",
        markup=False,
    )
    counts_victims = not str(row.get("ruleset", "")).startswith(HEROCLIX_PREFIX)
    for x in sorted(slots, key=lambda x: (row[f"place_{x}"], row[f"seat_{x}"])):
        parts = [f"{row[f'vp_{x}']} VP"]
        parts += [f"{row[f'victims_{x}']} victims"] if counts_victims else []
        parts += ["eliminated"] if row[f"eliminated_{x}"] else []
        console.print(
            f"  place {row[f'place_{x}']:g}: {x} {row[f'army_{x}']} (seat {row[f'seat_{x}']}) " + ", ".join(parts),
            markup=False,
        )
    return 0


def replay_folder(
    rosters: Sequence[Path] | None, run: Path, settings: dict[str, Any], game: int, console: Any, as_json: bool
) -> int:
    """Game `game` of the melee (or field in pods) whose folder is `run` (its summary.json's `settings`), played
    again from those settings alone and printed as `print_row`; exit code 1, with the differing column, when the
    replay's placings differ from the row the run's games.csv has for it. The roster library is `rosters`, else
    the one the run recorded."""
    from clix.analyzer.melee.command import build_melee
    from clix.analyzer.melee.field import build_field, play_field_row

    if game < 0:
        raise ClixError(f"--game takes a game number 0 or more (got {game})")
    table = run / "games.csv"
    if not table.is_file():
        raise ClixError(f"--run {run}: no games.csv in it (give the --out folder of a `clix melee`)")
    with table.open(newline="", encoding="utf-8") as handle:
        written = {row["game"]: row for row in csv.DictReader(handle)}
    if str(game) not in written:
        numbers = sorted(int(g) for g in written) or [0]
        raise ClixError(f"--game {game}: out of range; {run} holds games {numbers[0]} to {numbers[-1]}")
    recorded = [Path(p) for p in settings.get("rosters") or []]
    if not rosters and recorded and all(p.exists() for p in recorded):
        rosters = recorded
    try:
        size, seed = int(settings.get("pods") or 0), int(str(settings["seed"]))
        melee = build_melee(
            rosters,
            list(settings["armies"]),
            str(settings["map"]),
            str(settings["players"]),
            str(settings.get("teams") or "") or None,
            int(settings["turns"]),
            str(settings["ties"]),
            field=size,
        )
        games = int(settings["games"])
    except (KeyError, TypeError, ValueError):
        raise ClixError(f"{run / 'summary.json'}: its settings are incomplete (a run from an older clix?)") from None
    if size:
        field = build_field(melee, max(games, game + 1), seed, size)
        row = play_field_row(field, seed, game)
        slots = field.pod_melee(row["pod"]).slots
    else:
        row, slots = replay_row(melee, seed, game), melee.slots
    print_row(row, slots, game, console, as_json)
    for x in slots:
        for column in (f"army_{x}", f"place_{x}"):
            if str(written[str(game)].get(column)) != str(row[column]):
                console.print(
                    f"replay differs from {table}: game {game} {column} is {row[column]}, the table has "
                    f"{written[str(game)].get(column)} (the code or the rosters changed since the run?)",
                    markup=False,
                )
                return 1
    return 0


def folder_settings(run: Path) -> dict[str, Any] | None:
    """The settings in `run`/summary.json when they are a melee's (or a field's), else None (a duel's folder, or
    none: `clix replay` then reads it as a duel's and says what is wrong)."""
    try:
        settings = json.loads((run / "summary.json").read_text(encoding="utf-8")).get("settings")
    except (OSError, ValueError, AttributeError):
        return None
    return settings if isinstance(settings, dict) and settings.get("kind") == "melee" else None
