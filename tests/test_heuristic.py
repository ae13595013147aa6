"""The heuristic keeps tables per map between decisions (`_kept`) and scores some options in bulk: what it
keeps must be what it would compute afresh, and a bulk score what the option is worth on its own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import rules
from engine.actions import ChooseVictim
from engine.armybuilder import random_army
from engine.players import Decision
from engine.players import heuristic as heuristic_module
from engine.players.heuristic import HeuristicAgent, _Context
from engine.setup import new_game

ROOT = Path(__file__).resolve().parent.parent


def _play(roster, game: int, look) -> int:  # type: ignore[no-untyped-def]
    """Play one heuristic game, calling `look(state, agent, decision)` before each decision; the count."""
    rng = np.random.default_rng(300 + game)
    armies = [random_army(roster, 100, rng) for _ in range(2)]
    agents = [
        HeuristicAgent(np.random.default_rng(game + k), name=name) for k, name in enumerate(("balanced", "hunter"))
    ]
    state = new_game(roster, armies, roster.maps[sorted(roster.maps)[game % 2]], agents, rng, turn_limit=6)
    state.ask = lambda st, decision: agents[decision.player - 1].choose(st, decision)
    looked = 0
    while not state.over:
        options = rules.legal_actions(state)
        decision = Decision("action", state.active, options)
        agent = agents[state.active - 1]
        look(state, agent, decision)
        looked += 1
        rules.apply(state, options[agent.choose(state, decision)], listed=True)
    return looked


@pytest.mark.parametrize("game", range(3))
def test_threat_is_the_expected_damage_of_the_enemies_that_reach(roster, game):
    """A space's threat sums, over the enemies able to act next turn whose move-and-attack reach covers it
    (spaces counted as in HC-MOVE-03), the chance to hit times the clicks and their points."""
    compared = []

    def look(state, agent, decision):  # type: ignore[no-untyped-def]
        ctx = _Context(state, decision.player)
        geo = state.geometry
        for monster in ctx.mine:
            per_click = monster.stats.points / max(1, monster.stats.clicks - 1)
            for pos in range(0, geo.size, 7):
                expected = 0.0
                for enemy in ctx.enemies:
                    if enemy.tokens >= 2 or enemy.incapable:
                        continue  # a vulnerable or incapable enemy cannot act next turn
                    reach = max(1 if enemy.immovable else enemy.speed + 1, enemy.stats.range)
                    if geo.distance(enemy.pos, pos) <= reach:
                        chance = heuristic_module.hit_chance(monster.defense - enemy.attack)
                        expected += chance * enemy.damage * per_click * 0.5
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
            nearer_to_enemy = ctx.enemy_d[pos] < ctx.my_d[pos]
            assert together[k] == pytest.approx(agent.weights.victims * 0.2 * nearer_to_enemy)
            scored += 1

    _play(roster, 1, look)
    assert scored > 10


def test_kept_tables_are_read_only(roster):
    rng = np.random.default_rng(5)
    armies = [random_army(roster, 100, rng) for _ in range(2)]
    agents = [HeuristicAgent(np.random.default_rng(k)) for k in range(2)]
    state = new_game(roster, armies, roster.maps["graveyard"], agents, rng, turn_limit=2)
    kept = heuristic_module.nearest_distances(state, [0, 5])
    assert kept[0] == 0 and kept[5] == 0 and kept[1] == 1
    with pytest.raises(TypeError):
        kept[0] = 1  # type: ignore[index]
