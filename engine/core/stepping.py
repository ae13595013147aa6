"""Running one step of a game on its own greenlet, and running a recorded step again (`engine.core.decisions`
pauses and answers; `State.copy` re-runs a paused step). Below the state: it knows the state only by
the attributes it reads (`runner`, `caller`, `waiting`, `journal`, `replaying`, `history`)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from greenlet import getcurrent, greenlet

if TYPE_CHECKING:
    from clix.engine.core.state import State

DIRECT = "direct"
"""`state.runner` while a step runs on the driver's own stack (its questions answered as they come, so it
never pauses: `engine.core.decisions.perform`)."""

_IDLE = threading.local()
"""Greenlets that finished their step, kept for the next one (making one costs ~25 switches); per thread,
as a greenlet belongs to the thread that made it."""


@dataclass(slots=True, init=False)
class Step:
    """One step of the game as it was run (`engine.core.decisions.perform`): `work(state, argument)`, with every
    answer and die it consumed, in order, so that it can be run again exactly."""

    work: Callable[[Any, Any], None]
    """The rules' function it ran, on its ruleset's state."""
    argument: Any
    journal: list[Any]

    def __init__(self, work: Callable[[Any, Any], None], argument: Any, journal: list[Any]) -> None:
        self.work = work
        self.argument = argument
        self.journal = journal

    def __reduce__(self) -> tuple[Any, ...]:
        return (Step, (self.work, self.argument, self.journal))


def replay(state: State, step: Step) -> None:
    """Run a written-down step again on `state` with its answers and dice, pausing where it paused."""
    journal: list[Any] = []
    state.history.append(Step(step.work, step.argument, journal))
    state.journal = journal
    state.replaying = deque(step.journal)
    try:
        run(state, (state, step.work, step.argument))
    finally:
        state.replaying = None


def run(state: State, message: Any) -> None:
    """Switch to the state's greenlet (a new or idle one for a new step) until the step ends or waits."""
    runner = state.runner
    if runner is None:
        idle = _idle()
        runner = idle.pop() if idle else greenlet(_loop)
        state.runner = runner
    state.caller = getcurrent()
    error = runner.switch(message)
    if error is not None:
        raise error


def _loop(message: tuple[State, Callable[[State, Any], None], Any]) -> None:
    """A greenlet's life: run steps, one per message; after each, report back and wait idle for the next."""
    while True:
        state, work, argument = message
        error: BaseException | None = None
        try:
            work(state, argument)
        except Exception as exc:  # raised again in the driver (an illegal step, forced dice run out)
            error = exc
        except KeyboardInterrupt as exc:
            error = exc
        state.runner = None
        state.waiting = None
        caller = state.caller
        state.caller = None
        _idle().append(getcurrent())
        message = caller.switch(error)


def _idle() -> list[Any]:
    """This thread's idle greenlets."""
    try:
        return _IDLE.runners  # type: ignore[no-any-return]
    except AttributeError:
        _IDLE.runners = []
        return _IDLE.runners  # type: ignore[no-any-return]
