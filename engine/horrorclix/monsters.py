"""HorrorClix's pieces: monsters (figures with victims on their cards, flight and special states) and victims
(`engine.horrorclix.state.GameState` holds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from clix.engine.core.pieces import HOURGLASS, Figure, Stats

GROUNDED: Final = 0
HOVERING: Final = 1
SOARING: Final = 2
FLIGHT_NAMES = {GROUNDED: "grounded", HOVERING: "hovering", SOARING: "soaring"}


class VictimState(StrEnum):
    """Where a victim token is: on the map, or taken off it by a slaying, a rescue or a card (HC-SLAY-04)."""

    ON_MAP = "on_map"
    SLAIN = "slain"
    RESCUED = "rescued"
    REMOVED = "removed"


ON_MAP: Final = VictimState.ON_MAP
"""`VictimState.ON_MAP` as a module constant, as `re` exports its flags, for the loops that ask it of every victim:
under Python 3.11 a member read through its enum class goes through the enum metaclass's attribute hook, which
costs about four times a plain class attribute (the pure-Python engine read it some 4,000 times a game)."""


@dataclass(slots=True, init=False)
class Monster(Figure):
    """A HorrorClix monster in play (or removed: `alive` false): a figure with the victims on its card, its flight
    mode, and the special states of HorrorClix's rules."""

    victims: list[int] = field(default_factory=list)
    flight: int = GROUNDED
    blooded_by_power: bool = False
    minion: bool = False
    insane: bool = False
    puppet_of: int | None = None
    """The player who possesses this monster until the end of their turn (HC-SPECIAL-09), if any."""
    transform_count: int = 0
    """Slayings or kills toward the card's transformation since this side came up or a "may" chance was
    declined (HC-CARD-09, HC-CARD-12)."""

    def __init__(
        self,
        uid: int,
        label: str,
        stats: Stats,
        owner: int,
        controller: int,
        pos: int,
        click: int,
        side: str,
        start_line: int,
        tokens: int = 0,
        acted: bool = False,
        alive: bool = True,
        damage_taken: int = 0,
        victims: list[int] | None = None,
        flight: int = GROUNDED,
        blooded_by_power: bool = False,
        minion: bool = False,
        insane: bool = False,
        puppet_of: int | None = None,
        transform_count: int = 0,
    ) -> None:
        # written out, not generated: mypyc compiles this one (a dataclass's generated `__init__` runs
        # interpreted, about 8,000 instructions a monster), and every state copy makes each monster again
        Figure.__init__(
            self, uid, label, stats, owner, controller, pos, click, side, start_line, tokens, acted, alive, damage_taken
        )
        self.victims = [] if victims is None else victims
        self.flight = flight
        self.blooded_by_power = blooded_by_power
        self.minion = minion
        self.insane = insane
        self.puppet_of = puppet_of
        self.transform_count = transform_count

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields (compiled, a class with its own `__init__` is not made empty and then filled)."""
        return (
            Monster,
            (
                *self._figure_fields(), self.victims, self.flight, self.blooded_by_power, self.minion, self.insane,
                self.puppet_of, self.transform_count,
            ),
        )  # fmt: skip

    def copy(self) -> Monster:
        """A copy sharing only the immutable stats (`State.copy`)."""
        twin = Monster(
            self.uid, self.label, self.stats, self.owner, self.controller, self.pos, self.click, self.side,
            self.start_line, self.tokens, self.acted, self.alive, self.damage_taken, list(self.victims), self.flight,
        )  # fmt: skip
        twin.blooded_by_power = self.blooded_by_power
        twin.minion = self.minion
        twin.insane = self.insane
        twin.puppet_of = self.puppet_of
        twin.transform_count = self.transform_count
        return twin

    @property
    def immovable(self) -> bool:
        return self.stats.speed[self.click] == HOURGLASS

    @property
    def incapable(self) -> bool:
        return self.stats.attack[self.click] == HOURGLASS

    @property
    def intangible(self) -> bool:
        return self.stats.defense[self.click] == HOURGLASS

    @property
    def in_hourglass_state(self) -> bool:
        return self.stats.hourglass[self.click]

    @property
    def vulnerable(self) -> bool:
        """Two action tokens (HC-TURN-04)."""
        return self.tokens >= 2

    @property
    def blooded(self) -> bool:
        """Blooded is a state: a victim token on its card, or a power saying so (HC-SLAY-13)."""
        return (bool(self.victims) or self.blooded_by_power) and not self.minion

    @property
    def rescuer(self) -> bool:
        return "Rescuer" in self.abilities

    @property
    def soaring(self) -> bool:
        return self.flight == SOARING


@dataclass(slots=True, init=False)
class Victim:
    """A victim token."""

    uid: int
    label: str
    archetype: str
    speed: int
    gender: str
    pos: int
    face_up: bool = False
    state: VictimState = VictimState.ON_MAP
    by: int | None = None
    owner: int = 0

    def __init__(
        self,
        uid: int,
        label: str,
        archetype: str,
        speed: int,
        gender: str,
        pos: int,
        face_up: bool = False,
        state: VictimState = VictimState.ON_MAP,
        by: int | None = None,
        owner: int = 0,
    ) -> None:
        # written out, not generated: compiled, as `Monster.__init__` (every state copy makes each victim again)
        self.uid = uid
        self.label = label
        self.archetype = archetype
        self.speed = speed
        self.gender = gender
        self.pos = pos
        self.face_up = face_up
        self.state = state
        self.by = by
        self.owner = owner

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields, as `Monster`."""
        return (
            Victim,
            (
                self.uid, self.label, self.archetype, self.speed, self.gender, self.pos, self.face_up, self.state,
                self.by, self.owner,
            ),
        )  # fmt: skip

    def copy(self) -> Victim:
        return Victim(
            self.uid, self.label, self.archetype, self.speed, self.gender, self.pos, self.face_up, self.state,
            self.by, self.owner,
        )  # fmt: skip
