"""Replaying one game of a melee: game N of a run is played again from the run's settings and master seed alone
(its seat order and seed follow from N, `design.seed_path`), giving the row the run wrote for it."""

from __future__ import annotations

from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.melee.design import Melee, play_row


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
    for x in sorted(slots, key=lambda x: (row[f"place_{x}"], row[f"seat_{x}"])):
        console.print(
            f"  place {row[f'place_{x}']:g}: {x} {row[f'army_{x}']} (seat {row[f'seat_{x}']}) {row[f'vp_{x}']} VP, "
            f"{row[f'victims_{x}']} victims" + (", eliminated" if row[f"eliminated_{x}"] else ""),
            markup=False,
        )
    return 0
