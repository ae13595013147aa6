"""The legal actions of one decision, as a list whose plain moves are built only when read.

A monster's move options are one per destination of a search (a hundred and more); a player reads
one of them. `Options` keeps each monster's plain moves as a `MoveBlock` (the destinations and the
search that found them) and builds a `Move`, path and all, only for an index that is read. Players
that score destinations in bulk read `parts` instead of the options one by one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, overload

from clix.engine.horrorclix.actions import Action, AttackKind, Frenzy, Move, MoveVictim
from clix.engine.horrorclix.movement import Reach

if TYPE_CHECKING:
    from clix.engine.horrorclix.plots import PlayCard


@dataclass(frozen=True, slots=True, init=False)
class MoveBlock:
    """The move actions of monster `monster` to each space of `ends`, along shortest paths from `reach`.

    With `frenzy` set they are frenzies attacking `target` after the move (HC-SLAY-07); a plain move may also
    name a `target`, the free close attack of the declared move power `power` (Pounce). An end equal to the
    search's start is the attack from where the monster stands (an empty path)."""

    monster: int
    fly: int | None
    reach: Reach
    ends: list[int]
    power: str | None = None
    target: int | None = None
    frenzy: bool = False

    def __init__(
        self,
        monster: int,
        fly: int | None,
        reach: Reach,
        ends: list[int],
        power: str | None = None,
        target: int | None = None,
        frenzy: bool = False,
    ) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "fly", fly)
        object.__setattr__(self, "reach", reach)
        object.__setattr__(self, "ends", ends)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "frenzy", frenzy)

    def __len__(self) -> int:
        return len(self.ends)

    def declaring(self, power: str) -> MoveBlock:
        """These actions declaring the dependant power `power` (HC-CARD-08, HC-SLAY-12)."""
        return MoveBlock(self.monster, self.fly, self.reach, self.ends, power, self.target, self.frenzy)

    @property
    def kind(self) -> str:
        """The kind of dependant power its actions may declare (HC-CARD-08, HC-SLAY-12)."""
        return AttackKind.CLOSE if self.frenzy else AttackKind.MOVE

    def action(self, k: int) -> Move | Frenzy:
        """The k-th action of the block, with its path."""
        path = tuple(self.reach.path(self.ends[k]))
        if self.frenzy:
            return Frenzy(self.monster, path, self.target, self.fly, self.power)
        return Move(self.monster, path, self.fly, self.power, self.target)

    def actions(self) -> list[Move | Frenzy]:
        return [self.action(k) for k in range(len(self.ends))]


@dataclass(frozen=True, slots=True, init=False)
class VictimMoveBlock:
    """The suspense phase's moves of victim `victim` to each space of `ends`, along shortest paths."""

    victim: int
    reach: Reach
    ends: list[int]

    def __init__(self, victim: int, reach: Reach, ends: list[int]) -> None:
        object.__setattr__(self, "victim", victim)
        object.__setattr__(self, "reach", reach)
        object.__setattr__(self, "ends", ends)

    def __len__(self) -> int:
        return len(self.ends)

    def action(self, k: int) -> MoveVictim:
        return MoveVictim(self.victim, tuple(self.reach.path(self.ends[k])))

    def actions(self) -> list[MoveVictim]:
        return [self.action(k) for k in range(len(self.ends))]


Block = MoveBlock | VictimMoveBlock
Option: TypeAlias = "Action | PlayCard"
"""One legal option: an action, or a plot twist played in the hunting phase (HC-PLOT-07)."""
Part: TypeAlias = "Option | Block"
"""One part of the options: a single option or a block of moves."""


class Options(Sequence[Option]):
    """A sequence of legal actions made of single actions and `MoveBlock`s, in the order given."""

    __slots__ = ("_length", "_starts", "parts")

    def __init__(self, parts: Sequence[Part]) -> None:
        self.parts: list[Part] = [p for p in parts if not (isinstance(p, (MoveBlock, VictimMoveBlock)) and not len(p))]
        """The single actions and move blocks, in order; `starts()` gives each one's first index."""
        self._starts: list[int] = []
        total = 0
        for part in self.parts:
            self._starts.append(total)
            total += len(part) if isinstance(part, (MoveBlock, VictimMoveBlock)) else 1
        self._length = total

    def starts(self) -> list[int]:
        """The index of each part's first option."""
        return self._starts

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Option: ...

    @overload
    def __getitem__(self, index: slice) -> list[Option]: ...

    def __getitem__(self, index: int | slice) -> Option | list[Option]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("option index out of range")
        at = bisect_right(self._starts, index) - 1
        part = self.parts[at]
        return part.action(index - self._starts[at]) if isinstance(part, (MoveBlock, VictimMoveBlock)) else part

    def __iter__(self) -> Iterator[Option]:
        for part in self.parts:
            if isinstance(part, (MoveBlock, VictimMoveBlock)):
                yield from part.actions()
            else:
                yield part

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"
