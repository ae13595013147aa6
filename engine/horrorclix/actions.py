"""The decisions a player can make in play, as small frozen records.

Monsters and victims are named by uid, spaces by index (`Geometry.index`). The rules module checks
(`why_not`), lists (`legal_actions`) and performs (`apply`) them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class AttackKind(StrEnum):
    """What kind of action a combat value is read for, or an attack is made by (HC-COMBAT-01, HC-SLAY-07,
    HC-TERRAIN-17); also the kind of action a dependant power is declared for (HC-CARD-08: move, close, ranged)."""

    MOVE = "move"
    CLOSE = "close"
    FRENZY = "frenzy"
    """A frenzy's attack: a close combat attack with damage 1 (HC-SLAY-08, HC-SLAY-12)."""
    RANGED = "ranged"
    SMASH = "smash"


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """A move action along `path` (the spaces entered); `fly` changes flight mode first (HC-MOVE-10)."""

    monster: int
    path: tuple[int, ...]
    fly: int | None = None
    power: str | None = None
    """A dependant move power declared with the action (HC-CARD-08)."""
    target: int | None = None
    """The free close attack's target, when the declared power grants one after the move (Pounce)."""

    def __init__(
        self,
        monster: int,
        path: tuple[int, ...],
        fly: int | None = None,
        power: str | None = None,
        target: int | None = None,
    ) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "fly", fly)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "target", target)

    def declaring(self, power: str) -> Move:
        """This action declaring the dependant power `power` (HC-CARD-08)."""
        return Move(self.monster, self.path, self.fly, power, self.target)


@dataclass(frozen=True, slots=True)
class LureVictim:
    """A move action in which, instead of moving, the monster moves the face-up victim `victim` along
    `path`, as the declared move power `power` lets it (Lure) (HC-CARD-08)."""

    monster: int
    victim: int
    path: tuple[int, ...]
    power: str | None = None

    def declaring(self, power: str) -> LureVictim:
        """This action declaring the dependant power `power` (HC-CARD-08)."""
        return LureVictim(self.monster, self.victim, self.path, power)


@dataclass(frozen=True, slots=True, init=False)
class Frenzy:
    """A blooded monster's move, then a free close attack on `target` (None: no attack) (HC-SLAY-07)."""

    monster: int
    path: tuple[int, ...]
    target: int | None
    fly: int | None = None
    power: str | None = None
    """A dependant close-combat power for the frenzy attack (HC-SLAY-12)."""

    def __init__(
        self, monster: int, path: tuple[int, ...], target: int | None, fly: int | None = None, power: str | None = None
    ) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "fly", fly)
        object.__setattr__(self, "power", power)

    def declaring(self, power: str) -> Frenzy:
        """This frenzy declaring the dependant close combat power `power` (HC-SLAY-12)."""
        return Frenzy(self.monster, self.path, self.target, self.fly, power)


@dataclass(frozen=True, slots=True, init=False)
class Close:
    """A close combat action against an adjacent opposing monster (HC-COMBAT-14)."""

    monster: int
    target: int
    power: str | None = None

    def __init__(self, monster: int, target: int, power: str | None = None) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "power", power)

    def declaring(self, power: str) -> Close:
        """This action declaring the dependant power `power` (HC-CARD-08)."""
        return Close(self.monster, self.target, power)


@dataclass(frozen=True, slots=True, init=False)
class Ranged:
    """A ranged combat action; `split` divides the damage among targets as (uid, amount) pairs."""

    monster: int
    targets: tuple[int, ...]
    split: tuple[tuple[int, int], ...] = ()
    power: str | None = None

    def __init__(
        self,
        monster: int,
        targets: tuple[int, ...],
        split: tuple[tuple[int, int], ...] = (),
        power: str | None = None,
    ) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "power", power)

    def declaring(self, power: str) -> Ranged:
        """This action declaring the dependant power `power` (HC-CARD-08)."""
        return Ranged(self.monster, self.targets, self.split, power)


@dataclass(frozen=True, slots=True)
class Smash:
    """A close attack on the portal or tombstone at `at` (HC-TERRAIN-16, -18)."""

    monster: int
    at: int


@dataclass(frozen=True, slots=True, init=False)
class ChooseVictim:
    """The suspense phase: the active player chooses the victim to move; it flips face up (HC-VICTIM-03)."""

    victim: int

    def __init__(self, victim: int) -> None:
        object.__setattr__(self, "victim", victim)


@dataclass(frozen=True, slots=True, init=False)
class MoveVictim:
    """The suspense phase: the chosen victim moves along `path` (given without a choice first, the
    victim is chosen and moved in one step, as a scenario's `move_victim` step does) (HC-VICTIM-03)."""

    victim: int
    path: tuple[int, ...]

    def __init__(self, victim: int, path: tuple[int, ...]) -> None:
        object.__setattr__(self, "victim", victim)
        object.__setattr__(self, "path", path)


@dataclass(frozen=True, slots=True, init=False)
class SkipSuspense:
    """The suspense phase: choose no victim."""

    def __init__(self) -> None:
        pass


@dataclass(frozen=True, slots=True, init=False)
class EndTurn:
    """End the hunting phase; the hourglass phase runs and the next player's turn begins."""

    def __init__(self) -> None:
        pass


VICTIM_TARGET = -2
"""Stands for a victim named as an attack's target, which the rules always refuse (HC-COMBAT-03, -17)."""

Action = Move | LureVictim | Frenzy | Close | Ranged | Smash | ChooseVictim | MoveVictim | SkipSuspense | EndTurn
MONSTER_ACTIONS = (Move, LureVictim, Frenzy, Close, Ranged, Smash)
