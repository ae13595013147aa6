"""The core HeroClix rules the last scenarios cover (HX-TURN-05, HX-COMBAT-10, HX-DAMAGE-03, -04, HX-EFFECT-06,
HX-CHAR-10, HX-END-03, HX-SCEN-01..03, and the 2005 readings of the card's HX-PAC-13, -20, -28): each scenario
fails when the engine's rule is changed on purpose (a constant set to a wrong value, or a small function replaced
by a wrong version), through the shared `fails_when_changed` of tests/heroclix_checks.py. The ranks (HX-CHAR-06) are
force building, not play: they are checked on a library here."""

from __future__ import annotations

import pytest
import yaml
from clix.engine.core.files.problems import InvalidFile
from clix.engine.heroclix import combat, defenses, movement, movement_powers, rules, scoring, sides
from clix.engine.heroclix.library import RANKS, load_library
from clix.engine.heroclix.maps import TERRAIN_CHARS, HeroMap
from clix.engine.heroclix.scenario import run_scenario
from clix.engine.heroclix.state import Ranged
from heroclix_checks import fails_when_changed, mutation_rows

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
    # a bystander token given a dial of two clicks: 1 damage no longer knocks it out
    ("HX-CHAR-10", scoring, "bystander_dial", lambda values: [values, values, "x"],
     "values/11-bystander-knocked-out-by-any-damage"),
    ("HX-CHAR-10 pushing", scoring, "bystander_dial", lambda values: [values, values, "x"],
     "values/12-bystander-pushed-is-knocked-out"),
    # Showdown (a scenario of 002): its end and victory rules replace the standard ones
    ("HX-END-03", scoring, "scores_survivors", lambda state: True, "end/13-showdown-force-wiped-out-scored-as-at-the-end"),
    ("HX-SCEN-01", scoring, "SHOWDOWN", "free-for-all", "end/11-showdown-half-the-build-total-wins-after-five-turns"),
    ("HX-SCEN-02 turns", scoring, "SHOWDOWN_TURNS", 4, "end/11-showdown-half-the-build-total-wins-after-five-turns"),
    ("HX-SCEN-02 half", scoring, "SHOWDOWN_SHARE", 0.6, "end/11-showdown-half-the-build-total-wins-after-five-turns"),
    # the check ends the game even when nobody has half the build total: no playing on
    ("HX-SCEN-03", scoring, "showdown_winners", lambda state: [p.number for p in state.players],
     "end/12-showdown-nobody-wins-plays-on-tie-to-fewest-points"),
    ("HX-PAC-20", HeroMap, "terrain", _only_heavy_objects_hinder,
     "objects/32-light-and-heavy-objects-both-hinder-line-of-fire"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario, or folder of them, that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), mutation_rows(MUTANTS))
def test_a_changed_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)


HERO = {
    "ruleset": "heroclix-2005", "id": "night-warden", "name": "Night Warden", "points": 40, "set": "test set",
    "collector_number": 1, "range": 5, "dial": ["7 9 16 2", "6 8 15 2", "x"], "provenance": "test data",
}  # fmt: skip
TWICE = {"ruleset": "heroclix-2005", "name": "Wardens", "build_total": 100,
         "characters": ["night-warden", "night-warden"], "provenance": "test data"}  # fmt: skip


@pytest.mark.parametrize("rank", RANKS)
def test_ranks_by_ring_and_which_count_as_unique(tmp_path, rank):
    """HX-CHAR-06: seven ranks by ring colour; silver (unique), gold (super-rare) and bronze (limited-edition)
    count as Unique for force building, so two copies may not share a force (HX-BUILD-03); purple (promotional) is
    legal and not Unique (the OPEN choice, docs/rulings.md), like yellow, blue and red."""
    (tmp_path / "hero.yaml").write_text(yaml.safe_dump(HERO | {"rank": rank}), encoding="utf-8")
    (tmp_path / "wardens.yaml").write_text(yaml.safe_dump(TWICE), encoding="utf-8")
    library, problems = load_library([tmp_path])
    unique = rank in ("unique", "super-rare", "limited-edition")
    assert "night-warden" in library.characters and "wardens" in library.forces
    refused = [str(p) for p in problems]
    if unique:
        assert len(refused) == 1 and "is Unique and may be in a force once (HX-BUILD-03)" in refused[0]
    else:
        assert refused == []


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"dial": ["5 7 14 1", "x"]}, "a bystander token has no dial"),
        ({"dial": [{"values": "5 7 14 1", "powers": ["Toughness"]}]}, "a bystander token has no dial"),
        ({"powers": ["Toughness"]}, "a bystander token has no powers"),
        ({"size": "giant"}, "a bystander token has no powers and is a standard-size character"),
    ],
)  # fmt: skip
def test_a_bystander_token_with_a_dial_or_powers_is_refused(tmp_path, change, said):
    """HX-CHAR-10 and its OPEN choice: a bystander token has its printed values, no dial and no powers."""
    data = {
        "ruleset": "heroclix-2005", "name": "a bystander", "expect": {},
        "characters": [{"id": "Y", "player": 1, "bystander": True, "dial": ["5 7 14 1"], "at": [0, 0]} | change,
                       {"id": "B", "player": 2, "dial": ["8 9 16 2", "x"], "at": [3, 3]}],
    }  # fmt: skip
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(InvalidFile) as refused:
        run_scenario(path)
    assert said in str(refused.value)
