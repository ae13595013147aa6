"""The HeroClix heuristic player (issue 36): its choices in small positions built as scenarios are, it plays whole
games in every style on both sample maps, replays from a seed, pickles, and is the HeroClix default."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.players import RandomAgent
from clix.engine.core.players.base import Decision
from clix.engine.heroclix import objects, rules
from clix.engine.heroclix.matchups import MATCHUPS
from clix.engine.heroclix.players.heuristic import STYLES, TUNED, HeuristicAgent
from clix.engine.heroclix.players.position import hit_chance
from clix.engine.heroclix.scenario import build_state
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.state import Close, EndTurn, Move, Ranged
from heroclix_checks import assert_replays

SAMPLE = Path(__file__).resolve().parent.parent / "rosters"
SEEDS = range(8)
WALL_OF_PLAIN = ["." * 12] * 12


def _position(characters: list[dict], rows: list[str] | None = None, build_total: int = 100):
    """A position as a scenario describes it (engine/heroclix/scenario.py), player 1 to act."""
    scenario = Scenario.model_validate(
        {
            "ruleset": "heroclix-2005",
            "name": "a position for the player",
            "build_total": build_total,
            "map": {"kind": "outdoor", "rows": rows or WALL_OF_PLAIN},
            "characters": characters,
            "expect": {},
        }
    )
    state, ids = build_state(scenario)
    return state, ids


def _choices(state, style: str = "tuned", seeds=SEEDS) -> list[object]:
    """What the player picks in `state` with each seed."""
    options = rules.legal_actions(state)
    decision = Decision("action", state.active, options)
    return [
        options[HeuristicAgent(np.random.default_rng(s), STYLES[style], style).choose(state, decision)] for s in seeds
    ]


def test_hit_chances_are_the_2d6_odds_without_the_criticals():
    """HX-COMBAT-02..04: a total of 2 always misses and 12 always hits (counted apart as the critical)."""
    assert hit_chance(0) == pytest.approx(34 / 36)  # 3..11: every roll but double 1 (2) and double 6 (12)
    assert hit_chance(7) == pytest.approx(20 / 36)  # 7..11
    assert hit_chance(12) == 0.0 and hit_chance(11) == pytest.approx(2 / 36)


def test_it_takes_the_lethal_attack_rather_than_moving():
    """HX-COMBAT-02, HX-END-05: an adjacent opponent one click from its KO is worth its points now; every seed
    attacks it (the player has room to move and a second opponent far off to approach)."""
    state, ids = _position(
        [
            {"id": "Hero", "player": 1, "dial": ["8 10 17 2", "8 9 16 2", "7 9 16 2", "x"], "points": 60, "at": [5, 5]},
            {"id": "Hurt", "player": 2, "dial": ["6 8 15 2", "x"], "points": 50, "at": [6, 5]},
            {"id": "Far", "player": 2, "dial": ["6 8 15 2", "6 8 15 2", "x"], "points": 50, "at": [11, 11]},
        ]
    )
    for choice in _choices(state):
        assert choice == Close(ids["Hero"], ids["Hurt"])


def test_it_prefers_the_target_worth_more():
    """HX-END-05: two opponents in range with the same defense and dial; the one built with more points is shot."""
    state, ids = _position(
        [
            {"id": "Sniper", "player": 1, "dial": ["6 10 17 2", "6 9 16 2", "x"], "range": 8, "points": 60,
             "at": [1, 5]},
            {"id": "Cheap", "player": 2, "dial": ["6 8 15 2", "6 8 15 2", "x"], "points": 20, "at": [6, 3]},
            {"id": "Dear", "player": 2, "dial": ["6 8 15 2", "6 8 15 2", "x"], "points": 90, "at": [6, 7]},
        ]
    )  # fmt: skip
    for choice in _choices(state):
        assert choice == Ranged(ids["Sniper"], (ids["Dear"],))


def test_it_does_not_push_a_character_on_its_last_click_for_a_small_gain():
    """HX-TURN-11, -14, HX-END-08: a second token would click it to its KO (the opponents score it); an attack (a
    hit about as likely as not, one click of a three-click dial) gains far less than that, so it ends the turn rather
    than act with that character; priced without the push (weight 0) it would act."""
    state, _ = _position(
        [
            {"id": "Spent", "player": 1, "dial": ["6 7 16 2", "6 6 15 1", "x"], "click": 1, "tokens": 1, "points": 70,
             "at": [5, 5]},
            {"id": "Wall", "player": 2, "dial": ["6 8 15 2", "6 8 15 2", "6 8 15 2", "x"], "points": 50, "at": [6, 5]},
        ]
    )  # fmt: skip
    for choice in _choices(state):
        assert isinstance(choice, EndTurn)


def test_it_approaches_when_nothing_can_be_attacked():
    """HX-MOVE-01, HX-COMBAT-07: out of reach of every opponent, it moves toward them rather than end the turn."""
    state, ids = _position(
        [
            {"id": "Brawler", "player": 1, "dial": ["8 10 17 3", "8 9 16 2", "x"], "points": 60, "at": [0, 0]},
            {"id": "Target", "player": 2, "dial": ["5 8 15 2", "5 8 15 2", "x"], "points": 50, "at": [11, 11]},
        ]
    )
    geo = state.geometry
    start = geo.distance(state.monsters[ids["Brawler"]].pos, state.monsters[ids["Target"]].pos)
    for choice in _choices(state):
        assert isinstance(choice, Move) and choice.path
        assert geo.distance(choice.path[-1], state.monsters[ids["Target"]].pos) <= start - 6


def test_a_cautious_player_keeps_out_of_a_shooters_range():
    """HX-COMBAT-15: a shooter that cannot be reached this turn; `cautious` ends its approach outside the
    shooter's range (its threat next turn), where `brawler` walks into it."""
    state, ids = _position(
        [
            {"id": "Walker", "player": 1, "dial": ["8 8 16 2", "8 8 16 2", "8 8 16 2", "x"], "points": 50,
             "at": [0, 5]},
            {"id": "Gunner", "player": 2, "dial": ["4 7 17 1", "4 7 17 1", "x"], "range": 6, "points": 60,
             "at": [11, 5]},
        ]
    )  # fmt: skip
    gunner = state.monsters[ids["Gunner"]].pos
    geo = state.geometry
    for choice in _choices(state, "cautious"):
        assert not isinstance(choice, Move) or geo.distance(choice.path[-1], gunner) > 6
    assert any(isinstance(c, Move) and geo.distance(c.path[-1], gunner) <= 6 for c in _choices(state, "brawler"))


