"""The HeroClix powers that need no power action (issue 35): Exploit Weakness, Precision Strike, Steal Energy,
Empower, Enhancement, Defend, Plasticity, Stealth, Battle Fury, Phasing/Teleport and Earthbound/Neutralized. Their
scenarios are in tests/scenarios/heroclix/powers (run with the others by test_heroclix.py); here each power's rule
is changed or taken out on purpose, and one of its scenarios must then fail. The Battle Fury helpers that other
powers will ask (Mind Control, Incapacitate, Shape Change) are checked directly."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import (
    battle_fury,
    combat,
    damage_powers,
    defenses,
    movement,
    movement_powers,
    scoring,
    throwing,
)  # fmt: skip
from clix.engine.heroclix.scenario import build_state
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.state import Close, Ranged
from heroclix_checks import fails_when_changed, mutation_rows, mutations_by_rule

MUTANTS = {
    "HX-POWER-40": (damage_powers, "EXPLOIT_WEAKNESS", "Exploit", "powers/exploit-weakness-01"),
    "HX-POWER-21 floor": (damage_powers, "PRECISION_FLOOR", 0, "powers/precision-strike-01"),
    "HX-POWER-21 Super Senses": (damage_powers, "PRECISION_SENSES", 0, "powers/precision-strike-03"),
    "HX-POWER-23": (damage_powers, "STOLEN_CLICKS", 0, "powers/steal-energy-01"),
    "HX-POWER-45": (damage_powers, "EMPOWER", "Empowered", "powers/empower-01"),
    "HX-POWER-41": (damage_powers, "ENHANCEMENT", "Enhanced", "powers/enhancement-01"),
    "HX-POWER-41, -45 (+1)": (damage_powers, "BOOST", 0, "powers/enhancement-04"),
    "HX-POWER-27": (defenses, "DEFEND", "Defended", "powers/defend-01"),
    "HX-POWER-07 own": (movement_powers, "PLASTIC_BREAK_AWAY", 4, "powers/plasticity-01"),
    "HX-POWER-07 opponents": (movement_powers, "HELD_BREAK_AWAY", 4, "powers/plasticity-03"),
    "HX-POWER-07 giants": (movement_powers, "GIANT", "huge", "powers/plasticity-05"),
    "HX-POWER-03": (movement_powers, "PHASING", "Phasing", "powers/phasing-teleport-01"),
    "HX-POWER-04": (movement_powers, "EARTHBOUND", "Earthbound", "powers/earthbound-neutralized-01"),
    "HX-POWER-38": (battle_fury, "BATTLE_FURY", "Fury", "powers/battle-fury-01"),
    "HX-POWER-38 carried": (movement, "BATTLE_FURY", "Fury", "powers/battle-fury-04"),
}
"""A power's rule changed on purpose (a constant of its module), and a scenario that must then fail."""


@pytest.mark.parametrize("rule", mutations_by_rule(MUTANTS))
def test_a_changed_power_fails_its_scenario(rule, monkeypatch):
    fails_when_changed(rule, *MUTANTS[rule], monkeypatch)


@pytest.mark.parametrize(
    ("rule", "module", "function", "replacement", "scenario"),
    mutation_rows(
        [
            ("HX-POWER-11", combat, "hidden", lambda *args: False, "powers/stealth-01"),
            ("HX-POWER-23", combat, "steal_energy", lambda *args: None, "powers/steal-energy-01"),
            ("HX-POWER-27", combat, "defense_value", lambda state, target: target.defense, "powers/defend-01"),
            ("HX-POWER-21", combat, "floored", lambda attacker, dealt, taken: taken, "powers/precision-strike-02"),
            ("HX-POWER-04 grounded", scoring, "settle_flight", lambda *args: None, "powers/earthbound-neutralized-02"),
            ("HX-POWER-04 landing", scoring, "settle_flight", lambda *args: None, "powers/earthbound-neutralized-03"),
            ("HX-POWER-04 flies again", scoring, "settle_flight", lambda *args: None, "powers/earthbound-neutralized-07"),
            ("HX-POWER-38 throw", throwing, "no_ranged", lambda character: "", "powers/battle-fury-02"),
        ]
    ),
)  # fmt: skip
def test_a_power_taken_out_fails_its_scenario(rule, module, function, replacement, scenario, monkeypatch):
    fails_when_changed(rule, module, function, replacement, scenario, monkeypatch)


FURY = {
    "ruleset": "heroclix-2005",
    "name": "a Battle Fury character and its opponents",
    "expect": {},
    "characters": [
        {"id": "F", "player": 1, "dial": ["8 9 16 2", "8 9 16 2", "x"], "powers": ["Battle Fury"], "at": [1, 1]},
        {"id": "A", "player": 1, "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [1, 3]},
        {"id": "M", "player": 2, "dial": ["8 9 16 2", "8 9 16 2", "x"], "range": 6, "at": [2, 1]},
    ],
}  # fmt: skip


def test_battle_fury_answers_the_powers_played_elsewhere():
    """HX-POWER-38: no Mind Control on a Battle Fury character (SAFEGUARD, HX-PAC-27), no action token from an
    opponent's effect (Incapacitate), no Shape Change against its attacks; its own side's effects may still give
    it tokens, and other characters are untouched."""
    state, ids = build_state(Scenario.model_validate(FURY))
    fury, friend, foe = (state.monsters[ids[name]] for name in ("F", "A", "M"))
    close = Close(foe.uid, fury.uid, use=battle_fury.MIND_CONTROL)
    assert "Battle Fury" in battle_fury.attack_refusal(state, foe, close)
    assert "Battle Fury" in battle_fury.attack_refusal(state, foe, Ranged(foe.uid, (fury.uid,), use="Mind Control"))
    assert battle_fury.attack_refusal(state, foe, Ranged(foe.uid, (friend.uid,), use="Mind Control")) == ""
    assert battle_fury.attack_refusal(state, foe, Close(foe.uid, fury.uid)) == ""
    assert not battle_fury.may_give_token(state, fury, foe.controller)
    assert battle_fury.may_give_token(state, fury, fury.controller)
    assert battle_fury.may_give_token(state, friend, foe.controller)
    assert not battle_fury.shape_change_allowed(fury)
    assert battle_fury.shape_change_allowed(foe)
