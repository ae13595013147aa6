"""The search player's cheaper work (issue 38, part 4) keeps its decisions: each shortcut against what it replaced."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
from clix.analyzer.bench import against as bench_against
from clix.analyzer.bench.command import search_duel
from clix.analyzer.play.runner import Matchup, play_state
from clix.engine.horrorclix.players import lookahead
from clix.engine.horrorclix.players.search import SearchAgent
from clix.engine.horrorclix.state import GameState, Monster, Victim, VictimState

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"
GAMES = ("--games", "2", "--rounds", "1")


def test_the_weighted_draw_is_numpys_choice_draw_for_draw() -> None:
    """`_weighted_index` replaces `rng.choice(n, p=w / w.sum())` in the sampled worlds (HC-PLOT-01's hidden crypts)."""
    meta = np.random.default_rng(5)
    for _ in range(2000):
        weights = meta.integers(0, 3, size=int(meta.integers(2, 40))).astype(float)
        weights[int(meta.integers(len(weights)))] += 1  # never all zero
        seed = int(meta.integers(2**62))
        numpy_rng, ours = np.random.default_rng(seed), np.random.default_rng(seed)
        expected = [int(numpy_rng.choice(len(weights), p=weights / weights.sum())) for _ in range(3)]
        assert [lookahead._weighted_index(ours, list(weights)) for _ in range(3)] == expected
        assert numpy_rng.random() == ours.random()  # one uniform draw each, as numpy's


def test_a_playouts_generator_rolls_as_a_freshly_seeded_one_after_any_use() -> None:
    agent = SearchAgent(np.random.default_rng(0), budget=4)
    for seed in (11, 2**62 + 3, 11):
        rng = agent.playout_rng(seed)
        fresh = np.random.default_rng([seed, 1])
        assert list(rng.random(3)) == list(fresh.random(3))
        assert [int(rng.integers(1, 7)) for _ in range(20)] == [int(fresh.integers(1, 7)) for _ in range(20)]


def test_pieces_built_by_their_written_out_constructors_copy_and_pickle_as_before() -> None:
    victim = Victim(uid=3, label="V4", archetype="jock", speed=5, gender="male", pos=17, owner=2)
    assert (victim.face_up, victim.state, victim.by) == (False, VictimState.ON_MAP, None)
    assert victim.copy() == victim and victim.copy() is not victim
    assert pickle.loads(pickle.dumps(victim)) == victim
    state, _ = play_state(Matchup(LIBRARY, "butcher-shop", "firing-line", "graveyard", turn_limit=2), 1, 0)
    monster = state.monsters[0]
    assert isinstance(monster, Monster)
    twin = monster.copy()
    assert twin == monster and twin.victims is not monster.victims
    minion = Monster(1, "m", monster.stats, 1, 1, 5, 0, "start", 0, minion=True)
    assert (minion.minion, minion.alive, minion.victims, minion.flight, minion.puppet_of) == (True, True, [], 0, None)
    assert pickle.loads(pickle.dumps(state)) == state


def test_worlds_drawn_from_counted_unseen_cards_are_the_worlds_drawn_before() -> None:
    """The search counts the unseen cards once a decision (`SearchAgent.sampled_world`); the worlds are the same."""
    state, _ = play_state(Matchup(LIBRARY, "butcher-shop", "firing-line", "graveyard", turn_limit=4), 2, 0)
    view: GameState = state.view(1).copy_without_dice()
    agent = SearchAgent(np.random.default_rng(0), budget=4)
    for seed in range(6):
        alone = lookahead.sampled_world(view, 1, np.random.default_rng(seed))
        shared = agent.sampled_world(view, 1, np.random.default_rng(seed))
        assert [p.hidden_cards for p in shared.players] == [p.hidden_cards for p in alone.players]
    assert agent._pool_root is view and set(agent._pools) == {1}


def test_bench_names_the_search_duel_and_checks_its_style() -> None:
    assert search_duel("search:24") == ("butcher-shop", "firing-line", "graveyard", "horrorclix", "search:24", "tuned")
    assert bench_against.warm_up_games(search_duel()) == bench_against.SEARCH_WARM_UP_GAMES
    assert "(butcher-shop vs firing-line on graveyard, search vs tuned)" in bench_against.duel_text(search_duel())
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", "bench", "--against", str(ROOT), "--search", "tuned"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "--search tuned: not a search player's style" in done.stdout + done.stderr


def test_a_search_duel_against_itself_plays_the_same_games(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", "bench", "--against", str(ROOT), "--search", "search:2", *GAMES],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "search:2 vs tuned" in done.stdout and "same games: yes, outcome for outcome (2 games each)" in done.stdout