def _game(styles: tuple[str, str], map_name: str, seed: int, turns: int = 8):
    library = MATCHUPS.library((SAMPLE,))
    factories = [MATCHUPS.player_factory(s) for s in styles]
    state, agents = MATCHUPS.start(library, ["dawn-patrol", "night-shift"], {}, map_name, factories, seed, turns, True)
    return MATCHUPS.play(state, agents)


@pytest.mark.skipif(not (SAMPLE / "heroclix").exists(), reason="no HeroClix sample data")
@pytest.mark.parametrize("map_name", ["chemical-plant", "harbor-district"])
def test_every_style_plays_whole_games_on_both_sample_maps(map_name):
    """HX-END-01, -14: each heuristic style against the next plays to the end on each sample map, attacking."""
    styles = [s for s in MATCHUPS.styles if s != "random"]
    for index, style in enumerate(styles):
        state = _game((style, styles[(index + 1) % len(styles)]), map_name, seed=11 + index)
        assert state.over and state.end_reason
        assert any(e.kind.name == "ATTACK" for e in state.log)


@pytest.mark.skipif(not (SAMPLE / "heroclix").exists(), reason="no HeroClix sample data")
def test_a_game_replays_identically_from_its_seed():
    """Every choice comes from the player's own seeded generator: the same seed, the same game, event for event."""
    assert_replays(lambda: _game(("tuned", "brawler"), "harbor-district", seed=5))


