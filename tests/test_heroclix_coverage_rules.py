"""The rules issue 34's coverage pass added scenarios for (HX-PAC-19, -24, -26, -29: the card's rules read in 2005
terms; HX-TEAM-11; force building and setup, HX-BUILD, HX-SETUP, HX-CHAR-06): each scenario fails when the engine's
rule is changed on purpose (a constant set to a wrong value, or a small function replaced by a wrong version),
through the shared `fails_when_changed` of tests/heroclix_checks.py. And the facts about the data and its format
that a library test checks (HX-DATA-06, -11, -12; tests/test_heroclix_coverage.py names them)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from clix.engine.core import decisions
from clix.engine.core.files.problems import InvalidFile
from clix.engine.heroclix import card_checks, card_play, combat, library, maps, movement, setup, sides
from clix.engine.heroclix.card_play import SAMPLE
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.library import Character, load_library
from clix.engine.heroclix.maps import MapObject
from clix.engine.heroclix.powers import POWERS, power_named
from clix.engine.heroclix.scenario import run_scenario
from heroclix_checks import fails_when_changed, mutation_rows
from pydantic import ValidationError

FORCE_PROBLEMS = library.force_problems
ASSIGNABLE = card_checks.assignable
FIRST_PLAYER = setup._first_player
PLACE = setup._place_characters


def _everyone_rerolls(state: Any) -> int:
    """HX-SETUP-01 changed: on a tie every player rolls again, not only those tied for the highest total."""
    while True:
        rolls = {p.number: decisions.d6(state) + decisions.d6(state) for p in state.players}
        top = [n for n, total in rolls.items() if total == max(rolls.values())]
        if len(top) == 1:
            state.emit(EventKind.FIRST_PLAYER, player=top[0], rolls=tuple(sorted(rolls.items())))
            return top[0]


def _first_chooses_first(state: Any, order: list[int], layout: Any) -> dict[int, int]:
    """HX-SETUP-03 changed: the first player chooses its edge first, not the player to its left."""
    left, chosen = sorted(layout.starting_areas()), {}
    for number in order:
        chosen[number] = decisions.ask(state, "area", number, left, always=len(left) > 1)
        left.remove(chosen[number])
    return chosen


def _objects_anywhere(state: Any, forces: Any, order: list[int], areas: Any, layout: Any) -> None:
    """HX-SETUP-07 changed: an object token may go on any square (starting areas, hindering, another object)."""
    pile = [kind for force in forces for kind in force.objects]
    mixed = [pile[i] for i in decisions.shuffle(state, len(pile))] if pile else []
    every = [(x, y) for y in range(layout.height) for x in range(layout.width)]
    placed = list(layout.objects)
    for k, kind in enumerate(mixed):
        placed.append(
            MapObject(kind=kind, at=decisions.ask(state, "object", order[k % len(order)], every, kind, always=True))
        )
    state.geometry = geometry_of(layout.model_copy(update={"objects": placed}))


def _in_another_area(state: Any, known: Any, force: Any, number: int, area: int) -> None:
    """HX-SETUP-08 changed: a player places its characters in a starting area not its own."""
    PLACE(state, known, force, number, next(a for a in sorted(state.geometry.starting_areas) if a != area))


def _overflowing(state: Any, known: Any, force: Any, number: int, area: int) -> None:
    """HX-SETUP-08 changed to HorrorClix's HC-SETUP-08: characters may also go on squares next to the starting area."""
    geometry = state.geometry
    own = geometry.starting_areas[area]
    spots = [geometry.xy(s) for s in own]
    near = {(x + dx, y + dy) for x, y in spots for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    geometry.starting_areas[area] = tuple(
        sorted(geometry.index(x, y) for x, y in near if 0 <= x < geometry.width and 0 <= y < geometry.height)
    )
    try:
        PLACE(state, known, force, number, area)
    finally:
        geometry.starting_areas[area] = own


MUTANTS = [
    ("HX-PAC-19", combat, "CRITICAL_MISS_CLICKS", 0, "card/01-critical-miss-clicks-at-once-unavoidable"),
    ("HX-PAC-24", movement, "leaps", lambda character: False, "card/02-improved-movement-leap-climb-flags"),
    ("HX-PAC-26", sides, "GIANT_REACH", 1, "card/03-giant-reach-two-squares"),
    ("HX-PAC-29", maps, "TERRAIN_CHARS", {**maps.TERRAIN_CHARS, "~": "clear"}, "card/04-map-legend-water-stops"),
    # force building (HX-BUILD, HX-CHAR-06) through the setup block
    ("HX-BUILD-01", library, "force_problems", lambda known: [p for p in FORCE_PROBLEMS(known)
                                                              if "HX-BUILD-01" not in p.message], "build/01-"),
    ("HX-BUILD-02", library, "feat_points", lambda known, force: 0, "build/04-a-feat-over-the-build-total"),
    ("HX-BUILD-03", library, "UNIQUE_RANKS", frozenset(), "build/05-unique-once"),
    ("HX-BUILD-04", library, "archenemies", lambda one, other: False, "build/10-archenemies"),
    ("HX-BUILD-05", card_play, "reveal", lambda state, known, forces, layout: layout, "setup/04-battlefield"),
    ("HX-BUILD-06", library, "UNIQUE_RANKS", frozenset(), "build/14-worked-example"),
    ("HX-BUILD-08", library, "force_problems", lambda known: FORCE_PROBLEMS(known)[:1], "build/15-every-breach"),
    ("HX-CHAR-06 gold", library, "UNIQUE_RANKS", frozenset({"unique", "limited-edition"}), "build/07-gold"),
    ("HX-CHAR-06 bronze", library, "UNIQUE_RANKS", frozenset({"unique", "super-rare"}), "build/08-bronze"),
    ("HX-CHAR-06 purple", library, "UNIQUE_RANKS", library.UNIQUE_RANKS | {"promotional"}, "build/09-other-rings"),
    ("HX-TEAM-11", card_checks, "assignable",
     lambda character, needs, wild: "" if character.team in wild else ASSIGNABLE(character, needs, wild),
     "build/16-team-feat-needs-the-printed-symbol"),
    # setup (HX-SETUP) through the setup block
    ("HX-SETUP-01", setup, "_first_player", _everyone_rerolls, "setup/01-first-player-tie-rerolled"),
    ("HX-SETUP-03", setup, "_choose_areas", _first_chooses_first, "setup/02-player-left-of-first"),
    ("HX-SETUP-04", card_play, "reveal", lambda state, known, forces, layout: layout, "setup/04-battlefield"),
    ("HX-SETUP-05", setup, "_place_objects", lambda state, forces, order, areas, layout: None, "setup/05-object"),
    ("HX-SETUP-07 areas", setup, "_place_objects", _objects_anywhere, "setup/06-object-in-a-starting-area"),
    ("HX-SETUP-07 one a square", setup, "_place_objects", _objects_anywhere, "setup/07-object-on-hindering"),
    ("HX-SETUP-08", setup, "_place_characters", _in_another_area, "setup/08-characters-placed-in-own-area"),
    ("HX-SETUP-08 next to", setup, "_place_characters", _overflowing, "setup/09-character-outside"),
    ("HX-SETUP-08 fit", setup, "_place_characters", _overflowing, "setup/10-force-that-does-not-fit"),
    ("HX-SETUP-08 rear", setup, "_place_characters", _overflowing, "setup/15-double-base-rear-outside"),
    ("HX-SETUP-09", setup, "HOVERING", "soaring", "setup/11-indoor-flier-set-soaring-refused"),
    ("HX-SETUP-10", setup, "_first_player", lambda state: 3 - FIRST_PLAYER(state), "setup/12-play-begins"),
    ("HX-SETUP-11", setup, "_first_player", lambda state: 3 - FIRST_PLAYER(state), "setup/13-quick-start"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario, or folder of them, that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), mutation_rows(MUTANTS))
def test_a_changed_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)


