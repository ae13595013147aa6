"""A game state that search can copy and processes can ship (issue 16, part 2): `GameState.copy()` gives an
independent game (its own pieces, players, plot table and dice; the map, stats and cards shared), and a
state pickles (its players' closure left out) and plays on the same after unpickling. The cost of a copy
against an action is a benchmark (`clix bench` prints it), not a test."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from clix.analyzer.library import REPO_ROSTERS
from clix.analyzer.runner import Matchup, play_state, start_state
from clix.engine.dice import Dice, ForcedDice
from clix.engine.game import seat, step
from clix.engine.state import GameState

MATCHUPS = [
    Matchup(REPO_ROSTERS, "butcher-shop", "firing-line", "graveyard"),
    Matchup(REPO_ROSTERS, "mildew-parish", "ashfang-pack", "mansion", "hunter", "rusher"),
    Matchup(REPO_ROSTERS, "crimson-court", "haunting", "graveyard", "random", "tuned"),
]


def _log(state: GameState) -> list[str]:
    return [str(event) for event in state.log]


def _midgame(matchup: Matchup, turn: int = 8):
    state, agents = start_state(matchup, 3, 0)
    while not state.over and state.turn < turn:
        step(state, agents)
    assert not state.over
    return state, agents


def _finish(state: GameState, agents) -> GameState:
    seat(state, agents)
    while not state.over:
        step(state, agents)
    return state


def _snapshot(state: GameState) -> tuple:
    """What a state holds that play changes (the map, stats and cards never change)."""
    return (
        [(m.uid, m.pos, m.click, m.side, m.tokens, m.alive, tuple(m.victims), m.controller) for m in state.monsters],
        [(v.uid, v.pos, v.state, v.face_up, v.by) for v in state.victims],
        [(o.uid, o.pos, o.alive) for o in state.objects],
        [(p.number, p.eliminated, tuple(p.crypt)) for p in state.players],
        {k: dict(v) for k, v in state.vp.items()},
        (state.active, state.turn, state.phase, state.actions_left, state.over, state.winner),
        _log(state),
        state.dice.rolled,
    )


@pytest.mark.parametrize("matchup", MATCHUPS, ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_copy_plays_the_same_future_as_the_original(matchup):
    """Same dice, same players (their generators copied too): the copy's game is the original's."""
    state, agents = _midgame(matchup)
    twin, twin_agents = state.copy(), copy.deepcopy(agents)
    assert twin.geometry is state.geometry and twin.cards is state.cards
    assert all(a.stats is b.stats and a is not b for a, b in zip(twin.monsters, state.monsters, strict=True))
    _finish(state, agents)
    _finish(twin, twin_agents)
    assert _log(twin) == _log(state)
    reference, _ = play_state(matchup, 3, 0)  # the game never copied
    assert _log(state) == _log(reference)


@pytest.mark.parametrize("matchup", MATCHUPS, ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_copy_with_other_dice_is_independent_of_the_original(matchup):
    """The original and a copy with fresh dice, played in turns side by side: neither affects the other,
    the original ends exactly as the game that was never copied, the copy differently."""
    state, agents = _midgame(matchup)
    twin_agents = copy.deepcopy(agents)
    twin = state.copy(dice=Dice(np.random.default_rng(12345)))
    seat(twin, twin_agents)
    before = _snapshot(state)
    step(twin, twin_agents)
    assert _snapshot(state) == before  # playing the copy leaves the original untouched
    while not (state.over and twin.over):
        for game, players in ((state, agents), (twin, twin_agents)):
            if not game.over:
                seat(game, players)
                step(game, players)
    reference, _ = play_state(matchup, 3, 0)
    assert _log(state) == _log(reference)
    assert _log(twin) != _log(state)
    assert twin.log[: len(before[6])] == state.log[: len(before[6])]  # a shared past


@pytest.mark.parametrize("matchup", MATCHUPS, ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_state_pickles_and_plays_on_the_same(matchup):
    state, agents = _midgame(matchup)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.ask is None  # the players' closure is not pickled
    assert _snapshot(restored) == _snapshot(state)
    assert pickle.loads(pickle.dumps(restored.dice)).rolled == state.dice.rolled
    restored_agents = copy.deepcopy(agents)
    _finish(state, agents)
    _finish(restored, restored_agents)
    assert _log(restored) == _log(state)


def test_copied_dice_roll_the_same_future_without_moving_the_originals():
    dice = Dice(np.random.default_rng(7))
    first = [dice.d6() for _ in range(10)]
    twin = dice.copy()
    ahead = [twin.d6() for _ in range(300)]  # past the batch: the generator itself was copied
    assert [dice.d6() for _ in range(300)] == ahead
    assert first != ahead[:10] or len(set(first)) == 1
    forced = ForcedDice([1, 2, 3])
    forced.d6()
    other = forced.copy()
    assert [other.d6(), other.d6()] == [2, 3] and forced.left == 2
