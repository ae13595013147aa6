"""The one interface every player implements: pick one of the options of a decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from clix.engine.core.pending import Decision

if TYPE_CHECKING:
    from clix.engine.horrorclix.state import GameState

__all__ = ["Agent", "Decision"]


class Agent(Protocol):
    """A player: returns the index of the option it picks."""

    name: str

    def choose(self, state: GameState, decision: Decision) -> int: ...
