"""Team abilities, wild cards, feats and battlefield conditions (issue 35, part 2: HX-TEAM, HX-FEAT, HX-BFC). Their
scenarios are in tests/scenarios/heroclix/teams, feats and battlefield (run with the others by test_heroclix.py);
here each sample card and each rule is changed or taken out on purpose, and one of its scenarios (or the check
written here) must then fail. Building forces with feats and conditions is checked through the library; setting
up a game reveals the conditions (HX-SETUP-04)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from clix.engine.core import driver
from clix.engine.core.files.problems import InvalidFile
from clix.engine.core.players import RandomAgent
from clix.engine.heroclix import (
    battlefield,
    card_checks,
    card_play,
    declarations,
    defenses,
    feats,
    rules,
    scoring,
    teams,
)  # fmt: skip
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.library import Library, load_library
from clix.engine.heroclix.scenario import build_state, run_scenario
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.state import PUSHING, Close, Move, Ranged
from heroclix_checks import fails_when_changed, heroclix_failures, mutation_rows

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios" / "heroclix"
FOLDERS = ("teams", "feats", "battlefield")
SAMPLE = ROOT / "rosters" / "heroclix"


def test_the_card_scenarios_pass_and_cite_their_rules():
    assert {path: why for folder in FOLDERS for path, why in heroclix_failures(under=folder + "/").items()} == {}
    cited = set()
    for folder in FOLDERS:
        for path in (SCENARIOS / folder).glob("*.yaml"):
            cited.update(yaml.safe_load(path.read_text(encoding="utf-8"))["rules"])
    wanted = {f"HX-TEAM-{n:02}" for n in range(1, 11)} | {f"HX-FEAT-{n:02}" for n in range(1, 9)}
    wanted |= {f"HX-BFC-{n:02}" for n in range(1, 6)} | {"HX-END-09", "HX-END-10"}
    assert wanted <= cited, sorted(wanted - cited)


CARD_MUTANTS = {
    "Dawnguard": ("teams", {"power": "Stealth"}, "teams/dawnguard-01"),
    "Night Shift": ("teams", {"power": "Willpower"}, "teams/night-shift-01"),
    "Iron Syndicate (+1)": ("teams", {"modifier": {"value": "attack", "amount": -1, "attacks": "close"}},
                            "teams/iron-syndicate-01"),
    "Iron Syndicate (two members)": ("teams", {"members": 3}, "teams/iron-syndicate-01"),
    "Tidewatch": ("teams", {"modifier": {"value": "defense", "amount": -1, "attacks": "close"}}, "teams/tidewatch-01"),
    "Salvage Crew": ("teams", {"power": "Willpower"}, "teams/salvage-crew-01"),
    "Freelancers": ("teams", {"wild_card": False, "power": "Willpower"}, "teams/wild-card-01"),
    "Deflector Stance": ("feats", {"modifier": {"value": "defense", "amount": -1, "attacks": "ranged"}},
                         "feats/deflector-stance-01"),
    "Deflector Stance (prerequisite)": ("feats", {"requires": {"defense": 15}}, "feats/deflector-stance-03"),
    "Sharpshooter": ("feats", {"modifier": {"value": "attack", "amount": -1, "attacks": "ranged"}},
                     "feats/sharpshooter-01"),
    "Sharpshooter (per character)": ("feats", {"per_character": False, "characters": 2}, "feats/sharpshooter-03"),
    "Forced March (speed)": ("feats", {"modifier": {"value": "speed", "amount": 1}}, "feats/forced-march-01"),
    "Forced March (pushing)": ("feats", {"pushing": 0}, "feats/forced-march-01"),
    "Forced March (action)": ("feats", {"action": None, "pushing": 0}, "feats/forced-march-03"),
    "Close Formation": ("feats", {"modifier": {"value": "defense", "amount": -1, "attacks": "close"}},
                        "feats/close-formation-01"),
    "Paved Streets": ("conditions", {"terrain": None, "each_turn": {"roll": 6, "heal": 1}},
                      "battlefield/paved-streets-01"),
    "Thick Fog": ("conditions", {"modifier": {"value": "defense", "amount": -1, "attacks": "ranged"}},
                  "battlefield/thick-fog-01"),
    "Healing Rain": ("conditions", {"each_turn": {"roll": 6, "heal": 2}}, "battlefield/healing-rain-01"),
}  # fmt: skip
"""A sample card changed (its definition in the sample library), and a scenario that must then fail."""


@pytest.mark.parametrize("card", sorted(CARD_MUTANTS))
def test_a_changed_card_fails_its_scenario(card, monkeypatch):
    table, change, scenario = CARD_MUTANTS[card]
    library = card_play._sample()
    name = card.split(" (")[0]
    entries = dict(getattr(library, table))
    entries[name] = entries[name].model_validate(entries[name].model_dump() | change)
    mutated = Library(teams=library.teams, feats=library.feats, conditions=library.conditions)
    setattr(mutated, table, entries)
    fails_when_changed(f"{card} changed ({change})", card_play, "_sample", lambda: mutated, scenario, monkeypatch)


def _team_cancel_for_one_action(state, declared, act):
    """A mutant: a canceled team ability back after the action (as a feat), not at the end of the turn."""
    _real_perform(state, declared, act)
    if state.cards is not None:
        state.cards.canceled.clear()


def _feat_cancel_kept(state, declared, act):
    """A mutant: a canceled feat stays off after the action."""
    if isinstance(declared, declarations.Declared) and state.cards is not None:
        declarations._declare(state, declared)
        act(state, declared.action)
        state.cards.using.clear()
        return
    _real_perform(state, declared, act)


def _first_copy_kept(state, declared, act):
    """A mutant: a wild card keeps the first team ability it declared (two at once were it additive)."""
    if isinstance(declared, declarations.Copy) and declared.character in state.cards.copying:
        return
    _real_perform(state, declared, act)


def _feat_pushing_after(state, character):
    """A mutant of `rules._after_action`: the feat's pushing damage after the second token's."""
    state.actions_left -= 1
    character.acted = True
    if not character.alive or state.over:
        return
    character.tokens += 1
    if character.tokens == 2:
        scoring.take_damage(state, character, rules.PUSHING_DAMAGE, PUSHING, None)
    scoring.take_damage(state, character, feats.pushing(state, character), PUSHING, None)


def _friends_share(state, character):
    """A mutant: a character without a team symbol uses a friendly member's team ability."""
    own = _real_ability(state, character)
    if own is not None or state.cards is None or character.uid in state.cards.symbols:
        return own
    friends = [c for c in state.standing() if c.controller == character.controller and c.uid != character.uid]
    return next((found for c in friends if (found := _real_ability(state, c)) is not None), None)


