"""Monster cards and the special rules beyond what a scenario file can say: a transformation happens once,
crossroads sides and red lines at setup, healing after a transformation, and whole random games with the
special-rules armies (insanity, possession, minions, cabals) keeping every invariant."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.dice import child_seeds
from clix.engine.core.players import RandomAgent
from clix.engine.horrorclix import combat, rules
from clix.engine.horrorclix.actions import Close, Move
from clix.engine.horrorclix.game import play, settle
from clix.engine.horrorclix.invariants import violations
from clix.engine.horrorclix.roster.loader import load_roster
from clix.engine.horrorclix.scenario import build_state, load_scenario
from clix.engine.horrorclix.setup import new_game
from helpers import horrorclix_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
MINI_ROSTER = ROOT / "tests" / "fixtures" / "mini_roster"


def scenario_state(roster, name: str):
    scenario, problems = load_scenario(SCENARIOS / name)
    assert scenario is not None, problems
    state, monsters, _ = build_state(scenario, roster)
    return state, monsters


def test_gravemaw_grave_and_card_trigger_transform_once(roster):
    """HC-CARD-09, HC-DATA-22: Gravemaw's Grave power and its card's kill_monsters trigger describe the same
    kill; the card flips and the dial turns to the green line once, not twice."""
    state, ids = scenario_state(roster, "card/09-grave-turns-to-green-line.yaml")
    gravemaw = state.monsters[ids["G"]]
    rules.apply(state, Close(ids["G"], ids["T"]))
    assert [e.kind for e in state.log].count("transformed") == 1
    assert (gravemaw.side, gravemaw.click, gravemaw.start_line, gravemaw.transform_count) == ("transformed", 0, 0, 0)


def test_transformed_werewolf_heals_only_on_its_new_form(roster):
    """HC-CARD-09 with HC-COMBAT-10: after turning to its red line a werewolf heals back to that line at most,
    never over the skulls of its human form; Gravemaw, turned to its green line, heals back to it."""
    state, ids = scenario_state(roster, "card/01-must-transform-on-slaying.yaml")
    lycan = state.monsters[ids["L"]]
    rules.apply(state, Move(ids["L"], (state.geometry.index(3, 2), state.geometry.index(4, 2))))
    assert (lycan.side, lycan.click) == ("transformed", 4)
    lycan.click = 7
    combat.heal(state, lycan, 5)
    assert lycan.click == 4
    state, ids = scenario_state(roster, "card/09-grave-turns-to-green-line.yaml")
    gravemaw = state.monsters[ids["G"]]
    rules.apply(state, Close(ids["G"], ids["T"]))
    gravemaw.click = 2
    combat.heal(state, gravemaw, 5)
    assert gravemaw.click == 0


@pytest.mark.parametrize(("side", "click"), [("start_a", 0), ("start_b", 2)])
def test_crossroads_side_and_its_starting_line_at_setup(side, click):
    """HC-CARD-07, HC-CARD-14, HC-SETUP-07: the army file's side is the card side for the whole game, and a side
    that starts on the red line puts the dial there."""
    mini, problems = load_roster([MINI_ROSTER])
    assert problems == []
    army = mini.armies["legal-army"]
    entries = [e.model_copy(update={"side": side}) if e.figure == "crossroads-witch-e" else e for e in army.figures]
    army = army.model_copy(update={"figures": entries})
    rng = np.random.default_rng(1)
    agents = [RandomAgent(np.random.default_rng(2)), RandomAgent(np.random.default_rng(3))]
    state = new_game(mini, [army, army], next(iter(mini.maps.values())), rng, 5)
    settle(state, agents)
    witches = [m for m in state.monsters if m.stats.id == "crossroads-witch-e"]
    assert len(witches) == 2
    assert all((m.side, m.click, m.start_line) == (side, click, click) for m in witches)


SPECIAL_ARMIES = ["mildew-parish", "drowned-choir", "lantern-watch", "ashfang-pack", "haunting", "crimson-court"]


@pytest.mark.parametrize("players", [2, 3])
def test_special_rule_armies_keep_the_invariants(roster, players):
    """Random games between the armies with Insanity, Possession, Injection, Raise Minion, Grave, transformations
    and the cabal powers, two and three players: every state keeps the invariants."""
    layout = roster.maps["graveyard"]
    for seed in range(12):
        names = [SPECIAL_ARMIES[(seed + k) % len(SPECIAL_ARMIES)] for k in range(players)]
        armies = [roster.armies[n] for n in names]
        if any(a.players < players for a in armies):
            armies = [a.model_copy(update={"players": players}) for a in armies]
        dice_seed, *seeds = child_seeds(seed, 1 + players)
        agents = [RandomAgent(np.random.default_rng(s)) for s in seeds]
        state = new_game(roster, armies, layout, np.random.default_rng(dice_seed), 8)
        settle(state, agents)
        state = play(state, agents)
        assert state.over
        assert violations(state) == [], (seed, names)


ARMY_BUILDING_ONLY = {"HC-CARD-11", "HC-CARD-13"}
"""Rank rings and demo figures decide what an army may hold, which a scenario (a board, not an army) cannot
show; tests/test_validation*.py check them (HC-CARD-11-unknown-rank, HC-SETUP-01-HC-CARD-13-demo-figure)."""


def test_every_card_and_special_rule_has_a_scenario():
    """Issue 4: the CARD and SPECIAL sections are covered by scenarios like the base rules."""
    text = (ROOT / "docs" / "horrorclix_rules.md").read_text(encoding="utf-8")
    wanted = {m for m in re.findall(r"\*\*(HC-[A-Z]+-\d+)\*\*", text) if m.split("-")[1] in ("CARD", "SPECIAL")}
    cited: set[str] = set()
    for path in horrorclix_files([SCENARIOS]):
        scenario, problems = load_scenario(path)
        assert scenario is not None, problems
        cited.update(scenario.rules)
    missing = sorted(wanted - cited - ARMY_BUILDING_ONLY, key=lambda r: (r.split("-")[1], int(r.split("-")[2])))
    assert not missing, f"no scenario for {', '.join(missing)}"
