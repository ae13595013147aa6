"""The state of a game under any ruleset: the board, the seats, the figures, whose turn it is, the score, the log,
and the machinery of the state contract (pausing, copying, views, pickling) (issue 16).

A ruleset adds what its own rules keep in a subclass: HorrorClix's `engine.horrorclix.state.GameState` adds victims, plot
twists and the rest. The core knows neither. A subclass adds its fields and says how to copy and show them with
`_empty`, `_copy_rules` and `_refresh_rules`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from clix.engine.core.dice import Dice
from clix.engine.core.geometry import Geometry
from clix.engine.core.pieces import Event, Figure, Lasting, MapObject, Player
from clix.engine.core.ruleset import Ruleset
from clix.engine.core.stepping import Step, replay

if TYPE_CHECKING:
    from clix.engine.core.pending import Chance, Decision

S = TypeVar("S", bound="State")


@dataclass(init=False)
class State:
    """Everything about one game in progress that every ruleset has."""

    geometry: Geometry
    ruleset: Ruleset
    """The game's rules (`engine.core.ruleset`): what the driver and the effect hooks ask; shared by copies and views."""
    dice: Dice | None
    """The dice the game's driver lends the state; None makes every roll a chance event the driver resolves
    (`engine.core.decisions`)."""
    players: list[Player]
    build_total: int = 100
    monsters: list[Any] = field(default_factory=list)
    """The figures in play (`pieces.Figure`; a ruleset's state narrows the type: HorrorClix's `Monster`)."""
    objects: list[MapObject] = field(default_factory=list)
    active: int = 1
    turn: int = 1
    phase: str = ""
    """One of the ruleset's phases (`Ruleset.phases`)."""
    actions_left: int = 1
    turn_limit: int | None = None
    vp: dict[int, dict[str, int]] = field(default_factory=dict)
    """Victory points by player, then by what scored them (the ruleset's kinds)."""
    log: list[Event] = field(default_factory=list)
    winner: int | None = None
    over: bool = False
    end_reason: str = ""
    declared: dict[int, str] = field(default_factory=dict)
    """Dependant power declared for the action being resolved, by monster uid (HC-CARD-08)."""
    lasting: list[Lasting] = field(default_factory=list)
    tie_break: bool = True
    """Equal VP: the cheaper army wins (HC-END-09); off, equal VP is a draw (as many events play it)."""
    waiting: Decision | Chance | None = field(default=None, compare=False, repr=False)
    """What the step being run waits for (a player's decision or a chance event), or None (`engine.core.decisions`)."""
    history: list[Step] = field(default_factory=list, compare=False, repr=False)
    """The steps run since `origin`, with their answers and dice: how a paused state is copied."""
    origin: State | None = field(default=None, compare=False, repr=False)
    """The state before the first step of `history` (never changed)."""
    before: State | None = field(default=None, compare=False, repr=False)
    """The state before the paused step, once a copy has needed it (never changed)."""
    journal: list[Any] = field(default_factory=list, compare=False, repr=False)
    replaying: deque[Any] | None = field(default=None, compare=False, repr=False)
    runner: Any = field(default=None, compare=False, repr=False)
    caller: Any = field(default=None, compare=False, repr=False)
    answerer: Any = field(default=None, compare=False, repr=False)
    """While a driver plays the game, what answers the steps' questions as they come (`engine.core.driver`)."""

    _views: dict[int, State] = field(default_factory=dict, compare=False, repr=False)

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
        vp: dict[int, dict[str, int]] | None = None,
        log: list[Event] | None = None,
        winner: int | None = None,
        over: bool = False,
        end_reason: str = "",
        declared: dict[int, str] | None = None,
        lasting: list[Lasting] | None = None,
        tie_break: bool = True,
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
        self.declared = {} if declared is None else declared
        self.lasting = [] if lasting is None else lasting
        self.tie_break = tie_break
        self.waiting = None
        self.history = []
        self.origin = None
        self.before = None
        self.journal = []
        self.replaying = None
        self.runner = None
        self.caller = None
        self.answerer = None
        self._views = {}

    # --- what a ruleset's state adds ------------------------------------------------------------

    def _empty(self, dice: Dice | None) -> State:
        """A bare state of this class on the same board and rules, for a copy or a view to fill in."""
        return State(self.geometry, dice, [], ruleset=self.ruleset)

    def _copy_rules(self, twin: State) -> None:
        """Copy into `twin` what the ruleset's state adds (nothing here)."""

    def _refresh_rules(self, seen: State, player: int) -> None:
        """Show in `seen`, `player`'s view, what the ruleset's state adds (nothing here)."""

    # --- copies -----------------------------------------------------------------------------------

    def copy(self: S, dice: Dice | None = None) -> S:
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

    def copy_without_dice(self: S) -> S:
        """A copy that waits for its driver's dice (chance events); cheaper than `copy` (no generator copied)."""
        if self.runner is not None:
            return self._copy_paused(None, False)
        twin = self._copy_pieces(None)
        twin.origin = self.origin
        twin.history = list(self.history)
        return twin

    def _copy_pieces(self: S, dice: Dice | None) -> S:
        twin: S = self._empty(dice)  # type: ignore[assignment]  # `_empty` makes one of this class
        twin.players = [player.copy() for player in self.players]
        twin.build_total = self.build_total
        twin.monsters = [monster.copy() for monster in self.monsters]
        twin.objects = [thing.copy() for thing in self.objects]
        twin.active = self.active
        twin.turn = self.turn
        twin.phase = self.phase
        twin.actions_left = self.actions_left
        twin.turn_limit = self.turn_limit
        twin.vp = {player: dict(points) for player, points in self.vp.items()}
        twin.log = list(self.log)
        twin.winner = self.winner
        twin.over = self.over
        twin.end_reason = self.end_reason
        twin.declared = dict(self.declared)
        twin.lasting = list(self.lasting)
        twin.tie_break = self.tie_break
        self._copy_rules(twin)
        return twin

    def _copy_paused(self: S, dice: Dice | None, same_dice: bool) -> S:
        twin = self.before_step().copy_without_dice()
        if dice is None and same_dice and self.dice is not None:
            dice = self.dice.copy()
        twin.dice = dice
        replay(twin, self.history[-1])
        return twin

    def before_step(self: S) -> S:
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
        return self.before  # type: ignore[return-value]  # rebuilt from a state of this class

    # --- views --------------------------------------------------------------------------------------

    def view(self: S, player: int) -> S:
        """The game as `player` sees it, to choose in: no dice, and the other players' hidden cards hidden
        (HC-PLOT-01). It shares the pieces with this state: a player copies it before changing anything."""
        return self._refresh_view(self._empty(None), player)  # type: ignore[arg-type]

    def view_for_choice(self: S, player: int) -> S:
        """`view(player)` for one decision: the driver's (`engine.core.driver`), made once per player and brought up
        to date at each decision, so it is valid only until the game goes on (copy it to keep it)."""
        seen = self._views.get(player)
        if seen is None:
            seen = self._views[player] = self._empty(None)
        return self._refresh_view(seen, player)  # type: ignore[arg-type]

    def _refresh_view(self: S, seen: S, player: int) -> S:
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
                        or len(hidden.hidden_cards) != len(p.hidden_cards)
                        or hidden.army_points != p.army_points
                    ):
                        shown[k] = p.seen_by_others()
        seen.geometry = self.geometry  # a ruleset may change the board (HeroClix objects, destroyed walls)
        seen.build_total = self.build_total
        seen.monsters = self.monsters
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
        seen.declared = self.declared
        seen.lasting = self.lasting
        seen.tie_break = self.tie_break
        seen.waiting = self.waiting
        self._refresh_rules(seen, player)
        return seen

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its pieces; a paused state as the state before its step and the step, run again when
        unpickled (its greenlet cannot be pickled)."""
        if self.runner is not None:
            return (_unpickled_paused, (self.before_step(), self.history[-1], self.dice))
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.compare}
        return (_unpickled_state, (type(self), values))

    # --- lookups --------------------------------------------------------------------------------

    def player(self, number: int) -> Player:
        return self.players[number - 1]

    def opposing(self, a: Figure, b: Figure) -> bool:
        """Controlled by players of different teams (HC-SPECIAL-02, HC-SPECIAL-11)."""
        return self.player(a.controller).team != self.player(b.controller).team

    def living(self) -> list[Any]:
        return [m for m in self.monsters if m.alive]

    def monster_at(self, pos: int) -> Any:
        """The figure in play at `pos`, or None."""
        figure: Figure
        for figure in self.monsters:
            if figure.alive and figure.pos == pos:
                return figure
        return None

    def total_vp(self, player: int) -> int:
        return sum(self.vp[player].values())

    def emit(self, kind: str, **detail: Any) -> Event:
        event = Event(kind, self.turn, self.active, tuple(detail.items()))
        self.log.append(event)
        return event


def _unpickled_state(cls: type[State], values: dict[str, Any]) -> State:
    return cls(**values)


def _unpickled_paused(before: State, step: Step, dice: Dice | None) -> State:
    state = before.copy_without_dice()
    state.dice = dice
    replay(state, step)
    return state
