"""`clix.ladder`: player styles ranked on mirror matchups, as `clix ladder` plays them (analyzer/ladder)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import Names, Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FLAGS = common.flags_of("players", "armies", "maps", "games", "seed", "turns", "jobs", "ruleset")


@dataclass(repr=False, eq=False)
class LadderResult(Result):
    """A ladder's ratings, its scores style against style, its games and its summary."""

    ratings: pd.DataFrame
    """One row per style, best first: its Bradley-Terry rating in Elo points with a 95% bootstrap interval and its
    score against the field (the other styles)."""
    pairs: pd.DataFrame
    """One row per pair of styles: the first style's score against the second with its 95% interval (ladder.csv)."""
    games: pd.DataFrame
    """Every game, with its cell's styles, army and map first (games.csv)."""
    summary: dict[str, Any]
    """The ratings, the score matrix and the search player's skill trace."""
    settings: dict[str, Any]

    @property
    def headline(self) -> str:
        best, *others = self.summary["ratings"]
        against = ""
        if others and (versus := self.summary["matrix"][best["style"]].get(others[0]["style"])):
            against = f"; {common.percent(versus)} against {others[0]['style']}"
        return (
            f"{best['style']} tops the ladder of {len(self.summary['styles'])} styles: rating {best['rating']:+.0f} "
            f"[{best['low']:+.0f}, {best['high']:+.0f}] Elo{against} ({self.settings['games']} games)"
        )

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    "style": r["style"],
                    "rating [95%]": f"{r['rating']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]",
                    "vs field [95%]": common.percent(r, "score_low", "score_high"),
                    "games": r["games"],
                }
                for r in self.summary["ratings"]
            ]
        )

    def plot(self) -> Figure:
        """Each style's rating with its 95% interval, best at the top."""
        from matplotlib.figure import Figure

        rows = self.summary["ratings"]
        fig = Figure(figsize=(6, 0.45 * len(rows) + 1.6), dpi=100, layout="constrained")
        ax = fig.subplots()
        for y, r in enumerate(rows):
            ax.errorbar(
                r["rating"], y, xerr=[[r["rating"] - r["low"]], [r["high"] - r["rating"]]], fmt="o", capsize=4, lw=2
            )
        ax.axvline(0, color="#555555", ls="--", lw=1)
        ax.set_yticks(range(len(rows)), [r["style"] for r in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel("Bradley-Terry rating, Elo points (mean 0), 95% interval")
        ax.set_title("Player styles on mirror matchups", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        return fig

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.ladder.command import write_ladder

        return write_ladder(
            folder, self.summary, self.games, self.settings, pdf=pdf, kind=common.army_kind(self.settings)
        )


def ladder(
    players: Names = None,
    *,
    armies: Names = None,
    maps: Names = None,
    games: int = 40,
    seed: int = 0,
    turns: int = 15,
    jobs: int = 0,
    rosters: Source = None,
    progress: Progress = None,
    ruleset: str | None = None,
) -> LadderResult:
    """A round robin of player styles (default: random and every heuristic style): every pair of styles plays
    mirror matchups (army X against army X) on every army and map named (default: all), `games` per style pair,
    army and map, each cell with the same seed; the styles are rated (Bradley-Terry, Elo points) with 95%
    intervals. As `clix ladder`; names are lists or comma-separated strings. HeroClix forces in `armies` (or
    `ruleset="heroclix-2005"`: every sample force and map) rank the HeroClix players."""
    from clix.engine.core.ruleset import DEFAULT_RULESET

    common.games(games)
    common.turns(turns)
    common.seed(seed)
    cores = common.jobs(jobs)
    with common.python_errors(FLAGS):
        army_names, map_names = common.names(armies, "armies"), common.names(maps, "maps")
        named = [("armies", a, False) for a in army_names] + [("maps", m, True) for m in map_names]
        chosen = common.ruleset_of(rosters, named, ruleset)
        if chosen != DEFAULT_RULESET:
            return _other_ladder(chosen, players, army_names, map_names, games, seed, turns, cores, rosters, progress)
        library = common.load(
            rosters,
            {name: "armies" for name in army_names} | {name: "maps" for name in map_names},
            armies=army_names,
            maps=map_names,
            choose=lambda roster: {
                "armies": [] if army_names else sorted(roster.armies),
                "maps": [] if map_names else sorted(roster.maps),
            },
        )
        return _play_ladder(
            library.roster,
            library.layers,
            players,
            ",".join(library.id(a) for a in army_names) or None,
            ",".join(library.id(m) for m in map_names) or None,
            (games, seed, turns, cores),
            progress,
            DEFAULT_RULESET,
        )


def _other_ladder(
    ruleset: str,
    players: Names,
    army_names: list[str],
    map_names: list[str],
    games: int,
    seed: int,
    turns: int,
    cores: int,
    rosters: Source,
    progress: Progress,
) -> LadderResult:
    """`ladder` of a ruleset other than HorrorClix (its kit's styles, forces and maps)."""

    other = common.ruleset_library(
        rosters, ruleset, [("armies", a) for a in army_names], [("maps", m) for m in map_names]
    )
    return _play_ladder(
        other.data,
        other.layers,
        players,
        ",".join(other.id(a) for a in army_names) or None,
        ",".join(other.id(m) for m in map_names) or None,
        (games, seed, turns, cores),
        progress,
        ruleset,
    )


def _play_ladder(
    data: Any,
    layers: Any,
    players: Names,
    army_ids: str | None,
    map_ids: str | None,
    sizes: tuple[int, int, int, int],
    progress: Progress,
    ruleset: str,
) -> LadderResult:
    """Plan, play and rate a ladder of `ruleset` on its library `data` (`sizes`: games, seed, turns, cores)."""
    from clix.analyzer.ladder.command import ladder_outcome, ladder_plan, run_cells

    games, seed, turns, cores = sizes
    styles, armies_played, maps_played, matchups = ladder_plan(
        data, layers, common.comma(players, "players"), army_ids, map_ids, games, turns, ruleset
    )
    per_cell = games + games % 2
    counter = common.Counter(progress, per_cell * len(matchups))
    played = run_cells(matchups, per_cell, seed, cores, progress=counter.step)
    if played.interrupted:
        raise KeyboardInterrupt
    if not any(played.complete):
        raise ClixError("no cell of the ladder finished: each had a failed game (named above)")
    games_df, summary, settings = ladder_outcome(
        matchups, played, styles, armies_played, maps_played,
        games=per_cell, seed=seed, turns=turns, jobs=cores, resamples=200, ruleset=ruleset, data=data,
    )  # fmt: skip
    return LadderResult(pd.DataFrame(summary["ratings"]), pd.DataFrame(summary["pairs"]), games_df, summary, settings)
