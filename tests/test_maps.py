"""The sample maps (rosters/horrorclix/maps), wall geometry (engine.core.board) and the map drawings (analyzer.report.mapdraw)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clix.analyzer.library.mapdraw import draw_map_png, map_text
from clix.engine.core.board import edge, is_indoor, line_edges, wall_edges
from clix.engine.horrorclix.roster.loader import load_roster
from clix.engine.horrorclix.roster.models import MapFile, MapLayout
from clix.engine.horrorclix.zones import portal_sites, starting_zone

REPO_ROOT = Path(__file__).parent.parent
MAPS_DIR = REPO_ROOT / "rosters" / "horrorclix" / "maps"
SAMPLE_MAPS = ("mansion", "graveyard")
OPPOSITE = {"north": "south", "south": "north", "west": "east", "east": "west"}


@pytest.fixture(scope="module")
def sample_maps() -> dict[str, MapFile]:
    roster, problems = load_roster([MAPS_DIR])
    assert problems == []
    return roster.maps


def edges_touched(layout: MapLayout, spaces: list[tuple[int, int]]) -> set[str]:
    """The map edges a starting area runs along (its long side when it touches a corner)."""
    touched = set()
    if all(y == 0 or y == 1 for _, y in spaces) and any(y == 0 for _, y in spaces):
        touched.add("north")
    if all(y >= layout.height - 2 for _, y in spaces) and any(y == layout.height - 1 for _, y in spaces):
        touched.add("south")
    if all(x <= 1 for x, _ in spaces) and any(x == 0 for x, _ in spaces):
        touched.add("west")
    if all(x >= layout.width - 2 for x, _ in spaces) and any(x == layout.width - 1 for x, _ in spaces):
        touched.add("east")
    return touched


# --- sample maps -----------------------------------------------------------------------------------


def test_sample_maps_load_without_problems(sample_maps: dict[str, MapFile]) -> None:
    assert sorted(sample_maps) == sorted(SAMPLE_MAPS)
    assert sample_maps["mansion"].kind == "indoor"
    assert sample_maps["graveyard"].kind == "indoor_outdoor"
    for game_map in sample_maps.values():
        assert (game_map.width, game_map.height) in ((24, 16), (16, 24))
        assert game_map.provenance == "sample (designed by clix; not an official map)"


@pytest.mark.parametrize("map_id", SAMPLE_MAPS)
def test_twelve_victim_spaces_clear_of_starting_areas(sample_maps: dict[str, MapFile], map_id: str) -> None:
    game_map = sample_maps[map_id]
    victims = game_map.victim_spaces()
    assert len(victims) == 12
    zone = starting_zone(game_map)
    assert [v for v in victims if v in zone] == []


@pytest.mark.parametrize("map_id", SAMPLE_MAPS)
def test_starting_areas_on_opposite_edges(sample_maps: dict[str, MapFile], map_id: str) -> None:
    game_map = sample_maps[map_id]
    areas = game_map.starting_areas()
    assert {1, 2} <= set(areas)
    sides = {label: edges_touched(game_map, spaces) for label, spaces in areas.items()}
    assert all(len(touched) == 1 for touched in sides.values()), sides
    (side_1,), (side_2,) = sides[1], sides[2]
    assert side_2 == OPPOSITE[side_1]
    assert len({next(iter(touched)) for touched in sides.values()}) == len(areas)  # one area per edge
    for spaces in areas.values():  # two rows (or columns) deep
        xs, ys = {x for x, _ in spaces}, {y for _, y in spaces}
        assert min(len(xs), len(ys)) == 2


@pytest.mark.parametrize("map_id", SAMPLE_MAPS)
def test_every_terrain_type_and_diagonal_pairs(sample_maps: dict[str, MapFile], map_id: str) -> None:
    game_map = sample_maps[map_id]
    cells = {(x, y): game_map.terrain(x, y) for y in range(game_map.height) for x in range(game_map.width)}
    assert set(cells.values()) == {"clear", "hindering", "water", "blocking"}
    for terrain in ("hindering", "blocking"):
        diagonal = [
            (x, y)
            for (x, y), t in cells.items()
            if t == terrain
            and cells.get((x + 1, y + 1)) == terrain
            and cells.get((x + 1, y)) != terrain
            and cells.get((x, y + 1)) != terrain
        ]
        assert diagonal, f"{map_id} has no diagonal pair of {terrain} spaces"


@pytest.mark.parametrize("map_id", SAMPLE_MAPS)
def test_doorway_gaps_take_portals(sample_maps: dict[str, MapFile], map_id: str) -> None:
    game_map = sample_maps[map_id]
    zone = starting_zone(game_map)
    sites = [(space, side) for space, side in portal_sites(game_map) if space not in zone]
    assert len({space for space, _ in sites}) >= 6
    for obj in game_map.objects:
        assert obj.at not in zone
        if obj.kind == "portal":
            assert (obj.at, obj.side) in sites
        else:  # tombstones and trees go outdoors only (HC-TERRAIN-17, -19)
            assert not is_indoor(game_map, *obj.at)


def test_graveyard_mausoleum_is_walled_indoors(sample_maps: dict[str, MapFile]) -> None:
    graveyard = sample_maps["graveyard"]
    walls = wall_edges(graveyard)
    x1, y1, x2, y2 = graveyard.indoor[0]
    border = [edge((x, y1 - 1), (x, y1)) for x in range(x1, x2 + 1)]
    border += [edge((x, y2), (x, y2 + 1)) for x in range(x1, x2 + 1)]
    border += [edge((x1 - 1, y), (x1, y)) for y in range(y1, y2 + 1)]
    border += [edge((x2, y), (x2 + 1, y)) for y in range(y1, y2 + 1)]
    doorways = [e for e in border if e not in walls]
    assert len(doorways) in (1, 2)
    assert is_indoor(graveyard, x1, y1) and not is_indoor(graveyard, x1 - 1, y1)


# --- engine.core.board ----------------------------------------------------------------------------------


def small_layout(**extra: object) -> MapLayout:
    return MapLayout(rows=["....", "....", "...."], **extra)


def test_wall_line_becomes_exactly_its_edges() -> None:
    layout = small_layout(wall_lines=[[0, 1, 3, 1], [2, 3, 2, 1]])
    assert wall_edges(layout) == {
        ((0, 0), (0, 1)),
        ((1, 0), (1, 1)),
        ((2, 0), (2, 1)),
        ((1, 1), (2, 1)),
        ((1, 2), (2, 2)),
    }


def test_single_walls_and_border_walls() -> None:
    layout = small_layout(
        walls=[{"at": [1, 1], "side": "east"}, {"at": [2, 1], "side": "west"}, {"at": [0, 2], "side": "south"}]
    )
    assert wall_edges(layout) == {((1, 1), (2, 1)), ((0, 2), (0, 3))}
    assert wall_edges(small_layout(wall_lines=[[0, 0, 0, 1]])) == {((-1, 0), (0, 0))}
    assert line_edges(1, 1, 1, 1) == []
    assert edge((2, 1), (1, 1)) == edge((1, 1), (2, 1))
    with pytest.raises(ValueError):
        edge((0, 0), (1, 1))


def test_portal_sites_are_the_gaps() -> None:
    gap = small_layout(wall_lines=[[0, 1, 1, 1], [2, 1, 4, 1]])
    assert sorted(portal_sites(gap)) == [((1, 0), "south"), ((1, 1), "north")]
    stones = MapLayout(rows=["....", "#.#.", "...."])
    assert sorted(portal_sites(stones)) == [((1, 1), "north"), ((1, 1), "south")]
    assert portal_sites(small_layout()) == []


# --- analyzer.report.mapdraw ------------------------------------------------------------------------------


def body(text: str) -> list[str]:
    """The drawing's lines, without the legend (and without the blank line before it)."""
    lines = text.splitlines()
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("legend:")) - 1]


