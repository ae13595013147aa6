"""The ruleset seam (issue 16 part 3): a second ruleset (tests/duel_ruleset.py) plays through the engine's core,
and two rulesets hold the same power name with different texts and handlers."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import duel_ruleset as duel
import numpy as np
import pytest
from clix.analyzer.play.runner import kit as rules_kit
from clix.engine.core import driver, effects
from clix.engine.core.dice import Dice, ForcedDice
from clix.engine.core.ruleset import PARTS, RULESETS, Ruleset, load_ruleset, ruleset_named
from clix.engine.core.state import State
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.scenario import Scenario, build_state

REGENERATION = {"Regeneration": {}}


def agents(seed: int) -> list[duel.RandomChooser]:
    return [duel.RandomChooser(np.random.default_rng([seed, seat])) for seat in (1, 2)]


def test_two_rulesets_hold_the_same_power_name_with_their_own_handlers():
    horror, grid = horrorclix.load(), duel.load()
    assert "Regeneration" in horror.powers and "Regeneration" in grid.powers
    assert horror.powers["Regeneration"].summary != grid.powers["Regeneration"].summary
    assert type(horror.handlers["Regeneration"]) is not type(grid.handlers["Regeneration"])
    assert "Toughness" in grid.handlers and "Toughness" not in horror.powers


def test_each_ruleset_plays_its_own_regeneration_in_one_process():
    """HC's Regeneration heals 1 on a 5-6 (engine/horrorclix/registry/powers.py); the duel's heals the roll minus 2."""
    hc_state = build_state(
        Scenario.model_validate(
            {
                "name": "regeneration",
                "dice": [6],
                "expect": {},
                "monsters": [
                    {
                        "id": "A",
                        "player": 1,
                        "dial": ["6 9 16 2"] * 6 + ["x"],
                        "powers": ["Regeneration"],
                        "at": [0, 0],
                    },
                    {"id": "B", "player": 2, "dial": ["6 9 16 2", "x"], "at": [3, 1]},
                ],
            }
        ),
        None,
    )[0]
    hc_state.monsters[0].click = 4
    grid_state = duel.new_duel(ForcedDice([1]), (REGENERATION, {}))  # its first turn's roll heals nothing
    grid_state.monsters[0].click = 4
    grid_state.dice = ForcedDice([6])
    for state in (hc_state, grid_state):
        effects.fire(state, state.monsters[0], "turn_start")
    assert hc_state.monsters[0].click == 3  # healed 1
    assert grid_state.monsters[0].click == 0  # healed 6 - 2 = 4


def test_toughness_reduces_damage_through_the_core_hooks():
    plain = duel.new_duel(ForcedDice([6, 6]))
    tough = duel.new_duel(ForcedDice([6, 6]), ({}, {"Toughness": {}}))
    for state in (plain, tough):
        state.monsters[1].pos = state.geometry.index(1, 1)  # adjacent to player 1's figure
        options = state.ruleset.legal_actions(state)
        strike = next(a for a in options if isinstance(a, duel.Strike))
        state.ruleset.apply(state, strike, True)
    assert plain.monsters[1].damage_taken == 2
    assert tough.monsters[1].damage_taken == 1


@pytest.mark.parametrize("seed", range(3))
def test_the_core_driver_plays_a_duel_to_its_end(seed):
    state = duel.new_duel(Dice(np.random.default_rng(seed)), (REGENERATION, {"Toughness": {}}))
    final = driver.play(state, agents(seed))
    assert final.over and final.phase == "over" and final.end_reason in ("knockout", "turn limit")
    assert type(final) is State and not hasattr(final, "victims") and not hasattr(final, "plot")
    assert final.ruleset is duel.load()
    again = driver.play(
        duel.new_duel(Dice(np.random.default_rng(seed)), (REGENERATION, {"Toughness": {}})), agents(seed)
    )
    assert [str(e) for e in again.log] == [str(e) for e in final.log]


def test_a_duel_copies_and_pickles_like_a_horrorclix_game():
    state = duel.new_duel(Dice(np.random.default_rng(5)), (REGENERATION, {}))
    for _ in range(6):
        driver.step(state, agents(5))
    restored = pickle.loads(pickle.dumps(state))
    assert restored == state and restored.ruleset is state.ruleset
    control = state.copy()  # the same future dice
    other_dice = state.copy(Dice(np.random.default_rng(99)))
    driver.play(other_dice, agents(6))
    assert other_dice.over and not state.over  # playing a copy leaves the original alone
    driver.play(state, agents(7))
    driver.play(control, agents(7))
    driver.play(restored, agents(7))
    assert [str(e) for e in state.log] == [str(e) for e in control.log] == [str(e) for e in restored.log]
    assert [str(e) for e in other_dice.log] != [str(e) for e in state.log]


def test_a_ruleset_pickles_as_its_loader():
    assert pickle.loads(pickle.dumps(horrorclix.load())) is horrorclix.load()
    assert load_ruleset("duel_ruleset:load") is duel.load()
    with pytest.raises(TypeError, match="not a Ruleset"):
        load_ruleset("builtins:dict")


def test_a_handler_for_a_power_the_ruleset_does_not_name_is_refused():
    with pytest.raises(KeyError, match="Slash"):
        Ruleset(
            "broken", "0", "x:y", ("a",), duel.POWERS, {**duel.load().handlers, "Slash": duel.Toughness()},
            duel.legal_actions, duel.apply, duel.begin_turn, duel.end_turn, duel.score,
        )  # fmt: skip


def test_the_duel_needs_none_of_horrorclixs_rules():
    """The core (state, driver, stepping, effect hooks) plays the duel with HorrorClix's rules and its state (victims,
    plot twists) never imported."""
    code = (
        "import sys, numpy as np\n"
        "import duel_ruleset as duel\n"
        "from clix.engine.core import driver\n"
        "from clix.engine.core.dice import Dice\n"
        "state = duel.new_duel(Dice(np.random.default_rng(1)), ({'Regeneration': {}}, {}))\n"
        "driver.play(state, [duel.RandomChooser(np.random.default_rng(s)) for s in (1, 2)])\n"
        "assert state.over\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('clix.engine'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "clix.engine.core.driver" in loaded
    horrorclix_rules = {
        "rules", "legal", "combat", "movement", "plots", "subplots", "cards", "setup", "ruleset", "state", "players",
        "monsters", "events",
    }  # fmt: skip
    assert not loaded & {f"clix.engine.horrorclix.{name}" for name in horrorclix_rules}
    # nothing of HorrorClix at all: its own map format (a core `board.Layout`), the core's dial notation, its own
    # power specs (issue 33)
    assert not {m for m in loaded if m.startswith("clix.engine.horrorclix")}
    assert not any(name.startswith("clix.engine.horrorclix.powers") for name in loaded)


def test_rulesets_are_found_by_name_and_horrorclix_is_the_default(monkeypatch):
    """Issue 33, part 3: the core's registry names each ruleset by its loader; asking loads it, once a process."""
    from clix.engine.core import ruleset as core_ruleset

    assert core_ruleset.ruleset_named() is horrorclix.load()
    assert core_ruleset.ruleset_named("horrorclix") is horrorclix.load()
    monkeypatch.setitem(core_ruleset.RULESETS, duel.NAME, "duel_ruleset:load")
    assert core_ruleset.ruleset_named(duel.NAME) is duel.load()
    with pytest.raises(
        KeyError,
        match="no ruleset is called 'heroclix'; clix plays duel-on-a-grid, heroclix-2005, horrified, horrorclix",
    ):
        core_ruleset.ruleset_named("heroclix")


