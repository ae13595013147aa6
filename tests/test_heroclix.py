"""HeroClix 2005, part 1's first slice (issue 34): the ruleset is found by the name its files give, plays the
contract's own example, refuses by name what it does not play yet, and plays games to their end through the core's
driver that replay from their seed. The rule scenarios are in tests/scenarios/heroclix (run by test_scenarios.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml
from clix.engine.core import driver
from clix.engine.core.dice import Dice
from clix.engine.core.files.problems import InvalidFile
from clix.engine.core.players import RandomAgent
from clix.engine.core.ruleset import file_ruleset, ruleset_named
from clix.engine.heroclix import (
    combat,
    damage_powers,
    defenses,
    double_base,
    knockback,
    movement,
    power_actions,
    rules,
    scoring,
    sides,
    telekinesis,
    terrain,
    throwing,
    transport,
)  # fmt: skip
from clix.engine.heroclix.scenario import build_state, run_scenario
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.state import Close, EndTurn, Ranged
from heroclix_checks import HEROCLIX_SCENARIOS, fails_when_changed, heroclix_failures, mutation_rows, mutations_by_rule

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT.parent / "shared" / "scenario-format-heroclix.md"
CHECKLIST = ROOT.parent / "shared" / "rules" / "heroclix_rules.md"

TWO_FORCES = {
    "ruleset": "heroclix-2005",
    "name": "two small forces on an outdoor map with hindering terrain, water, blocking terrain and a wall",
    "expect": {},
    "build_total": 200,
    "map": {
        "rows": ["..........", "...h..#...", "..........", "....~~....", "..#.....h.", "..........", ".........."],
        "walls": [{"at": [5, 5], "side": "north"}],
    },
    "characters": [
        {"id": "A1", "player": 1, "dial": ["8 10 17 3", "7 9 16 2", "7 9 16 2", "6 8 15 2", "6 8 15 1", "x"],
         "at": [0, 0], "range": 6, "bolts": 2, "points": 50},
        {"id": "A2", "player": 1, "dial": ["7 9 16 2", "6 9 16 2", "6 8 15 1", "x"], "at": [1, 0], "points": 30},
        {"id": "B1", "player": 2, "dial": ["9 10 16 2", "8 9 16 2", "7 9 15 2", "6 8 15 1", "x"], "at": [9, 6],
         "range": 5, "points": 45},
        {"id": "B2", "player": 2, "dial": ["6 8 18 3", "6 8 17 2", "5 7 16 2", "x"], "at": [8, 6],
         "speed_mode": "dolphin", "points": 35},
    ],
}  # fmt: skip


def _write(folder: Path, data: dict, name: str = "scenario.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_heroclix_is_found_by_the_name_its_files_give(tmp_path):
    path = _write(tmp_path, {**TWO_FORCES, "characters": TWO_FORCES["characters"][:1]})
    assert file_ruleset(path) == "heroclix-2005"
    assert ruleset_named("heroclix-2005").name == "heroclix-2005"


@pytest.mark.skipif(not CONTRACT.exists(), reason="shared/ is not beside this clone")
def test_the_contracts_own_example_passes(tmp_path):
    """Section 8 of ../shared/scenario-format-heroclix.md, read from the contract itself."""
    text = CONTRACT.read_text(encoding="utf-8")
    example = re.search(r"## 8\. Example\n```yaml\n(.*?)```", text, re.DOTALL)
    assert example is not None
    path = tmp_path / "example.yaml"
    path.write_text(example.group(1), encoding="utf-8")
    result = run_scenario(path)
    assert result.failures == [], result.failures


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"characters": [{"id": "A", "player": 1, "dial": ["8 9 16 2", "x"], "at": [0, 0], "powers": ["Heat Vision"]}]},
         "the power Heat Vision is not implemented yet"),
        ({"characters": [{"id": "A", "player": 1, "dial": ["8 9 16 2", "x"], "at": [0, 0], "holding": "light"}]},
         "holds an object without Super Strength (HX-OBJECT-02)"),
        ({"characters": [{"id": "A", "player": 1, "dial": [{"values": "8 9 16 2", "powers": ["Heat Vision"]}, "x"],
                          "at": [0, 0]}]}, "the power Heat Vision is not implemented yet"),
        ({"steps": [{"power": "A", "use": "Heat Vision"}]}, "the power 'Heat Vision' is not implemented yet"),
        ({"steps": [{"power": "A", "use": "Toughness"}]}, "Toughness is not given as a power action"),
        ({"steps": [{"close": "A", "target": "B", "use": "Heat Vision"}]}, "activated by a move or an attack"),
        ({"victims": [{"id": "V", "at": [1, 1]}]}, "'victims' is HorrorClix's: HeroClix has no victims"),
        ({"steps": [{"frenzy": "A"}]}, "'frenzy' is a HorrorClix step"),
        ({"characters": [{"id": "A", "player": 1, "dial": ["8 9 h 2", "x"], "at": [0, 0]}]}, "no hourglass"),
    ],
)  # fmt: skip
def test_what_is_not_played_yet_is_refused_by_name(tmp_path, change, said):
    base = {
        "ruleset": "heroclix-2005",
        "name": "refused",
        "characters": [
            {"id": "A", "player": 1, "dial": ["8 9 16 2", "x"], "at": [0, 0]},
            {"id": "B", "player": 2, "dial": ["8 9 16 2", "x"], "at": [1, 1]},
        ],
        "expect": {},
    }
    path = _write(tmp_path, base | change)
    with pytest.raises(InvalidFile) as refused:
        run_scenario(path)
    assert said in str(refused.value)
    assert all(p.file == str(path) for p in refused.value.problems)


def _game(seed: int) -> list[tuple[str, int, int, tuple]]:
    state, _ = build_state(Scenario.model_validate(TWO_FORCES))
    state.dice = Dice(np.random.default_rng([seed, 0]))
    state.turn_limit = 30
    agents = [RandomAgent(np.random.default_rng([seed, seat])) for seat in (1, 2)]
    driver.play(state, agents)
    assert state.over and state.end_reason
    assert state.winner in (1, 2, None)
    return [(e.kind, e.turn, e.player, e.detail) for e in state.log]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_forces_play_to_the_end_through_the_driver_and_replay_from_the_seed(seed):
    first = _game(seed)
    assert any(kind == "move" for kind, *_ in first)
    assert _game(seed) == first


def test_every_action_listed_is_legal_and_no_character_shares_a_square():
    """A game's invariants at every decision: what `legal_actions` lists `why_not` accepts; tokens 0-2, clicks on
    the dial, one character a square (HX-MOVE-06). The player attacks whenever it may, else acts at random."""
    state, _ = build_state(Scenario.model_validate(TWO_FORCES))
    state.dice = Dice(np.random.default_rng(7))
    rng = np.random.default_rng(8)
    for _ in range(400):
        if state.over:
            break
        listed = rules.legal_actions(state)
        assert listed[-1] == EndTurn()
        for action in listed:
            assert rules.why_not(state, action) == "", action
        attacks = [a for a in listed if isinstance(a, Close | Ranged)]
        pool = attacks or listed
        rules.apply(state, pool[int(rng.integers(len(pool)))], listed=True)
        standing = state.standing()
        assert len({c.pos for c in standing}) == len(standing)
        assert all(0 <= c.tokens <= 2 and 0 <= c.click < c.stats.clicks for c in state.monsters)
    assert state.over
    kinds = {event.kind for event in state.log}
    assert {"move", "attack", "damage", "ko"} <= kinds, kinds


@pytest.mark.skipif(not CHECKLIST.exists(), reason="shared/ is not beside this clone")
def test_scenarios_cite_only_rules_the_checklist_has():
    known = set(re.findall(r"\*\*(HX-[A-Z]+-\d+)\*\*", CHECKLIST.read_text(encoding="utf-8")))
    cited = set()
    for path in sorted(HEROCLIX_SCENARIOS.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cited.update(r for r in data.get("rules", []) if r.startswith("HX-"))
    assert cited, "no HeroClix scenario cites a rule"
    assert cited <= known, sorted(cited - known)


def test_the_heroclix_scenarios_pass():
    assert heroclix_failures() == {}
    assert len(list(HEROCLIX_SCENARIOS.rglob("*.yaml"))) >= 70


MUTANTS = {
    "HX-TURN-02": (sides, "POINTS_PER_ACTION", 50, "turn/03-second-action-at-100-illegal.yaml"),
    "HX-TURN-11": (rules, "PUSHING_DAMAGE", 0, "turn/08-push-second-token-and-click.yaml"),
    "HX-MOVE-08": (movement, "BREAK_AWAY", 3, "move/07-break-away-fails.yaml"),
    "HX-MOVE-13": (movement, "MODE_CHANGE_SPEED", 0, "flight/"),
    "HX-TERRAIN-07": (combat, "HINDERED_DEFENSE", 0, "combat/22-hindering-lof-defense-plus-one.yaml"),
    "HX-COMBAT-04": (combat, "CRITICAL_HIT_DAMAGE", 0, "combat/05-critical-hit.yaml"),
    "HX-COMBAT-03": (combat, "CRITICAL_MISS_CLICKS", 0, "combat/04-critical-miss.yaml"),
    "HX-KNOCK-06": (knockback, "OBSTACLE_KNOCKBACK_DAMAGE", 0, "knock/03-wall-stops-figure-9.yaml"),
    "HX-KNOCK-10": (knockback, "FALL_KNOCKBACK_DAMAGE", 1, "elevation/32-elevated-knocked-off-falls.yaml"),
    "HX-TERRAIN-13": (terrain, "DESTROYING_DAMAGE", 4, "destroy/01-close-destroys-one-blocking-square.yaml"),
    "HX-OBJECT-10": (combat, "CLOSE_BONUS", {"light": 0, "heavy": 0}, "objects/13-close-with-object-adds-damage.yaml"),
    "HX-OBJECT-06": (
        combat,
        "THROWN_DAMAGE",
        {"light": 1, "heavy": 1},
        "objects/15-throw-light-range-0-six-squares.yaml",
    ),
    "HX-OBJECT-11": (
        throwing,
        "THROW_DISTANCE",
        {"light": 7, "heavy": 5},
        "objects/15-throw-light-range-0-six-squares.yaml",
    ),
    "HX-OBJECT-13": (telekinesis, "REACH", 11, "telekinesis/02-move-object-eleven-from-object-illegal.yaml"),
    "HX-OBJECT-14": (telekinesis, "SOARING_REACH", 6, "telekinesis/18-soaring-target-five-squares.yaml"),
    "HX-SPECIAL-10": (sides, "GIANT_REACH", 1, "special/02-"),
    "HX-SPECIAL-12": (movement, "GIANT_BREAK_AWAY", 4, "special/05-"),
    "HX-SPECIAL-08": (transport, "ATTACK_MODIFIER", 0, "special/62-"),
    "HX-POWER-26": (
        defenses,
        "REDUCTION",
        {"Toughness": 0, "Invulnerability": 2, "Impervious": 2, "Invincible": 2},
        "powers/toughness-01",
    ),
    "HX-POWER-36": (
        defenses,
        "REDUCTION",
        {"Toughness": 1, "Invulnerability": 1, "Impervious": 2, "Invincible": 2},
        "powers/invulnerability-01",
    ),
    "HX-POWER-25": (defenses, "EVADES_AT", 6, "powers/super-senses-01"),
    "HX-POWER-34": (defenses, "IMPERVIOUS_AT", 6, "powers/impervious-02"),
    "HX-POWER-39": (power_actions, "SUPPORT_MINIMUM", 0, "powers/support-02"),
    "HX-COMBAT-06": (power_actions, "SUPPORT_CRITICAL_BONUS", 0, "powers/support-03"),
    "HX-POWER-01": (combat, "FLURRY", "Flurries", "powers/flurry-01"),
    "HX-POWER-28": (defenses, "DEFENSE_BONUS", 0, "powers/combat-reflexes-01"),
    "HX-POWER-32": (rules, "WILLPOWER_AT", 7, "powers/willpower-01"),
    "HX-POWER-33": (
        defenses,
        "REDUCTION",
        {"Toughness": 1, "Invulnerability": 2, "Impervious": 2, "Invincible": 0},
        "powers/invincible-01",
    ),
    "HX-POWER-37": (damage_powers, "EXPERT_BONUS", 0, "powers/ranged-combat-expert-01"),
    "HX-POWER-13": (combat, "BLADES", "Blades", "powers/blades-claws-fangs-01"),
    "HX-POWER-19": (combat, "PSYCHIC_BLAST", "Psychic", "powers/penetrating-psychic-blast-01"),
    "HX-POWER-02": (movement, "LEAP_CLIMB", "Leap", "powers/leap-climb-01"),
}
"""A rule changed on purpose (a constant of the HeroClix engine), and a scenario (or a folder of them, one of
which) that must then fail."""


@pytest.mark.parametrize("rule", mutations_by_rule(MUTANTS))
def test_a_changed_rule_fails_its_scenario(rule, monkeypatch):
    fails_when_changed(rule, *MUTANTS[rule], monkeypatch)


@pytest.mark.parametrize(
    ("rule", "module", "function", "replacement", "scenario"),
    mutation_rows(
        [
            ("HX-MOVE-05", movement, "must_stop", lambda *args: False, "move/03-stop-entering-adjacent-illegal.yaml"),
            ("HX-TERRAIN-06", movement, "move_speed", lambda state, character, mode=None, halved=False: character.speed,
             "move/19-hindering-start-speed-limit-illegal.yaml"),
            ("HX-KNOCK-01", combat, "knock_back", lambda *args: None, "knock/01-doubles-knock-back-orthogonal.yaml"),
            ("HX-END-07", scoring, "finish", lambda state, reason: setattr(state, "over", True),
             "end/01-last-character-ko-ends-game.yaml"),
            ("HX-OBJECT-07", scoring, "strong", lambda character: True, "objects/31-losing-super-strength-drops-object.yaml"),
            ("HX-POWER-35", power_actions, "heal", lambda state, character, amount: 0,
             "powers/regeneration-01-heals-half-the-roll-rounded-up.yaml"),
            ("HX-OBJECT-16", telekinesis, "_placing_problem", lambda *args: "", "telekinesis/24-move-character-eleven-from-it-illegal.yaml"),
        ]
    ),
)  # fmt: skip
def test_a_rule_taken_out_fails_its_scenario(rule, module, function, replacement, scenario, monkeypatch):
    fails_when_changed(rule, module, function, replacement, scenario, monkeypatch)


SAMPLE = ROOT / "rosters" / "heroclix"


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_two_sample_forces_set_up_and_play_to_the_end_and_replay_from_the_seed():
    """Issue 34: two sample forces on a sample map, set up by the rules (HX-SETUP) with every choice a player's,
    played by the core's driver to the turn limit or a knockout, the same game again from the same seed."""
    from clix.engine.heroclix.library import load_library
    from clix.engine.heroclix.setup import new_game

    library, problems = load_library([SAMPLE])
    assert problems == []

    def game(seed: int) -> tuple[list, int | None]:
        forces = [library.forces[name] for name in sorted(library.forces)[:2]]
        state = new_game(library, forces, library.maps["harbor-district"], np.random.default_rng(seed), turn_limit=4)
        driver.play(state, [RandomAgent(np.random.default_rng([seed, seat])) for seat in (1, 2)])
        assert state.over
        return [(e.kind, e.turn, e.player, e.detail) for e in state.log], state.winner

    first = game(5)
    assert first[0][0][0] == "first_player" and any(kind == "setup_done" for kind, *_ in first[0])
    assert game(5) == first and game(6) != first


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_setup_marks_the_archenemies_across_forces_both_ways():
    """HX-BUILD-04, HX-END-06: Ironjaw (Iron Syndicate) and Bulwark (Dawnguard Strike Team) share a base colour and
    a set, so each is the other's archenemy once set up; no one else is."""
    from clix.engine.heroclix.library import load_library
    from clix.engine.heroclix.setup import new_game

    library, _ = load_library([SAMPLE])
    forces = [library.forces["iron-syndicate"], library.forces["dawnguard-strike"]]
    state = new_game(library, forces, library.maps["harbor-district"], np.random.default_rng(3))
    driver.play(state, [RandomAgent(np.random.default_rng(seat)) for seat in (1, 2)], until_turn=1)
    by_id = {c.uid: c.stats.id for c in state.monsters}
    marked = {(by_id[a], by_id[b]) for a, rivals in state.archenemies.items() for b in rivals}
    assert marked == {("ironjaw-v", "bulwark-r"), ("bulwark-r", "ironjaw-v")}


