"""`clix.horrified`: Horrified's co-operative win rate for a line-up, or a difficulty, hero or sensitivity table, as
`clix horrified` plays them (analyzer/horrified/), returned as tables (issue 40)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import Names, Progress, Result
from clix.api._melee import API_RUN

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FLAGS = common.flags_of(
    "monsters",
    "heroes",
    "seats",
    "difficulty",
    "table",
    "games",
    "players",
    "seed",
    "jobs",
    "data",
    "store",
    "fresh",
    "sensitivity",
)
DEFAULT_GAMES = {"lineup": 400}
"""Games per cell when `games` is not given: 400 for a line-up, 100 per cell for a table (as the command's)."""


@dataclass(repr=False, eq=False)
class HorrifiedResult(Result):
    """A Horrified run's games (one row per game, as games.csv) and its summary (as `clix horrified --json`)."""

    games: pd.DataFrame
    summary: dict[str, Any] = field(default_factory=dict)
    measured: Any = None
    """The run as the command holds it (analyzer/horrified/command.py's Measured), for `report`."""
    layers: tuple[Path, ...] = ()
    folder: Path | None = None
    """For a run read from the result store (`clix.results().run(ID)`): the folder its command wrote."""

    @property
    def headline(self) -> str:
        return str(self.summary["headline"])

    @property
    def ends_by_turn(self) -> pd.DataFrame:
        """Games ended at each turn, by what ended them (win, terror, deck out), for the table's baseline."""
        return pd.DataFrame(self.summary["ends_by_turn"])

    def table(self) -> pd.DataFrame:
        """The run's table with its intervals: one row for a line-up; a row per cell (difficulty), swap (heroes)
        or assumed value (sensitivity)."""
        s = self.summary
        if s["table"] == "lineup":
            return pd.DataFrame([_rate_row({"heroes": ", ".join(s["heroes"])}, s["win_rate"], s["ends"])])
        if s["table"] == "difficulty":
            return pd.DataFrame(
                [
                    _rate_row(
                        {"difficulty": r["difficulty"], "monsters": ", ".join(r["monsters"]), "players": r["players"]},
                        r["win_rate"],
                        r["ends"],
                    )
                    | _check(r)
                    for r in s["cells"]
                ]
            )
        if s["table"] == "heroes":
            return pd.DataFrame(
                [
                    _rate_row({"seat": r["seat"], "out": r["out"], "in": r["in"]}, r["win_rate"])
                    | _change(r["change"])
                    | _check(r)
                    for r in s["swaps"]
                ]
            )
        return pd.DataFrame(
            [
                _rate_row(
                    {"assumption": r["assumption"], "value": r["value"], "baseline": r["baseline"]}, r["win_rate"]
                )
                | _change(r["change"])
                | {"flips": ", ".join(r["flips"]) or "survives"}
                for r in s["variants"]
            ]
        )

    def plot(self) -> Figure:
        """What ends the games by turn: the share over by each turn, stacked won / terror / deck out."""
        from clix.analyzer.horrified.report import ends_figure

        return ends_figure(self.summary["ends_by_turn"])

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.horrified.command import write_outputs

        if self.measured is None:
            raise ClixError(
                f"report: a Horrified run read from the store is written only by its command (its folder: {self.folder}); "
                "clix.horrified(...) with its arguments and store= writes a new one from the stored games"
            )
        return write_outputs(folder, self.measured, self.layers, pdf)


def _rate_row(row: dict[str, Any], rate: dict[str, Any], ends: dict[str, int] | None = None) -> dict[str, Any]:
    found = row | {"win_rate": rate["rate"], "low": rate["low"], "high": rate["high"]}
    return found | ({f"ended {end}": count for end, count in ends.items()} if ends else {})


def _check(row: dict[str, Any]) -> dict[str, Any]:
    """A verdict and its sensitivity check's mark, when the table was checked."""
    return {"verdict": row["verdict"], "check": row["mark"]} if "mark" in row else {}


def _change(change: dict[str, Any]) -> dict[str, Any]:
    return {"change": change["difference"], "change_low": change["low"], "change_high": change["high"]}


def horrified(
    monsters: Names = None,
    heroes: Names = None,
    *,
    seats: int | None = None,
    difficulty: str | None = None,
    table: str = "lineup",
    games: int | None = None,
    players: str = "team",
    seed: int = 0,
    jobs: int = 0,
    data: str | Path | Sequence[str | Path] | None = None,
    progress: Progress = None,
    store: str | Path | None = None,
    fresh: bool = False,
    sensitivity: bool = True,
) -> HorrifiedResult:
    """Horrified's co-operative win rate with its 95% Wilson interval for `monsters` (default: `difficulty`'s first
        line-up, novice) and `heroes` (default: the first `seats` heroes, 2), or with `table` "difficulty", "heroes" or
        "sensitivity" that table (a difficulty or hero table's verdicts checked in every assumed world unless
        `sensitivity` is False), as `clix horrified` plays it with the same arguments (for any `jobs`); `data` is
        `--data` (Horrified files over the sample components). With a result `store` (a DuckDB file, as `clix horrified
    --store`) each cell's games are taken from it (unless `fresh`) and the others added. Mistakes raise
    `clix.ClixError`."""
    from clix.analyzer.horrified.command import GAME_FIELDS, TABLES, Plan, game_rows, measure, planned
    from clix.analyzer.horrified.keep import HorrifiedKeeper
    from clix.analyzer.horrified.lineup import layers_for, resolve

    if table not in TABLES:
        raise ClixError(f"table: choose one of {', '.join(TABLES)}, not {table!r}")
    n = common.games(DEFAULT_GAMES.get(table, 100) if games is None else games, minimum=1)
    common.seed(seed)
    cores = common.jobs(jobs)
    if seats is not None:
        common.whole(seats, "seats")
    paths = [] if data is None else [Path(p) for p in ([data] if isinstance(data, str | Path) else data)]
    with common.python_errors(FLAGS):
        base, level = resolve(
            layers_for(paths),
            common.names(monsters, "monsters") if monsters is not None else [],
            common.names(heroes, "heroes") if heroes is not None else [],
            seats,
            difficulty,
            players,
        )
        plan = Plan(table, base, level, n, seed, sensitivity)
        counter = common.Counter(progress, planned(plan))
        keeper = None if store is None else HorrifiedKeeper(Path(store), seed, n, fresh)
        measured = measure(plan, cores, counter.step, keeper)
        if keeper is not None:
            keeper.record(measured.summary, measured.score, measured.summary["command"], API_RUN.format("horrified"))
    games_table = pd.DataFrame(game_rows(measured.cells, measured.found), columns=GAME_FIELDS)
    return HorrifiedResult(games=games_table, summary=measured.summary, measured=measured, layers=base.layers)