def test_the_analyzers_runner_plays_another_rulesets_matchups(monkeypatch):
    """Issue 33: the runner knows no ruleset. Given the duel's name in the core's registry, it plays the duel's
    games in seat-swapped pairs from one master seed, the same games in any batches, through the
    duel's MatchupKit; a style the duel has no player for is a one-line error."""
    from clix.analyzer.common.errors import ClixError
    from clix.analyzer.play import runner
    from clix.engine.core import ruleset

    monkeypatch.setitem(ruleset.RULESETS, duel.NAME, "duel_ruleset:load")
    runner.kit.cache_clear()
    matchup = runner.Matchup(Path("."), "regenerating", "plain", "grid", "random", "random", 12, ruleset=duel.NAME)
    games = runner.run_matchup(matchup, 40, master_seed=7, jobs=1).games_frame()
    assert len(games) == 40 and set(games["winner"]) <= {"A", "B", "draw"} and games["winner"].nunique() > 1
    assert list(games["seat_a"][:4]) == [1, 2, 1, 2] and set(games["ruleset"]) == {"test"}
    assert games.equals(runner.run_matchup(matchup, 40, master_seed=7, jobs=1, batch_size=3).games_frame())
    assert not games.equals(runner.run_matchup(matchup, 40, master_seed=8, jobs=1).games_frame())
    with pytest.raises(ClixError, match="only the random player"):
        runner.player_factory("tuned", duel.NAME)
    runner.kit.cache_clear()


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_rulesets_parts_are_modules_it_names_from_the_known_parts(name):
    """Issue 33: the analyzer reaches a ruleset's army builder, models, loader and players only as the ruleset's
    parts; each part is a known one (`PARTS`) and imports; a part the ruleset lacks is one error naming those it
    has. A ruleset whose games are matchups of armies (not Horrified's co-operative game) names every part the
    army analyses use."""
    rules = ruleset_named(name)
    assert set(rules.parts) <= set(PARTS)
    if getattr(rules_kit(name), "plays_matchups", True):
        assert {"armies", "models", "loader", "players", "weights", "matchups", "scenario"} <= set(rules.parts)
    for part in rules.parts:
        assert rules.part(part).__name__ == rules.parts[part]
    if "players" in rules.parts:
        assert callable(rules.part("players").style_factory)
    with pytest.raises(NotImplementedError, match=f"ruleset {name} has no tables part"):
        rules.part("tables")


def test_the_duel_ruleset_has_no_parts():
    """A ruleset that names no parts (the duel) says so when one is asked for."""
    with pytest.raises(NotImplementedError, match="has no armies part"):
        duel.load().part("armies")