_real_perform = declarations.perform
_real_ability = teams.ability


@pytest.mark.parametrize(
    ("rule", "module", "name", "replacement", "scenario"),
    mutation_rows(
        [
            ("HX-TEAM-01 members only", teams, "ability", _friends_share, "teams/tidewatch-02"),
            ("HX-TEAM-02 two members", teams, "members", lambda state, character, name: state.standing(),
             "teams/iron-syndicate-02"),
            ("HX-TEAM-04 until the end of the turn", declarations, "perform", _team_cancel_for_one_action,
             "teams/cancel-01"),
            ("HX-TEAM-04 back next turn", teams, "turn_over", lambda state: None, "teams/cancel-02"),
            ("HX-TEAM-04 cancel", teams, "cancel", lambda state, player, name: None, "teams/cancel-01"),
            ("HX-TEAM-06 one at a time", declarations, "perform", _first_copy_kept, "teams/wild-card-03"),
            ("HX-TEAM-06 friendly member", teams, "copy_problem", lambda state, character, name: "",
             "teams/wild-card-02"),
            ("HX-FEAT-05 prerequisites showing", feats, "meets", lambda state, character, needs: True,
             "feats/deflector-stance-03"),
            ("HX-FEAT-06 back after the action", declarations, "perform", _feat_cancel_kept, "feats/sharpshooter-02"),
            ("HX-FEAT-08 feat pushing first", rules, "_after_action", _feat_pushing_after, "feats/forced-march-02"),
            ("HX-FEAT-08 feat pushing", feats, "pushing", lambda state, character: 0, "feats/forced-march-01"),
            ("HX-END-09 scored like its character", feats, "defeated", lambda state, character, shares: {},
             "feats/vp-01"),
            ("HX-END-09 still in the game", feats, "still_in_game", lambda state: {}, "feats/vp-02"),
            ("HX-END-10 the force's last character", feats, "defeated", lambda state, character, shares: {},
             "feats/vp-03"),
            ("HX-BFC-03 a die per copy", battlefield, "begin_turn", lambda state: _one_die_per_condition(state),
             "battlefield/healing-rain-02"),
            ("HX-BFC-04 after its force is gone", battlefield, "modifiers", lambda state: _only_standing_players(state),
             "battlefield/thick-fog-03"),
            ("HX-BFC-05 rule of 3", defenses, "RULE_OF_THREE", 4, "battlefield/thick-fog-02"),
        ]
    ),
)  # fmt: skip
def test_a_rule_taken_out_fails_its_scenario(rule, module, name, replacement, scenario, monkeypatch):
    fails_when_changed(rule, module, name, replacement, scenario, monkeypatch)


