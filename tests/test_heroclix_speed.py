"""The tables that make HeroClix games fast (issue 38) say what the engine's own calls say: a map's geometry is
shared by maps of the same contents only (`geometries.geometry_of`), the walls and shut corners of a step are
`Geometry.separated` (`move_search.closed_steps`), and the heuristic's table of lines of fire agrees with the traced
lines (`position.clear_lines`), shared by maps that differ only in what hinders. That the games stay the same is
the golden games' part (tests/test_golden.py, on both engines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.driver import settle
from clix.engine.core.geometry import CLEAR, HINDERING
from clix.engine.heroclix.combat import damage_modifier
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.library import load_library
from clix.engine.heroclix.maps import MapObject
from clix.engine.heroclix.move_search import _stops, closed_steps, walker_terrain
from clix.engine.heroclix.movement import _terrain_stop
from clix.engine.heroclix.players.heuristic import HeuristicAgent
from clix.engine.heroclix.players.position import Context, clear_lines
from clix.engine.heroclix.players.weights import TUNED
from clix.engine.heroclix.setup import _parsed_stats, character_stats, new_game
from clix.engine.heroclix.state import Close, Ranged

SAMPLE = Path(__file__).resolve().parent.parent / "rosters" / "heroclix"
MAPS = ["chemical-plant", "harbor-district"]

pytestmark = pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")


def _library():  # type: ignore[no-untyped-def]
    library, problems = load_library([SAMPLE])
    assert problems == []
    return library


def _free(layout) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A clear square of `layout` with nothing on it."""
    taken = {o.at for o in layout.objects}
    return next(
        (x, y)
        for y in range(layout.height)
        for x in range(layout.width)
        if layout.printed(x, y) == "clear" and (x, y) not in taken
    )


@pytest.mark.parametrize("map_name", MAPS)
def test_a_map_of_the_same_contents_gets_the_same_geometry_and_a_changed_one_its_own(map_name):
    layout = _library().maps[map_name]
    geometry = geometry_of(layout)
    assert geometry_of(layout.model_copy(update={"objects": list(layout.objects)})) is geometry
    heavy = _free(layout)
    placed = layout.model_copy(update={"objects": [*layout.objects, MapObject(kind="heavy", at=heavy)]})
    other = geometry_of(placed)
    assert other is not geometry and other.layout == placed
    square = geometry.index(*heavy)
    assert (geometry.terrain[square], other.terrain[square]) == (CLEAR, HINDERING)  # HX-OBJECT-03


@pytest.mark.parametrize("map_name", MAPS)
def test_the_closed_steps_are_the_steps_walls_and_corners_shut(map_name):
    geometry = geometry_of(_library().maps[map_name])
    closed = closed_steps(geometry)
    for here in range(geometry.size):
        for square in range(geometry.size):
            assert (square in closed[here]) == geometry.separated(here, square)
    assert closed_steps(geometry) is closed  # worked out once per map


@pytest.mark.parametrize("map_name", MAPS)
def test_the_lines_of_fire_table_agrees_with_the_traced_lines(map_name):
    library = _library()
    forces = [library.forces["dawn-patrol"], library.forces["night-shift"]]
    state = new_game(library, forces, library.maps[map_name], np.random.default_rng(1), turn_limit=5)
    geometry = state.geometry
    ctx = Context(state, 1, TUNED)
    reach = 8
    for source in range(0, geometry.size, 3):
        for aim in range(geometry.size):
            apart = geometry.distance(source, aim)
            ray = geometry.ray(source, aim)
            expected = 0
            if apart == 1 and geometry.adjacent(source, aim):
                expected = 2
            elif 0 < apart <= reach and not ray.walled and not ray.blocked_by_terrain:
                expected = 1
            assert ctx._how(source, aim, apart, reach) == expected, (source, aim)
    layout = state.geometry.layout
    hindered = layout.model_copy(update={"objects": [*layout.objects, MapObject(kind="heavy", at=_free(layout))]})
    assert clear_lines(geometry_of(hindered)) is clear_lines(geometry)  # an object only hinders: the same lines
    x, y = _free(layout)
    rows = [row if r != y else row[:x] + "#" + row[x + 1 :] for r, row in enumerate(layout.rows)]
    blocked = layout.model_copy(update={"rows": rows})
    assert clear_lines(geometry_of(blocked)) is not clear_lines(geometry)


