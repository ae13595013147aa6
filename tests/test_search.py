"""The search player (issue 17): it finds the known best line where the heuristic does not, replays from its
seed, never reads a hidden crypt, and `search:N` works wherever a player style is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clix.analyzer.common.errors import ClixError
from clix.analyzer.duel.check import favoured
from clix.analyzer.play.runner import Matchup, play_state, player_factory
from clix.engine.core.players.base import Decision
from clix.engine.horrorclix import plots, rules
from clix.engine.horrorclix.actions import Close
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.players.heuristic import TUNED, HeuristicAgent
from clix.engine.horrorclix.players.lookahead import sampled_world
from clix.engine.horrorclix.players.search import SearchAgent
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.scenario import Scenario, build_state
from clix.engine.horrorclix.state import HIDDEN_CARD, GameState
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (0, 1, 2)


@pytest.fixture(scope="module")
def library() -> Roster:
    return roster_at(ROOT / "rosters" / "horrorclix")


def _position(roster: Roster, **spec: Any) -> tuple[GameState, dict[str, int]]:
    scenario = Scenario.model_validate({"name": "search position", "expect": {}, **spec})
    state, monsters, _ = build_state(scenario, roster)
    return state, monsters


def _last_turn_kill(roster: Roster, crypt: list[str] | None = None) -> tuple[GameState, dict[str, int]]:
    """The game's last turn, player 1 behind by 8 VP with one action: A can kill X (10 points, hit on anything
    but a double 1) and win, or attack Y (100 points, hit on 10+), a kill worth more on average that wins
    only one time in six."""
    state, ids = _position(
        roster,
        turn=10,
        turn_limit=5,
        crypts={2: crypt} if crypt else {},
        monsters=[
            {"id": "A", "player": 1, "dial": ["6 12 16 3", "6 12 16 3", "x"], "at": [5, 5], "points": 50},
            {"id": "X", "player": 2, "dial": ["6 9 10 1", "x"], "at": [6, 5], "points": 10},
            {"id": "Y", "player": 2, "dial": ["6 9 22 1", "x"], "at": [4, 5], "points": 100},
        ],
    )
    state.vp[1]["victims"], state.vp[2]["victims"] = 10, 18
    return state, ids


def _action(state: GameState) -> Decision:
    return Decision("action", state.active, rules.legal_actions(state))


def test_search_takes_the_kill_that_wins_where_the_heuristic_goes_for_points(library: Roster) -> None:
    state, ids = _last_turn_kill(library)
    decision = _action(state)
    view = state.view(1)
    heuristic = decision.options[HeuristicAgent(np.random.default_rng(0), TUNED).choose(view, decision)]
    assert heuristic == Close(ids["A"], ids["Y"])  # the bigger expected kill, which rarely wins
    for seed in SEEDS:
        agent = SearchAgent(np.random.default_rng(seed), budget=24)
        chosen = decision.options[agent.choose(view, decision)]
        assert chosen == Close(ids["A"], ids["X"]), agent.last
        assert max(agent.last.values()) > 50  # the playouts see the game won


def _slaying_to_come(roster: Roster) -> tuple[GameState, Decision]:
    """Player 2's turn, one action left: Z's attack just hit player 1's A (a plot twist may reroll it), and
    Y stands next to the last victim, which its next action slays unless player 1 stops it with the same card."""
    state, ids = _position(
        roster,
        turn=4,
        build_total=200,
        active_player=2,
        crypts={1: ["Stuck Door"]},
        monsters=[
            {"id": "A", "player": 1, "dial": ["6 9 16 1"] * 4 + ["x"], "at": [1, 1], "points": 50},
            {"id": "Z", "player": 2, "dial": ["6 9 16 1"] * 4 + ["x"], "at": [2, 1], "points": 20, "tokens": 1},
            {"id": "Y", "player": 2, "dial": ["6 9 16 2", "6 9 16 2", "x"], "at": [8, 8], "points": 50},
        ],
        victims=[{"id": "V", "archetype": "Jock", "speed": 4, "at": [9, 8]}],
    )
    state.actions_left = 1
    state.monsters[ids["Z"]].acted = True
    window = plots.Window(
        "attack_roll", attacker=state.monsters[ids["Z"]], targets=(state.monsters[ids["A"]],), dice=(5, 4)
    )
    options = [None, *plots.window_plays(state, window, 1)]
    return state, Decision(plots.PLAY, 1, options, window.name, window)


def test_search_holds_the_plot_twist_for_the_slaying_it_stops(library: Roster) -> None:
    state, decision = _slaying_to_come(library)
    assert [type(o).__name__ for o in decision.options] == ["NoneType", "PlayCard"]
    view = state.view(1)
    assert HeuristicAgent(np.random.default_rng(0), TUNED).choose(view, decision) == 1  # rerolls the hit
    for seed in SEEDS:
        agent = SearchAgent(np.random.default_rng(seed), budget=24)
        assert agent.choose(view, decision) == 0, agent.last  # keeps Stuck Door for Y's slaying
        assert agent.last[0] > agent.last[1]


def test_two_states_differing_only_in_the_hidden_crypt_get_the_same_decisions(library: Roster) -> None:
    """Even handed the full states (not views), the search never reads the other player's card names."""
    one, _ = _last_turn_kill(library, ["Stuck Door", "Trip"])
    other, _ = _last_turn_kill(library, ["Cold Spot", "Bad Luck"])
    for seed in (*SEEDS, 3, 4):
        first = SearchAgent(np.random.default_rng(seed), budget=12)
        second = SearchAgent(np.random.default_rng(seed), budget=12)
        assert first.choose(one, _action(one)) == second.choose(other, _action(other))
        assert first.last == second.last  # every playout the same: the same worlds were sampled
    # a sampled world draws the hidden cards whatever they are called, only their number is read
    for state in (one, other, one.view(1)):
        world = sampled_world(state, 1, np.random.default_rng(7))
        assert (
            world.player(2).hidden_cards
            == sampled_world(one.view(1), 1, np.random.default_rng(7)).player(2).hidden_cards
        )
        assert len(world.player(2).hidden_cards) == 2 and HIDDEN_CARD not in world.player(2).hidden_cards
    assert one.player(2).hidden_cards == ["Stuck Door", "Trip"]  # the state searched is left as it was


