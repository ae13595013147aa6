"""Horrified games played for `clix horrified`: seeds spawned in the parent (game k always gets the k-th child, so
every cell of a table plays the same seeds), chunks of games on joblib workers, rows back in game order whatever
`--jobs` is. The ruleset is reached only through the core's registry (`ruleset_named`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from clix.engine.core.ruleset import ruleset_named

CHUNK = 25
"""Games per worker task (small enough for a smooth progress bar, large enough to hide the task overhead)."""


def kit() -> Any:
    """Horrified's matchup kit, through the registry."""
    return ruleset_named("horrified").matchups()


@dataclass(frozen=True)
class Cell:
    """What one set of games plays: monsters, heroes (one per seat), the player style, the library layers and an
    assumed number changed (`knob` = `value`; none: the files as they are)."""

    monsters: tuple[str, ...]
    heroes: tuple[str, ...]
    style: str = "team"
    layers: tuple[Path, ...] = ()
    knob: str | None = None
    value: int = 0

    @property
    def label(self) -> str:
        return "+".join(self.monsters) + " vs " + "+".join(self.heroes)


def seeds(seed: int, games: int) -> list[np.random.SeedSequence]:
    """One child seed per game, spawned in the parent from `seed`."""
    return np.random.SeedSequence(seed).spawn(games)


def _play_chunk(cell: Cell, chunk: list[tuple[int, np.random.SeedSequence]]) -> list[dict[str, Any]]:
    """A worker's task: the games of `chunk` (index, seed) of `cell`, one row each."""
    horrified = kit()
    components = horrified.components(cell.layers, cell.knob, cell.value)
    rows = []
    for index, seed in chunk:
        row = horrified.play_game(components, cell.monsters, cell.heroes, cell.style, seed)
        rows.append({"game": index, **row})
    return rows


def play_cells(
    cells: Sequence[Cell],
    game_seeds: Sequence[np.random.SeedSequence],
    jobs: int,
    advance: Callable[[int], None] | None = None,
    wanted: Sequence[Sequence[int]] | None = None,
    on_rows: Callable[[int, list[dict[str, Any]]], None] | None = None,
) -> list[list[dict[str, Any]]]:
    """Every game of every cell (the same seeds in each), rows in game order per cell; `advance(n)` after each chunk.
    `wanted`: each cell's game indexes to play (default: all of `game_seeds`); `on_rows(c, rows)` is told each
    chunk of cell `c` as it finishes (the result store's writer), in the parent."""
    every = range(len(game_seeds))
    todo = [list(every) for _ in cells] if wanted is None else [sorted(w) for w in wanted]
    tasks = [
        (c, [(k, game_seeds[k]) for k in todo[c][start : start + CHUNK]])
        for c in range(len(cells))
        for start in range(0, len(todo[c]), CHUNK)
    ]
    found: list[list[dict[str, Any]]] = [[] for _ in cells]
    if jobs <= 1:
        done = (_play_chunk(cells[c], chunk) for c, chunk in tasks)
    else:
        from joblib import Parallel, delayed

        run = Parallel(n_jobs=jobs, return_as="generator")
        done = run(delayed(_play_chunk)(cells[c], chunk) for c, chunk in tasks)
    for (c, _), rows in zip(tasks, done, strict=True):
        found[c].extend(rows)
        if on_rows is not None:
            on_rows(c, rows)
        if advance is not None:
            advance(len(rows))
    for rows in found:
        rows.sort(key=lambda row: row["game"])
    return found
