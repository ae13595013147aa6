"""Whole Horrified games (issue 40): 200 random games keep every invariant, a seed replays a game exactly, a paused
state copies and pickles as the core's contract says, the heuristic team plays through the core's driver, and
`clix selfcheck --ruleset horrified` runs."""

from __future__ import annotations

import pickle

import numpy as np
from clix.engine.core import decisions, driver
from clix.engine.core.dice import Dice, child_seed
from clix.engine.core.players import RandomAgent
from clix.engine.core.ruleset import ruleset_named
from clix.engine.horrified.invariants import check_game, violations
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.players import TeamPlayer
from clix.engine.horrified.rules import EndPhase, apply
from clix.engine.horrified.setup import new_game
from horrified_helpers import HIT, at, card, force, game, give, with_cards


def test_200_random_games_keep_every_invariant():
    """Random line-ups (1-2 monsters, 1-4 heroes), random players and the team: no invariant breaks, every game ends
    by a rule, and each way of ending happens."""
    results = [check_game((), k, child_seed(40, k), 0) for k in range(200)]
    assert [r.problems for r in results if r.problems] == []
    assert {r.end_reason for r in results} == {"terror", "out of time", "all monsters defeated"}
    assert all(r.turns <= 34 for r in results)  # 30 cards (HF-GOAL-03), one more hero phase, 3 skipping perks


def test_an_invariant_break_is_found():
    """The check can fail: an item in two places, terror past the skull with the game going on."""
    state = game()
    state.heroes[0].items.append(state.bag[0])
    state.terror = state.components.skull
    found = violations(state)
    assert any("items lost or doubled" in v for v in found)
    assert any("terror at the skull" in v for v in found)


def _played(seed: int) -> tuple[str, int]:
    state = new_game(
        components_at(), ["dracula", "invisible-man"], ["mayor", "scientist"], Dice(np.random.default_rng(seed))
    )
    agents = [TeamPlayer(np.random.default_rng([seed, k])) for k in range(2)]
    driver.play(state, agents)
    return "\n".join(map(str, state.log)), state.turn


def test_a_seed_replays_the_same_game():
    """One seeded numpy Generator per game (and one per player): the same seed gives the same log."""
    assert _played(5) == _played(5)
    assert _played(5) != _played(6)


def test_a_paused_state_copies_and_pickles():
    """The core's contract: a state waiting for a decision copies (and unpickles) to the same question, and the
    copies go on independently."""
    state = game()
    mayor = state.heroes[0]
    state.pieces[0].pos = mayor.pos
    give(state, 0, "red", 1)
    with_cards(state, card(state, ("dracula",)))
    force(state, HIT)
    apply(state, EndPhase())
    assert state.waiting is not None and state.waiting.kind == "defend"
    twin = state.copy()
    thawed = pickle.loads(pickle.dumps(state))
    for other in (twin, thawed):
        assert other.waiting is not None and other.waiting.options == state.waiting.options
    decisions.answer(twin, 0)
    assert twin.heroes[0].pos == -1 and twin.terror == 1
    decisions.answer(state, 1)
    assert state.heroes[0].pos == at(state, "theatre") and state.terror == 0
    decisions.answer(thawed, 1)
    assert thawed.heroes[0].items == [] and thawed.terror == 0


def test_the_team_beats_random_play_against_dracula():
    """The heuristic team wins far more often than random play (a weak but failing check that it plays to win)."""
    wins = {"team": 0, "random": 0}
    for seed in range(20):
        for style, make in (("team", TeamPlayer), ("random", RandomAgent)):
            state = new_game(components_at(), ["dracula"], ["mayor", "inspector"], Dice(np.random.default_rng(seed)))
            driver.play(state, [make(np.random.default_rng([seed, k])) for k in range(2)])
            wins[style] += state.winner == 1
    assert wins["team"] >= 15 and wins["random"] <= 5


def test_selfcheck_command_runs_horrified(capsys):
    """`clix selfcheck --ruleset horrified` plays random games through the registry and says how they ended."""
    from clix.analyzer.tools.selfcheck import check_ruleset_at

    outcome = check_ruleset_at("horrified", (), 3, 15, 0)
    assert outcome.problems == () and outcome.end_reason in {"terror", "out of time", "all monsters defeated"}
    assert ruleset_named("horrified").version.startswith("horrified/")


def test_matchup_commands_refuse_horrified_in_one_line(capsys):
    """A co-operative game has no army against army: ladder and value say so in one line (exit 2), no traceback."""
    from helpers import run_main

    for command in (
        ["ladder", "--ruleset", "horrified", "-n", "2", "--jobs", "1"],
        ["value", "--ruleset", "horrified"],
    ):
        code, out, err = run_main(command, capsys)
        assert code == 2
        assert err.strip().splitlines() == [
            "clix: error: horrified plays no army-against-army matchups; it is co-operative: `clix horrified` "
            "measures a line-up's win rate"
        ]
    code, out, _ = run_main(["selfcheck", "--ruleset", "horrified", "-n", "5", "--jobs", "1"], capsys)
    assert code == 0 and "5 games, 0 with problems" in out


def test_a_view_hides_the_order_of_what_lies_face_down():
    """A player chooses in a view that shows the bag, the monster deck and the perk deck, but not their order (a
    searching player must not read the next card); the pieces on the board are the game's own."""
    state = new_game(components_at(), ["dracula"], ["mayor", "inspector"], Dice(np.random.default_rng(3)))
    seen = state.view(1)
    assert seen.deck == sorted(state.deck) != state.deck
    assert seen.bag == sorted(state.bag) != state.bag
    assert seen.perk_deck == sorted(state.perk_deck)
    assert seen.heroes is state.heroes and seen.at is state.at and seen.terror == state.terror
