"""The one interface every player implements: pick one of the options of a decision."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from clix.engine.state import GameState


@dataclass(frozen=True, init=False)
class Decision:
    """A choice the rules put to one player.

    `kind` says what is chosen: `action` (the legal actions of the suspense and hunting phases, an
    `engine.options.Options`: read `parts` to score a monster's moves in bulk), `edge` (a starting area),
    `victim_space`, `object_space`, `monster_space`, `flight`, `crossroads`, and the mid-action choices of
    `engine.decisions` (`plot_twist`, `plot_twist_place`, `plot_twist_path`, `transform`...).

    `context` is what the choice is about, for a player that weighs it: a plot twist's timing window
    (`engine.plots.Window`: the victim, the slayer, the attack and its dice), or the victim or monster a
    card moves. It shows only what every player at the table sees.
    """

    kind: str
    player: int
    options: Sequence[Any]
    subject: str = ""
    context: Any = None

    def __init__(self, kind: str, player: int, options: Sequence[Any], subject: str = "", context: Any = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "context", context)


class Agent(Protocol):
    """A player: returns the index of the option it picks."""

    name: str

    def choose(self, state: GameState, decision: Decision) -> int: ...
