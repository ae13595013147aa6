"""A game state that search can copy and processes can ship (issue 16, part 2): `GameState.copy()` gives an
independent game (its own pieces, players, plot table and dice; the map, stats and cards shared), also when
the game is paused at a question in the middle of a step; a state pickles and plays on the same after
unpickling; a state without dice waits for chance events its driver resolves; a player sees a view without
the dice and the other players' crypts. The cost of a copy against an action is a benchmark (`clix bench`
prints it), not a test."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from clix.analyzer.library.load import REPO_ROSTERS
from clix.analyzer.play.runner import Matchup, play_state, start_state
from clix.engine.core import decisions
from clix.engine.core.dice import Dice, ForcedDice
from clix.engine.core.pending import Chance, Decision
from clix.engine.horrorclix.game import play, step
from clix.engine.horrorclix.state import HIDDEN_CARD, GameState

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
    while not state.over:
        step(state, agents)
    return state


def _snapshot(state: GameState) -> tuple:
    """What a state holds that play changes (the map, stats and cards never change)."""
    return (
        [(m.uid, m.pos, m.click, m.side, m.tokens, m.alive, tuple(m.victims), m.controller) for m in state.monsters],
        [(v.uid, v.pos, v.state, v.face_up, v.by) for v in state.victims],
        [(o.uid, o.pos, o.alive) for o in state.objects],
        [(p.number, p.eliminated, tuple(p.hidden_cards)) for p in state.players],
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
    before = _snapshot(state)
    step(twin, twin_agents)
    assert _snapshot(state) == before  # playing the copy leaves the original untouched
    while not (state.over and twin.over):
        for game, players in ((state, agents), (twin, twin_agents)):
            if not game.over:
                step(game, players)
    reference, _ = play_state(matchup, 3, 0)
    assert _log(state) == _log(reference)
    assert _log(twin) != _log(state)
    assert twin.log[: len(before[6])] == state.log[: len(before[6])]  # a shared past


@pytest.mark.parametrize("matchup", MATCHUPS, ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_state_pickles_and_plays_on_the_same(matchup):
    state, agents = _midgame(matchup)
    restored = pickle.loads(pickle.dumps(state))
    assert restored == state
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


def _paused(matchup: Matchup, skip: int = 0):
    """The game stopped at a question put in the middle of a step (a plot-twist window, a card's choice),
    after `skip` such questions."""
    state, agents = start_state(matchup, 3, 0)
    seen = 0
    while not state.over:
        step(state, agents)
        if isinstance(state.waiting, Decision) and state.waiting.kind != "action":
            if seen == skip:
                return state, agents
            seen += 1
    raise AssertionError("the game never paused in the middle of a step")


@pytest.mark.parametrize("skip", [0, 5])
def test_a_paused_state_copies_to_the_same_question_and_plays_the_same(skip):
    """`apply` never calls a player: a step that needs an answer pauses with `waiting` set. A copy of the
    paused game waits for the same question; answered alike, both play the game that was never copied."""
    matchup = MATCHUPS[0]
    state, agents = _paused(matchup, skip)
    twin, twin_agents = state.copy(), copy.deepcopy(agents)
    assert twin.waiting == state.waiting and twin.waiting is not state.waiting
    assert _snapshot(twin) == _snapshot(state)
    again = state.copy()  # the second copy starts from the state before the step, rebuilt once
    assert _snapshot(again) == _snapshot(state)
    _finish(twin, twin_agents)
    _finish(state, agents)
    reference, _ = play_state(matchup, 3, 0)
    assert _log(state) == _log(reference) == _log(twin)


def test_a_paused_copy_answered_otherwise_leaves_the_original_alone():
    state, agents = _paused(MATCHUPS[0])
    before = _snapshot(state)
    twin, twin_agents = state.copy(), copy.deepcopy(agents)
    waiting = twin.waiting
    assert isinstance(waiting, Decision)
    other = (
        1 - agents[waiting.player - 1].choose(state.copy().view(waiting.player), waiting)
        if len(waiting.options) == 2
        else 0
    )
    decisions.answer(twin, other)
    _finish(twin, twin_agents)
    assert _snapshot(state) == before
    _finish(state, agents)
    reference, _ = play_state(MATCHUPS[0], 3, 0)
    assert _log(state) == _log(reference)


def test_a_paused_state_pickles_to_the_same_question():
    state, agents = _paused(MATCHUPS[0], 2)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.waiting == state.waiting
    assert restored == state
    restored_agents = copy.deepcopy(agents)
    _finish(state, agents)
    _finish(restored, restored_agents)
    assert _log(restored) == _log(state)


@pytest.mark.parametrize("matchup", MATCHUPS[:2], ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_state_without_dice_waits_for_chance_events_its_driver_resolves(matchup):
    """The dice belong to the driver: a state without them pauses at every roll (a chance node with its
    outcomes); a driver rolling the same dice plays the same game."""
    state, agents = _midgame(matchup)
    twin, twin_agents = state.copy(), copy.deepcopy(agents)
    driver_dice, twin.dice = twin.dice, None
    chances = 0
    while not twin.over:
        if isinstance(twin.waiting, Chance):
            assert twin.waiting.outcomes() == [1, 2, 3, 4, 5, 6]
            chances += 1
        step(twin, twin_agents, driver_dice)
    assert chances > 10
    _finish(state, agents)
    assert _log(twin) == _log(state)


def test_a_chance_event_is_answered_only_by_the_driver():
    state, agents = _midgame(MATCHUPS[0])
    state.dice = None
    while not isinstance(state.waiting, Chance):
        step(state, agents)
    with pytest.raises(RuntimeError, match="chance event"):
        step(state, agents)  # no dice given to the driver
    with pytest.raises(ValueError, match="1-6"):
        decisions.resolve(state, 7)
    decisions.resolve(state, 6)
    assert not isinstance(state.waiting, Chance) or state.journal[-1] == 6


def test_a_player_sees_no_dice_and_only_its_own_crypt():
    """HC-PLOT-01: the crypt is hidden from the other players; a player is handed `view(player)`."""
    state, _ = _midgame(MATCHUPS[0], 2)
    for number in (1, 2):
        seen = state.view(number)
        assert seen.dice is None
        for player, shown in zip(state.players, seen.players, strict=True):
            if player.number == number:
                assert shown.hidden_cards == player.hidden_cards
            else:
                assert shown.hidden_cards == [HIDDEN_CARD] * len(player.hidden_cards)
    assert any(p.hidden_cards for p in state.players) and all(HIDDEN_CARD not in p.hidden_cards for p in state.players)


def test_players_are_handed_views():
    class Watcher:
        name = "watcher"

        def __init__(self) -> None:
            self.seen: list[GameState] = []

        def choose(self, state: GameState, decision: Decision) -> int:
            self.seen.append(state)
            return 0

    state, _ = start_state(MATCHUPS[0], 3, 0)
    watchers = [Watcher(), Watcher()]
    play(state, watchers)
    assert all(seen.dice is None and seen is not state for w in watchers for seen in w.seen)
    assert sum(len(w.seen) for w in watchers) > 20


@pytest.mark.parametrize("matchup", MATCHUPS, ids=lambda m: f"{m.army_a}-{m.army_b}")
def test_a_driver_playing_on_gives_the_game_a_paused_step_gives(matchup):
    """`play` answers a step's questions as they come (no pause); stepping answers each paused question.
    Both give the same game: the same answers in the same order, the same dice, the same end."""
    direct, direct_agents = start_state(matchup, 3, 0)
    paused, paused_agents = start_state(matchup, 3, 0)
    play(direct, direct_agents)
    paused_questions = 0
    while not paused.over:
        step(paused, paused_agents)
        paused_questions += paused.waiting is not None
    assert paused_questions > 0  # the stepped game did pause in the middle of steps
    assert _snapshot(direct) == _snapshot(paused)
    assert [s.journal for s in direct.history] == [s.journal for s in paused.history]


def test_a_copy_made_while_a_driver_answers_is_paused_at_the_question():
    """A state copied in the middle of a step the driver runs on (from a watch, at a question) is a copy of
    the paused game: it waits for the same question and plays on the same."""
    state, agents = start_state(MATCHUPS[0], 3, 0)
    copies: list[tuple[GameState, Decision]] = []

    def watch(seen: GameState, decision: Decision, choice: int) -> None:
        if decision.kind != "action" and not copies:
            copies.append((seen.copy(), decision))

    play(state, agents, watch=watch)
    assert copies, "the game asked no question in the middle of a step"
    twin, decision = copies[0]
    assert isinstance(twin.waiting, Decision)
    assert (twin.waiting.kind, twin.waiting.player, list(twin.waiting.options)) == (
        decision.kind,
        decision.player,
        list(decision.options),
    )
    _, twin_agents = start_state(MATCHUPS[0], 3, 0)
    _finish(twin, twin_agents)
    assert twin.over


def test_copied_dice_roll_the_same_future_independently():
    """`Dice.copy` (a new bit generator given the state, not a deep copy): the same rolls from now on, and
    rolling one leaves the other's future as it was."""
    import numpy as np
    from clix.engine.core.dice import Dice, copied_generator

    dice = Dice(np.random.default_rng(11))
    [dice.d6() for _ in range(300)]  # past the first batch: the generator's state has moved
    twin = dice.copy()
    assert twin == dice and twin.rng is not dice.rng
    ahead = [dice.d6() for _ in range(600)]
    assert [twin.d6() for _ in range(600)] == ahead
    rng = np.random.default_rng(3)
    copied = copied_generator(rng)
    assert list(copied.integers(0, 10**9, 20)) == list(rng.integers(0, 10**9, 20))
