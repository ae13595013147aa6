"""`legal_actions` and `why_not` must agree: every listed option passes `why_not`, so games may apply
listed options without checking them again (`apply(..., listed=True)`), and `Options` reads like the
plain list it stands for."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.players import Decision, RandomAgent
from clix.engine.horrorclix import rules
from clix.engine.horrorclix.actions import Move, MoveVictim
from clix.engine.horrorclix.armybuilder import random_army
from clix.engine.horrorclix.game import settle
from clix.engine.horrorclix.options import MoveBlock, Options, VictimMoveBlock
from clix.engine.horrorclix.players.heuristic import HeuristicAgent
from clix.engine.horrorclix.setup import new_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", range(4))
def test_every_listed_option_passes_why_not(roster, game):
    rng = np.random.default_rng(1000 + game)
    armies = [random_army(roster, 200 if game % 2 else 100, rng) for _ in range(2)]
    agents = [RandomAgent(np.random.default_rng(game)), HeuristicAgent(np.random.default_rng(game + 50))]
    state = new_game(roster, armies, roster.maps[sorted(roster.maps)[game % 2]], rng, turn_limit=5)
    settle(state, agents)
    checked = moves = 0
    while not state.over:
        options = rules.legal_actions(state)
        for option in options:
            assert rules.why_not(state, option) == "", option
            checked += 1
            moves += isinstance(option, (Move, MoveVictim)) and bool(option.path)
        choice = agents[state.active - 1].choose(state, Decision("action", state.active, options))
        rules.apply(state, options[choice], listed=True)
        settle(state, agents)
    assert checked > 500 and moves > 300


def test_options_read_like_the_list_they_stand_for(roster):
    rng = np.random.default_rng(7)
    armies = [random_army(roster, 100, rng) for _ in range(2)]
    agents = [RandomAgent(np.random.default_rng(k)) for k in range(2)]
    state = new_game(roster, armies, roster.maps["graveyard"], rng, turn_limit=3)
    settle(state, agents)
    while state.phase != "hunting":
        rules.apply(state, rules.legal_actions(state)[-1])
        settle(state, agents)
    options = rules.legal_actions(state)
    assert isinstance(options, Options) and any(type(p) in (MoveBlock, VictimMoveBlock) for p in options.parts)
    listed = list(options)
    assert len(listed) == len(options)
    assert [options[i] for i in range(len(options))] == listed
    assert options[-1] == listed[-1] and options[1:4] == listed[1:4]
    assert options == listed
    with pytest.raises(IndexError):
        options[len(options)]


def test_declaring_a_dependant_power_changes_the_power_alone():
    """An action's `declaring` (HC-CARD-08) is `dataclasses.replace(action, power=...)` written out: every other
    field, a frenzy block's `frenzy` among them, is kept; `effects.declaring` falls back to `replace` for a
    record without one (another ruleset's)."""
    import dataclasses

    from clix.engine.core import effects
    from clix.engine.horrorclix.actions import Close, Frenzy, LureVictim, Ranged, Smash
    from clix.engine.horrorclix.movement import Reach

    reach = Reach(3, 0b1000, [])
    actions = [
        Move(1, (2, 3), 1, None, 4),
        Frenzy(1, (2,), 5, None),
        Close(2, 7),
        Ranged(2, (7, 8), ((7, 1), (8, 2))),
        LureVictim(1, 3, (4, 5)),
        MoveBlock(1, None, reach, [3], target=6, frenzy=True),
        MoveBlock(1, 2, reach, [3]),
    ]
    for action in actions:
        for declared in (action.declaring("Savage"), effects.declaring(action, "Savage")):
            assert type(declared) is type(action)
            assert declared == dataclasses.replace(action, power="Savage")
            assert declared.power == "Savage"

    @dataclasses.dataclass(frozen=True)
    class Other:
        at: int
        power: str | None = None

    assert effects.declaring(Other(4), "Leap") == Other(4, "Leap")
    assert not hasattr(Smash(1, 2), "declaring")  # no power to declare