def test_a_character_dial_is_parsed_once_and_a_changed_one_again():
    """`setup.character_stats` keeps a character's `Stats` (HX-CHAR-05) by what they are made from: the same
    character gets the same object, equal to a fresh parse; one with other points or another dial its own."""
    library = _library()
    character = library.characters[library.forces["dawn-patrol"].characters[0]]
    stats = character_stats(character)
    assert character_stats(character) is stats
    assert stats == _parsed_stats(character)
    dearer = character.model_copy(update={"points": character.points + 5})
    assert character_stats(dearer).points == character.points + 5
    moved = character.model_copy(update={"start": 1})
    assert character_stats(moved).start == 1 and character_stats(character).start == character.start


def test_the_plain_attack_values_are_the_engine_s_attack_odds():
    """`Context.plain_value` (attack, damage and defense worked out once per figure and decision) is what the
    engine's own `attack_odds` gives for a plain close or ranged attack, pair by pair (HX-COMBAT-02..05)."""
    library = _library()
    forces = [library.forces["dawn-patrol"], library.forces["night-shift"]]
    state = new_game(library, forces, library.maps["chemical-plant"], np.random.default_rng(3), turn_limit=5)
    settle(state, [HeuristicAgent(np.random.default_rng(seat)) for seat in (4, 5)])  # placed, ready to act
    ctx = Context(state, 1, TUNED)
    fresh = Context(state, 1, TUNED)
    figures = state.standing()
    checked = 0
    for attacker in figures:
        for target in figures:
            if attacker.uid == target.uid:
                continue
            for close in (True, False):
                action = Close(attacker.uid, target.uid) if close else Ranged(attacker.uid, (target.uid,))
                damage = attacker.damage + damage_modifier(state, attacker, action)
                expected = max(0.0, fresh.attack_value(attacker, target, action, damage))
                if close:
                    expected *= TUNED.close if attacker in ctx.mine else 1.0
                assert ctx.plain_value(attacker, target, close) == expected
                checked += 1
    assert checked >= 12


@pytest.mark.parametrize("map_name", MAPS)
def test_the_walker_terrain_table_stops_where_the_rules_stop(map_name):
    """`move_search._stops` over the per-map `walker_terrain` table agrees with `_terrain_stop` on every step of the
    map, for walkers and swimmers (HX-TERRAIN-05, HX-MOVE-19, -20)."""
    library = _library()
    forces = [library.forces["dawn-patrol"], library.forces["night-shift"]]
    state = new_game(library, forces, library.maps[map_name], np.random.default_rng(2), turn_limit=5)
    geometry = state.geometry
    stopped = 0
    for swims in (False, True):
        kinds = walker_terrain(geometry, swims)
        for here in range(geometry.size):
            for square in geometry.all_neighbours[here]:
                expected = _terrain_stop(state, here, square, swims)
                assert _stops(kinds, geometry.diagonal_flanks, here, square) == expected, (here, square, swims)
                stopped += expected
    assert stopped > 0


@pytest.mark.parametrize("map_name", MAPS)
def test_a_line_clear_of_walls_and_blocking_terrain_is_what_the_ray_says(map_name):
    """`Geometry.line_clear` (traced to the first obstacle, not kept) answers as `Geometry.ray` does for every pair
    of squares of the map (HC-COMBAT-18, HC-TERRAIN-10, -11)."""
    geometry = geometry_of(_library().maps[map_name])
    shut = 0
    for source in range(0, geometry.size, 2):
        for aim in range(geometry.size):
            ray = geometry.ray(source, aim)
            clear = geometry.line_clear(source, aim)
            assert clear == (not ray.walled and not ray.blocked_by_terrain), (source, aim)
            shut += not clear
    assert shut > 0
