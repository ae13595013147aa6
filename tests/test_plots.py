"""Plot twists (engine/horrorclix/plots.py): every registered effect is implemented, every card of the roster has a
scenario that fails when its effect is taken away, every PLOT rule has a scenario, and random players play
cards in every window."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.files.folders import yaml_files
from clix.engine.core.players import RandomAgent
from clix.engine.horrorclix import plot_table, plots, rules, subplots
from clix.engine.horrorclix.game import play_game, settle
from clix.engine.horrorclix.invariants import violations
from clix.engine.horrorclix.registry.plot_effects import DURATIONS, PLOT_EFFECTS, SUBPLOT_CONDITIONS, TARGETS
from clix.engine.horrorclix.roster.loader import load_roster
from clix.engine.horrorclix.scenario import load_scenario, run_scenario
from clix.engine.horrorclix.setup import new_game

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "tests" / "scenarios" / "plot" / "cards"
PLOT_SCENARIOS = ROOT / "tests" / "scenarios" / "plot"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def test_every_registered_effect_is_implemented():
    """`clix roster check` refuses effect names outside the registry; the engine implements all of them."""
    assert set(plots.EFFECTS) == set(PLOT_EFFECTS)
    assert set(subplots.CONDITIONS) == set(SUBPLOT_CONDITIONS)


def test_every_target_and_duration_is_understood(roster):
    armies = [roster.armies[name] for name in ("butcher-shop", "firing-line")]
    agents = [RandomAgent(np.random.default_rng(k)) for k in range(2)]
    state_turn = new_game(roster, armies, roster.maps["graveyard"], np.random.default_rng(0))
    settle(state_turn, agents)
    state_turn.turn = 5
    for duration in DURATIONS:
        assert plot_table.lasting_until(state_turn, 1, duration)
    assert plot_table.lasting_until(state_turn, 2, "until_your_next_turn") == {"until_turn_of": 2}
    assert plot_table.lasting_until(state_turn, 2, "through_their_next_turn") == {"last_turn": 7}
    handled = {"slayer", "rescuer", "attacker", "attack_target"}
    for target in TARGETS:
        assert target in handled or target.startswith(("one_", "all_")) or target.endswith("_near_victim")


def test_every_card_has_a_scenario(roster):
    missing = [name for name in roster.plot_twists if not (CARDS / f"{slug(name)}.yaml").exists()]
    assert not missing, f"cards with no scenario in {CARDS}: {missing}"
    for name in roster.plot_twists:
        scenario, problems = load_scenario(CARDS / f"{slug(name)}.yaml")
        assert scenario is not None, problems
        assert scenario.name.startswith(name), f"{slug(name)}.yaml should name the card {name!r} first"


@pytest.mark.parametrize("name", sorted(load_roster([ROOT / "rosters" / "horrorclix"])[0].plot_twists))
def test_card_scenario_fails_without_its_effect(name, roster, monkeypatch):
    """Each card's scenario passes, and fails once the card's effect does nothing."""
    path = CARDS / f"{slug(name)}.yaml"
    assert run_scenario(path, roster).failures == []
    card = roster.plot_twists[name]
    if card.effect.name == "subplot_vp":
        monkeypatch.setitem(subplots.CONDITIONS, card.effect.params["condition"], lambda state, player: 0)
    else:
        monkeypatch.setitem(plots.EFFECTS, card.effect.name, lambda state, window, play, c: None)
    assert run_scenario(path, roster).failures, f"{path.name} still passes with {card.effect.name} removed"


def test_every_plot_rule_has_a_scenario():
    text = (ROOT / "docs" / "horrorclix_rules.md").read_text(encoding="utf-8")
    wanted = set(re.findall(r"\*\*(HC-PLOT-\d+)\*\*", text))
    assert len(wanted) == 14
    cited: set[str] = set()
    for path in yaml_files([PLOT_SCENARIOS]):
        scenario, problems = load_scenario(path)
        assert scenario is not None, problems
        cited.update(scenario.rules)
    assert wanted <= cited, f"PLOT rules with no scenario: {sorted(wanted - cited)}"
    for rule in ("HC-SLAY-01", "HC-SLAY-06", "HC-VICTIM-03", "HC-END-08", "HC-END-10", "HC-SETUP-09"):
        assert rule in cited


def test_hunting_cards_are_legal_actions(roster):
    from clix.engine.horrorclix.scenario import build_state

    scenario, _ = load_scenario(CARDS / "just-a-little-bit-further.yaml")
    assert scenario is not None
    state, ids, _ = build_state(scenario, roster)
    plays = [a for a in rules.legal_actions(state) if isinstance(a, plots.PlayCard)]
    assert plays == [plots.PlayCard("Just a Little Bit Further!", 1, ids["A"])]
    rules.apply(state, plays[0])
    assert state.actions_left == 1 and state.player(1).hidden_cards == []
    assert not any(isinstance(a, plots.PlayCard) for a in rules.legal_actions(state))


def test_random_players_play_cards_in_every_window(roster):
    """The random player picks among the options, so listing cards as options is all it needs; games with
    the sample armies play cards in every window and keep the invariants."""
    from clix.engine.horrorclix.armybuilder import random_army

    windows: Counter[str] = Counter()
    maps = [roster.maps[name] for name in sorted(roster.maps)]
    for seed in range(30):
        rng = np.random.default_rng(seed)
        armies = [random_army(roster, 200, rng) for _ in range(2)]
        state = play_game(roster, armies, maps[seed % len(maps)], [RandomAgent, RandomAgent], seed=seed)
        assert violations(state) == []
        windows.update(e.get("window") for e in state.log if e.kind == "plot_twist")
        revealed = [e for e in state.log if e.kind == "subplot_revealed"]
        assert len(revealed) == sum(1 for a in armies for c in a.crypt if roster.plot_twists[c].kind == "subplot")
        assert len([e for e in state.log if e.kind in ("subplot_scored", "subplot_removed")]) == len(revealed)
    assert set(windows) >= {"preview", "suspense", "slaying", "hunting", "attack_roll"}, windows
