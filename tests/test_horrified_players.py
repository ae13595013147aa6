"""Horrified's heuristic team player (issue 40): it Shares (HF-ACT-05) when pooled items let one hero do what none of
the heroes on the space can do alone, hands the items (and the Cure, HF-M-WOL) to the hero who will use them, and
does not Share for nothing."""

from __future__ import annotations

import numpy as np
from clix.engine.core import decisions
from clix.engine.core.pending import Decision
from clix.engine.horrified.players import TeamPlayer, share_gain
from clix.engine.horrified.rules import Advance, Defeat, Share, apply, legal_actions
from clix.engine.horrified.state import HorrifiedState
from horrified_helpers import at, game, give


def _act(state: HorrifiedState, player: TeamPlayer) -> object:
    """The team player's action now, taken; its Share decisions answered by it too. Returns the action."""
    options = legal_actions(state)
    action = options[player.choose(state, Decision("action", state.active, options))]
    apply(state, action, listed=True)
    while state.waiting is not None and state.waiting.kind == "share":
        decisions.answer(state, player.choose(state, state.waiting))
    return action


def _together(state: HorrifiedState, place: str) -> None:
    for hero in state.heroes:
        hero.pos = at(state, place)
    for k in range(len(state.heroes)):
        state.heroes[k].perks = []


def test_it_pools_red_items_to_smash_a_coffin_neither_hero_can_hf_act_05_hf_m_dra():
    """Two red 3s in two hands at Dracula's coffin in the Cave (threshold 6, HF-M-DRA): the current hero takes the
    other's red item by a Share (HF-ACT-05), then smashes the coffin (HF-ACT-06)."""
    state = game()
    _together(state, "cave")
    give(state, 0, "red", 3)
    theirs = give(state, 1, "red", 3)
    player = TeamPlayer(np.random.default_rng(0))
    assert share_gain(state) == {("advance", "dracula")}
    assert isinstance(_act(state, player), Share)
    assert theirs[0] in state.heroes[0].items and not state.heroes[1].items
    assert isinstance(_act(state, player), Advance) and at(state, "cave") not in state.piece("dracula").coffins


def test_it_hands_the_cure_to_the_hero_who_can_pay_the_wolf_mans_defeat_hf_m_wol():
    """The Wolf Man's task done, the Cure in the Inspector's hands, the red items in the Mayor's (the current hero):
    the Cure moves to the Mayor, who defeats the Wolf Man (HF-M-WOL, HF-ACT-07)."""
    state = game(monsters=("wolf-man",))
    wolf = state.piece("wolf-man")
    assert wolf is not None
    _together(state, "mansion")
    wolf.pos = at(state, "mansion")
    wolf.mat = {k: uid for k, uid in enumerate(state.bag[:6])}
    state.bag = state.bag[6:]
    give(state, 0, "red", 3, 3)
    state.heroes[1].cure = True
    player = TeamPlayer(np.random.default_rng(1))
    assert isinstance(_act(state, player), Share)
    assert state.heroes[0].cure and not state.heroes[1].cure and len(state.heroes[0].items) == 2
    assert isinstance(_act(state, player), Defeat) and wolf.defeated


def test_with_its_last_action_it_gives_to_the_next_hero():
    """With one action left the current hero gives the pool to the hero who plays next (it has the actions)."""
    state = game()
    _together(state, "cave")
    mine = give(state, 0, "red", 3)
    give(state, 1, "red", 3)
    state.actions_left = 1
    assert isinstance(_act(state, TeamPlayer(np.random.default_rng(2))), Share)
    assert mine[0] in state.heroes[1].items and not state.heroes[0].items


def test_it_does_not_share_when_pooling_gains_nothing():
    """A red 6 alone pays the coffin: sharing adds nothing (no job gained), so no Share is taken."""
    state = game()
    _together(state, "graveyard")
    give(state, 0, "red", 6)
    give(state, 1, "red", 1)
    assert Share() in legal_actions(state)
    assert share_gain(state) == frozenset()
    player = TeamPlayer(np.random.default_rng(3))
    assert player.score(state, Share()) < 0
