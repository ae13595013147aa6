"""The game driver: put each question the game waits for to its player until the game ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from clix.engine import decisions, rules
from clix.engine.dice import Dice
from clix.engine.pending import Decision
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army, MapLayout
from clix.engine.setup import DEFAULT_TURN_LIMIT, new_game
from clix.engine.state import GameState

if TYPE_CHECKING:  # players drive playouts with this module (engine.players.search): it knows them as a type
    from clix.engine.players.base import Agent

MAX_DECISIONS = 100_000
"""A safety net: a game that needs more decisions than this has a bug, not a long fight."""


class GameStuck(Exception):
    """A game that did not end within MAX_DECISIONS decisions."""


Watch = Callable[[GameState, Decision, int], None]
"""Told of each choice a player made, with the game as it stands (a recorder's or a replay's view)."""


def play(state: GameState, agents: Sequence[Agent], dice: Dice | None = None, watch: Watch | None = None) -> GameState:
    """Drive the game to its end: put each question to its player, roll `dice` for each chance event (a
    state without dice of its own has them); return the final state."""
    for _ in range(MAX_DECISIONS):
        if state.over:
            return state
        step(state, agents, dice, watch)
    raise GameStuck(f"no end after {MAX_DECISIONS} decisions (turn {state.turn})")


def step(state: GameState, agents: Sequence[Agent], dice: Dice | None = None, watch: Watch | None = None) -> None:
    """One answer: the active player's action (applied at once when it is the only one), or the answer to
    the question the game waits for in the middle of a step, or the outcome of a chance event."""
    waiting = state.waiting
    if waiting is None:
        options = rules.legal_actions(state)
        if len(options) == 1:  # nothing to choose (often: only ending the turn is left)
            rules.apply(state, options[0], listed=True)
            return
        decision = Decision("action", state.active, options)
        choice = agents[state.active - 1].choose(state.view_for_choice(state.active), decision)
        if watch is not None:
            watch(state, decision, choice)
        rules.apply(state, options[choice], listed=True)
    elif isinstance(waiting, Decision):
        choice = agents[waiting.player - 1].choose(state.view_for_choice(waiting.player), waiting)
        if watch is not None:
            watch(state, waiting, choice)
        decisions.answer(state, choice)
    elif dice is not None:
        decisions.resolve(state, decisions.roll(waiting, dice))
    else:
        raise RuntimeError("the game waits for a chance event, and its driver was given no dice")


def settle(state: GameState, agents: Sequence[Agent], dice: Dice | None = None, watch: Watch | None = None) -> None:
    """Answer what the game waits for in the middle of a step until the step is over (the next question
    is the active player's action, or the game is over)."""
    while state.waiting is not None:
        step(state, agents, dice, watch)


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