def test_sampled_cards_leave_out_my_crypt_and_the_cards_played(library: Roster) -> None:
    state, _ = _last_turn_kill(library, ["Trip", "Trip"])
    state.player(1).hidden_cards = ["Watch Out!"]
    state.emit("plot_twist", card="Stuck Door", player=2, window="slaying")
    drawn = set()
    for seed in range(40):
        drawn.update(sampled_world(state.view(1), 1, np.random.default_rng(seed)).player(2).hidden_cards)
    assert "Watch Out!" not in drawn and "Stuck Door" not in drawn
    assert len(drawn) > 10  # drawn from the rest of the game's cards


def test_a_search_game_replays_from_its_seed(library: Roster) -> None:
    matchup = Matchup(
        ROOT / "rosters" / "horrorclix", "butcher-shop", "firing-line", "graveyard", "search:3", "tuned", turn_limit=3
    )
    first, _ = play_state(matchup, 5, 0)
    again, _ = play_state(matchup, 5, 0)
    assert [str(e) for e in first.log] == [str(e) for e in again.log]
    other, _ = play_state(matchup, 6, 0)
    assert [str(e) for e in other.log] != [str(e) for e in first.log]


def test_search_styles_are_named_with_a_budget() -> None:
    agent = player_factory("search:50")(np.random.default_rng(0))
    assert isinstance(agent, SearchAgent) and agent.budget == 50 and agent.name == "search:50"
    assert player_factory("search")(np.random.default_rng(0)).budget > 0
    for bad in ("search:0", "search:x", "search:", "search:-3"):
        with pytest.raises(ClixError, match="search budget"):
            player_factory(bad)


def test_favoured_side_of_a_score() -> None:
    assert favoured({"score": 0.7, "low": 0.6, "high": 0.8}) == "a"
    assert favoured({"score": 0.3, "low": 0.2, "high": 0.4}) == "b"
    assert favoured({"score": 0.55, "low": 0.45, "high": 0.65}) == "none"
    assert favoured({"score": None, "low": None, "high": None}) == "none"


def test_duel_check_with_search_reports_both_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # its games go to the project's store, tmp_path/clix-out/clix.duckdb
    args = ["duel", "butcher-shop", "firing-line", "--games", "2", "--turns", "2", "--jobs", "1"]
    code, out, err = run_main([*args, "--out", str(tmp_path / "a"), "--check-with", "search:2"], capsys)
    assert code == 0, err
    assert "check with search:2 on both sides (2 games)" in out
    assert "Checked with a stronger player" in (tmp_path / "a" / "report.html").read_text(encoding="utf-8")
    code, out, err = run_main([*args, "--out", str(tmp_path / "b"), "--check-with", "search:none"], capsys)
    assert code == 2 and err.strip().startswith("clix: error: --check-with: 'search:none'")
    code, out, err = run_main([*args, "--players", "sweep", "--check-with", "search:2"], capsys)
    assert code == 2 and "--check-with: --players sweep" in err


def test_ladder_accepts_search_budgets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ladder", "--players", "tuned,search:2,search:1", "--armies", "butcher-shop", "--maps", "graveyard"]
    code, out, err = run_main([*args, "--games", "2", "--turns", "2", "--jobs", "1", "--out", str(tmp_path)], capsys)
    assert code == 0, err
    assert "skill trace (search by budget): search:2 vs search:1" in out
    assert "Skill trace" in (tmp_path / "ladder.html").read_text(encoding="utf-8")
    code, out, err = run_main([*args[:2], "tuned,search:many", "--out", str(tmp_path / "b")], capsys)
    assert code == 2 and "search budget" in err
