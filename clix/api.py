"""The Python API, for notebooks and scripts: the analyses of the command line, returning pandas tables.

    >>> import clix
    >>> result = clix.duel("butcher-shop", "firing-line", games=200)
    >>> result.score            # A's score (wins + half draws) with its 95% interval
    >>> result.games.head()     # one row per game, as games.csv
    >>> result.figures          # one row per figure per game

Armies and maps are given by name (resolved in the roster library: the sample library shipped with clix,
or the folders passed as `rosters`), or as paths to YAML files. Nothing is printed or written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from clix.analyzer.checks import MAX_GAMES, MAX_TURNS
from clix.analyzer.errors import ClixError
from clix.analyzer.library import default_roster_dir, load_checked
from clix.analyzer.runner import Matchup, run_matchup
from clix.analyzer.stats import summarize
from clix.engine.roster.loader import Roster
from clix.engine.roster.problems import did_you_mean


@dataclass
class DuelResult:
    """A duel's tables and summary (the numbers of `clix duel --json`)."""

    games: pd.DataFrame
    """One row per game (the columns of games.csv)."""
    figures: pd.DataFrame
    """One row per figure per game (figures.csv)."""
    summary: dict[str, Any]
    """Every statistic of the report: score, outcome, victory points, victim rush, figures, ..."""
    settings: dict[str, Any]

    @property
    def score(self) -> tuple[float, float, float]:
        """Army A's score (wins + half of the draws) and its 95% interval, as fractions."""
        found = self.summary["score"]
        return float(found["score"]), float(found["low"]), float(found["high"])


def load_library(rosters: str | Path | None = None) -> Roster:
    """The roster library in `rosters` (default: the one `clix` uses), checked; a ClixError names its first
    problem."""
    return load_checked(Path(rosters) if rosters is not None else default_roster_dir())


def duel(
    army_a: str,
    army_b: str,
    *,
    games: int = 400,
    map: str = "graveyard",
    players: str = "tuned,tuned",
    seed: int = 0,
    turns: int = 15,
    ties: str = "break",
    jobs: int | None = 1,
    rosters: str | Path | None = None,
) -> DuelResult:
    """Play `games` seeded games of army A against army B (seats swapped in pairs) and summarize them.

    The same arguments give the same games as `clix duel` with the same options, for any `jobs`."""
    from clix.analyzer.duel import parse_players

    if not 2 <= games <= MAX_GAMES:
        raise ClixError(f"games must be between 2 and {MAX_GAMES:,} (got {games})")
    if not 1 <= turns <= MAX_TURNS:
        raise ClixError(f"turns must be between 1 and {MAX_TURNS} (got {turns})")
    if seed < 0:
        raise ClixError(f"seed must be 0 or more (got {seed})")
    library = Path(rosters) if rosters is not None else default_roster_dir()
    roster = load_checked(library)
    for army in (army_a, army_b):
        if army not in roster.armies:
            raise ClixError(did_you_mean("army", army, roster.armies))
    if map not in roster.maps:
        raise ClixError(did_you_mean("map", map, roster.maps))
    style_a, style_b = parse_players(players)
    matchup = Matchup(library, army_a, army_b, map, style_a, style_b, turns, ties)
    result = run_matchup(matchup, games, seed, jobs)
    if result.interrupted:
        raise KeyboardInterrupt
    games_df = pd.DataFrame(result.games)
    figures_df = pd.DataFrame(result.figures)
    settings = {"army_a": army_a, "army_b": army_b, "map": map, "players": f"{style_a},{style_b}", "seed": seed}
    settings |= {"turns": turns, "ties": ties, "games": len(games_df), "failed_games": result.failed}
    return DuelResult(games_df, figures_df, summarize(games_df, figures_df), settings)
