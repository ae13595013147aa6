"""The state of a Horrified game: the core `State` (seats, turn, phase, log, copies, views) plus heroes, villagers,
monsters and their task progress, items wherever they are, the decks, terror and frenzy (HF-*)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clix.engine.core.dice import Dice
from clix.engine.core.geometry import Geometry
from clix.engine.core.state import State
from clix.engine.horrified.components import Components

OFF_BOARD = -1
"""A defeated hero's place until the start of its player's next turn (HF-HIT-01)."""
HERO_PHASE = "hero"
MONSTER_PHASE = "monster"
OVER = "over"
PHASES = (HERO_PHASE, MONSTER_PHASE, OVER)


@dataclass
class Hero:
    """One player's hero: where it is, its items (uids) and perk cards (indexes into `Components.perks`)."""

    id: str
    player: int
    pos: int
    items: list[int] = field(default_factory=list)
    perks: list[int] = field(default_factory=list)
    cure: bool = False

    def copy(self) -> Hero:
        return Hero(self.id, self.player, self.pos, list(self.items), list(self.perks), self.cure)


@dataclass
class MonsterPiece:
    """A monster in the game: where it is, whether defeated, and its task's progress (coffins left to smash, items
    on its mat)."""

    id: str
    pos: int
    defeated: bool = False
    coffins: list[int] = field(default_factory=list)
    """Dracula: the locations whose coffin is not smashed yet (HF-M-DRA)."""
    mat: dict[int, int] = field(default_factory=dict)
    """The Invisible Man: evidence spot (a location) -> the item placed there (HF-M-INV); the Wolf Man: spot index
    -> the blue item placed there (HF-M-WOL)."""
    progress: int = 0
    """The Creature: the X the Boat is on (0 the Start, HF-M-CRE); Frankenstein and the Bride: humanity (HF-M-FRB)."""
    tablet: list[int] = field(default_factory=list)
    """The Mummy: the scarab on each spot (0 empty; negative: that scarab face down, HF-M-MUM)."""
    holder: str = ""
    """The hero holding the Soul sign (the Mummy) or the Hunted emblem (the Wolf Man): set by the first event."""

    def copy(self) -> MonsterPiece:
        return MonsterPiece(self.id, self.pos, self.defeated, list(self.coffins), dict(self.mat), self.progress,
                            list(self.tablet), self.holder)  # fmt: skip


@dataclass(frozen=True)
class _LineLayout:
    """The core's grid stands for the board as one row of spaces, one per location (space k = location k); the rules
    use the graph (`Board`), never the grid's adjacency."""

    width: int
    kind: str = "outdoor"
    height: int = 1
    walls: tuple[Any, ...] = ()
    wall_lines: tuple[tuple[int, int, int, int], ...] = ()
    indoor: tuple[tuple[int, int, int, int], ...] = ()

    def terrain(self, x: int, y: int) -> str:
        return "clear"

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and y == 0

    def starting_areas(self) -> dict[int, list[tuple[int, int]]]:
        return {}

    def victim_spaces(self) -> list[tuple[int, int]]:
        return []


_GEOMETRIES: dict[int, Geometry] = {}


def line_geometry(size: int) -> Geometry:
    """The core geometry of a board of `size` locations (one per size, shared)."""
    if size not in _GEOMETRIES:
        _GEOMETRIES[size] = Geometry(_LineLayout(size))
    return _GEOMETRIES[size]


