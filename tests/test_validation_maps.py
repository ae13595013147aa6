"""Roster validation: victims and maps (how each case works: tests/validation_cases.py)."""

from __future__ import annotations

import pytest
from validation_cases import MAP, VICTIMS, case, check_case

# --- victims (HC-VICTIM-01) -----------------------------------------------------------------------------------

VICTIM_CASES = [
    case(
        "HC-VICTIM-01-gender",
        (VICTIMS, "gender: male", "gender: m"),
        VICTIMS,
        "victims[1].gender",
        "Jock",
        "'m' is not allowed here; use 'male' or 'female'",
    ),
    case(
        "HC-VICTIM-01-speed-at-least-1",
        (VICTIMS, "speed: 6", "speed: 0"),
        VICTIMS,
        "victims[1].speed",
        "Jock",
        "greater than or equal to 1",
    ),
    case(
        "HC-VICTIM-01-missing-gender",
        (VICTIMS, "speed: 6, gender: male, ", "speed: 6, "),
        VICTIMS,
        "victims[1].gender",
        "Jock",
        "required field 'gender' is missing",
    ),
    case(
        "duplicate-victim-in-one-file",
        (VICTIMS, "{name: Librarian", "{name: Cheerleader"),
        VICTIMS,
        "victims[2].name",
        "speed: 4",
        "'Cheerleader' is already defined earlier in this file (line",
        "names must be unique",
    ),
    case(
        "victim-file-unknown-top-level-field",
        (VICTIMS, "victims:\n", "victim_count: 3\nvictims:\n"),
        VICTIMS,
        "victim_count",
        "victim_count: 3",
        "unknown field 'victim_count'; this file holds only 'victims'",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), VICTIM_CASES)
def test_victim_rule(mini, edits, file, field, at, message):
    """Victim archetypes: speed, gender, names once."""
    check_case(mini, edits, file, field, at, message)


def test_victim_file_needs_at_least_one_victim(mini):
    """A victim file with an empty list is reported at the 'victims' key."""
    mini.write(VICTIMS, "# no victims yet\nvictims: []\n")
    problems = mini.problems_in(VICTIMS)
    assert [(p.line, p.field) for p in problems] == [(2, "victims")]
    assert problems[0].message == "'victims' must be a list with at least one entry"


# --- maps (HC-TERRAIN-12..24, HC-SETUP-04, HC-SETUP-06, HC-VICTIM-02, HC-VICTIM-07) ------------------------------