def test_the_invariants_catch_a_broken_position():
    """The selfcheck's invariants can fail: two characters on one square, three tokens, VP out of thin air."""
    from clix.engine.heroclix.invariants import violations

    state, ids = build_state(Scenario.model_validate(TWO_FORCES))
    assert violations(state) == []
    a1, a2 = state.monsters[ids["A1"]], state.monsters[ids["A2"]]
    a2.pos = a1.pos
    a1.tokens = 3
    state.points[2] = 45.0
    found = violations(state)
    assert "two characters share a square" in found
    assert "A1 has 3 action tokens" in found
    assert "45 victory points scored for 0 points of characters defeated" in found


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_selfcheck_plays_heroclix_games_through_the_registry(capsys):
    from helpers import run_main

    code, out, _ = run_main(
        ["selfcheck", "--ruleset", "heroclix-2005", "--games", "3", "--turns", "2", "--jobs", "1",
         "--rosters", str(SAMPLE)], capsys,
    )  # fmt: skip
    assert code == 0, out
    assert "3 games, 0 with problems" in out
    code, _, err = run_main(["selfcheck", "--ruleset", "heroclix"], capsys)
    assert code == 2 and "no ruleset is called 'heroclix'" in err


def _assert_the_search_finds_the_reference(state, character):
    """`reachable` and `reachable_paths` give `_reachable_by_paths`'s squares and paths, in its order (the order
    the moves are listed in, which decides between equal scores)."""
    expected = _reachable_by_paths(state, character)
    assert list(movement.reachable(state, character).items()) == list(expected.items())
    assert movement.reachable_paths(state, character) == list(expected.values())


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
@pytest.mark.parametrize("map_name", ["harbor-district", "chemical-plant"])
def test_the_move_search_with_a_double_base_character_finds_what_judging_whole_paths_finds(map_name):
    """With a double-base character on the map (Road Wardens' Ironhorse Outrider) the one move search
    (`move_search.Search`) lists what `step_problem` finds path by path, in the same order: the double-base
    character counting from a square next to it and ending where its rear half may rest (HX-SPECIAL-04), the others
    not crossing its base when it is theirs to cross (HX-SPECIAL-03)."""
    from clix.engine.heroclix.library import load_library

    library, _ = load_library([SAMPLE])
    compared = 0
    for state in _random_positions(library, map_name, [["road-wardens", "iron-syndicate"]] * 2):
        for character in state.standing():
            _assert_the_search_finds_the_reference(state, character)
            compared += character.uid in state.rears
    assert compared > 0


