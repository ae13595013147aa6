"""The last HeroClix powers (issue 35, fourth helper), several of them choices made in the middle of an action by
another player or by the active player: Leadership, Perplex, Outwit, Shape Change, Mastermind, Probability
Control and Mind Control. Their scenarios are in tests/scenarios/heroclix/powers (run by
test_heroclix.py); here each power's rule is changed or taken out on purpose and one of its scenarios must then
fail, and random play with every one of these powers, answering every choice the rules put, keeps the invariants."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import (
    combat,
    leadership,
    mastermind,
    mind_control,
    modifiers,
    movement,
    outwit,
    probability,
    shape_change,
)
from clix.engine.heroclix.ruleset import load
from heroclix_checks import fails_when_changed, mutation_rows, mutations_by_rule, random_power_game

MUTANTS = {
    "HX-POWER-48 (a)": (leadership, "EXTRA_ACTIONS", 0, "powers/leadership-01"),
    "HX-POWER-48 (b)": (leadership, "LEADERSHIP_AT", 6, "powers/leadership-02"),
    "HX-POWER-46 OPEN": (
        modifiers,
        "PERPLEXED",
        ("speed", "attack", "defense", "range", "damage"),
        "powers/perplex-06",
    ),
    "HX-POWER-43": (shape_change, "SHAPE_CHANGE_AT", 6, "powers/shape-change-01"),
    "HX-POWER-06": (mind_control, "DONE", 4, "powers/mind-control-01"),
    "HX-PAC-03 Mind Control": (combat, "MINIMUM_RANGE", 4, "powers/mind-control-03"),
}
"""A power's rule changed on purpose (a constant of the engine), and a scenario (or the start of the paths of
several) that must then fail."""


@pytest.mark.parametrize("rule", mutations_by_rule(MUTANTS))
def test_a_changed_power_rule_fails_its_scenario(rule, monkeypatch):
    fails_when_changed(rule, *MUTANTS[rule], monkeypatch)


@pytest.mark.parametrize(
    ("rule", "module", "function", "replacement", "scenario"),
    mutation_rows(
        [
            ("HX-POWER-48", leadership, "helped", lambda state, leader: [], "powers/leadership-02"),
            ("HX-PAC-12", leadership, "team", lambda state, player: 0, "powers/leadership-04"),
            ("HX-POWER-46", combat, "perplexed", lambda *args: 0, "powers/perplex-01"),
            ("HX-POWER-46 speed", movement, "modifier", lambda *args: 0, "powers/perplex-08"),
            ("HX-PAC-17", modifiers, "expire", lambda state, player: None, "powers/perplex-03"),
            ("HX-VALUE-05", combat, "capped", lambda modifier: modifier, "powers/perplex-05"),
            ("HX-EFFECT-04", outwit, "_show", lambda state, figure: None, "powers/outwit-01"),
            ("HX-POWER-47", outwit, "expire", lambda state, player: None, "powers/outwit-03"),
            ("HX-EFFECT-05", outwit, "strong", lambda character: True, "powers/outwit-05"),
            ("HX-POWER-43", shape_change, "_instead", lambda *args: [], "powers/shape-change-01"),
            ("HX-POWER-43 OPEN", combat, "barred", lambda *args: "", "powers/shape-change-03"),
            ("HX-POWER-38", shape_change, "shape_change_allowed", lambda attacker: True, "powers/shape-change-04"),
            ("HX-POWER-31", combat, "substitute", lambda state, attacker, hits: (hits, {}), "powers/mastermind-01"),
            ("HX-POWER-31 who", mastermind, "stand_ins", lambda *args: [], "powers/mastermind-01"),
            ("HX-POWER-31 opponent", mastermind, "team", lambda state, player: 0, "powers/mastermind-02"),
            ("HX-POWER-42", load(), "roll_responders", (), "powers/probability-control-01"),
            ("HX-POWER-42 who", probability, "rerollers", lambda *args: [], "powers/probability-control-02"),
            ("HX-PAC-03", probability, "in_sight", lambda *args: "", "powers/probability-control-04"),
            ("HX-POWER-06", mind_control, "seize", lambda state, attacker, action: None, "powers/mind-control-01"),
            ("HX-TURN-04", mind_control, "ended", lambda state: -1, "powers/mind-control-01"),
        ]
    ),
)  # fmt: skip
def test_a_power_rule_taken_out_fails_its_scenario(rule, module, function, replacement, scenario, monkeypatch):
    fails_when_changed(rule, module, function, replacement, scenario, monkeypatch)


PLAYED = ["Leadership", "Perplex", "Outwit", "Shape Change", "Mastermind", "Probability Control", "Mind Control"]
"""The powers of this file, given to both forces of the random games below."""

ARENA = {
    "ruleset": "heroclix-2005",
    "name": "two forces carrying the last powers, close to each other, on a map with every terrain type",
    "expect": {},
    "build_total": 200,
    "map": {
        "rows": ["........", "..h.....", "........", "...~~...", ".#....h.", "........"],
        "walls": [{"at": [4, 4], "side": "north"}],
        "objects": [{"kind": "light", "at": [3, 1]}],
    },
    "characters": [
        {"id": "A1", "player": 1, "dial": ["8 10 17 3", "7 9 16 2", "7 9 16 2", "6 8 15 2", "6 8 15 1", "x"],
         "at": [1, 1], "range": 6, "bolts": 2, "points": 70, "powers": PLAYED[::2]},
        {"id": "A2", "player": 1, "dial": ["7 9 16 2", "6 9 16 2", "6 8 15 1", "x"], "at": [1, 2], "range": 4,
         "points": 40, "powers": PLAYED[1::2]},
        {"id": "A3", "player": 1, "dial": ["8 9 16 2", "7 8 15 2", "x"], "at": [2, 2], "speed_mode": "wing",
         "range": 5, "points": 30, "powers": PLAYED},
        {"id": "B1", "player": 2, "dial": ["9 10 16 2", "8 9 16 2", "7 9 15 2", "6 8 15 1", "x"], "at": [6, 2],
         "range": 5, "points": 70, "powers": PLAYED[::2]},
        {"id": "B2", "player": 2, "dial": ["6 8 18 3", "6 8 17 2", "5 7 16 2", "x"], "at": [6, 3],
         "speed_mode": "dolphin", "points": 40, "powers": PLAYED[1::2]},
        {"id": "B3", "player": 2, "dial": ["8 9 16 2", "7 8 15 2", "x"], "at": [5, 3], "range": 6, "points": 30,
         "powers": PLAYED},
    ],
}  # fmt: skip


def test_random_play_with_these_powers_keeps_the_invariants():
    """Every action listed is legal (`why_not`), every choice put in the middle of an action is answered at random
    from its options, the position keeps the invariants after each action, and every power of this file is used in
    some game, every kind of choice put: a random player picks one of these powers, when it may, and one of its
    actions 40% of the time, an attack 30%."""
    used: set[str] = set()
    for seed in range(1, 11):
        used |= random_power_game(ARENA, PLAYED, seed, 0.4, 0.3, _controlled)
    wanted = set(PLAYED) - PASSIVE | set(DECIDED) | {CONTROLLED}
    assert used >= wanted, sorted(wanted - used)


PASSIVE = {"Leadership", "Shape Change", "Mastermind", "Probability Control"}
"""Powers of this file that no action names: they are used when their moment comes."""
DECIDED = {
    "leadership": "Leadership",
    "shape_change": "Shape Change",
    "mastermind": "Mastermind",
    "reroll": "Probability Control",
}
"""The choices these powers put to a player in the middle of an action, by the kind of decision."""
CONTROLLED = "a mind-controlled character's action"


def _controlled(state, action) -> set[str]:
    """Tags an action of a mind-controlled character (the random games must reach one)."""
    return {CONTROLLED} if mind_control.controls(state, action) else set()
