"""The shortcuts that make a HeroClix decision cheaper (issue 36) give what the long way gives: a character's move
destinations scored by `heuristic.Destinations` are `HeuristicAgent.move_value`'s floats, exactly; `cards.modifier`
answering 0 at once (`cards.may_modify`) is the sum of the modifiers the cards give; `move_search.closed_steps` is
shared only by maps with the same walls and blocking terrain. That whole games stay the same is the golden games'
part (tests/test_golden.py, on both engines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clix.engine.core.dice import Dice
from clix.engine.core.driver import play
from clix.engine.core.players.base import Decision
from clix.engine.heroclix import battlefield, cards, defenses, feats, sides, teams
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.library import load_library
from clix.engine.heroclix.maps import MapObject
from clix.engine.heroclix.move_search import closed_flags, closed_steps
from clix.engine.heroclix.players.heuristic import Destinations, HeuristicAgent
from clix.engine.heroclix.players.position import Context
from clix.engine.heroclix.setup import new_game
from clix.engine.heroclix.state import HeroState, Move

SAMPLE = Path(__file__).resolve().parent.parent / "rosters" / "heroclix"

pytestmark = pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")

VALUES = (cards.SPEED, cards.ATTACK, cards.DEFENSE, cards.DAMAGE)


def _library():  # type: ignore[no-untyped-def]
    library, problems = load_library([SAMPLE])
    assert problems == []
    return library


class Checking:
    """The default player (held, not subclassed: a compiled class has no interpreted subclasses), checking at each
    action decision every plain move's `Destinations` value against `move_value` with a context of its own, and
    the cards' modifiers against their sum worked out in full."""

    def __init__(self, rng: np.random.Generator, seen: dict[str, Any]) -> None:
        self.agent = HeuristicAgent(rng)
        self.seen = seen

    def choose(self, state: HeroState, decision: Decision) -> int:
        if decision.kind == "action":
            self._check_moves(state, decision)
            self._check_pairs(state)
            self._check_modifiers(state)
        return self.agent.choose(state, decision)

    def _check_moves(self, state: HeroState, decision: Decision) -> None:
        weights = self.agent.weights
        fast, slow = Context(state, decision.player, weights), Context(state, decision.player, weights)
        scorers: dict[int, Destinations] = {}
        for action in decision.options:
            if type(action) is not Move or action.carry is not None or action.attack is not None:
                continue
            actor = state.monsters[action.character]
            end = action.path[-1] if action.path else actor.pos
            scorer = scorers.setdefault(actor.uid, Destinations(fast, actor))
            assert scorer.value(end) == self.agent.move_value(slow, actor, end), (actor.label, end)
            self.seen["moves"] += 1
            self.seen["pushed"] += actor.tokens >= 1
            self.seen["several"] += not scorer.single

    def _check_pairs(self, state: HeroState) -> None:
        """`sides.is_opponent` (by uid) against membership of `opponents`, and the damage a reducer leaves
        (`defenses.reducer`, HX-DAMAGE-01, -02, HX-PAC-06) against `reduced`, for every pair of characters."""
        for one in state.monsters:
            foes = sides.opponents(state, one)
            for other in state.monsters:
                assert sides.is_opponent(state, one, other) == any(c is other for c in foes)
            for penetrating in (False, True):
                for damage in range(5):
                    cut = defenses.reducer(one, penetrating)
                    assert defenses.reduced(one, damage, penetrating) == max(0, damage - cut)
                    self.seen["reduced"] += cut > 0

    def _check_modifiers(self, state: HeroState) -> None:
        if state.cards is not None:  # set when the cards were dealt, and still what they may modify
            assert state.cards.modified == cards.modified_values(state.cards)
        for character in state.standing():
            for value in VALUES:
                for close in (None, True, False):
                    kind = None if close is None else "close" if close else "ranged"
                    found = [
                        *teams.modifiers(state, character), *feats.modifiers(state, character),
                        *battlefield.modifiers(state),
                    ]  # fmt: skip
                    expected = sum(m.amount for m in found if m.value == value and m.attacks in (None, kind))
                    assert cards.modifier(state, character, value, close) == expected
                    self.seen["modified"] += expected != 0
                    self.seen["skipped"] += state.cards is not None and not cards.may_modify(state.cards, value)