def _one_die_per_condition(state):
    """A mutant: several copies of one condition roll one die."""
    cards = state.cards
    if cards is None:
        return
    kept = cards.conditions
    cards.conditions = tuple({c.name: (p, c) for p, c in kept}.values())
    _real_begin_turn(state)
    cards.conditions = kept


def _only_standing_players(state):
    """A mutant: a condition leaves with its player's force."""
    cards = state.cards
    if cards is None:
        return []
    left = {c.controller for c in state.standing()}
    return [c.modifier for p, c in cards.conditions if c.modifier is not None and p in left]


_real_begin_turn = battlefield.begin_turn


def _scenario(**changes) -> Scenario:
    base = {
        "ruleset": "heroclix-2005",
        "name": "cards",
        "expect": {},
        "characters": [
            {"id": "A", "player": 1, "range": 6, "dial": ["8 9 16 2", "8 9 16 2", "7 8 15 2", "x"], "at": [0, 0]},
            {"id": "B", "player": 2, "dial": ["8 9 16 2", "8 9 16 2", "7 8 15 2", "x"], "at": [5, 0]},
        ],
    }  # fmt: skip
    return Scenario.model_validate(base | changes)


def test_a_wild_cards_declaration_that_makes_an_action_impossible_leaves_it_never_given():
    """HX-TEAM-08: player 2's wild card declares Night Shift (Stealth) after A's attack is declared: the attack
    through hindering terrain is now refused, nothing was spent, the wild card keeps Night Shift, and player 1
    gives another action instead."""
    scenario = _scenario(
        map={"rows": ["..h.....", "........"]},
        characters=[
            {"id": "A", "player": 1, "range": 6, "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [0, 0]},
            {"id": "W", "player": 2, "team": "Freelancers", "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [4, 0]},
            {"id": "N", "player": 2, "team": "Night Shift", "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [7, 1]},
        ],
    )  # fmt: skip
    state, ids = build_state(scenario)
    shot = Ranged(ids["A"], (ids["W"],))
    assert rules.why_not(state, shot) == ""
    rules.apply(state, declarations.Copy(ids["W"], "Night Shift"))
    assert "line of fire" in rules.why_not(state, shot)
    assert state.actions_left == 1 and state.cards.copying[ids["W"]] == "Night Shift"
    move = Move(ids["A"], (state.geometry.index(1, 1),))
    assert rules.why_not(state, move) == ""
    rules.apply(state, move)
    assert state.monsters[ids["A"]].tokens == 1


def test_feats_are_never_used_for_an_opponent_nor_without_powers():
    """HX-FEAT-04: a character controlled by another player (as by Mind Control) does not use its feat; HX-PAC-16
    OPEN: a character that cannot use powers during an action (Pulse Wave) uses no feat and no team ability."""
    scenario = _scenario(
        characters=[
            {"id": "A", "player": 1, "team": "Tidewatch", "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [0, 0]},
            {"id": "B", "player": 2, "dial": ["8 9 16 2", "8 9 16 2", "x"], "at": [5, 0]},
        ],
        feats=[{"feat": "Deflector Stance", "character": "A"}],
    )  # fmt: skip
    state, ids = build_state(scenario)
    a = state.monsters[ids["A"]]
    assert [card.feat.name for card in feats.in_use(state, a)] == ["Deflector Stance"]
    assert teams.ability(state, a) is not None
    state.powerless.add(a.uid)
    assert feats.in_use(state, a) == [] and teams.ability(state, a) is None
    state.powerless.clear()
    a.controller = 2
    assert feats.in_use(state, a) == []


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"battlefield": [{"condition": "Thick Fog", "player": 1}, {"condition": "Healing Rain", "player": 1}]},
         "player 1 brings two conditions"),
        ({"feats": [{"feat": "Sharpshooter", "characters": ["A", "A"]}]}, "never has two copies of Sharpshooter"),
        ({"feats": [{"feat": "Deflector Stance", "character": "A"}, {"feat": "Deflector Stance", "character": "A"}]},
         "never has two copies of Deflector Stance"),
        ({"feats": [{"feat": "Forced March", "character": "A"}]}, "does not carry the Iron Syndicate team symbol"),
        ({"feats": [{"feat": "Sharpshooter", "character": "B"}]}, "B has range 0, under 6"),
        ({"feats": [{"feat": "Sharpshootr", "character": "A"}]}, "did you mean 'Sharpshooter'"),
        ({"feats": [{"feat": "Close Formation", "character": "A"}]}, "chosen for no character"),
        ({"feats": [{"feat": "Sharpshooter", "characters": ["A", "B"]}]}, "characters of its own force"),
        ({"battlefield": [{"condition": "Thik Fog", "player": 1}]}, "did you mean 'Thick Fog'"),
    ],
)  # fmt: skip
def test_a_scenario_that_assigns_cards_against_the_rules_is_invalid(tmp_path, change, said):
    """HX-BFC-02 (one condition a player), HX-FEAT-02..04 (assignment, prerequisites on one click, no two copies)."""
    data = _scenario().model_dump(exclude_defaults=True) | change
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(InvalidFile) as refused:
        run_scenario(path)
    assert said in str(refused.value)


