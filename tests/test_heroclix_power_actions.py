"""HeroClix powers used as actions (issue 35, second helper): Force Blast, Poison, Sidestep, Quake, Energy
Explosion, Incapacitate, Smoke Cloud, Barrier, Pulse Wave and Hypersonic Speed. Their scenarios are in
tests/scenarios/heroclix/powers (run by test_heroclix.py); here each power's rule is changed or taken out on purpose
and one of its scenarios must then fail, and random play with every one of these powers keeps the invariants."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import power_actions
from test_heroclix import _heroclix_failures

MUTANTS = {
    "HX-POWER-08": (power_actions, "FORCE_BLAST_DISTANCE", 2, "powers/force-blast-01"),
}
"""A power's rule changed on purpose (a constant of the engine), and a scenario (or the start of the paths of
several) that must then fail."""


@pytest.mark.parametrize("rule", sorted(MUTANTS))
def test_a_changed_power_rule_fails_its_scenario(rule, monkeypatch):
    module, name, value, scenario = MUTANTS[rule]
    monkeypatch.setattr(module, name, value)
    failed = _heroclix_failures()
    assert any(path.startswith(scenario) for path in failed), f"{rule} changed ({name} = {value}); {scenario} passes"


@pytest.mark.parametrize(
    ("rule", "module", "function", "replacement", "scenario"),
    [
        ("HX-POWER-08", power_actions, "_force_blast_problem", lambda *args: "", "powers/force-blast-04"),
    ],
)  # fmt: skip
def test_a_power_rule_taken_out_fails_its_scenario(rule, module, function, replacement, scenario, monkeypatch):
    monkeypatch.setattr(module, function, replacement)
    failed = _heroclix_failures()
    assert any(path.startswith(scenario) for path in failed), f"{rule} taken out ({function}); {scenario} passes"
