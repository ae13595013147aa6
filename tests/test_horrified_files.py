"""Horrified's data files (issue 40): the sample loads without a problem and every entry says where it comes from;
mistakes are one line each (file, line, field, what to do); the generators give what their numbers say."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from clix.engine.core.files.problems import InvalidFile
from clix.engine.core.ruleset import ruleset_named
from clix.engine.horrified.components import build_components
from clix.engine.horrified.library import load_library
from clix.engine.horrified.matchups import SAMPLE, components_at

PROVENANCES = {"rulebook", "public, two sources agree", "public, one source", "assumed"}


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "horrified"
    shutil.copytree(SAMPLE, folder)
    return folder


def _problems(folder: Path) -> list[str]:
    return [str(p) for p in load_library([folder])[1]]


def test_the_sample_loads_through_the_registry_with_provenance_everywhere():
    """The ruleset is `horrified` in the core's registry; every entry of every table carries a provenance."""
    library, problems = ruleset_named("horrified").load_library([SAMPLE])
    assert problems == []
    assert len(library.files) == 8
    t = library.tables
    entries = [*t["board"].locations, *t["board"].paths, *t["villagers"], *t["heroes"], *t["items"].colours]
    entries += [*t["difficulty"], *t["perks"], t["dice"], t["terror"], t["items"], t["monster_deck"]]
    assert all(e.provenance in PROVENANCES for e in entries)
    assert all(set(m.provenance.values()) <= PROVENANCES for m in t["monsters"])


def test_the_generated_components_match_their_numbers():
    """HF-COMP-01: 60 items, 30 monster cards, 20 perks, 10 villagers, 7 heroes; the deck's items, events and
    symbols are the deck file's counts; every villager event places it away from its safe location."""
    c = components_at()
    assert (len(c.items), len(c.cards), len(c.perks), len(c.villagers), len(c.heroes)) == (60, 30, 20, 10, 7)
    assert Counter(i.colour for i in c.items) == {"red": 20, "blue": 20, "yellow": 20}
    assert all(c.board.kinds[i.location] == "named" for i in c.items)
    assert Counter(card.event for card in c.cards)["villager"] == 12
    assert sum("dracula" in card.symbols for card in c.cards) == 10
    assert sum("frenzy" in card.symbols for card in c.cards) == 12
    assert all(card.villager_at != c.villagers[card.villager][1] for card in c.cards if card.event == "villager")
    assert all(1 <= card.dice <= c.dice for card in c.cards)


def test_the_board_keeps_water_off_land_paths_hf_act_01():
    """HF-ACT-01, HF-M-CRE: water spaces are reached only along water paths (the Creature's graph); the two sides of
    the river are joined by land."""
    board = components_at().board
    water = [k for k, kind in enumerate(board.kinds) if kind == "water"]
    assert [board.names[k] for k in water] == ["lagoon", "river", "waterfront"]
    assert all(not board.land[k] for k in water) and all(board.wet[k] for k in water)
    assert board.distance(board.index("cave"), board.index("abbey")) > board.distance(
        board.index("cave"), board.index("abbey"), water=True
    )


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("villagers.yaml", "safe: mansion", "safe: manor", "villagers.yaml:5: villagers[0].safe: 'manor' is not a location"),
        ("heroes.yaml", 'provenance: "public, two sources agree"}', "provenance: rumour}", "heroes.yaml:9: heroes[0].provenance:"),
        ("monsters.yaml", "start: crypt", "start: lagoon", "monsters.yaml:8: monsters[0].start: 'lagoon' is a water space"),
        ("items.yaml", "count: 20, strengths: [1, 2, 2", "count: 19, strengths: [1, 2, 2", "items.total: the colours' counts add up to 59"),
        ("game.yaml", "count: 3", "count: 9", "game.yaml:4: dice.count: Input should be less than or equal to 6"),
        ("monster_deck.yaml", "villager: 12", "villager: 11", "monster_deck.events: the events add up to 29 cards"),
    ],
)  # fmt: skip
def test_a_mistake_is_one_line_naming_file_line_and_field(tmp_path, file, old, new, expected):
    """Each mistake is one line: the file, the line, the field, what is wrong (and how to fix it)."""
    folder = _copy(tmp_path)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = _problems(folder)
    assert len(problems) == 1, problems
    assert expected in problems[0] and "\n" not in problems[0]


def test_a_missing_table_is_named(tmp_path):
    folder = _copy(tmp_path)
    (folder / "perks.yaml").unlink()
    assert any("no Horrified file defines perks" in p for p in _problems(folder))


def test_a_library_with_problems_is_refused_whole(tmp_path):
    folder = _copy(tmp_path)
    (folder / "game.yaml").write_text("ruleset: horrified\ndice: {count: 3}\n", encoding="utf-8")
    with pytest.raises(InvalidFile, match=r"dice\.faces: required field 'faces' is missing"):
        components_at(folder)


def test_other_rulesets_leave_horrified_files_alone():
    """HorrorClix's and HeroClix's loaders skip `ruleset: horrified` files in the same folders."""
    root = SAMPLE.parent
    for other in ("horrorclix", "heroclix-2005"):
        _, problems = ruleset_named(other).load_library([SAMPLE])
        assert problems == [], other
    library, problems = load_library([root / "horrorclix"])
    assert library.files == [] and problems == []
    assert build_components(load_library([SAMPLE])[0]).board.size == 26
