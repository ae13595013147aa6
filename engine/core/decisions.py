"""How the rules wait for a player or for the dice without calling either (the state contract, issue 16).

A step of the game (an action, the setup, a turn's start) runs on its own greenlet. When the rules need a
player's choice in the middle of it (a plot-twist response, a "may" effect) or a die while the state has no
dice, the step pauses: `state.waiting` holds the `Decision` or `Chance`, and the call that started the step
returns. The driver answers with `answer(state, index)` or `resolve(state, outcome)`, and the step goes on
from where it paused. The rules never call a player.

A driver playing on anyway (`engine.core.driver.play`) lends the state an `answerer` for the while: a step then
runs to its end on the driver's stack, each question put to the answerer as it comes, which gives the
answer the driver would give the paused step, without the greenlet switches a pause costs.

Every answer and die a step consumes is written down (`state.history`), so a copy of a paused state
re-runs the paused step from a copy of the state before it with the same answers and dice, pausing at the
same question (`State.copy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from clix.engine.core.pending import D6, SHUFFLE, Chance, Decision
from clix.engine.core.state import State
from clix.engine.core.stepping import DIRECT, Step, run
from greenlet import getcurrent

T = TypeVar("T")
S = TypeVar("S", bound=State)


class NoDice(Exception):
    """The rules needed a die outside a driven step while the state had no dice."""


def ask(
    state: State,
    kind: str,
    player: int,
    options: Sequence[T],
    subject: str = "",
    context: Any = None,
    always: bool = False,
) -> T:
    """Put a choice to `player` and wait for the answer; `options[0]` is the default (decline), taken when
    there is nothing to choose (unless `always`) or when the rules run outside a driven step."""
    if len(options) == 1 and not always:
        return options[0]
    choice = _wait(state, Decision(kind, player, list(options), subject, context))
    if choice is None:
        return options[0]
    if not 0 <= choice < len(options):
        raise ValueError(f"decision {kind}: option {choice} of {len(options)}")
    return options[choice]


def d6(state: State) -> int:
    """One die: from the state's dice, or, when it has none, from the driver (a chance event)."""
    replay = state.replaying
    if replay:
        value: int = replay.popleft()
    elif state.dice is not None:
        value = state.dice.d6()
    else:
        outcome = _wait(state, Chance(D6))
        if outcome is None:
            raise NoDice("a die was needed outside a driven step, and the state has no dice")
        return int(outcome)  # _wait has written it down
    state.journal.append(value)
    return value


def shuffle(state: State, size: int) -> list[int]:
    """A random order of range(`size`) (shuffling face-down victims), drawn like `d6`."""
    replay = state.replaying
    if replay:
        order: list[int] = replay.popleft()
    elif state.dice is not None:
        order = [int(i) for i in state.dice.rng.permutation(size)]
    else:
        outcome = _wait(state, Chance(SHUFFLE, size))
        if outcome is None:
            raise NoDice("a shuffle was needed outside a driven step, and the state has no dice")
        return [int(i) for i in outcome]
    state.journal.append(order)
    return order


def _wait(state: State, question: Decision | Chance) -> Any:
    """Pause the step until the driver answers `question`; None when no driven step is running."""
    replay = state.replaying
    if replay:  # a copy re-running its paused step: the answers given before come back in order
        given = replay.popleft()
        state.journal.append(given)
        return given
    runner = state.runner
    if runner is DIRECT:  # the driver answers now what it would answer once the step had paused
        state.waiting = question
        given = state.answerer(question)
        state.waiting = None
        state.journal.append(given)
        return given
    if runner is None or getcurrent() is not runner:
        return None
    state.waiting = question
    given = state.caller.switch(None)
    state.waiting = None
    state.journal.append(given)
    return given


# --- driving a step -----------------------------------------------------------------------------------


def perform(state: S, work: Callable[[S, Any], None], argument: Any = None) -> None:
    """Run one step of the game, `work(state, argument)`, until it ends or waits for an answer (then
    `state.waiting` says what for). It is written down so that a copy can run it again."""
    if state.waiting is not None:
        raise RuntimeError(f"the game waits for {_describe(state.waiting)}; answer it first")
    runner = state.runner
    if runner is not None and (runner is DIRECT or getcurrent() is runner):
        work(state, argument)  # a step inside a step (a rule that performs another) is part of it
        return
    if state.origin is None:  # nothing to re-run from yet (a state built by hand): the state as it is now
        state.origin = state.copy_without_dice()  # re-runs take their dice from the steps' journals
    journal: list[Any] = []
    state.history.append(Step(work, argument, journal))
    state.journal = journal
    state.before = None
    if state.answerer is not None:  # a driver playing on: the step runs to its end on this stack
        state.runner = DIRECT
        try:
            work(state, argument)
        finally:
            state.runner = None
            state.waiting = None
        return
    run(state, (state, work, argument))


def answer(state: State, choice: int) -> None:
    """Answer the decision the game waits for with the index of an option; the step goes on."""
    waiting = state.waiting
    if not isinstance(waiting, Decision):
        raise RuntimeError(f"the game waits for {_describe(waiting)}, not a player's decision")
    if not 0 <= choice < len(waiting.options):
        raise ValueError(f"decision {waiting.kind}: option {choice} of {len(waiting.options)}")
    run(state, choice)


def resolve(state: State, outcome: Any) -> None:
    """Give the chance event the game waits for its outcome (a d6's value, a shuffle's order)."""
    waiting = state.waiting
    if not isinstance(waiting, Chance):
        raise RuntimeError(f"the game waits for {_describe(waiting)}, not a chance event")
    if waiting.kind == D6 and not (isinstance(outcome, int) and 1 <= outcome <= 6):
        raise ValueError(f"a d6 shows 1-6, not {outcome!r}")
    run(state, outcome if waiting.kind == D6 else [int(i) for i in outcome])


def roll(chance: Chance, dice: Any) -> Any:
    """An outcome of `chance` drawn from a driver's `Dice`."""
    if chance.kind == D6:
        return dice.d6()
    return [int(i) for i in dice.rng.permutation(chance.size)]


def _describe(waiting: Any) -> str:
    if waiting is None:
        return "nothing"
    if isinstance(waiting, Chance):
        return f"a {waiting.kind}"
    return f"player {waiting.player}'s {waiting.kind} decision"


def responders(state: State, can_respond: Any) -> list[int]:
    """Who may respond, in order: the opponent to the active player's left first, then clockwise, passing
    over players who cannot (HC-PLOT-08, HC-PLOT-13); `can_respond(player)` says whether one can."""
    count = len(state.players)
    order = [(state.active - 1 + k) % count + 1 for k in range(1, count)]
    team = state.player(state.active).team
    return [p for p in order if state.player(p).team != team and not state.player(p).eliminated and can_respond(p)]