def _random_positions(library, map_name, pairings):
    """Every position of a random game (3 turns, game `seed` seeded by its index) of each pairing of forces."""
    from clix.engine.heroclix.setup import new_game

    for seed, names in enumerate(pairings):
        forces = [library.forces[n] for n in names]
        state = new_game(library, forces, library.maps[map_name], np.random.default_rng(seed), turn_limit=3)
        agents = [RandomAgent(np.random.default_rng([seed, seat])) for seat in (1, 2)]
        driver.settle(state, agents)
        rng = np.random.default_rng(seed)
        while not state.over:
            yield state
            listed = rules.legal_actions(state)
            rules.apply(state, listed[int(rng.integers(len(listed)))], listed=True)
            driver.settle(state, agents)


def _reachable_by_paths(state, character):
    """The reference for `movement.reachable`: the first path to each square, each judged whole by
    `step_problem` (what the fast search does step by step). A double-base character's paths begin on the squares
    next to it, each first step leaving from its square beside it (HX-SPECIAL-04)."""
    start = character.pos
    speed = movement.move_speed(state, character)
    broke_from = {c.uid for c in sides.adjacent_opponents(state, character)}
    if movement.passes_opponents(state, character):  # Leap/Climb, a transporter: no stop next to them
        broke_from = {c.uid for c in sides.opponents(state, character)}
    starts = double_base.touching(state, character) if character.uid in state.rears else None
    seen, ends, frontier = ({start} if starts is None else set()), {start: ()}, [()]
    end_only = ("(HX-MOVE-06)", "(HX-MOVE-14, -15)", "(HX-SPECIAL-12)", "(HX-SPECIAL-04)")
    while frontier:
        grown = []
        for path in frontier:
            here = path[-1] if path else start
            if len(path) >= speed:
                continue
            for square in state.geometry.all_neighbours[here] if starts is None or path else list(starts):
                if starts is not None and not path:
                    here = starts[square]
                if square in seen:
                    continue
                candidate = (*path, square)
                problem = movement.step_problem(state, character, start, candidate)
                if problem and not problem.endswith(end_only):
                    continue
                seen.add(square)
                if not problem:
                    ends[square] = candidate
                if not movement.must_stop(state, character, here, square, broke_from):
                    grown.append(candidate)
        frontier = grown
    return ends


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
@pytest.mark.parametrize("map_name", ["harbor-district", "chemical-plant"])
def test_the_fast_move_search_finds_what_judging_whole_paths_finds(map_name):
    """`reachable` judges each step as it is added; on every position of random games (walkers, swimmers and
    fliers, elevated terrain, walls, indoor squares) it lists the same squares by the same paths as judging each
    path whole with `step_problem`."""
    from clix.engine.heroclix.library import load_library

    library, _ = load_library([SAMPLE])
    compared = 0
    pairings = [sorted(library.forces)[seed::3][:2] for seed in range(3)]
    for state in _random_positions(library, map_name, pairings):
        for character in state.standing():
            _assert_the_search_finds_the_reference(state, character)
            compared += 1
    assert compared > 100


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_the_analyzers_runner_plays_heroclix_forces_through_the_registry():
    """Issue 33: the runner plays two sample HeroClix forces by the ruleset's name, in seat-swapped pairs, the same
    games on one worker or two (the workers find HeroClix through the core's registry), and reads each game into
    rows: victory points, knockouts, who won and whether HX-END-11's fewest-points rule decided it."""
    from clix.analyzer.common.errors import ClixError
    from clix.analyzer.play import runner

    matchup = runner.Matchup(
        (SAMPLE,), "dawn-patrol", "night-shift", "harbor-district", "random", "random", 4, ruleset="heroclix-2005"
    )
    one = runner.run_matchup(matchup, 12, master_seed=3, jobs=1).games_frame()
    two = runner.run_matchup(matchup, 12, master_seed=3, jobs=2).games_frame()
    assert one.drop(columns="engine").equals(two.drop(columns="engine"))
    assert list(one["seat_a"][:4]) == [1, 2, 1, 2] and set(one["ruleset"]) == {"heroclix-2005/part2-2"}
    assert set(one["winner"]) <= {"A", "B", "draw"} and (one["vp_a"] >= 0).all()
    decided = one[~one["tie_break"] & (one["winner"] != "draw")]
    assert all((row.vp_a > row.vp_b) == (row.winner == "A") for row in decided.itertuples())
    figures = runner.run_matchup(matchup, 2, master_seed=3, jobs=1).figures_frame()
    assert set(figures["army"]) == {"dawn-patrol", "night-shift"} and len(figures) == 2 * (3 + 3)
    drawn = runner.run_matchup(replace(matchup, ties="draw"), 12, master_seed=3, jobs=1).games_frame()
    assert not drawn["tie_break"].any()
    with pytest.raises(ClixError, match="HeroClix player style"):
        runner.player_factory("rusher", "heroclix-2005")  # a HorrorClix style: HeroClix has its own (issue 36)


