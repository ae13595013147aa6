"""HorrorClix games from a seed: set up, then driven to their end by the game driver (engine/core/driver.py, whose
`play`, `step`, `settle` and `Watch` are read from here too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
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
    "child_seed",
    "child_seeds",
    "play",
    "play_game",
    "settle",
    "start_game",
    "step",
]


def child_seeds(seed: int | np.random.SeedSequence, count: int) -> list[np.random.SeedSequence]:
    """The first `count` children of `seed`, derived without mutating it (`SeedSequence.spawn` counts
    its calls, so spawning twice from one object would give different games)."""
    return [child_seed(seed, k) for k in range(count)]


def child_seed(seed: int | np.random.SeedSequence, k: int) -> np.random.SeedSequence:
    """Child `k` of `seed`: the same as `child_seeds(seed, k + 1)[k]`, without making the others."""
    parent = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.SeedSequence(parent.entropy, spawn_key=(*parent.spawn_key, k), pool_size=parent.pool_size)


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
) -> GameState:
    """Play one game from its seed: the dice and each player get their own generator spawned from it,
    so the game replays exactly from (armies, map, players, seed)."""
    state, agents = start_game(roster, armies, layout, agent_factories, seed, turn_limit, army_names, tie_break, watch)
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
) -> tuple[GameState, list[Agent]]:
    """The game `play_game` plays, set up and ready for its first action, with its players."""
    dice_seed, *player_seeds = child_seeds(seed, 1 + len(armies))
    agents = [factory(np.random.default_rng(s)) for factory, s in zip(agent_factories, player_seeds, strict=True)]
    state = new_game(roster, armies, layout, np.random.default_rng(dice_seed), turn_limit, army_names, tie_break)
    settle(state, agents, watch=watch)
    return state, agents
