"""The sample roster: valid, and covering every mechanic the engine and analyzer need (issue 2, part 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clix.engine.core.pieces import HOURGLASS
from clix.engine.horrorclix.figures import compile_figure
from clix.engine.horrorclix.legality import reference_problems
from clix.engine.horrorclix.registry import ABILITIES, POWERS
from clix.engine.horrorclix.roster.loader import load_roster
from clix.engine.horrorclix.roster.models import MAJOR_CLASSES

ROOT = Path(__file__).resolve().parent.parent
CHECKLIST = (ROOT / "docs" / "horrorclix_rules.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def roster():
    loaded, problems = load_roster([ROOT / "rosters" / "horrorclix"])
    assert problems == []
    assert reference_problems(loaded) == []
    return loaded


def test_every_file_says_where_its_numbers_come_from(roster):
    items = [*roster.figures.values(), *roster.plot_twists.values(), *roster.victims.values(), *roster.maps.values()]
    assert all("sample" in item.provenance or "clix" in item.provenance for item in items)


def test_figures_span_classes_ranks_and_points(roster):
    figures = list(roster.figures.values())
    assert len(figures) >= 30
    assert set(MAJOR_CLASSES) <= {c for f in figures for c in f.classes}
    assert {f.rank for f in figures} == {"rookie", "experienced", "veteran", "unique", "limited_edition", "demo"}
    points = [f.points for f in figures]
    assert min(points) <= 15 and max(points) >= 140


def test_at_least_four_cabals_with_one_leader_each(roster):
    cabals: dict[str, list[bool]] = {}
    for f in roster.figures.values():
        if f.cabal:
            cabals.setdefault(f.cabal.name, []).append(f.cabal.leader)
    assert len(cabals) >= 4
    assert all(leaders.count(True) == 1 and len(leaders) >= 3 for leaders in cabals.values())


def test_the_archetypes_the_issue_names_are_there(roster):
    stats = {f.id: compile_figure(f) for f in roster.figures.values()}
    figures = roster.figures.values()

    def has(power: str) -> bool:
        return any(power in s.powers[side][c] for s in stats.values() for side in s.powers for c in range(s.clicks))

    assert any(
        any(side.starts_on == "red" for side in f.card.sides().values()) and "Vampire" in f.classes for f in figures
    )
    assert has("Feast") and has("Blood Drinker")
    werewolves = [f for f in figures if f.card.transformed and "Werewolf" in f.classes]
    assert {s.transform.trigger for f in werewolves for s in f.card.sides().values() if s.transform} >= {"slay_victims"}
    assert {s.transform.mode for f in werewolves for s in f.card.sides().values() if s.transform} == {"must", "may"}
    assert any("Zombie" in f.classes and HOURGLASS in stats[f.id].speed for f in figures)
    assert any("Spirits" in f.classes and stats[f.id].defense[f.start] == HOURGLASS for f in figures)
    assert any("Rescuer" in stats[f.id].abilities["start"] and "Guardians" in f.classes for f in figures)
    assert {f.speed_mode for f in figures} == {"boot", "wing", "fin"}
    assert {f.bolts for f in figures if f.range} >= {1, 2, 3}
    assert all(has(p) for p in ("Raise Minion", "Insanity", "Possession", "Injection"))
    assert any(f.card.crossroads for f in figures)
    assert any(f.grants_plot_twists for f in figures)


def test_every_registered_power_and_ability_is_used(roster):
    used = {p.name for f in roster.figures.values() for s in f.card.sides().values() for p in s.powers}
    abilities = {a.name for f in roster.figures.values() for s in f.card.sides().values() for a in s.abilities}
    assert set(POWERS) == used
    assert set(ABILITIES) == abilities


def test_plot_twists_are_the_collectors_checklist(roster):
    """HC-DATA-09 and HC-DATA-10 name 48 cards: 26 + 6 subplots + 4 ticking clocks + 12 in-store."""
    data09 = re.search(r"HC-DATA-09\*\* Plot twist names \(base checklist\): (.*?)\. Starter-only", CHECKLIST)
    assert data09
    names = set(data09.group(1).split(", "))
    for label in ("Subplots", "Ticking clocks", "In-store-only plot twists"):
        found = re.search(rf"{label}: (.*?)\.", CHECKLIST)
        assert found
        names |= {name.removesuffix(" (starter)") for name in found.group(1).split(", ")}
    assert len(names) == 48
    assert set(roster.plot_twists) == names
    kinds = [c.kind for c in roster.plot_twists.values()]
    assert kinds.count("subplot") == 6 and kinds.count("ticking_clock") == 4


def test_sixteen_victim_archetypes(roster):
    assert len(roster.victims) == 16
    assert {"Prom Queen", "Jock", "Cheerleader", "Exterminator", "Starlet"} <= set(roster.victims)


def test_two_maps_with_twelve_victim_spaces(roster):
    kinds = {m.kind for m in roster.maps.values()}
    assert {"indoor", "indoor_outdoor"} <= kinds
    for game_map in roster.maps.values():
        assert len(game_map.victim_spaces()) == 12
        terrain = {game_map.terrain(x, y) for x in range(game_map.width) for y in range(game_map.height)}
        assert terrain == {"clear", "hindering", "water", "blocking"}
        assert game_map.walls or game_map.wall_lines


def test_armies_of_both_sizes_and_styles(roster):
    armies = list(roster.armies.values())
    assert sum(a.build_total == 100 for a in armies) >= 4
    assert sum(a.build_total == 200 for a in armies) >= 4
    styles = " ".join(a.style or "" for a in armies)
    for style in ("rush", "brawler", "ranged", "hourglass"):
        assert style in styles
