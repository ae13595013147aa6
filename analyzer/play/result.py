"""A run's result: the rows of the games finished (packed), the games that failed, how the run ended, and the
lines and exit code that say so."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clix.analyzer.play.rowtable import Rows, RowTable
from rich.console import Console

if TYPE_CHECKING:
    import pandas as pd

GameRows = tuple[dict[str, Any], list[dict[str, Any]]]
"""A game's row and its figure rows (`play_one`)."""


@dataclass
class RunResult:
    """The rows of every game finished (packed as columns, read in game order), the games that failed, and
    whether the run was cut short."""

    game_table: RowTable = field(default_factory=RowTable)
    figure_table: RowTable = field(default_factory=RowTable)
    interrupted: bool = False
    seconds: float = 0.0
    failed: list[dict[str, Any]] = field(default_factory=list)
    """Games not played: {game, seed_path, reason} ("worker died", or the exception a game raised)."""
    stopped: bool = False
    """Stopped at the first failed game (`stop_on_error`, or a game that raised)."""
    crashed: bool = False
    """Stopped because a game raised (a bug or bad data), not at `stop_on_error`'s request."""
    from_store: int = 0
    """Games taken from `known` (the result store) rather than played."""
    indexes: array = field(default_factory=lambda: array("q"))
    """The index of each game, in the order they finished (`sorted` gives the order of `games`)."""

    def add(self, index: int, rows: GameRows) -> None:
        """Keep a finished game's rows."""
        game, figures = rows
        self.game_table.add(index, [game])
        self.figure_table.add(index, figures)
        self.indexes.append(index)

    def extend(self, other: RunResult) -> None:
        """Add another run's games (a later look of the same matchup) and its counts."""
        self.game_table.extend(other.game_table)
        self.figure_table.extend(other.figure_table)
        self.indexes.extend(other.indexes)
        self.failed.extend(other.failed)
        self.from_store += other.from_store
        self.seconds += other.seconds

    def between(self, first: int, stop: int) -> RunResult:
        """The games with an index in [first, stop) (this result itself when that is all of them)."""
        return self.among(lambda keys: (keys >= first) & (keys < stop))

    def among(self, chosen: Callable[[Any], Any]) -> RunResult:
        """The games whose index `chosen` (given an array of indexes, a boolean array) picks; this result itself
        when it picks them all."""
        import numpy as np

        keys = np.frombuffer(self.indexes, dtype=np.int64) if len(self.indexes) else np.zeros(0, dtype=np.int64)
        picked = chosen(keys)
        if bool(np.all(picked)):
            return self
        kept = RunResult(
            self.game_table.where(chosen(self.game_table.keys())),
            self.figure_table.where(chosen(self.figure_table.keys())),
        )
        kept.indexes = array("q", keys[picked].tobytes())
        kept.from_store = kept.count if self.from_store == self.count else 0
        return kept

    @property
    def count(self) -> int:
        """Games finished (played or taken from the store)."""
        return len(self.game_table)

    @property
    def games(self) -> Rows:
        """Every game row in game order, as dicts (made when read; `games_frame()` is the cheap way to a frame)."""
        return Rows(self.game_table)

    @property
    def figures(self) -> Rows:
        """Every figure row in game order, as dicts."""
        return Rows(self.figure_table)

    def games_frame(self) -> pd.DataFrame:
        """The game rows as a DataFrame (what `pd.DataFrame(result.games)` gives, without the dicts)."""
        return self.game_table.frame()

    def figures_frame(self) -> pd.DataFrame:
        """The figure rows as a DataFrame."""
        return self.figure_table.frame()

    @property
    def played(self) -> int:
        """Games played by this run."""
        return self.count - self.from_store


def report_line(line: str) -> None:
    """Print a line about a game that failed (or is played again) on stderr."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(line, markup=False)


def run_exit_code(interrupted: bool, failed: bool, stopped: bool = False) -> int:
    """130 when the run was interrupted, 1 when games failed or it stopped at a failure (the outputs cover
    the games finished), else 0."""
    if interrupted:
        return 130
    return 1 if failed or stopped else 0


def ended_early(finished: int, unit: str, interrupted: bool, stopped: bool, failed: int, crashed: bool = False) -> None:
    """The line (on stderr, so --json output stays JSON) saying a run did not play everything: interrupted,
    stopped at a game that raised (`crashed`) or at a failure (--stop-on-error), or with failed games."""
    if not finished:
        return  # the caller says there is nothing to report
    if interrupted:
        report_line(f"interrupted: reporting the {finished} {unit} finished")
    elif stopped and crashed:
        report_line(
            f"stopped at the first game that crashed (a bug or bad data, named above; `clix replay` plays it "
            f"again): reporting the {finished} {unit} finished"
        )
    elif stopped:
        report_line(f"stopped at the first failed game (--stop-on-error): reporting the {finished} {unit} finished")
    elif failed:
        report_line(
            f"{failed} game{'s' if failed > 1 else ''} failed (named above; replay one with `clix replay`): "
            f"reporting the {finished} {unit} finished"
        )
