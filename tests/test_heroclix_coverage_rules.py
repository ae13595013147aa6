"""The rules issue 34's coverage pass added scenarios for (HX-PAC-19, -24, -26, -29: the card's rules read in 2005
terms; HX-TEAM-11; force building and setup, HX-BUILD, HX-SETUP, HX-CHAR-06): each scenario fails when the engine's
rule is changed on purpose (a constant set to a wrong value, or a small function replaced by a wrong version),
through the shared `fails_when_changed` of tests/heroclix_checks.py."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import combat, maps, movement, sides
from heroclix_checks import fails_when_changed, mutation_rows

MUTANTS = [
    ("HX-PAC-19", combat, "CRITICAL_MISS_CLICKS", 0, "card/01-critical-miss-clicks-at-once-unavoidable"),
    ("HX-PAC-24", movement, "leaps", lambda character: False, "card/02-improved-movement-leap-climb-flags"),
    ("HX-PAC-26", sides, "GIANT_REACH", 1, "card/03-giant-reach-two-squares"),
    ("HX-PAC-29", maps, "TERRAIN_CHARS", {**maps.TERRAIN_CHARS, "~": "clear"}, "card/04-map-legend-water-stops"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario, or folder of them, that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), mutation_rows(MUTANTS))
def test_a_changed_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)