NAMED_IN_002 = ("Outwit", "Willpower", "Enhancement", "Stealth", "Energy Explosion", "Support", "Regeneration",
                "Steal Energy", "Leap/Climb", "Phasing", "Super Strength", "Telekinesis", "Force Blast", "Plasticity")  # fmt: skip
"""HX-DATA-06: the powers 002 names, so present in 2005 (Phasing is the card's Phasing/Teleport)."""


def test_the_powers_002_names_are_played():
    """HX-DATA-06: every power 002 names is one clix plays, spelled as a character file may name it."""
    unplayed = [
        name for name in NAMED_IN_002 if not any(p == power_named(name) or p.startswith(f"{name}/") for p in POWERS)
    ]
    assert unplayed == []


BASE_FIELDS = {
    "speed_mode": "speed mode (boot, wing, dolphin)", "transporter": "transporter (reversed speed symbol)",
    "size": "size (standard, giant, big damage symbol; double-base)", "bolts": "lightning bolts",
    "team": "team symbol", "base_colour": "base colour (archenemies)", "rank": "rank ring", "dial": "KO clicks",
    "name": "name", "set": "set", "collector_number": "collector number", "points": "points", "range": "range",
    "start": "starting click", "powers": "powers",
}  # fmt: skip
"""HX-DATA-11, -12: what the base and dial show that a character file must state, by its field."""


