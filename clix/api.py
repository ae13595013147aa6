"""The Python API, for notebooks and scripts: the analyses of the command line, returning pandas tables.

    >>> import clix
    >>> result = clix.duel("butcher-shop", "firing-line", games=200)
    >>> result.score            # A's score (wins + half draws) with its 95% interval
    >>> result.games.head()     # one row per game, as games.csv
    >>> result.figures          # one row per figure per game

Armies and maps are given by id (resolved in the roster library: the sample library shipped with clix, or
the folders and files passed as `rosters`, later ones replacing items of the same name), as paths to YAML
files, or (armies) as `Army` objects. Nothing is printed or written. Mistakes raise `ClixError`.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library import load as library
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.duel import summarize
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import Army


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


Source = str | Path | Sequence[str | Path] | None


def load_library(rosters: Source = None) -> Roster:
    """The roster library in `rosters` (a folder or file, or several: later ones replace items of the same
    name; default: the library `clix` uses), checked as a whole; a ClixError names its first problem."""
    return library.load_library(_layers(rosters), everything=True).roster


def duel(
    army_a: str | Path | Army,
    army_b: str | Path | Army,
    *,
    games: int = 400,
    map: str | Path = "graveyard",
    players: str = "tuned,tuned",
    seed: int = 0,
    turns: int = 15,
    ties: str = "break",
    jobs: int | None = 1,
    rosters: Source = None,
) -> DuelResult:
    """Play `games` seeded games of army A against army B (seats swapped in pairs) and summarize them.

    An army is an id in the library, a path to an army file, or an `Army` object (e.g. one loaded and edited
    in a notebook); the map an id or a path. The same arguments give the same games as `clix duel` with the
    same options, for any `jobs`. Problems in library files the duel does not use are ignored."""
    from clix.analyzer.duel.command import parse_players

    checks.games(games)
    checks.turns(turns)
    checks.seed(seed)
    with tempfile.TemporaryDirectory(prefix="clix-armies-") as folder:
        names = [_army_argument(army, Path(folder), side) for army, side in ((army_a, "a"), (army_b, "b"))]
        loaded = library.load_library(_layers(rosters), armies=names, maps=[str(map)])
        ids = [loaded.id(name) for name in names]
        map_id = loaded.id(str(map))
        style_a, style_b = parse_players(players)
        matchup = Matchup(loaded.layers, ids[0], ids[1], map_id, style_a, style_b, turns, ties)
        result = run_matchup(matchup, games, seed, jobs)
    if result.interrupted:
        raise KeyboardInterrupt
    games_df = pd.DataFrame(result.games)
    figures_df = pd.DataFrame(result.figures)
    settings: dict[str, Any] = {"army_a": ids[0], "army_b": ids[1], "map": map_id, "players": f"{style_a},{style_b}"}
    settings |= {"seed": seed, "turns": turns, "ties": ties, "games": len(games_df), "failed_games": result.failed}
    return DuelResult(games_df, figures_df, summarize(games_df, figures_df), settings)


def _layers(rosters: Source) -> list[Path] | None:
    if rosters is None:
        return None
    if isinstance(rosters, str | Path):
        return [Path(rosters)]
    return [Path(r) for r in rosters]


def _army_argument(army: str | Path | Army, folder: Path, side: str) -> str:
    """An army argument as the library takes it: an id or a file path (an `Army` object is written to a file
    in `folder`, named after the army, which becomes its id)."""
    if isinstance(army, Army):
        slug = re.sub(r"[^a-z0-9]+", "-", army.name.lower()).strip("-") or "army"
        path = folder / f"{slug}.yaml"
        if path.exists():
            path = folder / f"{slug}-{side}.yaml"
        path.write_text(yaml.safe_dump(army.model_dump(mode="json", exclude_none=True), sort_keys=False))
        return str(path)
    if isinstance(army, Path):
        return str(army)
    if isinstance(army, str):
        return army
    raise ClixError(f"an army is an id, a file path or an Army object (got {type(army).__name__})")
