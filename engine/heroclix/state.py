"""A HeroClix game in progress: the core state (characters are core `Figure`s) plus what HeroClix keeps of its
own: each character's pushing and knockback damage, who damaged it last (HX-DAMAGE-10), the victory points scored
so far (HX-END-05, -08: fractions when split) and each force's build points (HX-END-11); and the actions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clix.engine.core.dice import Dice
from clix.engine.core.geometry import Geometry
from clix.engine.core.pieces import Figure, MapObject, Player, Stats
from clix.engine.core.ruleset import Ruleset
from clix.engine.core.state import State

PHASES = ("actions", "over")
HOVERING = "hovering"
SOARING = "soaring"
PUSHING = "pushing"
KNOCKBACK = "knockback"
DIRECTIONS = {
    "north": (0, -1), "northeast": (1, -1), "east": (1, 0), "southeast": (1, 1),
    "south": (0, 1), "southwest": (-1, 1), "west": (-1, 0), "northwest": (-1, -1),
}  # fmt: skip
"""Knockback directions a step may name (contract section 5), as (dx, dy) with y growing southward."""


@dataclass(init=False)
class HeroState(State):
    """The core state with HeroClix's own bookkeeping (see the module). Compiled with the core when `clix
    compile` has run (a compiled class's subclasses must be compiled too)."""

    tallies: dict[int, dict[str, int]] = field(default_factory=dict)
    """Per character uid: clicks taken from pushing and from knockback."""
    damaged_by: dict[int, int] = field(default_factory=dict)
    """Per character uid: the opposing player whose character damaged it most recently."""
    points: dict[int, float] = field(default_factory=dict)
    """Victory points scored so far, by player."""
    archenemies: dict[int, frozenset[int]] = field(default_factory=dict)
    """Per character uid: the uids of its archenemies (HX-BUILD-04, HX-END-06)."""
    flight: dict[int, str] = field(default_factory=dict)
    """Per flier's uid (speed mode wing): HOVERING or SOARING (HX-MOVE-12)."""
    holding: dict[int, str] = field(default_factory=dict)
    """Per character uid: the kind of object it holds, "light" or "heavy" (HX-OBJECT-07)."""
    carried: set[int] = field(default_factory=set)
    """Characters carried this turn: no non-free action for them until the next turn (HX-MOVE-26)."""
    lifted: set[int] = field(default_factory=set)
    """Characters moved by Telekinesis this turn: they may not use Telekinesis this turn (HX-OBJECT-16 OPEN)."""
    sizes: dict[int, str] = field(default_factory=dict)
    """Per character uid: its size class when it is not standard, "giant" or "big" (HX-CHAR-08, HX-SPECIAL)."""
    transporters: frozenset[int] = frozenset()
    """The characters that are transporters (HX-SPECIAL-07)."""
    rears: dict[int, int] = field(default_factory=dict)
    """Per double-base character's uid: its second square, beside `pos` (HX-SPECIAL-02; `double_base.py`)."""
    moved: set[int] = field(default_factory=set)
    """Characters that moved or were placed (carried, knocked back, moved by Telekinesis) this turn (HX-POWER-22,
    HX-PAC-11)."""
    free_used: set[tuple[int, str]] = field(default_factory=set)
    """Powers used once per turn, used this turn, as (character uid, power): free actions (HX-TURN-16 OPEN) and
    Probability Control (HX-POWER-42)."""
    markers: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    """Terrain markers on the map, by square: (the player whose character placed it, the map's legend character
    under it, the marker's kind) (HX-PAC-10, HX-POWER-20, -30)."""
    powerless: set[int] = field(default_factory=set)
    """Characters that cannot use powers during the action being resolved (Pulse Wave, HX-POWER-15)."""
    short_range: set[int] = field(default_factory=set)
    """Characters whose range is halved during the action being resolved (Hypersonic Speed, HX-POWER-10)."""
    printed: dict[int, Stats] = field(default_factory=dict)
    """Per character uid whose powers are countered (Outwit, HX-EFFECT-04): its stats as printed, every power on
    its dial (`outwit`)."""
    barred: set[tuple[int, int]] = field(default_factory=set)
    """(attacker uid, target uid): the target's Shape Change succeeded, the attacker may not target it this turn
    (HX-POWER-43)."""
    controlled: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Per mind-controlled character's uid: the player it returns to, and what it has done (`mind_control`)."""
    controlling: int = -1
    """The uid of the Mind Control character whose action goes on while characters it hit are controlled."""
    game_scenario: str = ""
    """The scenario the game is played under, whose end and victory rules replace the standard ones (HX-END-03,
    HX-SCEN-01): "" (none) or "showdown" (HX-SCEN-02, -03)."""
    turns_taken: dict[int, int] = field(default_factory=dict)
    """Turns each player has taken, by player (Showdown counts them, HX-SCEN-02)."""
    cards: Any = None
    """The team abilities, feats and battlefield conditions in play (`card_files.Cards`), None without any."""

    def __init__(
        self,
        geometry: Geometry,
        dice: Dice | None,
        players: list[Player],
        build_total: int = 100,
        monsters: list[Any] | None = None,
        objects: list[MapObject] | None = None,
        active: int = 1,
        turn: int = 1,
        phase: str = "",
        actions_left: int = 1,
        turn_limit: int | None = None,
        *,
        ruleset: Ruleset,
    ) -> None:
        State.__init__(
            self, geometry, dice, players, build_total, monsters, objects, active, turn, phase, actions_left,
            turn_limit, ruleset=ruleset,
        )  # fmt: skip
        self.tallies = {}
        self.damaged_by = {}
        self.points = {}
        self.archenemies = {}
        self.flight = {}
        self.holding = {}
        self.carried = set()
        self.lifted = set()
        self.sizes = {}
        self.transporters = frozenset()
        self.rears = {}
        self.moved = set()
        self.free_used = set()
        self.markers = {}
        self.powerless = set()
        self.short_range = set()
        self.printed = {}
        self.barred = set()
        self.controlled = {}
        self.controlling = -1
        self.game_scenario = ""
        self.turns_taken = {}
        self.cards = None

    def _empty(self, dice: Dice | None) -> HeroState:
        return HeroState(self.geometry, dice, [], ruleset=self.ruleset)

    def _copy_rules(self, twin: State) -> None:
        assert isinstance(twin, HeroState)
        twin.tallies = {uid: dict(kinds) for uid, kinds in self.tallies.items()}
        twin.damaged_by = dict(self.damaged_by)
        twin.points = dict(self.points)
        twin.archenemies = self.archenemies
        twin.flight = dict(self.flight)
        twin.holding = dict(self.holding)
        twin.carried = set(self.carried)
        twin.lifted = set(self.lifted)
        twin.sizes = self.sizes
        twin.transporters = self.transporters
        twin.rears = dict(self.rears)
        twin.moved = set(self.moved)
        twin.free_used = set(self.free_used)
        twin.markers = dict(self.markers)
        twin.powerless = set(self.powerless)
        twin.short_range = set(self.short_range)
        twin.printed = dict(self.printed)
        twin.barred = set(self.barred)
        twin.controlled = dict(self.controlled)
        twin.controlling = self.controlling
        twin.game_scenario = self.game_scenario
        twin.turns_taken = dict(self.turns_taken)
        twin.cards = None if self.cards is None else self.cards.copy()

    def _refresh_rules(self, seen: State, player: int) -> None:
        assert isinstance(seen, HeroState)
        seen.tallies = self.tallies
        seen.damaged_by = self.damaged_by
        seen.points = self.points
        seen.archenemies = self.archenemies
        seen.flight = self.flight
        seen.holding = self.holding
        seen.carried = self.carried
        seen.lifted = self.lifted
        seen.sizes = self.sizes
        seen.transporters = self.transporters
        seen.rears = self.rears
        seen.moved = self.moved
        seen.free_used = self.free_used
        seen.markers = self.markers
        seen.powerless = self.powerless
        seen.short_range = self.short_range
        seen.printed = self.printed
        seen.barred = self.barred
        seen.controlled = self.controlled
        seen.controlling = self.controlling
        seen.game_scenario = self.game_scenario
        seen.turns_taken = self.turns_taken
        seen.cards = self.cards

    def tally(self, figure: Figure, kind: str) -> int:
        """The clicks `figure` has taken from `kind` (PUSHING, KNOCKBACK)."""
        return self.tallies.get(figure.uid, {}).get(kind, 0)

    def soars(self, figure: Figure) -> bool:
        """Whether `figure` is soaring (HX-MOVE-15): the layer it moves, fights and blocks lines of fire in."""
        return self.flight.get(figure.uid) == SOARING

    def standing(self) -> list[Figure]:
        """The characters on the map (not KO'd)."""
        figures: list[Figure] = self.monsters  # typed: compiled, `alive` is read directly
        return [c for c in figures if c.alive]


@dataclass(frozen=True, init=False)  # its own __init__: compiled (engine/compiled.py)
class Move:
    """A move action along `path` (the squares entered, in order; HX-MOVE-01)."""

    character: int
    path: tuple[int, ...]
    mode: str | None = None
    """A flier's flight mode for this move and after it, declared before moving (HX-MOVE-13); None: unchanged."""
    pick_up: int | None = None
    """The square of an object the mover picks up on the way (HX-OBJECT-08), if any."""
    pick_up_after: int = -1
    """Picked up after entering this many squares of `path` (0: before leaving; -1: at the end)."""
    carry: int | None = None
    """A friendly character the mover carries (HX-MOVE-22), placed on `carry_to` when the move ends."""
    carry_to: int = -1
    attack: Close | Ranged | None = None
    """A transporter's free attack during the move (HX-SPECIAL-08), made after entering `attack_after` squares."""
    attack_after: int = -1
    rear: int = -1
    """A double-base character's: the square its rear half is placed on, next to the path's last square
    (HX-SPECIAL-04; -1: the engine's choice, `double_base.rear_square`). Its path begins with the square next to
    it that it counts from."""

    def __init__(
        self,
        character: int,
        path: tuple[int, ...],
        mode: str | None = None,
        pick_up: int | None = None,
        pick_up_after: int = -1,
        carry: int | None = None,
        carry_to: int = -1,
        attack: Close | Ranged | None = None,
        attack_after: int = -1,
        rear: int = -1,
    ) -> None:
        object.__setattr__(self, "character", character)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "pick_up", pick_up)
        object.__setattr__(self, "pick_up_after", pick_up_after)
        object.__setattr__(self, "carry", carry)
        object.__setattr__(self, "carry_to", carry_to)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "attack_after", attack_after)
        object.__setattr__(self, "rear", rear)


@dataclass(frozen=True, init=False)  # its own __init__: compiled (engine/compiled.py)
class Close:
    """A close combat action against an adjacent opposing character (HX-COMBAT-07). A Quake naming no target has
    the attacker itself as `target`: the power picks every adjacent opponent (HX-POWER-16)."""

    character: int
    target: int
    knockback: tuple[tuple[int, str], ...] = ()
    """Knockback directions chosen for targets off the straight lines from the attacker (HX-KNOCK-04)."""
    then: tuple[int, ...] = ()
    """The targets of further close attacks in the same action, each with its own roll (Flurry, HX-POWER-01)."""
    use: str = ""
    """A power the attack activates (`use: NAME`: Blades/Claws/Fangs, Quake, Incapacitate), if any."""

    def __init__(
        self,
        character: int,
        target: int,
        knockback: tuple[tuple[int, str], ...] = (),
        then: tuple[int, ...] = (),
        use: str = "",
    ) -> None:
        object.__setattr__(self, "character", character)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "knockback", knockback)
        object.__setattr__(self, "then", then)
        object.__setattr__(self, "use", use)


@dataclass(frozen=True, init=False)  # its own __init__: compiled (engine/compiled.py)
class Ranged:
    """A ranged combat action against up to `bolts` targets (HX-COMBAT-09, -21), damage divided by `split`."""

    character: int
    targets: tuple[int, ...]
    split: tuple[tuple[int, int], ...] = ()
    knockback: tuple[tuple[int, str], ...] = ()
    use: str = ""
    """A power the attack activates (`use: NAME`), if any."""

    def __init__(
        self,
        character: int,
        targets: tuple[int, ...],
        split: tuple[tuple[int, int], ...] = (),
        knockback: tuple[tuple[int, str], ...] = (),
        use: str = "",
    ) -> None:
        object.__setattr__(self, "character", character)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "knockback", knockback)
        object.__setattr__(self, "use", use)


@dataclass(frozen=True)
class Throw:
    """A ranged combat action throwing the object the character holds at one opposing character (HX-OBJECT-11)."""

    character: int
    target: int
    knockback: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Raze:
    """A close or ranged combat action against a square of blocking terrain (`square`) or a wall (`wall`: the two
    squares it parts, sorted) (HX-TERRAIN-13, -18, HX-COMBAT-26)."""

    character: int
    square: int
    wall: tuple[int, int] | None = None
    ranged: bool = False


@dataclass(frozen=True)
class Telekinesis:
    """A power action using Telekinesis (HX-OBJECT-12..16): the object lying on `object_square` moved to `to`
    or hurled at the opposing character `target`; or, with no object, the adjacent character `moved` placed on
    `to`."""

    character: int
    object_square: int = -1
    to: int = -1
    target: int | None = None
    moved: int | None = None
    knockback: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class PowerAction:
    """A power action using `power` (HX-TURN-15), or a free action a power grants (HX-TURN-16): Regeneration (no
    choice), Support (`target`: the friend healed), Charge and Running Shot (the move along `path` in flight mode
    `mode`, then the free `attack`, if any), Hypersonic Speed (`path`, `attack`, then the move `then_path`), Force
    Blast (`target`, knocked back as `knockback` says), Smoke Cloud and Barrier (markers on `squares`, in order);
    free: Poison (no choice), Sidestep (`path`), Perplex (`target`, the value `chosen`, by `amount`), Outwit
    (`target`, the power `chosen`)."""

    character: int
    power: str
    target: int | None = None
    path: tuple[int, ...] = ()
    mode: str | None = None
    attack: Close | Ranged | None = None
    rear: int = -1
    """A double-base character's rear square after the move (as `Move.rear`)."""
    then_path: tuple[int, ...] = ()
    then_rear: int = -1
    """A double-base character's rear square after the move `then_path` (Hypersonic Speed)."""
    squares: tuple[int, ...] = ()
    knockback: tuple[tuple[int, str], ...] = ()
    chosen: str = ""
    """A name the power asks to choose: Perplex's combat value, Outwit's power."""
    amount: int = 0
    """Perplex's modifier, +1 or -1."""


@dataclass(frozen=True)
class EndTurn:
    """The active player ends its turn (HX-TURN-10)."""


Action = Move | Close | Ranged | Throw | Raze | Telekinesis | PowerAction | EndTurn