def test_the_player_pickles_with_its_generator_and_weights():
    """joblib workers get players by pickle: the copy holds the same weights and draws the same stream."""
    agent = HeuristicAgent(np.random.default_rng(3), STYLES["cautious"], "cautious")
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.weights == agent.weights and copy.name == "cautious"
    assert copy.rng.random() == agent.rng.random()
    assert pickle.loads(pickle.dumps(TUNED)) == TUNED


def test_the_matchup_kit_offers_the_styles_with_tuned_the_default():
    assert MATCHUPS.styles == ("tuned", "balanced", "brawler", "cautious", "random")
    assert MATCHUPS.default_style == "tuned"
    assert MATCHUPS.player_factory("random") is RandomAgent
    agent = MATCHUPS.player_factory("brawler")(np.random.default_rng(1))
    assert isinstance(agent, HeuristicAgent) and agent.weights == STYLES["brawler"]
    assert MATCHUPS.style_weights("tuned") == {k: v for k, v in vars(TUNED).items()}
    assert MATCHUPS.style_weights("random") is None
    assert STYLES["brawler"].close > TUNED.close and STYLES["cautious"].threat > TUNED.threat


def test_an_unknown_decision_is_answered_from_the_players_own_generator():
    """A decision kind the player has no opinion on: a valid option drawn with its generator, never a crash."""
    state, _ = _position([{"id": "A", "player": 1, "dial": ["6 8 15 2", "x"], "at": [1, 1]},
                          {"id": "B", "player": 2, "dial": ["6 8 15 2", "x"], "at": [9, 9]}])  # fmt: skip
    agent = HeuristicAgent(np.random.default_rng(0))
    picks = {agent.choose(state, Decision("something new", 1, ["a", "b", "c"])) for _ in range(30)}
    assert picks <= {0, 1, 2} and len(picks) > 1


@pytest.mark.skipif(not (SAMPLE / "heroclix").exists(), reason="no HeroClix sample data")
def test_a_duel_sweeps_the_heroclix_styles(tmp_path, capsys, monkeypatch):
    """`clix duel A B --players sweep` on two HeroClix forces: every pairing of the four heuristic styles."""
    from helpers import run_main

    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(
        ["duel", "dawn-patrol", "night-shift", "--players", "sweep", "--games", "2", "--turns", "2", "--jobs", "1",
         "--rosters", str(SAMPLE / "heroclix"), "--out", "sweep", "--json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    cells = json.loads(out)["cells"]
    styles = {"tuned", "balanced", "brawler", "cautious"}
    assert {(c["style_a"], c["style_b"]) for c in cells} == {(a, b) for a in styles for b in styles}


def test_a_player_sees_the_map_as_it_is_now():
    """HX-OBJECT-08, -09: an object laid, thrown or moved changes the map (the state's geometry is replaced); the
    view a player chooses in shows the map as it is now, so the objects it lists and the player's reading agree
    (a stale view once listed a Telekinesis hurl of an object no longer there, and the search's playout crashed)."""
    state, _ = _position(
        [
            {"id": "Hero", "player": 1, "dial": ["8 10 17 2", "x"], "points": 60, "at": [5, 5]},
            {"id": "Foe", "player": 2, "dial": ["6 8 15 2", "x"], "points": 50, "at": [9, 9]},
        ]
    )
    before = state.view_for_choice(1)
    assert before.geometry is state.geometry
    objects.lay(state, "light", state.geometry.index(6, 5))
    after = state.view_for_choice(1)
    assert after.geometry is state.geometry
    assert objects.lying_at(after, after.geometry.index(6, 5)) == "light"
