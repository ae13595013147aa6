"""The heuristic scores some options in bulk from facts it reads once per decision: a space's threat must be
what the enemies that reach it can take, a distance what counting spaces gives, and a bulk score what the
option is worth on its own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.players import Decision
from clix.engine.horrorclix import rules
from clix.engine.horrorclix.actions import ChooseVictim
from clix.engine.horrorclix.armybuilder import random_army
from clix.engine.horrorclix.game import settle
from clix.engine.horrorclix.players import heuristic as heuristic_module
from clix.engine.horrorclix.players.heuristic import HeuristicAgent, _Context
from clix.engine.horrorclix.setup import new_game

ROOT = Path(__file__).resolve().parent.parent


def _play(roster, game: int, look) -> int:  # type: ignore[no-untyped-def]
    """Play one heuristic game, calling `look(state, agent, decision)` before each decision; the count."""
    rng = np.random.default_rng(300 + game)
    armies = [random_army(roster, 100, rng) for _ in range(2)]
    agents = [
        HeuristicAgent(np.random.default_rng(game + k), name=name) for k, name in enumerate(("balanced", "hunter"))
    ]
    state = new_game(roster, armies, roster.maps[sorted(roster.maps)[game % 2]], rng, turn_limit=6)
    settle(state, agents)
    looked = 0
    while not state.over:
        options = rules.legal_actions(state)
        decision = Decision("action", state.active, options)
        agent = agents[state.active - 1]
        look(state, agent, decision)
        looked += 1
        rules.apply(state, options[agent.choose(state, decision)], listed=True)
        settle(state, agents)
    return looked


@pytest.mark.parametrize("game", range(3))
def test_threat_is_the_expected_damage_of_the_enemies_that_reach(roster, game):
    """A space's threat sums, over the enemies able to act next turn whose move-and-attack reach covers it
    (spaces counted as in HC-MOVE-03), the chance to hit times the clicks dealt (at half a click's share of
    the points) and, when the hit would kill, all the points (HC-END-04)."""
    compared = []

    def look(state, agent, decision):  # type: ignore[no-untyped-def]
        ctx = _Context(state, decision.player)
        geo = state.geometry
        for monster in ctx.mine:
            per_click = monster.stats.points / max(1, monster.stats.clicks - 1)
            left = heuristic_module.live_clicks_left(monster)
            for pos in range(0, geo.size, 7):
                expected = 0.0
                for enemy in ctx.enemies:
                    if enemy.tokens >= 2 or enemy.incapable:
                        continue  # a vulnerable or incapable enemy cannot act next turn
                    reach = max(1 if enemy.immovable else enemy.speed + 1, enemy.stats.range)
                    if geo.distance(enemy.pos, pos) <= reach:
                        chance = heuristic_module.hit_chance(monster.defense - enemy.attack)
                        kill = monster.stats.points if enemy.damage >= left else 0.0
                        expected += chance * (min(left, enemy.damage) * per_click * 0.5 + kill)
                assert ctx.threat(monster, pos) == pytest.approx(expected / max(1, len(state.players) - 1))
                compared.append(expected)

    assert _play(roster, game, look) > 20
    assert max(compared) > 0 and min(compared) == 0  # some spaces under threat, some out of reach


def test_victim_choices_scored_together_are_worth_what_each_is_alone(roster):
    scored = 0

    def look(state, agent, decision):  # type: ignore[no-untyped-def]
        nonlocal scored
        choices = [(k, o) for k, o in enumerate(decision.options) if isinstance(o, ChooseVictim)]
        if not choices:
            return
        together = agent._score_action(state, decision)
        ctx = _Context(state, decision.player)
        for k, option in choices:
            pos = state.victims[option.victim].pos
            nearer_to_enemy = ctx.enemy_spots.nearest(pos) < ctx.my_spots.nearest(pos)
            assert together[k] == pytest.approx(agent.weights.victims * 0.2 * nearer_to_enemy)
            scored += 1

    _play(roster, 1, look)
    assert scored > 10


def test_nearest_counts_spaces_diagonals_included(roster):
    """Distances to the nearest piece count spaces in any direction (HC-MOVE-03); none at all reads 99."""
    rng = np.random.default_rng(5)
    armies = [random_army(roster, 100, rng) for _ in range(2)]
    agents = [HeuristicAgent(np.random.default_rng(k)) for k in range(2)]
    state = new_game(roster, armies, roster.maps["graveyard"], rng, turn_limit=2)
    settle(state, agents)
    geo = state.geometry
    corner, far = geo.index(0, 0), geo.index(5, 3)
    spots = heuristic_module._Spots(geo, [corner, far])
    for pos in range(geo.size):
        assert spots.nearest(pos) == min(geo.distance(pos, corner), geo.distance(pos, far))
    assert spots.nearest(geo.index(4, 5)) == 2  # two down from (5, 3), diagonal steps counting one
    assert heuristic_module._Spots(geo, []).nearest(corner) == 99
