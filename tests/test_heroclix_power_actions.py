"""HeroClix powers used as actions (issue 35, second helper): Force Blast, Poison, Sidestep, Quake, Energy
Explosion, Incapacitate, Smoke Cloud, Barrier, Pulse Wave and Hypersonic Speed. Their scenarios are in
tests/scenarios/heroclix/powers (run by test_heroclix.py); here each power's rule is changed or taken out on purpose
and one of its scenarios must then fail, and random play with every one of these powers keeps the invariants."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import area_attacks, combat, free_actions, hypersonic, markers, power_actions, tokens
from heroclix_checks import fails_when_changed, mutation_rows, mutations_by_rule, random_power_game

MUTANTS = {
    "HX-POWER-08": (power_actions, "FORCE_BLAST_DISTANCE", 2, "powers/force-blast-01"),
    "HX-POWER-22": (free_actions, "POISON_DAMAGE", 2, "powers/poison-01"),
    "HX-POWER-09": (free_actions, "SIDESTEP_SQUARES", 3, "powers/sidestep-02"),
    "HX-POWER-16": (area_attacks, "QUAKE_DAMAGE", 3, "powers/quake-01"),
    "HX-POWER-16 OPEN": (area_attacks, "SEVERAL", 1, "powers/quake-02"),
    "HX-POWER-14": (area_attacks, "EXPLOSION_DAMAGE", 3, "powers/energy-explosion-01"),
    "HX-POWER-15": (area_attacks, "PULSE_DAMAGE", 2, "powers/pulse-wave-01"),
    "HX-POWER-10": (hypersonic, "PASSES_OPPONENTS", False, "powers/hypersonic-speed-01"),
    "HX-POWER-18": (tokens, "EFFECT_PUSHING_DAMAGE", 0, "powers/incapacitate-02"),
    "HX-POWER-20": (markers, "SMOKE_PENALTY", 0, "powers/smoke-cloud-02"),
    "HX-POWER-30": (markers, "LEGEND", {markers.SMOKE: "h", markers.BARRIER: "h"}, "powers/barrier-01"),
    "HX-POWER-30 markers": (
        power_actions,
        "MARKERS",
        {"Smoke Cloud": (markers.SMOKE, 6), "Barrier": (markers.BARRIER, 5)},
        "powers/barrier-07",
    ),
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
            ("HX-POWER-08", power_actions, "_force_blast_problem", lambda *args: "", "powers/force-blast-04"),
            ("HX-POWER-22", free_actions, "touching_opponents", lambda *args: [], "powers/poison-01"),
            ("HX-TURN-16", free_actions, "grants", lambda power: False, "powers/sidestep-03"),
            ("HX-POWER-16", area_attacks, "quake_targets", lambda state, attacker: [], "powers/quake-01"),
            ("HX-POWER-14", area_attacks, "splashed", lambda *args: [], "powers/energy-explosion-01"),
            ("HX-VALUE-08", area_attacks, "pulse_range", lambda attacker: attacker.stats.range, "powers/pulse-wave-01"),
            ("HX-POWER-10", hypersonic, "move_again", lambda *args: None, "powers/hypersonic-speed-01"),
            ("HX-POWER-18", combat, "give_token", lambda *args: None, "powers/incapacitate-01"),
            ("HX-PAC-17", markers, "clear", lambda state, player: None, "powers/smoke-cloud-03"),
        ]
    ),
)  # fmt: skip
def test_a_power_rule_taken_out_fails_its_scenario(rule, module, function, replacement, scenario, monkeypatch):
    fails_when_changed(rule, module, function, replacement, scenario, monkeypatch)


PLAYED = [
    "Force Blast",
    "Poison",
    "Sidestep",
    "Quake",
    "Energy Explosion",
    "Incapacitate",
    "Smoke Cloud",
    "Barrier",
    "Pulse Wave",
    "Hypersonic Speed",
]
"""The powers of this file, given to both forces of the random games below."""

ARENA = {
    "ruleset": "heroclix-2005",
    "name": "two forces carrying the powers used as actions, on a map with every terrain type",
    "expect": {},
    "build_total": 200,
    "map": {
        "rows": ["............", "...h..#.....", "............", "....~~......", "..#.....h...", "............",
                 "......h.....", "............"],
        "walls": [{"at": [5, 5], "side": "north"}],
        "objects": [{"kind": "light", "at": [7, 2]}],
    },
    "characters": [
        {"id": "A1", "player": 1, "dial": ["8 10 17 3", "7 9 16 2", "7 9 16 2", "6 8 15 2", "6 8 15 1", "x"],
         "at": [0, 0], "range": 6, "bolts": 2, "powers": PLAYED[::2]},
        {"id": "A2", "player": 1, "dial": ["7 9 16 2", "6 9 16 2", "6 8 15 1", "x"], "at": [1, 0], "range": 4,
         "powers": PLAYED[1::2]},
        {"id": "A3", "player": 1, "dial": ["8 9 16 2", "7 8 15 2", "x"], "at": [2, 1], "speed_mode": "wing",
         "range": 5, "powers": PLAYED},
        {"id": "B1", "player": 2, "dial": ["9 10 16 2", "8 9 16 2", "7 9 15 2", "6 8 15 1", "x"], "at": [11, 7],
         "range": 5, "powers": PLAYED[1::2]},
        {"id": "B2", "player": 2, "dial": ["6 8 18 3", "6 8 17 2", "5 7 16 2", "x"], "at": [10, 7],
         "speed_mode": "dolphin", "powers": PLAYED[::2]},
        {"id": "B3", "player": 2, "dial": ["8 9 16 2", "7 8 15 2", "x"], "at": [11, 6], "range": 6,
         "powers": PLAYED},
    ],
}  # fmt: skip


def test_random_play_with_these_powers_keeps_the_invariants():
    """Every action listed is legal (`why_not`), the position keeps the invariants after each one, and every power
    of this file is used in some game: half the time a random player picks one of these powers, when it may, and
    one of its actions."""
    used: set[str] = set()
    for seed in range(1, 7):
        used |= random_power_game(ARENA, PLAYED, seed, 0.5)
    assert used >= set(PLAYED), sorted(set(PLAYED) - used)
