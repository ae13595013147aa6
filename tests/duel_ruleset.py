"""A second ruleset, for the tests of the ruleset seam (issue 16): a duel on a grid.

Two players, one figure each, on an open board. A turn is one action: step to a free adjacent space, strike an
adjacent figure (2d6 + attack against defense; a hit deals damage clicks), or pass. The first figure knocked out
loses; at the turn limit the least damaged figure wins. It has no victims, no plot twists and no setup phase,
and its two powers are HeroClix-like (002/004): its *Regeneration* is not HorrorClix's (roll a d6, heal the
result minus 2), and *Toughness* reduces damage by 1. It runs on the engine's core alone: the core state
(`engine.core.state.State`, no victims, no plot twists), the driver, the stepping and dice, and the effect hooks.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache

import numpy as np
from clix.engine.core import decisions, driver, effects
from clix.engine.core.dial import parse_click
from clix.engine.core.dice import Dice
from clix.engine.core.effects import Params, PowerHandler, handles
from clix.engine.core.geometry import Geometry
from clix.engine.core.matchups import UnknownStyle
from clix.engine.core.pending import Decision
from clix.engine.core.pieces import Figure, Player, stats_from_dial
from clix.engine.core.ruleset import PowerSpec, Ruleset
from clix.engine.core.state import State

NAME = "duel-on-a-grid"
PHASES = ("action", "over")


POWERS = {
    "Regeneration": PowerSpec(
        "Regeneration", "turn_start", "At the start of its turn, roll a d6 and heal the result minus 2.", "002"
    ),
    "Toughness": PowerSpec("Toughness", "damaged", "Damage dealt to this figure is reduced by 1.", "004"),
}


@dataclass(frozen=True)
class Board:
    """The duel's map format: an open board of clear spaces, a player's corner marked by its number. It has what
    the core's `board.Layout` reads, and nothing of HorrorClix's map files."""

    rows: tuple[str, ...]
    kind: str = "outdoor"
    walls: tuple[object, ...] = ()
    wall_lines: tuple[tuple[int, int, int, int], ...] = ()
    indoor: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, x: int, y: int) -> str:
        return "clear"

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def starting_areas(self) -> dict[int, list[tuple[int, int]]]:
        return {int(c): [(x, y)] for y, row in enumerate(self.rows) for x, c in enumerate(row) if c.isdigit()}

    def victim_spaces(self) -> list[tuple[int, int]]:
        return []


BOARD = Board(("1.....", "......", "......", ".....2"))


@dataclass(frozen=True)
class StepTo:
    figure: int
    to: int


@dataclass(frozen=True)
class Strike:
    figure: int
    target: int


@dataclass(frozen=True)
class Pass:
    pass


@handles("Regeneration")
class Regeneration(PowerHandler):
    def on_turn_start(self, state: State, source: Figure, p: Params) -> None:
        roll = decisions.d6(state)
        healed = max(0, roll - 2)
        source.click = max(source.stats.start, source.click - healed)
        state.emit("regenerated", figure=source.label, roll=roll, healed=healed)


@handles("Toughness")
class Toughness(PowerHandler):
    def reduce_damage(self, state: State, source: Figure, amount: int, p: Params) -> int:
        return 1


def legal_actions(state: State) -> list[StepTo | Strike | Pass]:
    if state.over:
        return []
    mine = next(m for m in state.monsters if m.controller == state.active)
    foe = next(m for m in state.monsters if m.controller != state.active)
    taken = {m.pos for m in state.monsters}
    found: list[StepTo | Strike | Pass] = [
        StepTo(mine.uid, to) for to in state.geometry.neighbours[mine.pos] if to not in taken
    ]
    if state.geometry.adjacent(mine.pos, foe.pos):
        found.append(Strike(mine.uid, foe.uid))
    found.append(Pass())
    return found


def apply(state: State, action: StepTo | Strike | Pass, listed: bool = False) -> None:
    if not listed and action not in legal_actions(state):
        raise ValueError(f"{action} is not legal now")
    decisions.perform(state, _act, action)


def _act(state: State, action: StepTo | Strike | Pass) -> None:
    if isinstance(action, StepTo):
        state.monsters[action.figure].pos = action.to
    elif isinstance(action, Strike):
        _strike(state, state.monsters[action.figure], state.monsters[action.target])
    if not state.over:
        end_turn(state)


def _strike(state: State, striker: Figure, target: Figure) -> None:
    roll = decisions.d6(state) + decisions.d6(state)
    hit = roll + effects.stat(state, striker, "attack") >= effects.stat(state, target, "defense")
    state.emit("strike", figure=striker.label, roll=roll, hit=hit)
    if hit:
        dealt = effects.reduce_damage(state, target, effects.stat(state, striker, "damage"))
        target.click = min(target.click + dealt, target.stats.clicks - 1)
        target.damage_taken += dealt
        if target.stats.killed[target.click]:
            target.alive = False
            finish(state, "knockout")


def begin_turn(state: State) -> None:
    state.phase = PHASES[0]
    for m in state.monsters:
        if m.alive and m.controller == state.active:
            effects.fire(state, m, "turn_start")


def end_turn(state: State) -> None:
    state.turn += 1
    if state.turn_limit is not None and state.turn > state.turn_limit * len(state.players):
        finish(state, "turn limit")
        return
    state.active = state.active % len(state.players) + 1
    begin_turn(state)


def score(state: State) -> dict[int, int]:
    """The damage each side has dealt, and 100 more for a knockout."""
    dealt = {p.team: 0 for p in state.players}
    for m in state.monsters:
        dealt[3 - m.owner] += m.damage_taken + (0 if m.alive else 100)
    return dealt


def finish(state: State, reason: str) -> None:
    state.over = True
    state.phase = PHASES[1]
    state.end_reason = reason
    totals = score(state)
    best = max(totals.values())
    leaders = [team for team, points in totals.items() if points == best]
    state.winner = leaders[0] if len(leaders) == 1 else None


class RandomChooser:
    """A player picking uniformly among the options with its own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, state: State, decision: Decision) -> int:
        return int(self.rng.integers(len(decision.options)))


