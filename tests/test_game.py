"""Whole games: a seeded game plays to its end, replays exactly from its seed, and keeps the invariants."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.dice import child_seed, child_seeds
from clix.engine.core.players import RandomAgent
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.game import play_game
from clix.engine.horrorclix.invariants import violations
from clix.engine.horrorclix.selfcheck import check_game

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"


def play(roster, seed: int, army_a: str = "butcher-shop", army_b: str = "firing-line", map_name: str = "graveyard"):
    armies = [roster.armies[army_a], roster.armies[army_b]]
    return play_game(roster, armies, roster.maps[map_name], [RandomAgent, RandomAgent], seed, turn_limit=10)


def test_a_seeded_game_plays_to_its_end(roster):
    """HC-END-01: the game ends (here by the turn limit or one side left), with a winner or a draw."""
    state = play(roster, 7)
    assert state.over and state.phase == "over"
    assert state.end_reason in ("turn limit", "one side left")
    assert state.log[-1].kind == "game_over"
    assert violations(state) == []


def test_same_seed_same_game_and_different_seed_different_game(roster):
    first = [str(e) for e in play(roster, 11).log]
    again = [str(e) for e in play(roster, 11).log]
    other = [str(e) for e in play(roster, 12).log]
    assert first == again
    assert first != other


@pytest.mark.parametrize("map_name", ["graveyard", "mansion"])
def test_two_hundred_point_armies_on_both_maps(roster, map_name):
    state = play(roster, 3, "crimson-court", "mildew-parish", map_name)
    assert state.over and violations(state) == []
    assert sum(1 for e in state.log if e.kind == "turn_start") >= 2


def test_random_games_keep_every_invariant():
    """A small conformance run (`clix selfcheck` runs thousands): random armies, both maps."""
    seeds = np.random.SeedSequence(2024).spawn(24)
    results = [check_game(LIBRARY, i, s, turn_limit=8) for i, s in enumerate(seeds)]
    assert [r.problems for r in results if r.problems] == []
    assert {r.end_reason for r in results} <= {"turn limit", "one side left"}
    assert all(r.actions > 0 for r in results)


def test_conformance_games_replay_identically():
    seed = np.random.SeedSequence(99).spawn(1)[0]
    assert check_game(LIBRARY, 1, seed, 8).log_digest == check_game(LIBRARY, 1, seed, 8).log_digest


def test_child_seed_is_the_kth_of_child_seeds():
    for master in (0, 7, np.random.SeedSequence(99)):
        many = child_seeds(master, 6)
        for k in (0, 3, 5):
            assert child_seed(master, k).generate_state(4).tolist() == many[k].generate_state(4).tolist()
        assert child_seed(master, 1).generate_state(4).tolist() != child_seed(master, 2).generate_state(4).tolist()


@pytest.mark.parametrize("army", ["crimson-court", "mildew-parish", "drowned-choir"])
def test_every_logged_event_has_a_named_kind(roster, army):
    """Issue 16 part 5: a HorrorClix game logs only the kinds `events.EventKind` names (a bare string is a typo
    waiting to happen in whoever reads the log)."""
    state = play(roster, 3, army, "butcher-shop", "mansion")
    kinds = {event.kind for event in state.log}
    assert {"turn_start", "action", "game_over"} <= kinds
    assert all(type(kind) is EventKind for kind in kinds), sorted(k for k in kinds if type(k) is not EventKind)
