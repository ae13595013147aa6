"""The pieces of a game and its record: monsters, victims, objects, seats, lasting effects and logged events
(a state, `engine.core_state.State`, holds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from clix.engine.figures import HOURGLASS, Stats

if TYPE_CHECKING:
    from clix.engine.core_state import State

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


@dataclass(slots=True)
class Monster:
    """A monster in play (or removed: `alive` false)."""

    uid: int
    label: str
    stats: Stats
    owner: int
    controller: int
    pos: int
    click: int
    side: str
    start_line: int
    tokens: int = 0
    acted: bool = False
    victims: list[int] = field(default_factory=list)
    flight: int = GROUNDED
    alive: bool = True
    damage_taken: int = 0
    blooded_by_power: bool = False
    minion: bool = False
    insane: bool = False
    puppet_of: int | None = None
    """The player who possesses this monster until the end of their turn (HC-SPECIAL-09), if any."""
    transform_count: int = 0
    """Slayings or kills toward the card's transformation since this side came up or a "may" chance was
    declined (HC-CARD-09, HC-CARD-12)."""

    def copy(self) -> Monster:
        """A copy sharing only the immutable stats (`State.copy`)."""
        twin = Monster(
            self.uid, self.label, self.stats, self.owner, self.controller, self.pos, self.click, self.side,
            self.start_line, self.tokens, self.acted, list(self.victims), self.flight, self.alive,
        )  # fmt: skip
        twin.damage_taken = self.damage_taken
        twin.blooded_by_power = self.blooded_by_power
        twin.minion = self.minion
        twin.insane = self.insane
        twin.puppet_of = self.puppet_of
        twin.transform_count = self.transform_count
        return twin

    @property
    def speed(self) -> int:
        return self.stats.speed[self.click]

    @property
    def attack(self) -> int:
        return self.stats.attack[self.click]

    @property
    def defense(self) -> int:
        return self.stats.defense[self.click]

    @property
    def damage(self) -> int:
        value = self.stats.damage[self.click]
        return 0 if value == HOURGLASS else value  # HC-HOURGLASS-11 OPEN: see docs/rulings.md

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
    def powers(self) -> dict[str, dict[str, Any]]:
        """The powers showing now: their colour visible on the dial, on the current card side (HC-CARD-05)."""
        return self.stats.powers[self.side][self.click]

    @property
    def abilities(self) -> frozenset[str]:
        return self.stats.abilities[self.side]

    @property
    def rescuer(self) -> bool:
        return "Rescuer" in self.abilities

    @property
    def soaring(self) -> bool:
        return self.flight == SOARING


@dataclass(slots=True)
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

    def copy(self) -> Victim:
        return Victim(
            self.uid, self.label, self.archetype, self.speed, self.gender, self.pos, self.face_up, self.state,
            self.by, self.owner,
        )  # fmt: skip


@dataclass(slots=True)
class MapObject:
    """A tombstone, Tree of the Damned or portal placed on the map."""

    uid: int
    kind: str
    pos: int
    across: int = -1  # portals: the space across the doorway edge
    alive: bool = True

    def copy(self) -> MapObject:
        return MapObject(self.uid, self.kind, self.pos, self.across, self.alive)


@dataclass
class Lasting:
    """An effect that outlives its action: a modifier on a combat value for one monster or a group,
    until a player's next turn begins (HC-TURN-08) or, with `until_turn_of` None, until removed
    (a ticking clock in play, HC-PLOT-05)."""

    stat: str
    amount: int
    source: str = ""
    monster: int | None = None
    player: int | None = None
    classes: frozenset[str] = frozenset()
    until_turn_of: int | None = None
    last_turn: int | None = None
    """The last turn number it lasts through (a plot twist's "this turn"), if any."""
    this_action: bool = False
    """It ends with the action being resolved (HC-VALUE-03)."""
    team: int | None = None
    """Only monsters controlled by this team (or, with `opposing`, by every other team): a ticking clock's
    friendly or opposing monsters (HC-SPECIAL-02, HC-SPECIAL-13)."""
    opposing: bool = False

    def applies(self, state: State, monster: Monster) -> bool:
        if self.monster is not None:
            return monster.uid == self.monster
        if self.player is not None and monster.controller != self.player:
            return False
        if self.team is not None and (state.player(monster.controller).team == self.team) == self.opposing:
            return False
        return not self.classes or bool(self.classes & monster.stats.classes)


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One thing that happened, small enough to log every game (HC-* ids in `rule`)."""

    kind: str
    turn: int
    player: int
    detail: tuple[tuple[str, Any], ...] = ()

    def __init__(self, kind: str, turn: int, player: int, detail: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "detail", detail)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.kind, self.turn, self.player, self.detail))

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.detail:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        parts = " ".join(f"{k}={v}" for k, v in self.detail)
        return f"turn {self.turn} P{self.player} {self.kind} {parts}".rstrip()


@dataclass(init=False)
class Player:
    """A seat at the table."""

    number: int
    team: int
    army_points: int = 0
    army_name: str = ""
    eliminated: bool = False
    crypt: list[str] = field(default_factory=list)

    def __init__(
        self,
        number: int,
        team: int,
        army_points: int = 0,
        army_name: str = "",
        eliminated: bool = False,
        crypt: list[str] | None = None,
    ) -> None:  # written out for mypyc (a player's view makes seats at every decision)
        self.number = number
        self.team = team
        self.army_points = army_points
        self.army_name = army_name
        self.eliminated = eliminated
        self.crypt = [] if crypt is None else crypt

    def __reduce__(self) -> tuple[Any, ...]:  # a compiled class with its own __init__ says how it pickles
        return (Player, (self.number, self.team, self.army_points, self.army_name, self.eliminated, self.crypt))

    def copy(self) -> Player:
        return Player(self.number, self.team, self.army_points, self.army_name, self.eliminated, list(self.crypt))

    def seen_by_others(self) -> Player:
        """This seat as the other players see it: how many cards its crypt holds, not which (HC-PLOT-01)."""
        return Player(
            self.number, self.team, self.army_points, self.army_name, self.eliminated, [HIDDEN_CARD] * len(self.crypt)
        )


HIDDEN_CARD = "?"
"""A card in another player's crypt, in a player's view of the game: its name is hidden (HC-PLOT-01)."""
