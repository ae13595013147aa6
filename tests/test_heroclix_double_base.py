"""Double-base characters (issue 34, HX-SPECIAL-02..06): the rule scenarios special/69-107 fail when a rule of
`engine/heroclix/double_base.py` is changed on purpose; scenario files and character files that say
`size: double-base` load (two squares in `at`, `from` and `rear` in a move), and what breaks the base is one line;
the sample double-base character is set up on two squares and plays random games with the invariants holding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from clix.engine.core import driver
from clix.engine.core.files.problems import InvalidFile
from clix.engine.core.players import RandomAgent
from clix.engine.heroclix import double_base, rules
from clix.engine.heroclix.invariants import violations
from clix.engine.heroclix.library import load_library
from clix.engine.heroclix.scenario import build_state, run_scenario
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.setup import new_game
from clix.engine.heroclix.state import PowerAction
from heroclix_checks import mutation

ROOT = Path(__file__).resolve().parent.parent
SPECIAL = ROOT / "tests" / "scenarios" / "heroclix" / "special"
SAMPLE = ROOT / "rosters" / "heroclix"
FIRST, LAST = 69, 107
"""The double-base scenarios: special/69-... to special/107-... (97-107: with the powers of issue 35)."""


def _scenarios() -> list[Path]:
    return [p for p in sorted(SPECIAL.glob("*.yaml")) if FIRST <= int(p.name.split("-")[0]) <= LAST]


def _failures() -> dict[str, list[str]]:
    """Each double-base scenario that fails now, by its path under tests/scenarios/heroclix."""
    failed = {}
    for path in _scenarios():
        try:
            result = run_scenario(path)
        except (InvalidFile, ValueError, KeyError, IndexError) as exc:
            failed[f"special/{path.name}"] = [str(exc)]
            continue
        if result.failures:
            failed[f"special/{path.name}"] = result.failures
    return failed


def test_the_double_base_scenarios_pass():
    assert len(_scenarios()) == LAST - FIRST + 1
    assert _failures() == {}


MUTANTS = {
    "HX-SPECIAL-02": ("squares", lambda state, figure: (figure.pos,), "special/69-"),
    "HX-SPECIAL-03": ("across", lambda *args, **kwargs: None, "special/72-"),
    "HX-SPECIAL-03 knockback": ("in_the_way", lambda *args: False, "special/96-"),
    "HX-SPECIAL-04": ("touching", lambda state, figure: {}, "special/80-"),
    "HX-SPECIAL-04 rear": ("rear_problem", lambda *args: "", "special/85-"),
    "HX-SPECIAL-04 trailing": ("trailing", lambda *args: -1, "special/83-"),
    "HX-SPECIAL-05": (
        "best_line",
        lambda state, attacker, target, within, line_from: line_from(state, attacker, attacker.pos, target, target.pos),
        "special/77-",
    ),
    "HX-SPECIAL-05 range": (
        "distance",
        lambda state, one, other: state.geometry.distance(one.pos, other.pos),
        "special/79-",
    ),
    "HX-SPECIAL-06": ("immovable", lambda state, figure: False, "special/91-"),
    "HX-SPECIAL-06 Telekinesis": ("immovable", lambda state, figure: False, "special/93-"),
    "HX-SPECIAL-06 Force Blast": ("immovable", lambda state, figure: False, "special/97-"),
    "HX-SPECIAL-05 a power's range": (
        "distance_to",
        lambda state, square, figure: state.geometry.distance(square, figure.pos),
        "special/98-",
    ),
    "HX-SPECIAL-02 Smoke Cloud": ("squares", lambda state, figure: (figure.pos,), "special/105-"),
    "HX-SPECIAL-02 Barrier": ("squares", lambda state, figure: (figure.pos,), "special/106-"),
}
"""A rule of `double_base` changed on purpose (a function replaced), and a scenario that must then fail."""


@pytest.mark.parametrize(
    "rule", [mutation(rule, module=double_base, value=row[1], id=rule) for rule, row in sorted(MUTANTS.items())]
)
def test_a_changed_rule_fails_its_scenario(rule, monkeypatch):
    function, replacement, scenario = MUTANTS[rule]
    monkeypatch.setattr(double_base, function, replacement)
    failed = _failures()
    assert any(path.startswith(scenario) for path in failed), f"{rule} changed ({function}); {scenario} passes"


def test_the_double_base_constant_is_the_files_size(monkeypatch):
    """`DOUBLE_BASE` is the `size` that marks a double-base character: renamed, the scenarios no longer set one up."""
    monkeypatch.setattr(double_base, "DOUBLE_BASE", "twin-base")
    assert "special/69-double-base-side-by-side-has-ten-adjacent-squares.yaml" in _failures()


BASE = {
    "ruleset": "heroclix-2005",
    "name": "a double-base character",
    "characters": [
        {"id": "D", "player": 1, "size": "double-base", "dial": ["6 9 16 2", "x"], "at": [[1, 1], [2, 1]]},
        {"id": "B", "player": 2, "dial": ["8 9 16 2", "x"], "at": [5, 3]},
    ],
    "expect": {},
}


def _character(**change) -> dict:
    return {**BASE, "characters": [BASE["characters"][0] | change, BASE["characters"][1]]}


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (_character(at=[1, 1]), "a double-base character stands on two squares"),
        (_character(size="standard"), "a double-base character stands on two squares"),
        (_character(at=[[1, 1], [3, 1]]), "do not touch (HX-SPECIAL-02)"),
        (_character(at=[[1, 1], [1, 1]]), "share [1, 1]"),
        ({**BASE, "map": {"rows": ["......"] * 4, "walls": [{"at": [1, 1], "side": "east"}]}},
         "a wall stands between the centre dots"),
        ({**BASE, "map": {"rows": ["......"] * 4, "elevation": ["000000", "010000", "000000", "000000"]}},
         "different elevations"),
        ({**BASE, "steps": [{"move": "B", "from": [4, 3], "path": [[3, 3]]}]}, "'from' and 'rear' belong to"),
    ],
)  # fmt: skip
def test_a_broken_double_base_is_refused_with_its_reason(tmp_path, data, said):
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(InvalidFile) as refused:
        run_scenario(path)
    assert said in str(refused.value)


def test_the_invariants_count_the_second_square():
    """The selfcheck's invariants: a character on a double-base character's rear square shares it; a base whose
    two squares have come apart is broken."""
    state, ids = build_state(Scenario.model_validate(BASE))
    assert violations(state) == []
    d, b = state.monsters[ids["D"]], state.monsters[ids["B"]]
    b.pos = state.rears[d.uid]
    assert "two characters share a square" in violations(state)
    b.pos = state.geometry.index(5, 3)
    state.rears[d.uid] = state.geometry.index(4, 1)
    assert any("do not touch (HX-SPECIAL-02)" in line for line in violations(state))


def test_adjacency_counts_ten_and_twelve_squares():
    """Figure 19: 10 squares touch a double-base character side by side, 12 on a diagonal (HX-SPECIAL-02)."""
    state, ids = build_state(Scenario.model_validate(BASE))
    d = state.monsters[ids["D"]]
    assert len(double_base.touching(state, d)) == 10
    state.rears[d.uid] = state.geometry.index(2, 2)
    assert len(double_base.touching(state, d)) == 12


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
@pytest.mark.parametrize("map_name", ["harbor-district", "chemical-plant"])
def test_the_sample_double_base_character_is_set_up_and_plays(map_name):
    """The sample force Road Wardens fields the Ironhorse Outrider, a double-base character: set up on two
    touching squares of its starting area, it moves and fights in random games, every action listed is legal and
    the invariants hold after each (what `clix selfcheck` checks, here with it in play every game)."""
    library, problems = load_library([SAMPLE])
    assert problems == [] and library.characters["ironhorse-outrider-e"].size == "double-base"
    moved = 0
    for seed in range(3):
        forces = [library.forces["road-wardens"], library.forces["iron-syndicate"]]
        state = new_game(library, forces, library.maps[map_name], np.random.default_rng(seed), turn_limit=5)
        agents = [RandomAgent(np.random.default_rng([seed, seat])) for seat in (1, 2)]
        driver.settle(state, agents)
        rider = next(c for c in state.monsters if c.stats.id == "ironhorse-outrider-e")
        area = set(state.geometry.starting_areas[1]) | set(state.geometry.starting_areas[2])
        assert {rider.pos, state.rears[rider.uid]} <= area
        rng = np.random.default_rng(seed)
        while not state.over:
            assert violations(state) == []
            listed = rules.legal_actions(state)
            assert all(rules.why_not(state, action) == "" for action in listed)
            action = listed[int(rng.integers(len(listed)))]
            before = (rider.pos, state.rears[rider.uid])
            rules.apply(state, action, listed=True)
            moved += rider.alive and before != (rider.pos, state.rears[rider.uid])
            driver.settle(state, agents)
    assert moved > 0


def test_double_base_characters_using_the_powers_keep_the_invariants():
    """Random games where a double-base character on each side shows every power used as an action (Force Blast,
    Poison, Sidestep, Quake, Energy Explosion, Incapacitate, Smoke Cloud, Barrier, Pulse Wave, Hypersonic Speed)
    beside characters that also show them: every action listed is legal, the invariants hold after each, and the
    double-base characters use powers (half the time one of them is picked when it may act with a power)."""
    from clix.engine.core.dice import Dice
    from test_heroclix_power_actions import ARENA, PLAYED

    characters = [dict(c) for c in ARENA["characters"]]
    characters[1] |= {"size": "double-base", "at": [[1, 0], [1, 1]], "powers": PLAYED}
    characters[3] |= {"size": "double-base", "at": [[11, 7], [11, 6]], "powers": PLAYED}
    del characters[5]  # B3 stood on [11, 6]
    used: set[str] = set()
    for seed in range(1, 5):
        state, ids = build_state(Scenario.model_validate({**ARENA, "characters": characters}))
        doubles = {ids["A2"], ids["B1"]}
        state.dice = Dice(np.random.default_rng([seed, 0]))
        state.turn_limit = 10
        rng = np.random.default_rng([seed, 1])
        for _ in range(500):
            if state.over:
                break
            listed = rules.legal_actions(state)
            assert all(rules.why_not(state, action) == "" for action in listed)
            powered = [a for a in listed if getattr(a, "character", -1) in doubles and _power_of(a) in PLAYED]
            pool = powered if powered and rng.random() < 0.5 else listed
            action = pool[int(rng.integers(len(pool)))]
            if action in powered:
                used.add(_power_of(action))
            rules.apply(state, action, listed=True)
            assert violations(state) == [], (seed, action, violations(state))
    assert len(used) >= 8, sorted(used)


def _power_of(action: object) -> str:
    """The power an action uses: a power action's, or the `use` of an attack ("" for none)."""
    return action.power if isinstance(action, PowerAction) else str(getattr(action, "use", ""))