class HorrifiedState(State):
    """A Horrified game in progress. `components` never change in play and are shared by copies."""

    components: Components
    heroes: list[Hero]
    pieces: list[MonsterPiece]
    villagers: dict[int, int]
    """Villagers on the board: villager index -> location (HF-VILL-01)."""
    at: dict[int, list[int]]
    """Items lying at each location (uids)."""
    bag: list[int]
    discard: list[int]
    deck: list[int]
    """Monster cards face down, the top last."""
    played: list[int]
    perk_deck: list[int]
    perk_discard: list[int]
    terror: int
    frenzied: str
    bonus_actions: int
    skip_monster_phase: bool
    defeated_heroes: list[str]
    """Heroes defeated this turn: no further attack targets them (HF-HIT-01)."""

    def __init__(self, components: Components, dice: Dice | None, players: Any, *, ruleset: Any) -> None:
        super().__init__(line_geometry(components.board.size), dice, players, ruleset=ruleset)
        self.components = components
        self.heroes = []
        self.pieces = []
        self.villagers = {}
        self.at = {}
        self.bag = []
        self.discard = []
        self.deck = []
        self.played = []
        self.perk_deck = []
        self.perk_discard = []
        self.terror = 0
        self.frenzied = ""
        self.bonus_actions = 0
        self.skip_monster_phase = False
        self.defeated_heroes = []

    def _empty(self, dice: Dice | None) -> HorrifiedState:
        return HorrifiedState(self.components, dice, [], ruleset=self.ruleset)

    def _copy_rules(self, twin: State) -> None:
        assert isinstance(twin, HorrifiedState)
        twin.heroes = [h.copy() for h in self.heroes]
        twin.pieces = [m.copy() for m in self.pieces]
        twin.villagers = dict(self.villagers)
        twin.at = {k: list(v) for k, v in self.at.items()}
        twin.bag = list(self.bag)
        twin.discard = list(self.discard)
        twin.deck = list(self.deck)
        twin.played = list(self.played)
        twin.perk_deck = list(self.perk_deck)
        twin.perk_discard = list(self.perk_discard)
        twin.terror = self.terror
        twin.frenzied = self.frenzied
        twin.bonus_actions = self.bonus_actions
        twin.skip_monster_phase = self.skip_monster_phase
        twin.defeated_heroes = list(self.defeated_heroes)

    def _refresh_rules(self, seen: State, player: int) -> None:
        """A player's view shares the pieces (co-operative: nothing is hidden between players) but not the order of
        what lies face down: the item bag, the monster deck and the perk deck show their contents in sorted order."""
        assert isinstance(seen, HorrifiedState)
        for name in RULES_FIELDS:
            setattr(seen, name, getattr(self, name))
        seen.bag = sorted(self.bag)
        seen.deck = sorted(self.deck)
        seen.perk_deck = sorted(self.perk_deck)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its components, dice, rules and every field (a paused state as the core pickles one)."""
        if self.runner is not None:
            return super().__reduce__()
        values = {name: getattr(self, name) for name in (*CORE_FIELDS, *RULES_FIELDS)}
        return (_restored, (self.components, self.dice, self.ruleset, values))

    # --- lookups --------------------------------------------------------------------------------

    @property
    def current(self) -> Hero:
        """The active player's hero."""
        return self.heroes[self.active - 1]

    def piece(self, monster: str) -> MonsterPiece | None:
        """The monster in the game by id (None: not in it, or defeated, HF-DEF-01)."""
        for m in self.pieces:
            if m.id == monster and not m.defeated:
                return m
        return None

    def in_game(self) -> list[MonsterPiece]:
        return [m for m in self.pieces if not m.defeated]

    def item(self, uid: int) -> Any:
        return self.components.items[uid]


RULES_FIELDS = (
    "heroes", "pieces", "villagers", "at", "bag", "discard", "deck", "played", "perk_deck", "perk_discard", "terror",
    "frenzied", "bonus_actions", "skip_monster_phase", "defeated_heroes",
)  # fmt: skip
CORE_FIELDS = ("players", "active", "turn", "phase", "actions_left", "turn_limit", "vp", "log", "winner", "over",
               "end_reason")  # fmt: skip


def _restored(components: Components, dice: Dice | None, ruleset: Any, values: dict[str, Any]) -> HorrifiedState:
    state = HorrifiedState(components, dice, [], ruleset=ruleset)
    for name, value in values.items():
        setattr(state, name, value)
    return state
