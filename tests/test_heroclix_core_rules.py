"""The core HeroClix rules the last scenarios cover (HX-TURN-05, HX-COMBAT-10, HX-DAMAGE-03, -04, HX-EFFECT-06,
HX-CHAR-10, HX-END-03, HX-SCEN-01..03, and the 2005 readings of the card's HX-PAC-13, -20, -28): each scenario
fails when the engine's rule is changed on purpose (a constant set to a wrong value, or a small function replaced
by a wrong version), through the shared `fails_when_changed` of tests/test_heroclix.py."""

from __future__ import annotations

import pytest
from clix.engine.heroclix import combat, defenses, movement, movement_powers, rules, sides
from clix.engine.heroclix.maps import TERRAIN_CHARS, HeroMap
from clix.engine.heroclix.state import Ranged
from test_heroclix import fails_when_changed

WHY_NOT = rules.why_not
NO_DAMAGE = combat.deals_no_damage


def _only_heavy_objects_hinder(layout: HeroMap, x: int, y: int) -> str:
    """The card's reading (004): a line of fire is hindered through heavy objects only."""
    printed = TERRAIN_CHARS[layout.rows[y][x]]
    heavy = any(o.at == (x, y) and o.kind == "heavy" for o in layout.objects)
    return "hindering" if printed == "clear" and heavy else printed


MUTANTS = [
    ("HX-TURN-05", combat, "one_effect", lambda action: "", "turn/15-flurry-and-blades-in-one-action-illegal.yaml"),
    # declared first, measured after: a ranged combat action is not judged before it is given, so it is rolled
    ("HX-COMBAT-10", rules, "why_not", lambda state, action: "" if isinstance(action, Ranged) else WHY_NOT(state, action),
     "combat/26-pre-measure-target-out-of-range-refused"),
    # Incapacitate's attack dealing damage: the modifiers, the critical +1 and the critical-miss click all apply
    ("HX-DAMAGE-03", combat, "deals_no_damage", lambda attacker, action: False,
     "damage/08-no-damage-attack-not-modified-no-criticals"),
    # a damage value of 0 read as an attack that deals no damage: no modifier, no critical-miss click
    ("HX-DAMAGE-04", combat, "deals_no_damage", lambda attacker, action: attacker.damage == 0 or NO_DAMAGE(attacker, action),
     "damage/09-zero-damage-modified-and-criticals-apply"),
    ("HX-EFFECT-06", defenses, "RULE_OF_THREE", 4, "effect/01-powers-override-rules-rule-of-3-overrides-powers"),
    # a double-base character counted a giant in the size comparison of Plasticity
    ("HX-PAC-13", movement_powers, "size",
     lambda state, figure: sides.GIANT if figure.uid in state.rears else sides.size(state, figure),
     "special/108-double-base-standard-size-held-by-plasticity"),
    # the card's size rules: a giant breaks away from a giant on 4-6, and a giant's attack knocks a giant back
    ("HX-PAC-28", movement, "GIANT_BREAK_AWAY", 4, "special/109-giant-against-giant-2005-size-rules-stand"),
    ("HX-PAC-28 knockback", combat, "bulky", lambda state, character: False,
     "special/109-giant-against-giant-2005-size-rules-stand"),
    ("HX-PAC-20", HeroMap, "terrain", _only_heavy_objects_hinder,
     "objects/32-light-and-heavy-objects-both-hinder-line-of-fire"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario, or folder of them, that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_changed_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)