def test_roster_powers_lists_what_heroclix_plays(capsys):
    """`clix roster powers --ruleset heroclix-2005`: every power of HeroClix's registry with its text and source
    (issue 35); an unknown ruleset is one line."""
    from clix.engine.heroclix.powers import POWERS
    from helpers import run_main

    code, out, _ = run_main(["roster", "powers", "--ruleset", "heroclix-2005"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    assert all(name in flat for name in ("Telekinesis", "Toughness", "Willpower", "Invincible", "Flurry"))
    assert flat.count("source:") == len(POWERS) == 48
    code, _, err = run_main(["roster", "powers", "--ruleset", "heroclix"], capsys)
    assert code == 2 and "no ruleset is called 'heroclix'" in err


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_the_result_store_keys_heroclix_games_by_the_forces_data_through_the_ruleset():
    """Issue 33: the store (analyzer/play/store.py) knows no ruleset: a HeroClix matchup's key holds HeroClix's
    version and the data its kit says a game reads (the forces, the characters they field, the map), so editing a
    fielded character's dial changes the key and editing one no force fields does not."""
    from clix.analyzer.play import runner
    from clix.analyzer.play.store import game_key
    from clix.engine.heroclix.library import load_library

    library, _ = load_library([SAMPLE])
    matchup = runner.Matchup(
        (SAMPLE,), "dawn-patrol", "night-shift", "harbor-district", "random", "random", 4, ruleset="heroclix-2005"
    )
    key = game_key(library, matchup, 3)
    assert key.fields["ruleset"] == ruleset_named("heroclix-2005").version
    fielded = {c for name in ("dawn-patrol", "night-shift") for c in library.forces[name].characters}
    edit = sorted(fielded)[0]
    edited = replace(
        library, characters={**library.characters, edit: library.characters[edit].model_copy(update={"points": 1})}
    )
    assert game_key(edited, matchup, 3).digest != key.digest
    unused = next(c for c in sorted(library.characters) if c not in fielded)
    other = replace(
        library, characters={**library.characters, unused: library.characters[unused].model_copy(update={"points": 1})}
    )
    assert game_key(other, matchup, 3).digest == key.digest
