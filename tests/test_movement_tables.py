"""The bitset search over per-map step tables (the fast path of movement) must agree with the full step rule
everywhere: the same destinations, and every path it gives is legal by `check_path`."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.players import Decision, RandomAgent
from clix.engine.horrorclix import combat, rules
from clix.engine.horrorclix.armybuilder import random_army
from clix.engine.horrorclix.game import settle
from clix.engine.horrorclix.movement import (
    MoveContext,
    VictimContext,
    _search_by_steps,
    _slow_steps,
    check_path,
    search,
)
from clix.engine.horrorclix.setup import new_game
from clix.engine.horrorclix.state import HOVERING, SOARING

ROOT = Path(__file__).resolve().parent.parent


def both_ways(ctx, start: int, budget: int) -> tuple[set, set]:
    """The destinations by the bitset search and by the full step rule; checks the search's paths too."""
    reach = search(ctx, start, budget)
    for end in reach.ends():
        path = reach.path(end)
        assert len(path) <= budget and path[-1] == end
        assert check_path(ctx, start, path, budget) == ""
    slow = _search_by_steps(ctx, start, budget, partial(_slow_steps, ctx))
    return set(reach.ends()), set(slow)


@pytest.mark.parametrize("game", range(6))
def test_fast_and_full_step_rules_agree_in_random_games(roster, game):
    rng = np.random.default_rng(game)
    armies = [random_army(roster, 200, rng) for _ in range(2)]
    agents = [RandomAgent(np.random.default_rng(game + 100 + k)) for k in range(2)]
    state = new_game(roster, armies, roster.maps[sorted(roster.maps)[game % 2]], rng, turn_limit=6)
    settle(state, agents)
    compared = 0
    while not state.over:
        for monster in state.monsters:
            if not monster.alive:
                continue
            flights = [None, HOVERING, SOARING] if monster.stats.speed_mode == "wing" else [None]
            for flight in flights:
                broke = [m.uid for m in combat.engaged(state, monster)]
                ctx = MoveContext(state, monster, broke_away=broke, flight=flight)
                fast, slow = both_ways(ctx, monster.pos, ctx.budget(monster.pos, flight is not None))
                assert fast == slow
                compared += 1
        for victim in state.victims:
            if victim.state == "on_map":
                ctx = VictimContext(state, victim.uid)
                fast, slow = both_ways(ctx, victim.pos, ctx.budget(victim.pos, victim.speed))
                assert fast == slow
        options = rules.legal_actions(state)
        rules.apply(state, options[agents[state.active - 1].choose(state, Decision("action", state.active, options))])
        settle(state, agents)
    assert compared > 50