def test_the_character_format_states_what_the_base_shows():
    """HX-DATA-11, -12: the character format has a field for every symbol the text extraction lost and every field
    of the suggested format; its dial is four values a click with the powers named (not coloured), 'x' a KO click,
    the last click a KO click; and every sample character loads."""
    assert set(BASE_FIELDS) <= set(Character.model_fields)
    hero = {"ruleset": "heroclix-2005", "id": "hero", "name": "Hero", "points": 40, "rank": "rookie", "set": "test",
            "collector_number": 1, "range": 5, "provenance": "test"}  # fmt: skip
    click = {"values": "8 9 16 2", "powers": ["Toughness"]}
    assert Character.model_validate(hero | {"dial": [click, "7 8 15 2", "x"]}).all_powers() == ["Toughness"]
    for wrong in (["8 9 16 2", "7 8 15 2"], ["8R 9 16 2", "x"], ["8 9 16", "x"]):  # no KO click; a colour; 3 values
        with pytest.raises(ValidationError):
            Character.model_validate(hero | {"dial": wrong})
    library, problems = load_library([SAMPLE])
    assert problems == [] and len(library.characters) >= 30
    assert all(character.clicks()[-1].killed for character in library.characters.values())


SETUP = {
    "ruleset": "heroclix-2005", "name": "a setup", "expect": {}, "dice": [6, 5, 1, 2],
    "map": {"kind": "outdoor", "rows": ["1111", "....", "2222"]},
    "setup": {"forces": [{"build_total": 100, "characters": ["alley-cat-e"]},
                         {"build_total": 100, "characters": ["riptide-e"]}], "expect": "legal"},
}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"characters": [{"id": "A", "player": 1, "dial": ["8 9 16 2", "x"], "at": [0, 1]}]},
         "the file lists no 'characters'"),
        ({"setup": SETUP["setup"] | {"expect": {"refused": "HX-BUILD-01"}}, "steps": [{"end_turn": True}]},
         "a setup the rules must refuse has no steps"),
        ({"setup": SETUP["setup"] | {"place": {"batman": [0, 0]}}}, "batman is none"),
        ({"setup": SETUP["setup"] | {"characters": [{"id": "x", "name": "X"}]}}, "setup.characters[0].points"),
        ({"setup": SETUP["setup"] | {"pile": [1, 1]}, "dice": [6, 5, 1, 2]}, "setup.pile"),
        ({"setup": SETUP["setup"] | {"place": {"alley-cat-e": [9, 0]}}}, "alley-cat-e at [9, 0] is off the map"),
    ],
)  # fmt: skip
def test_a_setup_block_that_is_not_valid_is_one_line_naming_it(tmp_path, change, said):
    """The setup block's own mistakes (not the forces': those are what it tests, refusals) make the file invalid,
    one line naming the field and what is wrong."""
    data = SETUP | change
    if "pile" in data["setup"]:
        data["setup"]["forces"][0] = {"build_total": 100, "characters": ["alley-cat-e"], "objects": ["light", "heavy"]}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(InvalidFile) as refused:
        run_scenario(path)
    assert said in str(refused.value) and "\n" not in str(refused.value).strip()


def test_a_legal_setup_with_no_choices_takes_the_rules_first_options(tmp_path):
    """HX-SETUP-03, -08: a choice the block does not name gets the first the rules offer (the first area left, the
    first free square by row then column); the set-up position is the first player's turn (HX-SETUP-10)."""
    path = tmp_path / "scenario.yaml"
    expect = {"active_player": 1, "characters": {"alley-cat-e": {"at": [0, 2]}, "riptide-e": {"at": [0, 0]}}}
    path.write_text(yaml.safe_dump(SETUP | {"expect": expect}, sort_keys=False), encoding="utf-8")
    assert run_scenario(path).failures == []
