"""The HeroClix search player (issue 36): it plays whole games on both sample maps, replays from a seed, pickles,
takes a lethal attack where its prior would, and `search:N` is a HeroClix player style with one-line errors."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.matchups import UnknownStyle
from clix.engine.core.players.base import Decision
from clix.engine.heroclix import rules
from clix.engine.heroclix.matchups import MATCHUPS
from clix.engine.heroclix.players.heuristic import TUNED, HeuristicAgent
from clix.engine.heroclix.players.position import Context
from clix.engine.heroclix.players.search import WIN, Evaluation, SearchAgent, evaluate, live_worth
from clix.engine.heroclix.scenario import build_state
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.state import Close, EndTurn, Move
from helpers import run_main
from heroclix_checks import assert_replays

SAMPLE = Path(__file__).resolve().parent.parent / "rosters"
HAS_SAMPLE = (SAMPLE / "heroclix").exists()
SEEDS = (0, 1, 2)


def _position(characters: list[dict]):
    """A position as a scenario describes it (engine/heroclix/scenario.py), player 1 to act."""
    scenario = Scenario.model_validate(
        {
            "ruleset": "heroclix-2005",
            "name": "a position for the search player",
            "build_total": 100,
            "map": {"kind": "outdoor", "rows": ["." * 12] * 12},
            "characters": characters,
            "expect": {},
        }
    )
    return build_state(scenario)


def _lethal():
    """Hero stands next to Hurt, one click from its KO (HX-DAMAGE-06), with a second opponent far off."""
    return _position(
        [
            {"id": "Hero", "player": 1, "dial": ["8 10 17 2", "8 9 16 2", "7 9 16 2", "x"], "points": 60, "at": [5, 5]},
            {"id": "Hurt", "player": 2, "dial": ["6 8 15 2", "x"], "points": 50, "at": [6, 5]},
            {"id": "Far", "player": 2, "dial": ["6 8 15 2", "6 8 15 2", "x"], "points": 50, "at": [11, 11]},
        ]
    )


def test_it_takes_the_lethal_attack_its_prior_takes():
    """HX-COMBAT-02, HX-END-05: the KO is worth the target's points; the prior attacks and so does the search,
    whose playouts see the points scored."""
    state, ids = _lethal()
    decision = Decision("action", state.active, rules.legal_actions(state))
    prior = decision.options[HeuristicAgent(np.random.default_rng(0), TUNED).choose(state, decision)]
    assert prior == Close(ids["Hero"], ids["Hurt"])
    before = [str(e) for e in state.log]
    for seed in SEEDS:
        agent = SearchAgent(np.random.default_rng(seed), budget=12)
        assert decision.options[agent.choose(state, decision)] == Close(ids["Hero"], ids["Hurt"]), agent.last
        assert len(agent.last) > 1  # searched, not just the prior's answer
    assert [str(e) for e in state.log] == before  # the position searched is left as it was


def test_the_evaluation_counts_damage_at_points_per_click_and_a_win():
    """HX-END-05, -07: a character's live worth falls by its points per click with each click of damage; a
    finished game is its margin plus the win."""
    state, ids = _lethal()
    hurt, hero = state.monsters[ids["Hurt"]], state.monsters[ids["Hero"]]
    assert live_worth(hurt) == pytest.approx(50.0) and live_worth(hero) == pytest.approx(60.0)
    level = evaluate(state, 1, Evaluation(threat=0.0, pressure=0.0))
    assert level == pytest.approx(60.0 - 50 - 50)
    assert evaluate(state, 2, Evaluation(threat=0.0, pressure=0.0)) == pytest.approx(-level)
    hero.click = 1
    assert live_worth(hero) == pytest.approx(40.0)  # 3 live clicks for 60 points: 20 a click
    state.over, state.winner, state.points = True, 2, {1: 0.0, 2: 60.0}
    assert evaluate(state, 1, Evaluation()) == pytest.approx(-60.0 - WIN)


def test_the_turn_terms_count_the_next_turns_attacks_by_the_side_to_act():
    """`Evaluation.terms` "turn" (HX-TURN-02): the side to act next counts its best attacks at `now`, the other
    side's at `later`; my attacks are my characters' pressure, theirs the threat on my most threatened one."""
    state, ids = _lethal()
    turn = Evaluation(terms="turn", now=1.0, later=0.25)
    ctx = Context(state, 1, TUNED)
    press = ctx.hunt * ctx.pressure(state.monsters[ids["Hero"]], state.monsters[ids["Hero"]].pos)
    threat = ctx.caution * ctx.threat(state.monsters[ids["Hero"]], state.monsters[ids["Hero"]].pos)
    assert press > 0 and threat > 0  # Hero and Hurt stand next to each other
    material = evaluate(state, 1, Evaluation(threat=0.0, pressure=0.0))
    assert state.active == 1
    mine = evaluate(state, 1, turn)
    assert mine == pytest.approx(material + press - 0.25 * threat)
    state.active = 2
    assert evaluate(state, 1, turn) == pytest.approx(material + 0.25 * press - threat)
    assert evaluate(state, 1, Evaluation()) == evaluate(state, 1, Evaluation(now=5.0, later=5.0))  # "every": unused


def test_per_kind_searches_the_best_of_each_kind_of_action_first():
    """`Evaluation.per_kind`: one character's moves no longer fill the candidates; the prior's best stays first."""
    moves = [Move(1, (k,)) for k in range(10, 17)]
    options = [*moves, Close(1, 2), Move(3, (40,)), EndTurn()]
    scores = [10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 1.0, 0.0]
    decision = Decision("action", 1, options)
    plain = SearchAgent(np.random.default_rng(0), budget=12)
    assert plain.shortlist(decision, scores, 6) == [0, 1, 2, 3, 4, 5]
    kinds = SearchAgent(np.random.default_rng(0), budget=12, evaluation=Evaluation(per_kind=True))
    assert kinds.shortlist(decision, scores, 6) == [0, 1, 2, 7, 8, 9]
    assert kinds.shortlist(decision, scores, 2) == [0, 7]


def test_a_playout_stops_after_the_turns_it_is_given():
    """`Evaluation.turns`: a playout plays until that many more turns have begun (default: the horizon's two)."""
    state, _ = _lethal()
    reached: list[int] = []

    class Probe(SearchAgent):
        def evaluate(self, state, player):
            reached.append(state.turn)
            return 0.0

    for turns, expected in ((None, 2), (3, 3)):
        probe = Probe(np.random.default_rng(0), budget=4, evaluation=Evaluation(turns=turns))
        probe.playout(state.copy_without_dice(), None, 1, seed=7)
        assert reached[-1] == state.turn + expected


def _game(styles: tuple[str, str], map_name: str, seed: int, turns: int = 2):
    library = MATCHUPS.library((SAMPLE,))
    factories = [MATCHUPS.player_factory(s) for s in styles]
    state, agents = MATCHUPS.start(library, ["dawn-patrol", "night-shift"], {}, map_name, factories, seed, turns, True)
    return MATCHUPS.play(state, agents)


@pytest.mark.skipif(not HAS_SAMPLE, reason="no HeroClix sample data")
@pytest.mark.parametrize("map_name", ["chemical-plant", "harbor-district"])
def test_it_plays_whole_games_on_both_sample_maps(map_name):
    """HX-END-01, -14: a search player against tuned plays to the end on each sample map (a short game)."""
    state = _game(("search:3", "tuned"), map_name, seed=21, turns=3)
    assert state.over and state.end_reason
    assert any(e.kind.name in ("MOVE", "ATTACK") and e.player == 1 for e in state.log)


@pytest.mark.skipif(not HAS_SAMPLE, reason="no HeroClix sample data")
def test_a_search_game_replays_identically_from_its_seed():
    """Every choice and every playout's dice come from the player's own seeded generator."""
    assert_replays(lambda: _game(("tuned", "search:3"), "harbor-district", seed=5))


def test_the_search_player_pickles_with_its_settings_and_generator():
    """joblib workers get players by pickle: the copy searches with the same budget and draws the same stream."""
    agent = MATCHUPS.player_factory("search:7")(np.random.default_rng(3))
    copy = pickle.loads(pickle.dumps(agent))
    assert isinstance(copy, SearchAgent) and copy.budget == 7 and copy.name == "search:7"
    assert copy.weights == TUNED and copy.evaluation == agent.evaluation
    assert copy.rng.random() == agent.rng.random()
    state, _ = _lethal()
    decision = Decision("action", state.active, rules.legal_actions(state))
    again = pickle.loads(pickle.dumps(agent))
    assert again.choose(state, decision) == agent.choose(state, decision) and again.last == agent.last


def test_search_styles_are_named_with_a_budget_but_not_listed():
    agent = MATCHUPS.player_factory("search:50")(np.random.default_rng(0))
    assert isinstance(agent, SearchAgent) and agent.budget == 50
    assert MATCHUPS.player_factory("search")(np.random.default_rng(0)).budget > 0
    assert not any(s.startswith("search") for s in MATCHUPS.styles)  # the styles are the fast ones
    for bad in ("search:0", "search:x", "search:", "search:-3"):
        with pytest.raises(UnknownStyle, match="search budget"):
            MATCHUPS.player_factory(bad)


@pytest.mark.skipif(not HAS_SAMPLE, reason="no HeroClix sample data")
@pytest.mark.parametrize("bad", ["search:0", "search:many"])
def test_a_bad_budget_is_a_one_line_error(tmp_path, capsys, bad):
    args = ["duel", "dawn-patrol", "night-shift", "--players", f"{bad},tuned", "--games", "2", "--turns", "1"]
    code, _, err = run_main([*args, "--jobs", "1", "--out", str(tmp_path / "x")], capsys)
    assert code == 2
    assert err.strip().startswith("clix: error:") and "search budget" in err
    assert len(err.strip().splitlines()) == 1, err
