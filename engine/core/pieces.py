"""The pieces every ruleset's game has, and its record: figures, map objects, seats, lasting effects and logged
events (a state, `engine.core.state.State`, holds them). HorrorClix's monsters and victims: `engine.horrorclix.monsters`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final

from clix.engine.core.dial import SLOTS, Click

if TYPE_CHECKING:
    from clix.engine.core.state import State

HOURGLASS: Final = -1
"""A dial value that is an hourglass (HC-HOURGLASS-02..04)."""


@dataclass(frozen=True)
class Stats:
    """A monster's printed data in the form the engine reads in its inner loop."""

    id: str
    name: str
    points: int
    speed_mode: str
    range: int
    bolts: int
    classes: frozenset[str]
    speed: tuple[int, ...]
    attack: tuple[int, ...]
    defense: tuple[int, ...]
    damage: tuple[int, ...]
    killed: tuple[bool, ...]
    hourglass: tuple[bool, ...]
    start: int
    red_start: int | None
    powers: dict[str, tuple[dict[str, dict[str, Any]], ...]]
    """Per card side, per click: the powers showing, by name, with their parameters."""
    abilities: dict[str, frozenset[str]]
    """Per card side: its abilities (Ghost, Leap/Climb, Rescuer...)."""
    start_sides: tuple[str, ...]
    side_starts_red: dict[str, bool]
    figure: Any = None
    """The ruleset's figure record it was compiled from, if any."""
    cabal: str | None = None
    """The cabal whose symbol the figure bears (HC-SPECIAL-05), if any."""
    compiler: Any = None
    """The ruleset's function that compiled it from `figure` (a pickled `Stats` is compiled again by it)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its figure (compiled again, once per process and figure object) when it has one."""
        if self.figure is not None and self.compiler is not None:
            return (self.compiler, (self.figure,))
        return (Stats, tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def clicks(self) -> int:
        return len(self.killed)


def dial_columns(dial: list[Click]) -> dict[str, tuple[int, ...]]:
    """The dial's values slot by slot (hourglass as HOURGLASS, killed clicks as 0)."""
    columns: dict[str, list[int]] = {slot: [] for slot in SLOTS}
    for click in dial:
        for slot in SLOTS:
            number = None if click.killed else click.value(slot).number
            columns[slot].append(0 if click.killed else HOURGLASS if number is None else number)
    return {slot: tuple(values) for slot, values in columns.items()}


def stats_from_dial(
    label: str,
    dial: list[Click],
    *,
    start: int = 0,
    red_start: int | None = None,
    range_: int = 0,
    bolts: int = 1,
    speed_mode: str = "boot",
    points: int = 50,
    powers: dict[str, dict[str, Any]] | None = None,
    abilities: frozenset[str] = frozenset(),
) -> Stats:
    """Stats for a scenario's inline dial; its `powers` show on every click of its one card side."""
    columns = dial_columns(dial)
    showing = dict(powers or {})
    return Stats(
        id=label,
        name=label,
        points=points,
        speed_mode=speed_mode,
        range=range_,
        bolts=bolts,
        classes=frozenset(),
        speed=columns["speed"],
        attack=columns["attack"],
        defense=columns["defense"],
        damage=columns["damage"],
        killed=tuple(c.killed for c in dial),
        hourglass=tuple(c.hourglass for c in dial),
        start=start,
        red_start=red_start,
        powers={"start": tuple(showing for _ in dial)},
        abilities={"start": abilities},
        start_sides=("start",),
        side_starts_red={"start": False},
    )



@dataclass(slots=True, init=False)
class Figure:
    """A figure in play under any ruleset (or removed: `alive` false): where it stands, who owns and controls it,
    the click its dial shows and on which card side."""

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
    alive: bool = True
    damage_taken: int = 0

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
    ) -> None:
        # written out, not generated: mypyc compiles this one (a dataclass's generated `__init__` runs
        # interpreted, several thousand instructions a figure), and every state copy makes each figure again
        self.uid = uid
        self.label = label
        self.stats = stats
        self.owner = owner
        self.controller = controller
        self.pos = pos
        self.click = click
        self.side = side
        self.start_line = start_line
        self.tokens = tokens
        self.acted = acted
        self.alive = alive
        self.damage_taken = damage_taken

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields (compiled, a class with its own `__init__` is not made empty and then filled)."""
        return (Figure, (*self._figure_fields(),))

    def _figure_fields(self) -> tuple[Any, ...]:
        return (
            self.uid, self.label, self.stats, self.owner, self.controller, self.pos, self.click, self.side,
            self.start_line, self.tokens, self.acted, self.alive, self.damage_taken,
        )  # fmt: skip

    def copy(self) -> Figure:
        """A copy sharing only the immutable stats (`State.copy`)."""
        return Figure(
            self.uid, self.label, self.stats, self.owner, self.controller, self.pos, self.click, self.side,
            self.start_line, self.tokens, self.acted, self.alive, self.damage_taken,
        )  # fmt: skip

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
    def powers(self) -> dict[str, dict[str, Any]]:
        """The powers showing now: their colour visible on the dial, on the current card side (HC-CARD-05)."""
        return self.stats.powers[self.side][self.click]

    @property
    def abilities(self) -> frozenset[str]:
        return self.stats.abilities[self.side]


@dataclass(slots=True, init=False)
class MapObject:
    """A tombstone, Tree of the Damned or portal placed on the map."""

    uid: int
    kind: str
    pos: int
    across: int = -1  # portals: the space across the doorway edge
    alive: bool = True

    def __init__(self, uid: int, kind: str, pos: int, across: int = -1, alive: bool = True) -> None:
        # written out, not generated: compiled, as `Figure.__init__` (every state copy makes each object again)
        self.uid = uid
        self.kind = kind
        self.pos = pos
        self.across = across
        self.alive = alive

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields, as `Figure`."""
        return (MapObject, (self.uid, self.kind, self.pos, self.across, self.alive))

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

    def applies(self, state: State, monster: Figure) -> bool:
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
    """A seat at the table. `hidden_cards` are the cards it holds that the other seats may not see (HorrorClix:
    its crypt of plot twists, HC-PLOT-01): a player's view shows them only how many (`seen_by_others`)."""

    number: int
    team: int
    army_points: int = 0
    army_name: str = ""
    eliminated: bool = False
    hidden_cards: list[str] = field(default_factory=list)

    def __init__(
        self,
        number: int,
        team: int,
        army_points: int = 0,
        army_name: str = "",
        eliminated: bool = False,
        hidden_cards: list[str] | None = None,
    ) -> None:  # written out for mypyc (a player's view makes seats at every decision)
        self.number = number
        self.team = team
        self.army_points = army_points
        self.army_name = army_name
        self.eliminated = eliminated
        self.hidden_cards = [] if hidden_cards is None else hidden_cards

    def __reduce__(self) -> tuple[Any, ...]:  # a compiled class with its own __init__ says how it pickles
        return (Player, (self.number, self.team, self.army_points, self.army_name, self.eliminated, self.hidden_cards))

    def copy(self) -> Player:
        return Player(self.number, self.team, self.army_points, self.army_name, self.eliminated, list(self.hidden_cards))

    def seen_by_others(self) -> Player:
        """This seat as the other players see it: how many hidden cards it holds, not which."""
        return Player(
            self.number, self.team, self.army_points, self.army_name, self.eliminated, [HIDDEN_CARD] * len(self.hidden_cards)
        )


HIDDEN_CARD = "?"
"""Another seat's hidden card, in a player's view of the game: its name is not shown (HorrorClix: HC-PLOT-01)."""


def divide_damage(hits: Sequence[int], damage: int, split: Mapping[int, int] | None) -> dict[int, int]:
    """Damage per target hit (by uid) of an attack on several targets: as the attacker divided it, a share named
    for a target that was missed going to the first target hit; with no division all of it to the first target
    hit (HorrorClix's HC-COMBAT-23 and HeroClix's HX-COMBAT-24, docs/rulings.md)."""
    shares = dict.fromkeys(hits, 0)
    if not split:
        shares[hits[0]] = damage
        return shares
    for uid, amount in split.items():
        shares[uid if uid in shares else hits[0]] += amount
    return shares
