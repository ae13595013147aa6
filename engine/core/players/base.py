"""The one interface every player implements: pick one of the options of a decision."""

from __future__ import annotations

from typing import Protocol, TypeVar

from clix.engine.core.pending import Decision
from clix.engine.core.state import State

__all__ = ["Agent", "Decision"]

StateT = TypeVar("StateT", bound=State, contravariant=True)
"""The state a player reads: a ruleset's own (`Agent[GameState]`); a bare `Agent` takes any."""


class Agent(Protocol[StateT]):
    """A player: returns the index of the option it picks."""

    name: str

    def choose(self, state: StateT, decision: Decision) -> int: ...