@cache
def load() -> Ruleset:
    return Ruleset(
        name=NAME,
        version="test",
        loader=f"{__name__}:load",
        phases=PHASES,
        powers=POWERS,
        handlers=effects.handlers_in(sys.modules[__name__]),
        legal_actions=legal_actions,
        apply=apply,
        begin_turn=begin_turn,
        end_turn=end_turn,
        score=score,
        matchups=lambda: MATCHUPS,
    )


ARMIES = {"plain": {}, "regenerating": {"Regeneration": {}}, "tough": {"Toughness": {}}}
"""The duel's "armies": one figure each, with the power it shows."""


class DuelMatchups:
    """The duel's `MatchupKit` (engine/core/matchups.py): the analyzer's runner plays it as it plays HorrorClix."""

    styles = ("random",)
    default_style = "random"

    def player_factory(self, style: str) -> type[RandomChooser]:
        if style != "random":
            raise UnknownStyle(f"the duel has only the random player, not {style!r}")
        return RandomChooser

    def library(self, layers: tuple) -> dict[str, dict]:
        return ARMIES

    def adopt(self, layers: tuple, library: object) -> None:
        pass

    def start(self, library, armies, given, map_name, factories, seed, turn_limit, tie_break, watch=None):
        rng = np.random.default_rng(seed)
        state = new_duel(Dice(rng), (library[armies[0]], library[armies[1]]), turn_limit)
        return state, [
            make(np.random.default_rng([int(rng.integers(2**32)), seat])) for seat, make in enumerate(factories)
        ]

    def play(self, state: State, agents, watch=None) -> State:
        driver.play(state, agents)
        return state

    def game_rows(self, state: State, head: dict, swapped: bool) -> tuple[dict, list[dict]]:
        seat_a = 2 if swapped else 1
        winner = "draw" if state.winner is None else ("A" if state.winner == seat_a else "B")
        return {**head, "winner": winner, "end_reason": state.end_reason}, []

    def data_document(self, library, armies, given, map_name) -> dict:
        return {"armies": {name: library[name] for name in sorted(set(armies))}}

    def style_weights(self, style: str) -> None:
        return None


MATCHUPS = DuelMatchups()


def new_duel(dice: Dice | None, powers: tuple[dict[str, dict], dict[str, dict]] = ({}, {}), turns: int = 20) -> State:
    """A duel between two identical figures carrying `powers`, ready for player 1's first action."""
    geometry = Geometry(BOARD)
    dial = [parse_click(entry) for entry in ("8 9 16 2", "8 9 16 2", "7 9 15 2", "7 8 15 1", "6 8 14 1", "x")]
    figures = []
    for player, (corner, shown) in enumerate(zip((0, geometry.size - 1), powers, strict=True), 1):
        stats = stats_from_dial(f"F{player}", dial, powers=shown)
        figures.append(Figure(player - 1, f"F{player}", stats, player, player, corner, 0, "start", 0))
    state = State(geometry, dice, [Player(1, 1), Player(2, 2)], monsters=figures, turn_limit=turns, ruleset=load())
    begin_turn(state)
    return state
