"""Checks of command-line numbers, shared by every command and run before any game is played.

Each check returns the value to use or raises `ClixError` with one line naming the option, the value and
the range, so a mistake costs a second, not a run.
"""

from __future__ import annotations

import os

from clix.analyzer.common.errors import ClixError
from rich.console import Console

MAX_GAMES = 1_000_000
"""Games in one run (for a ladder or sweep: over all its cells). A game's rows take about 12 KB in memory
before the tables are built (measured on the sample armies), so a million games need about 12 GB and 10
hours on two cores: beyond that a run is a mistake, and 10**12 would not even fit its list of batches."""

MAX_TURNS = 200
"""Turn limit per player. Games play about 4 decisions per turn (random players, measured over 400 turns),
so 200 turns per player (400 turns) is about 1,600 decisions: 60 times below the engine's safety net
MAX_DECISIONS, which a correct game must never reach (`GameStuck`). Tuned players end a game in 30-60
turns; nobody needs more than 200 each."""

MAX_ROUNDS = 100
"""`clix bench --rounds`: a median of more rounds than this tells nothing new."""


def games(value: int, option: str = "--games", minimum: int = 2, maximum: int = MAX_GAMES, what: str = "") -> int:
    """A game count within [minimum, maximum]."""
    if not minimum <= value <= maximum:
        per = f" {what}" if what else ""
        raise ClixError(f"{option} takes {minimum} to {maximum:,} games{per} (got {value:,})")
    return value


def cells_games(per_cell: int, cells: int, option: str = "--games", what: str = "cells", one: str = "cell") -> int:
    """Games per cell of a ladder or sweep: at least 2, and all cells together within MAX_GAMES."""
    games(per_cell, option, maximum=MAX_GAMES, what=f"per {one}")
    total = (per_cell + per_cell % 2) * cells
    if total > MAX_GAMES:
        raise ClixError(
            f"{option} {per_cell:,} over {cells} {what} is {total:,} games; a run plays at most {MAX_GAMES:,} "
            f"(at most {MAX_GAMES // cells // 2 * 2:,} per {one} here)"
        )
    return per_cell


def turns(value: int) -> int:
    """A turn limit per player within 1..MAX_TURNS."""
    if not 1 <= value <= MAX_TURNS:
        raise ClixError(f"--turns takes a turn limit per player from 1 to {MAX_TURNS} (got {value:,})")
    return value


def seed(value: int, option: str = "--seed") -> int:
    """A master seed: any non-negative integer (numpy's SeedSequence takes integers of any size)."""
    if value < 0:
        raise ClixError(f"{option} takes a non-negative integer (got {value})")
    return value


def game_index(value: int) -> int:
    """A game index of a run: 0 .. MAX_GAMES - 1."""
    if not 0 <= value < MAX_GAMES:
        raise ClixError(f"--game takes a game index of the duel, 0 to {MAX_GAMES - 1:,} (got {value:,})")
    return value


def rounds(value: int) -> int:
    """`clix bench --rounds`: 1..MAX_ROUNDS."""
    if not 1 <= value <= MAX_ROUNDS:
        raise ClixError(f"--rounds takes 1 to {MAX_ROUNDS} (got {value:,})")
    return value


def cores() -> int:
    """The machine's cores."""
    return os.cpu_count() or 1


def jobs(value: int, err: Console | None = None) -> int:
    """Worker processes: 0 means every core; more than the machine's cores is capped to them, with a note on
    `err` (each worker is a process holding the engine and the roster: 1000 of them fill the memory)."""
    if value < 0:
        raise ClixError(f"--jobs takes 0 (every core) or a number of worker processes (got {value})")
    available = cores()
    if value == 0:
        return available
    if value > available:
        if err is not None:
            err.print(f"note: --jobs {value:,} capped at this machine's {available} cores", markup=False)
        return available
    return value


def budget(value: int) -> int:
    """A build total: a whole multiple of 100 (HC-SETUP-02) from 100 to 1000."""
    if value < 100 or value > 1000 or value % 100:
        raise ClixError(f"--budget takes a build total of 100, 200, ... up to 1000 (got {value:,})")
    return value