def legend(text: str) -> str:
    return text[text.index("legend:") :]


def test_map_text_shows_a_wall_where_one_is() -> None:
    text = map_text(small_layout(walls=[{"at": [1, 0], "side": "east"}], wall_lines=[[0, 2, 2, 2]]))
    assert body(text) == [
        "    0  1  2  3",
        "         |",
        " 0  .  . |.  .",
        "         |",
        " 1  .  .  .  .",
        "   -------",
        " 2  .  .  .  .",
    ]
    assert "kind:   outdoor" in legend(text)


def test_map_text_without_walls_has_no_wall_marks() -> None:
    text = map_text(small_layout())
    assert all("|" not in line and "--" not in line for line in body(text))
    assert len(body(text)) == 4  # header and three rows: no lines between rows when nothing is walled
    assert "(no walls)" in legend(text)


def test_map_text_marks_objects_and_indoor_spaces() -> None:
    layout = MapLayout(
        kind="indoor_outdoor",
        rows=["1..v", "....", "2..."],
        indoor=[[2, 1, 3, 2]],
        objects=[{"kind": "portal", "at": [1, 1], "side": "east"}, {"kind": "tombstone", "at": [1, 0]}],
    )
    lines = body(map_text(layout))
    assert lines[1][3:] == " 1  T  .  v"
    assert lines[2][3:] == " .  Pe .: .:"
    assert "indoor space" in legend(map_text(layout))


@pytest.mark.parametrize("map_id", SAMPLE_MAPS)
def test_sample_map_text_fits_a_terminal(sample_maps: dict[str, MapFile], map_id: str) -> None:
    text = map_text(sample_maps[map_id])
    assert max(len(line) for line in text.splitlines()) <= 80
    drawing = body(text)
    assert len(drawing) == 1 + 2 * 16 - 1  # header, 16 rows and the 15 lines between them
    assert any("|" in line for line in drawing) and any("--" in line for line in drawing)


def test_draw_map_png_writes_a_png(sample_maps: dict[str, MapFile], tmp_path: Path) -> None:
    for map_id in SAMPLE_MAPS:
        path = tmp_path / f"{map_id}.png"
        draw_map_png(sample_maps[map_id], path)
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) > 20_000
    small = tmp_path / "small.png"
    layout = MapLayout(
        kind="indoor_outdoor",
        rows=["1..v", "h~#.", "2..."],
        wall_lines=[[0, 0, 4, 0], [3, 1, 3, 3]],
        indoor=[[3, 1, 3, 2]],
        objects=[
            {"kind": "portal", "at": [3, 0], "side": "south"},
            {"kind": "tombstone", "at": [1, 0]},
            {"kind": "tree", "at": [1, 2]},
        ],
    )
    draw_map_png(layout, small)
    assert small.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
