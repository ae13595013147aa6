"""The one interface every player implements: pick one of the options of a decision."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine.state import GameState


@dataclass(frozen=True, init=False)
class Decision:
    """A choice the rules put to one player.

    `kind` says what is chosen: `action` (the legal actions of the suspense and hunting phases, an
    `engine.options.Options`: read `parts` to score a monster's moves in bulk), `edge` (a starting area),
    `victim_space`, `object_space`, `monster_space`, `flight`.
    """

    kind: str
    player: int
    options: Sequence[Any]
    subject: str = ""

    def __init__(self, kind: str, player: int, options: Sequence[Any], subject: str = "") -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "subject", subject)


class Agent(Protocol):
    """A player: returns the index of the option it picks."""

    name: str

    def choose(self, state: GameState, decision: Decision) -> int: ...
