"""HorrorClix games from a seed: set up, then driven to their end by the game driver (engine/core/driver.py, whose
`play`, `step`, `settle` and `Watch` are read from here too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.driver import MAX_DECISIONS, GameStuck, Watch, play, settle, step
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import Army, MapLayout
from clix.engine.horrorclix.setup import DEFAULT_TURN_LIMIT, new_game
from clix.engine.horrorclix.state import GameState

if TYPE_CHECKING:
    from clix.engine.core.players.base import Agent

__all__ = [
    "MAX_DECISIONS",
    "GameStuck",
    "Watch",
    "play",
    "play_game",
    "settle",
    "start_game",
    "step",
]


def play_game(
    roster: Roster,
    armies: Sequence[Army],
    layout: MapLayout,
    agent_factories: Sequence,
    seed: int | np.random.SeedSequence,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    army_names: Sequence[str] = (),
    tie_break: bool = True,
    watch: Watch | None = None,
    teams: Sequence[int] = (),
) -> GameState:
    """Play one game from its seed: the dice and each player get their own generator spawned from it,
    so the game replays exactly from (armies, map, players, seed)."""
    state, agents = start_game(
        roster, armies, layout, agent_factories, seed, turn_limit, army_names, tie_break, watch, teams
    )
    return play(state, agents, watch=watch)


def start_game(
    roster: Roster,
    armies: Sequence[Army],
    layout: MapLayout,
    agent_factories: Sequence,
    seed: int | np.random.SeedSequence,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    army_names: Sequence[str] = (),
    tie_break: bool = True,
    watch: Watch | None = None,
    teams: Sequence[int] = (),
) -> tuple[GameState, list[Agent]]:
    """The game `play_game` plays, set up and ready for its first action, with its players; `teams` as in
    `setup.new_game` (HC-SPECIAL-11)."""
    dice_seed, *player_seeds = child_seeds(seed, 1 + len(armies))
    agents = [factory(np.random.default_rng(s)) for factory, s in zip(agent_factories, player_seeds, strict=True)]
    state = new_game(roster, armies, layout, np.random.default_rng(dice_seed), turn_limit, army_names, tie_break, teams)
    settle(state, agents, watch=watch)
    return state, agents
