"""The explicit game state: pieces, players, phase, dice and the event log.

Rules (`engine.rules`) query and change it; players never touch it, they only choose among the
legal actions the rules list. A player is handed `view(player)`: the state without the dice and without
the other players' crypts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from clix.engine.dice import Dice
from clix.engine.geometry import Geometry
from clix.engine.pieces import (  # noqa: F401  (re-exported: the pieces are read through the state)
    FLIGHT_NAMES,
    GROUNDED,
    HIDDEN_CARD,
    HOVERING,
    SOARING,
    Event,
    Lasting,
    MapObject,
    Monster,
    Player,
    Victim,
    VictimState,
)
from clix.engine.ruleset import Ruleset
from clix.engine.stepping import Step, replay

if TYPE_CHECKING:
    from clix.engine.pending import Chance, Decision


class Phase(StrEnum):
    """The phases of a turn (HC-TURN-07..11), the setup before the first and the end after the last."""

    SETUP = "setup"
    PREVIEW = "preview"
    SUSPENSE = "suspense"
    HUNTING = "hunting"
    HOURGLASS = "hourglass"
    OVER = "over"


PHASES = tuple(Phase)


@dataclass(init=False)
class GameState:
    """Everything about one game in progress."""

    geometry: Geometry
    ruleset: Ruleset
    """The game's rules (`engine.ruleset`): what the driver and the effect hooks ask; shared by copies and views."""
    dice: Dice | None
    """The dice the game's driver lends the state; None makes every roll a chance event the driver resolves
    (`engine.decisions`)."""
    players: list[Player]
    build_total: int = 100
    monsters: list[Monster] = field(default_factory=list)
    victims: list[Victim] = field(default_factory=list)
    objects: list[MapObject] = field(default_factory=list)
    active: int = 1
    turn: int = 1
    phase: str = Phase.HUNTING
    """One of the ruleset's phases (HorrorClix's: `Phase`)."""
    actions_left: int = 1
    turn_limit: int | None = None
    vp: dict[int, dict[str, int]] = field(default_factory=dict)
    log: list[Event] = field(default_factory=list)
    winner: int | None = None
    over: bool = False
    end_reason: str = ""
    in_hourglass_phase: bool = False
    chosen_victim: int | None = None
    declared: dict[int, str] = field(default_factory=dict)
    """Dependant power declared for the action being resolved, by monster uid (HC-CARD-08)."""
    lasting: list[Lasting] = field(default_factory=list)
    cards: dict[str, Any] = field(default_factory=dict)
    """Plot-twist cards by name (roster PlotTwist): what the names in the crypts mean (engine.plots)."""
    plot: Any = None
    """Plot twists in play (engine.plots.PlotTable): revealed subplots, the ticking clock, held victims."""
    tie_break: bool = True
    """Equal VP: the cheaper army wins (HC-END-09); off, equal VP is a draw (as many events play it)."""
    areas: dict[int, Any] = field(default_factory=dict)
    """The starting area each player chose, by player number (HC-SETUP-04)."""
    scoring_player: int | None = None
    """Who a kill with no killing monster scores for while a plot twist's damage resolves (HC-END-15)."""
    extra_actions_used: set[int] = field(default_factory=set)
    """Monsters (by uid) whose power granted its once-per-turn extra action this turn (HC-SPECIAL-16)."""
    waiting: Decision | Chance | None = field(default=None, compare=False, repr=False)
    """What the step being run waits for (a player's decision or a chance event), or None (`engine.decisions`)."""
    history: list[Step] = field(default_factory=list, compare=False, repr=False)
    """The steps run since `origin`, with their answers and dice: how a paused state is copied."""
    origin: GameState | None = field(default=None, compare=False, repr=False)
    """The state before the first step of `history` (never changed)."""
    before: GameState | None = field(default=None, compare=False, repr=False)
    """The state before the paused step, once a copy has needed it (never changed)."""
    journal: list[Any] = field(default_factory=list, compare=False, repr=False)
    replaying: deque[Any] | None = field(default=None, compare=False, repr=False)
    runner: Any = field(default=None, compare=False, repr=False)
    caller: Any = field(default=None, compare=False, repr=False)

    _views: dict[int, GameState] = field(default_factory=dict, compare=False, repr=False)
    _portals: list[MapObject] = field(default_factory=list, compare=False, repr=False)
    _portal_count: int = field(default=-1, compare=False, repr=False)

    def __init__(
        self,
        geometry: Geometry,
        dice: Dice | None,
        players: list[Player],
        build_total: int = 100,
        monsters: list[Monster] | None = None,
        victims: list[Victim] | None = None,
        objects: list[MapObject] | None = None,
        active: int = 1,
        turn: int = 1,
        phase: str = Phase.HUNTING,
        actions_left: int = 1,
        turn_limit: int | None = None,
        vp: dict[int, dict[str, int]] | None = None,
        log: list[Event] | None = None,
        winner: int | None = None,
        over: bool = False,
        end_reason: str = "",
        in_hourglass_phase: bool = False,
        chosen_victim: int | None = None,
        declared: dict[int, str] | None = None,
        lasting: list[Lasting] | None = None,
        cards: dict[str, Any] | None = None,
        plot: Any = None,
        tie_break: bool = True,
        areas: dict[int, Any] | None = None,
        scoring_player: int | None = None,
        extra_actions_used: set[int] | None = None,
        *,
        ruleset: Ruleset,
    ) -> None:
        # written out, not generated: mypyc compiles this one, and states are made at every copy and view
        self.geometry = geometry
        self.ruleset = ruleset
        self.dice = dice
        self.players = players
        self.build_total = build_total
        self.monsters = [] if monsters is None else monsters
        self.victims = [] if victims is None else victims
        self.objects = [] if objects is None else objects
        self.active = active
        self.turn = turn
        self.phase = phase
        self.actions_left = actions_left
        self.turn_limit = turn_limit
        self.vp = {} if vp is None else vp
        self.log = [] if log is None else log
        self.winner = winner
        self.over = over
        self.end_reason = end_reason
        self.in_hourglass_phase = in_hourglass_phase
        self.chosen_victim = chosen_victim
        self.declared = {} if declared is None else declared
        self.lasting = [] if lasting is None else lasting
        self.cards = {} if cards is None else cards
        self.plot = plot
        self.tie_break = tie_break
        self.areas = {} if areas is None else areas
        self.scoring_player = scoring_player
        self.extra_actions_used = set() if extra_actions_used is None else extra_actions_used
        self.waiting = None
        self.history = []
        self.origin = None
        self.before = None
        self.journal = []
        self.replaying = None
        self.runner = None
        self.caller = None
        self._views = {}
        self._portals = []
        self._portal_count = -1
        for player in players:
            if player.number not in self.vp:
                self.vp[player.number] = {"kills": 0, "victims": 0, "subplots": 0}

    def copy(self, dice: Dice | None = None) -> GameState:
        """An independent copy of the game as it stands, for search.

        It shares what never changes in play (the map's geometry, the figures' stats, the cards, the logged
        events and lasting effects, which are replaced, never edited) and copies the rest. Its dice are
        `dice`, or a copy of these that rolls the same future (set `dice` None on the copy for chance
        events). A copy of a paused state (`waiting`) is paused at the same question: it re-runs the paused
        step from the state before it, with the same answers and dice."""
        if self.runner is not None:
            return self._copy_paused(dice, True)
        twin = self._copy_pieces(dice if dice is not None else (self.dice.copy() if self.dice is not None else None))
        twin.origin = self.origin
        twin.history = list(self.history)
        return twin

    def copy_without_dice(self) -> GameState:
        """A copy that waits for its driver's dice (chance events); cheaper than `copy` (no generator copied)."""
        if self.runner is not None:
            return self._copy_paused(None, False)
        twin = self._copy_pieces(None)
        twin.origin = self.origin
        twin.history = list(self.history)
        return twin

    def _copy_pieces(self, dice: Dice | None) -> GameState:
        twin = GameState(
            self.geometry,
            dice,
            [player.copy() for player in self.players],
            self.build_total,
            [monster.copy() for monster in self.monsters],
            [victim.copy() for victim in self.victims],
            [thing.copy() for thing in self.objects],
            self.active,
            self.turn,
            self.phase,
            self.actions_left,
            self.turn_limit,
            {player: dict(points) for player, points in self.vp.items()},
            list(self.log),
            ruleset=self.ruleset,
        )
        twin.winner = self.winner
        twin.over = self.over
        twin.end_reason = self.end_reason
        twin.in_hourglass_phase = self.in_hourglass_phase
        twin.chosen_victim = self.chosen_victim
        twin.declared = dict(self.declared)
        twin.lasting = list(self.lasting)
        twin.cards = self.cards
        twin.plot = self.plot.copy() if self.plot is not None else None
        twin.tie_break = self.tie_break
        twin.areas = dict(self.areas)
        twin.scoring_player = self.scoring_player
        twin.extra_actions_used = set(self.extra_actions_used)
        return twin

    def _copy_paused(self, dice: Dice | None, same_dice: bool) -> GameState:
        twin = self.before_step().copy_without_dice()
        if dice is None and same_dice and self.dice is not None:
            dice = self.dice.copy()
        twin.dice = dice
        replay(twin, self.history[-1])
        return twin

    def before_step(self) -> GameState:
        """The state before the step being run (paused), rebuilt once from `origin` and `history`."""
        if self.before is None:
            if self.origin is None:
                raise RuntimeError("a paused state without its origin cannot be rebuilt")
            rebuilt = self.origin.copy_without_dice()  # a finished step's dice are in its journal
            rebuilt.origin = self.origin
            rebuilt.history = []
            for step in self.history[:-1]:
                replay(rebuilt, step)
            self.before = rebuilt
        return self.before

    def view(self, player: int) -> GameState:
        """The game as `player` sees it, to choose in: no dice, and the other players' crypts hidden
        (HC-PLOT-01). It shares the pieces with this state: a player copies it before changing anything."""
        return self._refresh_view(GameState(self.geometry, None, [], ruleset=self.ruleset), player)

    def view_for_choice(self, player: int) -> GameState:
        """`view(player)` for one decision: the driver's (`engine.game`), made once per player and brought up
        to date at each decision, so it is valid only until the game goes on (copy it to keep it)."""
        seen = self._views.get(player)
        if seen is None:
            seen = self._views[player] = GameState(self.geometry, None, [], ruleset=self.ruleset)
        return self._refresh_view(seen, player)

    def _refresh_view(self, seen: GameState, player: int) -> GameState:
        players = self.players
        shown = seen.players
        if len(shown) != len(players):
            shown.clear()
            shown.extend(p if p.number == player else p.seen_by_others() for p in players)
        else:
            for k, p in enumerate(players):
                if p.number == player:
                    shown[k] = p
                else:
                    hidden = shown[k]
                    if (
                        hidden is p
                        or hidden.eliminated != p.eliminated
                        or len(hidden.crypt) != len(p.crypt)
                        or hidden.army_points != p.army_points
                    ):
                        shown[k] = p.seen_by_others()
        seen.build_total = self.build_total
        seen.monsters = self.monsters
        seen.victims = self.victims
        seen.objects = self.objects
        seen.active = self.active
        seen.turn = self.turn
        seen.phase = self.phase
        seen.actions_left = self.actions_left
        seen.turn_limit = self.turn_limit
        seen.vp = self.vp
        seen.log = self.log
        seen.winner = self.winner
        seen.over = self.over
        seen.end_reason = self.end_reason
        seen.in_hourglass_phase = self.in_hourglass_phase
        seen.chosen_victim = self.chosen_victim
        seen.declared = self.declared
        seen.lasting = self.lasting
        seen.cards = self.cards
        seen.plot = self.plot
        seen.tie_break = self.tie_break
        seen.areas = self.areas
        seen.scoring_player = self.scoring_player
        seen.extra_actions_used = self.extra_actions_used
        seen.waiting = self.waiting
        seen._portals = self._portals
        seen._portal_count = self._portal_count
        return seen

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its pieces; a paused state as the state before its step and the step, run again when
        unpickled (its greenlet cannot be pickled). The portal cache is rebuilt on first use."""
        if self.runner is not None:
            return (_unpickled_paused, (self.before_step(), self.history[-1], self.dice))
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.compare}
        return (_unpickled_state, (values,))

    # --- lookups --------------------------------------------------------------------------------

    def player(self, number: int) -> Player:
        return self.players[number - 1]

    def opposing(self, a: Monster, b: Monster) -> bool:
        """Controlled by players of different teams (HC-SPECIAL-02, HC-SPECIAL-11)."""
        return self.player(a.controller).team != self.player(b.controller).team

    def living(self) -> list[Monster]:
        return [m for m in self.monsters if m.alive]

    def portals(self) -> list[MapObject]:
        """The portals placed (smashed ones included), cached: objects are only ever appended."""
        if self._portal_count != len(self.objects):
            self._portals = [o for o in self.objects if o.kind == "portal"]
            self._portal_count = len(self.objects)
        return self._portals

    def monster_at(self, pos: int) -> Monster | None:
        for m in self.monsters:
            if m.alive and m.pos == pos:
                return m
        return None

    def victim_at(self, pos: int) -> Victim | None:
        for v in self.victims:
            if v.state == VictimState.ON_MAP and v.pos == pos:
                return v
        return None

    def object_at(self, pos: int) -> MapObject | None:
        for o in self.objects:
            if o.alive and o.pos == pos and o.kind != "portal":
                return o
        return None

    def occupied(self) -> dict[int, Monster | Victim]:
        """Every space with a monster or a victim on it."""
        found: dict[int, Monster | Victim] = {v.pos: v for v in self.victims if v.state == VictimState.ON_MAP}
        found.update((m.pos, m) for m in self.monsters if m.alive)
        return found

    def total_vp(self, player: int) -> int:
        return sum(self.vp[player].values())

    def emit(self, kind: str, **detail: Any) -> Event:
        event = Event(kind, self.turn, self.active, tuple(detail.items()))
        self.log.append(event)
        return event

    @property
    def actions_per_turn(self) -> int:
        """One action per full 100 points of build total (HC-TURN-02)."""
        return self.build_total // 100

    @property
    def victim_vp(self) -> int:
        """5 victory points per victim per 100 points of build total (HC-END-07)."""
        return 5 * (self.build_total // 100)


def _unpickled_state(values: dict[str, Any]) -> GameState:
    return GameState(**values)


def _unpickled_paused(before: GameState, step: Step, dice: Dice | None) -> GameState:
    state = before.copy_without_dice()
    state.dice = dice
    replay(state, step)
    return state