MAP_CASES = [
    case(
        "map-id-not-a-slug",
        (MAP, "id: graveyard-mini", "id: graveyard mini"),
        MAP,
        "id",
        "id: graveyard mini",
        "id 'graveyard mini' is not valid",
    ),
    case(
        "HC-TERRAIN-20-unknown-map-kind",
        (MAP, "kind: indoor_outdoor", "kind: cave"),
        MAP,
        "kind",
        "kind: cave",
        "'cave' is not allowed here; use 'outdoor', 'indoor' or 'indoor_outdoor'",
    ),
    case(
        "rows-of-different-widths",
        (MAP, '"v.h.v.#."', '"v.h.v.#"'),
        MAP,
        "rows[2]",
        '"v.h.v.#"',
        "row 2 has 7 spaces but row 0 has 8; every row needs the same width",
    ),
    case(
        "HC-TERRAIN-01-bad-map-character",
        (MAP, '"v.h.v.#."', '"v.h.v.X."'),
        MAP,
        "rows[2]",
        '"v.h.v.X."',
        "row 2 uses 'X'; use . clear, h hindering, ~ water, # blocking, v victim start, 1-4 starting area",
    ),
    case(
        "HC-TERRAIN-12-wall-off-the-map",
        (MAP, "{at: [2, 1], side: east}", "{at: [8, 1], side: east}"),
        MAP,
        "walls[0]",
        "at: [8, 1]",
        "wall at [8, 1] is off the 8x6 map",
    ),
    case(
        "HC-TERRAIN-12-wall-unknown-side",
        (MAP, "{at: [2, 1], side: east}", "{at: [2, 1], side: up}"),
        MAP,
        "walls[0].side",
        "side: up",
        "'up' is not allowed here; use 'north', 'south', 'east' or 'west'",
    ),
    case(
        "HC-TERRAIN-12-wall-line-not-straight",
        (MAP, "[4, 2, 4, 4]", "[4, 2, 5, 4]"),
        MAP,
        "wall_lines[0]",
        "[4, 2, 5, 4]",
        "wall line [4, 2, 5, 4] is not straight; a wall line runs along one grid line",
    ),
    case(
        "HC-TERRAIN-12-wall-line-off-the-map",
        (MAP, "[4, 2, 4, 4]", "[4, 2, 4, 7]"),
        MAP,
        "wall_lines[0]",
        "[4, 2, 4, 7]",
        "wall line [4, 2, 4, 7] runs off the map (grid points 0-8 x 0-6)",
    ),
    case(
        "HC-TERRAIN-23-indoor-only-on-indoor-outdoor-maps",
        (MAP, "kind: indoor_outdoor", "kind: outdoor"),
        MAP,
        "indoor",
        "indoor:",
        "'indoor' rectangles are only for indoor_outdoor maps (this map is outdoor)",
    ),
    case(
        "HC-TERRAIN-23-indoor-rectangle-off-the-map",
        (MAP, "[5, 2, 7, 4]", "[5, 2, 8, 4]"),
        MAP,
        "indoor[0]",
        "[5, 2, 8, 4]",
        "indoor rectangle [5, 2, 8, 4] must be [x1, y1, x2, y2] inside the map",
    ),
    case(
        "HC-TERRAIN-23-indoor-rectangle-reversed",
        (MAP, "[5, 2, 7, 4]", "[7, 2, 5, 4]"),
        MAP,
        "indoor[0]",
        "[7, 2, 5, 4]",
        "indoor rectangle [7, 2, 5, 4] must be [x1, y1, x2, y2] inside the map with x1<=x2, y1<=y2",
    ),
    case(
        "HC-TERRAIN-13-object-off-the-map",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [0, 6]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "tombstone at [0, 6] is off the map",
    ),
    case(
        "HC-SETUP-06-object-on-clear-terrain-only",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [2, 2]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "tombstone at [2, 2] is on hindering terrain; objects go on clear",
    ),
    case(
        "HC-TERRAIN-13-one-object-per-space",
        (MAP, "{kind: portal, at: [4, 4], side: north}", "{kind: portal, at: [2, 4], side: north}"),
        MAP,
        "objects[2]",
        "portal",
        "two objects at [2, 4]; one object per space",
    ),
    case(
        "HC-TERRAIN-17-tombstone-only-outdoors",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [5, 3]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "a tombstone may stand only on an outdoor space, and [5, 3] is indoors (HC-TERRAIN-17, HC-TERRAIN-19)",
    ),
    case(
        "HC-TERRAIN-19-tree-only-outdoors",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: tree, at: [7, 2]}"),
        MAP,
        "objects[1]",
        "tree",
        "a tree may stand only on an outdoor space, and [7, 2] is indoors",
    ),
    case(
        "HC-TERRAIN-14-portal-without-side",
        (MAP, "{kind: portal, at: [4, 4], side: north}", "{kind: portal, at: [4, 4]}"),
        MAP,
        "objects[2]",
        "portal",
        "a portal needs 'side': the edge of its space where the doorway is",
    ),
    case(
        "HC-TERRAIN-19-tree-with-side",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: tree, at: [2, 4], side: west}"),
        MAP,
        "objects[1]",
        "tree",
        "a tree has no 'side'; only portals do",
    ),
    case(
        "HC-TERRAIN-13-unknown-object-kind",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: statue, at: [2, 4]}"),
        MAP,
        "objects[1].kind",
        "statue",
        "'statue' is not allowed here; use 'tombstone', 'tree' or 'portal'",
    ),
    case(
        "HC-VICTIM-02-HC-VICTIM-07-fewer-than-12-victim-spaces",
        (MAP, '".v.v.v.v"', '"...v.v.v"'),
        MAP,
        "rows",
        "rows:",
        "the map has 11 victim start spaces ('v'); mark at least 12",
        "(HC-VICTIM-02)",
    ),
    case(
        "HC-SETUP-04-at-least-two-starting-areas",
        (MAP, '"22222222"', '"........"'),
        MAP,
        "rows",
        "rows:",
        "the map needs at least two starting areas",
    ),
    case(
        "HC-SETUP-04-starting-area-not-on-an-edge",
        [(MAP, '"22222222"', '"........"'), (MAP, '"v.v..v.."', '"v.v2.v.."')],
        MAP,
        "rows",
        "rows:",
        "starting area 2 does not touch a map edge (HC-SETUP-04)",
    ),
    case(
        "HC-SETUP-04-no-starting-areas-on-opposite-edges",
        [(MAP, '"22222222"', '"........"'), (MAP, '".v.v.v.v"', '"2v.v.v.v"'), (MAP, '".v.~.v.v"', '"2v.~.v.v"')],
        MAP,
        "rows",
        "rows:",
        "no two starting areas lie on opposite edges; a two-player game needs one such pair (HC-SETUP-04)",
    ),
    case(
        "map-needs-rows",
        (
            MAP,
            'rows:\n  - "11111111"\n  - ".v.v.v.v"\n  - "v.h.v.#."\n  - ".v.~.v.v"\n  - "v.v..v.."\n  - "22222222"\n',
            "rows: []\n",
        ),
        MAP,
        "rows",
        "rows: []",
        "at least 1 item",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), MAP_CASES)
def test_map_rule(mini, edits, file, field, at, message):
    """Map shape and markings: rows, walls, indoor areas, objects, victim spaces, starting areas."""
    check_case(mini, edits, file, field, at, message)


@pytest.mark.parametrize(
    ("old", "new", "field", "at"),
    [
        pytest.param("[4, 2, 4, 4]", "[4, 2, 4]", "wall_lines[0]", "[4, 2, 4]", id="wall-line-of-three-numbers"),
        pytest.param(
            "{at: [2, 1], side: east}", "{at: [2], side: east}", "walls[0].at", "at: [2]", id="wall-at-one-number"
        ),
    ],
)
def test_short_coordinate_list_is_not_called_a_missing_field(mini, old, new, field, at):
    """A coordinate list with too few numbers must say so, not "required field '3' is missing" (HC-TERRAIN-12)."""
    mini.edit(MAP, old, new)
    problem = mini.only_problem(MAP)
    assert problem.line == mini.line(MAP, at)
    assert problem.field.startswith(field)
    assert "required field" not in problem.message, str(problem)