FORCE = {
    "ruleset": "heroclix-2005",
    "name": "Cards",
    "build_total": 100,
    "characters": ["syndicate-trooper-e", "syndicate-trooper-r", "syndicate-trooper-r"],
    "provenance": "test",
}


def _check(tmp_path, **changes) -> list[str]:
    """The problems of the sample library with one more force (in its own layer)."""
    folder = tmp_path / "extra"
    folder.mkdir(exist_ok=True)
    (folder / "cards.yaml").write_text(yaml.safe_dump(FORCE | changes, sort_keys=False), encoding="utf-8")
    _, problems = load_library([SAMPLE, folder])
    return [f"{p.file}:{p.line}: {p.field}: {p.message}" for p in problems]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"feats": [{"feat": "Forced March", "character": "syndicate-trooper-r"}]}, "no click of syndicate-trooper-r"),
        ({"feats": [{"feat": "Forced March", "character": "syndicate-trooper-e"},
                    {"feat": "Forced March", "character": "syndicate-trooper-e"}]}, "two copies of a feat"),
        ({"feats": [{"feat": "Forced March", "character": "syndicate-trooper-r#3"}]}, "no character 'syndicate-trooper-r#3'"),
        ({"feats": [{"feat": "Forced Marhc", "character": "syndicate-trooper-e"}]}, "did you mean 'Forced March'"),
        ({"feats": [{"feat": "Close Formation"}]}, "needs a character of the force that meets"),
        ({"feats": [{"feat": "Deflector Stance"}]}, "name 'character'"),
        ({"feats": [{"feat": "Deflector Stance", "characters": ["syndicate-trooper-e", "syndicate-trooper-r"]}]},
         "at most 1 character"),
        ({"build_total": 100, "characters": ["magnate-vex-u", "syndicate-trooper-e"],
          "feats": [{"feat": "Sharpshooter", "character": "magnate-vex-u"}]}, "characters and feats cost 102 points"),
        ({"battlefield_condition": "Thik Fog"}, "did you mean 'Thick Fog'"),
        ({"battlefield_condition": ["Thick Fog", "Healing Rain"]}, "one battlefield condition at most"),
        ({"characters": ["quickstep-e", "syndicate-trooper-e"],
          "feats": [{"feat": "Forced March", "character": "quickstep-e"}]}, "a wild card does not qualify"),
    ],
)  # fmt: skip
def test_building_a_force_with_feats_and_a_condition_reports_each_breach(tmp_path, changes, said):
    """HX-BUILD-05, -08, HX-FEAT-01..04, HX-TEAM-11: each breach one line naming the force's file."""
    problems = _check(tmp_path, **changes)
    assert len(problems) == 1 and "cards.yaml" in problems[0] and said in problems[0], problems