@pytest.mark.parametrize(
    ("names", "map_name", "seed"),
    [
        (("dawn-patrol", "night-shift"), "chemical-plant", 1),  # the reference duel: one action a turn
        (("dawnguard-strike", "iron-syndicate"), "chemical-plant", 2),  # 200 points: two actions, a team modifier
        (("dawn-patrol", "night-shift", "tidewatch"), "harbor-district", 3),  # three players: each one's threat
    ],
)
def test_destinations_and_card_modifiers_are_what_the_long_way_gives(names, map_name, seed):
    library = _library()
    forces = [library.forces[name] for name in names]
    rng = np.random.default_rng(seed)
    state = new_game(library, forces, library.maps[map_name], rng, turn_limit=4)
    seen: dict[str, Any] = {"moves": 0, "pushed": 0, "several": 0, "modified": 0, "skipped": 0, "reduced": 0}
    agents = [Checking(np.random.default_rng(seed * 10 + seat), seen) for seat in range(len(forces))]
    play(state, agents, Dice(np.random.default_rng(seed + 100)))
    assert seen["moves"] > 100 and seen["skipped"] > 0
    if len(forces) > 2 or forces[0].build_total > 100:
        assert seen["several"] > 0  # `Context.threat`'s general case, left to it
    if "iron-syndicate" in names:
        assert seen["modified"] > 0  # Iron Syndicate's close attack modifier (HX-TEAM)
        assert seen["reduced"] > 0  # a damage reducer showing (Toughness)


def _clear_square(layout):
    """The first clear square of `layout` (reading rows top down) that holds no object."""
    taken = {o.at for o in layout.objects}
    return next(
        (x, y)
        for y in range(layout.height)
        for x in range(layout.width)
        if layout.printed(x, y) == "clear" and (x, y) not in taken
    )


def test_a_map_that_only_hinders_more_shares_its_closed_steps_and_a_blocked_one_does_not():
    """`closed_steps`, `closed_flags` and `levels_of` are kept by what they read (walls, blocking terrain,
    elevation and ladders), so a map made when an object moves finds them; a map blocked elsewhere does not."""
    layout = _library().maps["chemical-plant"]
    geometry = geometry_of(layout)
    x, y = _clear_square(layout)
    hindered = layout.model_copy(update={"objects": [*layout.objects, MapObject(kind="heavy", at=(x, y))]})
    assert closed_steps(geometry_of(hindered)) is closed_steps(geometry)  # HX-OBJECT-03: an object only hinders
    assert closed_flags(geometry_of(hindered)) is closed_flags(geometry)
    assert levels_of(geometry_of(hindered)) is levels_of(geometry)  # the same elevation and ladders (HX-ELEV)
    rows = [row if r != y else row[:x] + "#" + row[x + 1 :] for r, row in enumerate(layout.rows)]
    blocked = geometry_of(layout.model_copy(update={"rows": rows}))
    assert closed_steps(blocked) is not closed_steps(geometry)
    assert closed_flags(blocked) is not closed_flags(geometry)
    for here in range(blocked.size):  # HX-TERRAIN-16: the new blocking square shuts corners round it
        for k, square in enumerate(blocked.all_neighbours[here]):
            assert (square in closed_steps(blocked)[here]) == blocked.separated(here, square)
            assert closed_flags(blocked)[here][k] == blocked.separated(here, square)


def test_maps_with_the_same_walls_share_the_geometry_step_tables_and_piece_neighbours_follow_blocking_terrain():
    """`Geometry`'s step tables (size and walls alone) are shared by a map made when an object moves; its
    `piece_neighbours` too while the blocking terrain is the same, and a map blocked elsewhere gets its own, equal to
    the pieces' adjacency worked out from `separated` (HC-MOVE-01, HC-TERRAIN-10, -12; HX-TERRAIN-16)."""
    layout = _library().maps["chemical-plant"]
    geometry = geometry_of(layout)
    x, y = _clear_square(layout)
    hindered = geometry_of(layout.model_copy(update={"objects": [*layout.objects, MapObject(kind="heavy", at=(x, y))]}))
    assert hindered is not geometry
    assert hindered.terrain != geometry.terrain  # HX-OBJECT-03: the object hinders its square
    for name in ("neighbours", "neighbour_sets", "all_neighbours", "all_neighbour_sets", "diagonal_flanks"):
        assert getattr(hindered, name) is getattr(geometry, name), name
    assert hindered.diagonal_walls is geometry.diagonal_walls
    assert hindered.piece_neighbours is geometry.piece_neighbours
    rows = [row if r != y else row[:x] + "#" + row[x + 1 :] for r, row in enumerate(layout.rows)]
    blocked = geometry_of(layout.model_copy(update={"rows": rows}))
    assert blocked.neighbours is geometry.neighbours  # the same walls
    assert blocked.piece_neighbours is not geometry.piece_neighbours  # kept by where blocking terrain lies
    for here in range(blocked.size):
        expected = tuple(j for j in blocked.neighbours[here] if not blocked.separated(here, j))
        assert blocked.piece_neighbours[here] == expected, here
