"""`clix tune --ruleset heroclix-2005`'s games: the HeroClix heuristic's weights (engine/heroclix/players) played
in the sample forces' mirrors on the sample maps, through the HeroClix matchup kit (its setup from a seed, every
setup choice a player's). `tune.py` runs the race; this module only knows how to play one game of it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.engine.core.dice import child_seed
from clix.engine.core.ruleset import ruleset_named

if TYPE_CHECKING:
    from clix.engine.heroclix.players.weights import Weights

NAME = "heroclix-2005"
TUNED_FIELDS = (
    "damage",
    "kills",
    "threat",
    "reach",
    "pressure",
    "approach",
    "close",
    "push",
    "tempo",
    "heal",
    "urgency",
)
"""The weights the search varies (noise stays as it is: it only breaks ties)."""
TURNS = 15
"""Rounds per game: the duel's default turn limit for HeroClix."""


def library(rosters: Path) -> Any:
    """The HeroClix library under `rosters` (its heroclix folder, as the commands read it)."""
    return ruleset_named(NAME).matchups().library((rosters,))


def armies_and_maps(rosters: Path) -> tuple[list[str], list[str]]:
    """The sample forces and maps, by name."""
    found = library(rosters)
    return sorted(found.forces), sorted(found.maps)


def _factory(style: str | Weights):  # type: ignore[no-untyped-def]
    """The factory of a HeroClix player: a style's name, or a candidate's weights."""
    players = ruleset_named(NAME).part("players")
    if isinstance(style, players.Weights):
        return players.style_factory("candidate", style)
    return ruleset_named(NAME).matchups().player_factory(style)


def play_cell(rosters: Path, weights: Weights, cell: Any, seed: int, opponent: Weights | None = None) -> float:
    """The candidate's score (1, ½, 0) in one game of the design: a force's mirror on a map, seats as the cell
    says, the game's seed the cell's key (the same for every candidate: common random numbers)."""
    found = library(rosters)
    factories = [_factory(weights), _factory(opponent if opponent is not None else cell.opponent)]
    if cell.swapped:
        factories.reverse()
    force = cell.army
    matchups = ruleset_named(NAME).matchups()
    state, agents = matchups.start(
        found, [force, force], {}, cell.map_name, factories, child_seed(seed, cell.key), TURNS, True
    )
    state = matchups.play(state, agents)
    mine = 2 if cell.swapped else 1
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner == mine else 0.0
