"""The core HeroClix rules the last scenarios cover (HX-TURN-05, HX-COMBAT-10, HX-DAMAGE-03, -04, HX-EFFECT-06,
HX-CHAR-10, HX-END-03, HX-SCEN-01..03, and the 2005 readings of the card's HX-PAC-13, -20, -28): each scenario
fails when the engine's rule is changed on purpose (a constant set to a wrong value, or a small function replaced
by a wrong version), through the shared `fails_when_changed` of tests/test_heroclix.py."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import combat

from test_heroclix import fails_when_changed

MUTANTS = [
    ("HX-TURN-05", combat, "one_effect", lambda action: "", "turn/15-flurry-and-blades-in-one-action-illegal.yaml"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario, or folder of them, that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_changed_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)
