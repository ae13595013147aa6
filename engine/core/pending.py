"""What a game waits for next: a player's decision or a chance event (the state contract, issue 16)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, init=False)
class Decision:
    """A choice the rules put to one player.

    `kind` says what is chosen: `action` (the legal actions of the suspense and hunting phases, an
    `engine.horrorclix.options.Options`: read `parts` to score a monster's moves in bulk), `edge` (a starting area),
    `victim_space`, `object_space`, `monster_space`, `flight`, `crossroads`, and the mid-action choices of
    `engine.core.decisions` (`plot_twist`, `plot_twist_place`, `plot_twist_path`, `transform`...).

    `context` is what the choice is about, for a player that weighs it: a plot twist's timing window
    (`engine.horrorclix.plots.Window`: the victim, the slayer, the attack and its dice), or the victim or monster a
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

    def __reduce__(self) -> tuple[Any, ...]:  # a compiled class with its own __init__ says how it pickles
        return (Decision, (self.kind, self.player, self.options, self.subject, self.context))


D6 = "d6"
SHUFFLE = "shuffle"


@dataclass(frozen=True)
class Chance:
    """A chance event the game waits for when it has no dice of its own: `d6` (outcome 1-6, each 1/6) or
    `shuffle` (outcome: a permutation of range(`size`), each equally likely)."""

    kind: str
    size: int = 6

    def outcomes(self) -> list[Any]:
        """Every outcome of a d6, equally likely (a shuffle's are too many to list)."""
        if self.kind != D6:
            raise ValueError(f"the outcomes of a {self.kind} are not listed; draw one with a generator")
        return [1, 2, 3, 4, 5, 6]
