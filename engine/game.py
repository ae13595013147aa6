"""Playing a whole game: set up, then ask the players for decisions until the game ends."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from clix.engine import rules
from clix.engine.players.base import Agent, Decision
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army, MapLayout
from clix.engine.setup import DEFAULT_TURN_LIMIT, new_game
from clix.engine.state import GameState

MAX_DECISIONS = 100_000
"""A safety net: a game that needs more decisions than this has a bug, not a long fight."""


class GameStuck(Exception):
    """A game that did not end within MAX_DECISIONS decisions."""


def play(state: GameState, agents: Sequence[Agent]) -> GameState:
    """Ask the active player for an action until the game is over; return the final state."""
    seat(state, agents)
    for _ in range(MAX_DECISIONS):
        if state.over:
            return state
        step(state, agents)
    raise GameStuck(f"no end after {MAX_DECISIONS} decisions (turn {state.turn})")


def seat(state: GameState, agents: Sequence[Agent]) -> None:
    """Let `agents` (one per player) answer the state's mid-action choices."""
    state.ask = lambda st, decision: agents[decision.player - 1].choose(st, decision)


def step(state: GameState, agents: Sequence[Agent]) -> None:
    """One action: the active player's choice among the legal actions, applied (no choice when only one)."""
    options = rules.legal_actions(state)
    if len(options) == 1:  # nothing to choose (often: only ending the turn is left)
        rules.apply(state, options[0], listed=True)
        return
    agent = agents[state.active - 1]
    choice = agent.choose(state, Decision("action", state.active, options))
    rules.apply(state, options[choice], listed=True)


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
) -> GameState:
    """Play one game from its seed: the dice and each player get their own generator spawned from it,
    so the game replays exactly from (armies, map, players, seed)."""
    state, agents = start_game(roster, armies, layout, agent_factories, seed, turn_limit, army_names, tie_break)
    return play(state, agents)


def start_game(
    roster: Roster,
    armies: Sequence[Army],
    layout: MapLayout,
    agent_factories: Sequence,
    seed: int | np.random.SeedSequence,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    army_names: Sequence[str] = (),
    tie_break: bool = True,
) -> tuple[GameState, list[Agent]]:
    """The game `play_game` plays, set up and ready for its first action, with its players (`new_game` seats
    them for the mid-action choices)."""
    dice_seed, *player_seeds = child_seeds(seed, 1 + len(armies))
    agents = [factory(np.random.default_rng(s)) for factory, s in zip(agent_factories, player_seeds, strict=True)]
    state = new_game(
        roster, armies, layout, agents, np.random.default_rng(dice_seed), turn_limit, army_names, tie_break
    )
    return state, agents
