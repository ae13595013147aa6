"""The game driver: put each question the game waits for to its player until the game ends.

It knows no game's rules: it asks the state's ruleset (`state.ruleset`, engine/core/ruleset.py) for the legal actions
and to apply the chosen one, so every ruleset's games are driven by these few lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from clix.engine.core import decisions
from clix.engine.core.dice import Dice
from clix.engine.core.pending import Decision
from clix.engine.core.state import State

S = TypeVar("S", bound=State)


class Chooser(Protocol):
    """What the driver needs of a player (`engine.core.players.base.Agent` for HorrorClix's players): the index of
    the option it picks, given its view of the game (a ruleset's state)."""

    def choose(self, state: Any, decision: Decision) -> int: ...


MAX_DECISIONS = 100_000
"""A safety net: a game that needs more decisions than this has a bug, not a long fight."""


class GameStuck(Exception):
    """A game that did not end within MAX_DECISIONS decisions."""


Watch = Callable[[Any, Decision, int], None]
"""Told of each choice a player made, with the game as it stands (a recorder's or a replay's view)."""


def play(
    state: S,
    agents: Sequence[Chooser],
    dice: Dice | None = None,
    watch: Watch | None = None,
    until_turn: int | None = None,
) -> S:
    """Drive the game to its end (or until turn `until_turn` has begun and no question waits): put each
    question to its player, roll `dice` for each chance event (a state without dice of its own has them);
    return the state. Meanwhile the state's steps run to their end, their questions answered as they come
    (`engine.core.decisions`), as they would be answered paused."""
    state.answerer = _answerer(state, agents, dice, watch)
    try:
        for _ in range(MAX_DECISIONS):
            if state.over or (until_turn is not None and state.turn >= until_turn and state.waiting is None):
                return state
            step(state, agents, dice, watch)
    finally:
        state.answerer = None
    raise GameStuck(f"no end after {MAX_DECISIONS} decisions (turn {state.turn})")


def _answerer(state: State, agents: Sequence[Chooser], dice: Dice | None, watch: Watch | None) -> Callable[[Any], Any]:
    """What `step` does for a question the game waits for, as a function of the question."""

    def answer_now(question: Any) -> Any:
        if isinstance(question, Decision):
            choice = agents[question.player - 1].choose(state.view_for_choice(question.player), question)
            if watch is not None:
                watch(state, question, choice)
            return choice
        if dice is None:
            raise RuntimeError("the game waits for a chance event, and its driver was given no dice")
        return decisions.roll(question, dice)

    return answer_now


def step(state: State, agents: Sequence[Chooser], dice: Dice | None = None, watch: Watch | None = None) -> None:
    """One answer: the active player's action (applied at once when it is the only one), or the answer to
    the question the game waits for in the middle of a step, or the outcome of a chance event."""
    waiting = state.waiting
    if waiting is None:
        options = state.ruleset.legal_actions(state)
        if len(options) == 1:  # nothing to choose (often: only ending the turn is left)
            state.ruleset.apply(state, options[0], True)
            return
        decision = Decision("action", state.active, options)
        choice = agents[state.active - 1].choose(state.view_for_choice(state.active), decision)
        if watch is not None:
            watch(state, decision, choice)
        state.ruleset.apply(state, options[choice], True)
    elif isinstance(waiting, Decision):
        choice = agents[waiting.player - 1].choose(state.view_for_choice(waiting.player), waiting)
        if watch is not None:
            watch(state, waiting, choice)
        decisions.answer(state, choice)
    elif dice is not None:
        decisions.resolve(state, decisions.roll(waiting, dice))
    else:
        raise RuntimeError("the game waits for a chance event, and its driver was given no dice")


def settle(state: State, agents: Sequence[Chooser], dice: Dice | None = None, watch: Watch | None = None) -> None:
    """Answer what the game waits for in the middle of a step until the step is over (the next question
    is the active player's action, or the game is over)."""
    while state.waiting is not None:
        step(state, agents, dice, watch)
