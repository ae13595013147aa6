"""Horrified's search player (issue 40): legal games to the end, the same game from the same seed, blind to the
order of the face-down piles (the monster deck, HF-SETUP-01), reached by style name through the kit."""

from __future__ import annotations

import numpy as np
import pytest
from clix.engine.core.dice import Dice, child_seeds
from clix.engine.core.matchups import UnknownStyle
from clix.engine.core.pending import Decision
from clix.engine.core.ruleset import ruleset_named
from clix.engine.core.selfcheck import play_checked
from clix.engine.horrified.invariants import random_lineup, violations
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.search import SearchPlayer, evaluate, sampled_world
from clix.engine.horrified.setup import new_game

LINEUP = (["dracula", "invisible-man"], ["mayor", "archaeologist"])


def _kit():  # type: ignore[no-untyped-def]
    return ruleset_named("horrified").matchups()


def _checked(index: int, budget: int):  # type: ignore[no-untyped-def]
    """Game `index` (a random line-up, as the selfcheck draws it) by `search:budget` seats, invariants checked."""
    components = components_at()
    lineup_seed, dice_seed, *seat_seeds = child_seeds(np.random.SeedSequence([4040, index]), 6)
    monsters, heroes = random_lineup(components, np.random.default_rng(lineup_seed))
    agents = [SearchPlayer(np.random.default_rng(s), budget) for s in seat_seeds[: len(heroes)]]
    start = lambda: new_game(components, monsters, heroes, Dice(np.random.default_rng(dice_seed)))  # noqa: E731
    return play_checked(index, start, agents, violations)  # type: ignore[arg-type]


def test_search_plays_legal_games_to_their_end():
    """20 games of random line-ups (1-6 monsters, 1-4 heroes) by search:2 seats: no invariant breaks, each ends by
    a win, terror or the deck running out (HF-GOAL-01..03)."""
    results = [_checked(k, 2) for k in range(20)]
    assert [r.problems for r in results] == [()] * 20
    assert {r.end_reason for r in results} <= {"all monsters defeated", "terror", "out of time"}
    assert all(r.end_reason for r in results)


def test_the_same_seed_plays_the_same_game():
    """One Generator per seat, spawned from the game's seed: the same seed, the same game, move for move."""
    assert _checked(3, 3).log_digest == _checked(3, 3).log_digest
    kit = _kit()
    components = components_at()
    seed = np.random.SeedSequence(77)
    first = kit.play_game(components, *LINEUP, "search:3", seed)
    assert kit.play_game(components, *LINEUP, "search:3", seed) == first


def _start(order_seed: int):  # type: ignore[no-untyped-def]
    """The same game at its first decision, with the monster deck, item bag and perk deck lying in an order drawn
    from `order_seed` (what the players have seen is the same)."""
    state = new_game(components_at(), *LINEUP, Dice(np.random.default_rng(11)))
    rng = np.random.default_rng(order_seed)
    for pile in (state.deck, state.bag, state.perk_deck):
        pile[:] = [pile[k] for k in rng.permutation(len(pile))]
    return state


def test_the_search_does_not_read_the_hidden_deck_order():
    """Two different orders of the face-down piles, the same history: a search from the same seed searches the same
    worlds (drawn anew from the unseen cards), so it takes the same choice with the same values, on the state
    itself and on the player's view."""
    one, two = _start(1), _start(2)
    assert one.deck != two.deck and sorted(one.deck) == sorted(two.deck)
    options = one.ruleset.legal_actions(one)
    assert options == two.ruleset.legal_actions(two) and len(options) > 1
    decision = Decision("action", one.active, options)
    found = []
    for state in (one, two, one.view_for_choice(one.active), two.view_for_choice(two.active)):
        search = SearchPlayer(np.random.default_rng(5), budget=12)
        found.append((search.choose(state, decision), search.last))
    assert found[0][1] and all(f == found[0] for f in found)
    assert sampled_world(one, np.random.default_rng(9)).deck == sampled_world(two, np.random.default_rng(9)).deck


def test_the_evaluation_prefers_progress_and_fears_terror():
    """More terror (HF-GOAL-02) is worse, a coffin smashed (HF-M-DRA) better, a won game best, a lost one worst."""
    state = new_game(components_at(), *LINEUP, Dice(np.random.default_rng(3)))
    base = evaluate(state)
    scared = state.copy()
    scared.terror += 2
    assert evaluate(scared) < base
    smashed = state.copy()
    dracula = next(p for p in smashed.pieces if p.id == "dracula")
    dracula.coffins.pop()
    assert evaluate(smashed) > base
    won, lost = state.copy(), state.copy()
    won.over = lost.over = True
    won.winner = 1
    assert evaluate(won) > evaluate(smashed) and evaluate(lost) < evaluate(scared)


def test_the_kit_names_search_styles_and_refuses_bad_budgets():
    """`search` and `search:N` through the registry's kit (the import contract); a bad budget is one line."""
    kit = _kit()
    agent = kit.player_factory("search:7")(np.random.default_rng(0))
    assert isinstance(agent, SearchPlayer) and agent.budget == 7 and agent.name == "search:7"
    assert kit.player_factory("search")(np.random.default_rng(0)).budget == 96
    for bad in ("search:0", "search:x", "searchy"):
        with pytest.raises(UnknownStyle) as caught:
            kit.player_factory(bad)
        assert "\n" not in str(caught.value)


def test_a_small_search_is_cheap():
    """search:2 adds little to a game: 2 candidates of the team's at most, 1 playout each, a round (2 turns) long
    (a count of the playouts, not a time)."""
    counted = []

    class Counting(SearchPlayer):
        def playout(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            counted.append(1)
            return super().playout(*args, **kwargs)

    components = components_at()
    state = new_game(components, *LINEUP, Dice(np.random.default_rng(8)))
    agents = [Counting(np.random.default_rng(k), 2) for k in range(2)]
    result = play_checked(0, lambda: state, agents, violations)  # type: ignore[arg-type]
    assert result.problems == () and result.end_reason
    assert 0 < len(counted) <= 2 * result.actions