def test_a_legal_force_with_feats_loads_and_its_feats_count_toward_its_total(tmp_path):
    feat = [{"feat": "Forced March", "character": "syndicate-trooper-e"}]
    assert _check(tmp_path, feats=feat, battlefield_condition="Healing Rain") == []
    folder = tmp_path / "extra"
    library, _ = load_library([SAMPLE, folder])
    force = library.forces["cards"]
    assert card_checks.feat_points(library, force) == 5
    two = FORCE | {"characters": ["magnate-vex-u", "syndicate-trooper-r"]}
    two["feats"] = [{"feat": "Sharpshooter", "characters": ["magnate-vex-u"]}]
    assert _check(tmp_path, **two) == []  # 74 + 17 + 5 = 96


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data")
def test_setup_reveals_the_conditions_all_at_once_and_plays_with_feats_to_the_end():
    """HX-SETUP-04, HX-BFC-02: after the starting areas, before objects and characters are placed, one event names
    every condition brought; Paved Streets clears the map's hindering terrain before objects go down. A game of
    two sample forces with feats, team abilities and a condition plays to its end."""
    from clix.engine.heroclix.setup import new_game

    library, problems = load_library([SAMPLE])
    assert problems == []
    one = library.forces["iron-syndicate"]
    two = library.forces["heavy-hitters"].model_copy(update={"battlefield_condition": "Paved Streets"})
    layout = library.maps["harbor-district"]
    assert any("h" in row for row in layout.rows)
    state = new_game(library, [one, two], layout, np.random.default_rng(3), turn_limit=4)
    driver.play(state, [RandomAgent(np.random.default_rng([3, seat])) for seat in (1, 2)])
    assert state.over
    kinds = [e.kind for e in state.log]
    assert kinds.count(EventKind.CONDITIONS) == 1
    assert kinds.index(EventKind.FIRST_PLAYER) < kinds.index(EventKind.CONDITIONS) < kinds.index(EventKind.SETUP_DONE)
    revealed = next(e for e in state.log if e.kind == EventKind.CONDITIONS)
    assert dict(revealed.detail)["conditions"] == ((2, "Paved Streets"),)
    assert not any("h" in row for row in state.geometry.layout.rows)
    assert state.players[0].army_points == 198
    trooper = next(c for c in state.monsters if c.stats.id == "syndicate-trooper-e")
    assert [card.feat.name for card in state.cards.feats if trooper.uid in card.holders] == ["Forced March"]
    assert state.cards.symbols[trooper.uid] == "Iron Syndicate"


def test_a_team_ability_modifies_the_attack_of_legal_actions():
    """The engine's own players get the cards' modifiers too: an Iron Syndicate pair's close attack total."""
    scenario = _scenario(
        characters=[
            {"id": "I1", "player": 1, "team": "Iron Syndicate", "dial": ["8 9 16 2", "x"], "at": [0, 0]},
            {"id": "I2", "player": 1, "team": "Iron Syndicate", "dial": ["8 9 16 2", "x"], "at": [0, 1]},
            {"id": "B", "player": 2, "dial": ["8 9 17 2", "8 9 17 2", "8 9 17 2", "x"], "at": [1, 0]},
        ],
        dice=[3, 4],
    )  # fmt: skip
    state, ids = build_state(scenario)
    close = Close(ids["I1"], ids["B"])
    assert close in rules.legal_actions(state)
    rules.apply(state, close)
    attack = next(e for e in state.log if e.kind == EventKind.ATTACK)
    assert dict(attack.detail)["total"] == 17
