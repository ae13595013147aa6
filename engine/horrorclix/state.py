"""HorrorClix's game state: the core state (`engine.core.state`) with what HorrorClix's rules add: victims,
plot twists, the hourglass phase, starting areas, the victim being moved.

Rules (`engine.horrorclix.rules`) query and change it; players never touch it, they only choose among the
legal actions the rules list. A player is handed `view(player)`: the state without the dice and without
the other players' crypts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from clix.engine.core.dice import Dice
from clix.engine.core.geometry import Geometry
from clix.engine.core.pieces import (  # noqa: F401  (re-exported)
    HIDDEN_CARD,
    Event,
    Figure,
    Lasting,
    MapObject,
    Player,
)
from clix.engine.core.ruleset import Ruleset
from clix.engine.core.state import State
from clix.engine.horrorclix.monsters import (  # noqa: F401  (re-exported: the pieces are read through the state)
    FLIGHT_NAMES,
    GROUNDED,
    HOVERING,
    ON_MAP,
    SOARING,
    Monster,
    Victim,
    VictimState,
)


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
class GameState(State):
    """Everything about one HorrorClix game in progress."""

    monsters: list[Monster] = field(default_factory=list)
    victims: list[Victim] = field(default_factory=list)
    in_hourglass_phase: bool = False
    chosen_victim: int | None = None
    cards: dict[str, Any] = field(default_factory=dict)
    """Plot-twist cards by name (roster PlotTwist): what the names in the crypts mean (engine.horrorclix.plots)."""
    plot: Any = None
    """Plot twists in play (engine.horrorclix.plots.PlotTable): revealed subplots, the ticking clock, held victims."""
    areas: dict[int, Any] = field(default_factory=dict)
    """The starting area each player chose, by player number (HC-SETUP-04)."""
    scoring_player: int | None = None
    """Who a kill with no killing monster scores for while a plot twist's damage resolves (HC-END-15)."""
    extra_actions_used: set[int] = field(default_factory=set)
    """Monsters (by uid) whose power granted its once-per-turn extra action this turn (HC-SPECIAL-16)."""

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
        State.__init__(
            self, geometry, dice, players, build_total, monsters, objects, active, turn, phase, actions_left,
            turn_limit, vp, log, winner, over, end_reason, declared, lasting, tie_break, ruleset=ruleset,
        )  # fmt: skip
        self.victims = [] if victims is None else victims
        self.in_hourglass_phase = in_hourglass_phase
        self.chosen_victim = chosen_victim
        self.cards = {} if cards is None else cards
        self.plot = plot
        self.areas = {} if areas is None else areas
        self.scoring_player = scoring_player
        self.extra_actions_used = set() if extra_actions_used is None else extra_actions_used
        self._portals = []
        self._portal_count = -1
        for player in players:
            if player.number not in self.vp:
                self.vp[player.number] = {"kills": 0, "victims": 0, "subplots": 0}

    def _empty(self, dice: Dice | None) -> State:
        return GameState(self.geometry, dice, [], ruleset=self.ruleset)

    def _copy_rules(self, twin: State) -> None:
        assert isinstance(twin, GameState)
        twin.victims = [victim.copy() for victim in self.victims]
        twin.in_hourglass_phase = self.in_hourglass_phase
        twin.chosen_victim = self.chosen_victim
        twin.cards = self.cards
        twin.plot = self.plot.copy() if self.plot is not None else None
        twin.areas = dict(self.areas)
        twin.scoring_player = self.scoring_player
        twin.extra_actions_used = set(self.extra_actions_used)

    def _refresh_rules(self, seen: State, player: int) -> None:
        assert isinstance(seen, GameState)
        seen.victims = self.victims
        seen.in_hourglass_phase = self.in_hourglass_phase
        seen.chosen_victim = self.chosen_victim
        seen.cards = self.cards
        seen.plot = self.plot
        seen.areas = self.areas
        seen.scoring_player = self.scoring_player
        seen.extra_actions_used = self.extra_actions_used
        seen._portals = self._portals
        seen._portal_count = self._portal_count

    # --- lookups --------------------------------------------------------------------------------

    def portals(self) -> list[MapObject]:
        """The portals placed (smashed ones included), cached: objects are only ever appended."""
        if self._portal_count != len(self.objects):
            self._portals = [o for o in self.objects if o.kind == "portal"]
            self._portal_count = len(self.objects)
        return self._portals

    def victim_at(self, pos: int) -> Victim | None:
        for v in self.victims:
            if v.state == ON_MAP and v.pos == pos:
                return v
        return None

    def object_at(self, pos: int) -> MapObject | None:
        for o in self.objects:
            if o.alive and o.pos == pos and o.kind != "portal":
                return o
        return None

    def occupied(self) -> dict[int, Monster | Victim]:
        """Every space with a monster or a victim on it."""
        found: dict[int, Monster | Victim] = {v.pos: v for v in self.victims if v.state == ON_MAP}
        found.update((m.pos, m) for m in self.monsters if m.alive)
        return found

    @property
    def actions_per_turn(self) -> int:
        """One action per full 100 points of build total (HC-TURN-02)."""
        return self.build_total // 100

    @property
    def victim_vp(self) -> int:
        """5 victory points per victim per 100 points of build total (HC-END-07)."""
        return 5 * (self.build_total // 100)
