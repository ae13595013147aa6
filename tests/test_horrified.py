"""Horrified's rules (issue 40), each test citing the HF rule it checks (/work/shared/rules/horrified_rules.md):
setup, the hero actions, villagers, items, Dracula and the Invisible Man, and the turn."""

from __future__ import annotations

import pytest
from clix.engine.core import decisions
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.rules import (
    Advance,
    Defeat,
    EndPhase,
    Guide,
    Move,
    PickUp,
    PlayPerk,
    Share,
    Special,
    apply,
    legal_actions,
)
from clix.engine.horrified.setup import SetupError, new_game
from clix.engine.horrified.state import OFF_BOARD
from horrified_helpers import BLANK, HIT, POWER, at, card, end_phase, force, game, give, options, with_cards


def test_setup_places_everything_hf_setup():
    """HF-SETUP-01..04: terror 0, monsters at their starts, frenzy on the lowest Frenzy Order, heroes at their badge's
    location, one perk each, 12 items at their locations, 30 monster cards."""
    c = components_at()
    state = new_game(c, ["invisible-man", "dracula"], ["mayor", "inspector"], _dice(1))
    assert state.terror == 0
    assert [m.id for m in state.pieces] == ["dracula", "invisible-man"]  # ascending Frenzy Order
    assert state.frenzied == "dracula"
    assert state.pieces[0].pos == at(state, "crypt") and len(state.pieces[0].coffins) == 4
    assert [h.pos for h in state.heroes] == [at(state, "theatre"), at(state, "precinct")]
    assert [len(h.perks) for h in state.heroes] == [1, 1]
    placed = [(where, u) for where, items in state.at.items() for u in items]
    assert len(placed) == 12 and all(state.item(u).location == where for where, u in placed)
    assert len(state.deck) == 30 and len(state.bag) == 48
    assert state.actions_left == 5  # the Mayor's badge


def _dice(seed):
    import numpy as np
    from clix.engine.core.dice import Dice

    return Dice(np.random.default_rng(seed))


def test_solo_starts_at_terror_3_and_refuses_the_courier_hf_solo_01():
    """HF-SOLO-01: terror starts at 3; the Courier cannot play solo; 1-4 players."""
    c = components_at()
    assert new_game(c, ["dracula"], ["mayor"], _dice(0)).terror == 3
    with pytest.raises(SetupError, match="courier cannot play solo"):
        new_game(c, ["dracula"], ["courier"], _dice(0))
    with pytest.raises(SetupError, match="1 to 4 players"):
        new_game(c, ["dracula"], ["mayor", "inspector", "explorer", "professor", "scientist"], _dice(0))
    with pytest.raises(SetupError, match="the bride comes with frankenstein"):
        new_game(c, ["bride"], ["mayor"], _dice(0))


def test_solo_leaves_out_the_perks_unusable_solo_hf_perk_02():
    """HF-PERK-02: a perk marked unusable solo is removed from a solo game's deck."""
    from dataclasses import replace

    c = components_at()
    marked = replace(c, perks=tuple(p.model_copy(update={"solo": p.id != "hurry"}) for p in c.perks))
    solo = new_game(marked, ["dracula"], ["mayor"], _dice(2))
    assert all(marked.perks[k].id != "hurry" for k in [*solo.perk_deck, *solo.heroes[0].perks])
    duo = new_game(marked, ["dracula"], ["mayor", "inspector"], _dice(2))
    assert any(marked.perks[k].id == "hurry" for k in [*duo.perk_deck, *(p for h in duo.heroes for p in h.perks)])


def test_move_follows_lit_paths_never_water_and_brings_villagers_hf_act_01():
    """HF-ACT-01: a hero moves along lit paths, never onto water (the river only by a bridge), with any villagers."""
    state = game()
    state.heroes[0].pos = at(state, "bridge-west")
    targets = {m.to for m in options(state, Move)}
    assert targets == {at(state, n) for n in ("mansion", "fountain", "camp")}
    state.villagers = {0: at(state, "bridge-west"), 1: at(state, "bridge-west")}
    groups = {m.villagers for m in options(state, Move) if m.to == at(state, "camp")}
    assert groups == {(), (0,), (1,), (0, 1)}
    apply(state, Move(at(state, "camp"), (1,)))
    assert state.heroes[0].pos == at(state, "camp") and state.villagers == {
        0: at(state, "bridge-west"),
        1: at(state, "camp"),
    }
    assert state.actions_left == 4


def test_guide_moves_one_villager_either_way_hf_act_02():
    """HF-ACT-02: a villager from the hero's space to an adjacent one, or from an adjacent one to the hero's."""
    state = game()
    theatre, barn, tower = at(state, "theatre"), at(state, "barn"), at(state, "tower")
    state.villagers = {4: theatre, 5: barn}
    guides = set(options(state, Guide))
    assert Guide(4, barn) in guides and Guide(4, tower) in guides and Guide(5, theatre) in guides
    assert Guide(5, tower) not in guides  # not through the hero's space
    apply(state, Guide(5, theatre))
    assert state.villagers[5] == theatre


def test_a_villager_at_its_safe_location_leaves_and_gives_a_perk_hf_vill_01():
    """HF-VILL-01: reaching its safe location by Move or Guide removes the villager; the current player draws a perk."""
    state = game()
    state.heroes[0].pos = at(state, "tower")
    elizabeth = next(k for k, (name, _) in enumerate(state.components.villagers) if name == "elizabeth")
    state.villagers = {elizabeth: at(state, "theatre")}
    perks = len(state.heroes[0].perks)
    apply(state, Guide(elizabeth, at(state, "tower")))
    assert elizabeth not in state.villagers and len(state.heroes[0].perks) == perks + 1


def test_pick_up_takes_the_items_of_the_space_hf_act_04():
    """HF-ACT-04: pick up takes the items in the hero's space (all of them, docs/rulings.md R-HF-04)."""
    state = game()
    theatre = at(state, "theatre")
    assert not options(state, PickUp)
    state.at[theatre] = [u for u in state.bag if state.item(u).location == theatre][:2]
    for u in state.at[theatre]:
        state.bag.remove(u)
    apply(state, PickUp())
    assert len(state.heroes[0].items) == 2 and not state.at.get(theatre)


def test_share_moves_items_among_heroes_in_one_action_hf_act_05():
    """HF-ACT-05: heroes on one space give and take any items in one Share action."""
    state = game()
    state.heroes[1].pos = state.heroes[0].pos
    red = give(state, 1, "red", 1, 2)
    apply(state, Share())
    choice = state.waiting
    assert choice is not None and choice.kind == "share"
    decisions.answer(state, choice.options.index((1, 0, red[0])))
    decisions.answer(state, state.waiting.options.index((1, 0, red[1])))
    decisions.answer(state, 0)  # done
    assert sorted(state.heroes[0].items) == sorted(red) and state.actions_left == 4


def test_dracula_coffin_needs_red_6_at_a_coffin_hf_m_dra():
    """HF-M-DRA, HF-ACT-06, HF-ITEM-02: at a coffin, red items totalling 6 or more smash it (minimal sets listed);
    coffins smashed before Dracula can be defeated with yellow 6 or more; his defeat wins the game (HF-GOAL-01)."""
    state = game()
    hero = state.heroes[0]
    hero.pos = at(state, "cave")
    give(state, 0, "red", 2, 3)
    assert not options(state, Advance)  # 5 < 6
    give(state, 0, "red", 1, 4)
    paid = [tuple(sorted(state.item(u).strength for u in a.items)) for a in options(state, Advance)]
    assert (2, 4) in paid and (1, 2, 3) in paid and (1, 2, 4) not in paid  # minimal sets only
    apply(state, next(a for a in options(state, Advance) if len(a.items) == 2))
    assert at(state, "cave") not in state.pieces[0].coffins and len(hero.items) == 2 and len(state.discard) == 2
    piece = state.pieces[0]
    hero.pos = piece.pos
    give(state, 0, "yellow", 6)
    assert not options(state, Defeat)  # three coffins left
    piece.coffins = []
    apply(state, options(state, Defeat)[0])
    assert state.over and state.winner == 1 and state.end_reason == "all monsters defeated"


def test_invisible_man_evidence_then_red_9_hf_m_inv():
    """HF-M-INV, HF-DEF-01: at the Precinct an item whose location is an empty spot goes on the mat; with all 5 spots
    filled, red 9 or more in his space defeats him, and the mat's items go to the discard pile."""
    state = game(("invisible-man", "dracula"))
    hero = state.heroes[1]  # the Inspector starts at the Precinct
    state.active, state.actions_left = 2, 4
    barn = at(state, "barn")
    evidence = next(u for u in state.bag if state.item(u).location == barn)
    state.bag.remove(evidence)
    hero.items.append(evidence)
    apply(state, Advance("invisible-man", barn, (evidence,)))
    im = state.piece("invisible-man")
    assert im.mat == {barn: evidence} and evidence not in hero.items and state.actions_left == 3
    hero.pos = im.pos
    give(state, 1, "red", 4, 5)
    assert not options(state, Defeat)  # four spots empty
    for name in ("mansion", "inn", "camp", "institute"):
        uid = next(u for u in state.bag if state.item(u).location == at(state, name))
        state.bag.remove(uid)
        im.mat[at(state, name)] = uid
    apply(state, options(state, Defeat)[0])
    assert state.piece("invisible-man") is None and len(state.discard) == 7  # 2 red spent, 5 from the mat
    assert state.frenzied == "dracula" and not state.over


def test_monster_moves_toward_the_closest_person_and_stops_hf_mon_03_04():
    """HF-MON-03, HF-MON-04: up to the card's moves toward the closest person, stopping with a person; a hero before a
    villager at equal distance; a monster already with a person does not move."""
    state = game()
    dracula = state.pieces[0]
    dracula.pos = at(state, "tower")
    state.heroes[0].pos = at(state, "hospital")
    state.heroes[1].pos = at(state, "hospital")
    state.villagers = {0: at(state, "theatre"), 1: at(state, "docks")}  # both 1 away: ask the current player
    with_cards(state, card(state, ("dracula",), moves=3))
    force(state, BLANK)
    end_phase(state)
    assert state.waiting is not None and state.waiting.kind == "closest"
    decisions.answer(state, state.waiting.options.index(at(state, "docks")))
    assert dracula.pos == at(state, "docks")
    state2 = game()
    state2.pieces[0].pos = at(state2, "tower")
    state2.heroes[0].pos = at(state2, "docks")
    state2.heroes[1].pos = at(state2, "hospital")
    state2.villagers = {0: at(state2, "dungeon")}
    with_cards(state2, card(state2, ("dracula",), moves=3, villager_at="inn"))
    force(state2, BLANK)
    end_phase(state2)
    assert state2.pieces[0].pos == at(state2, "docks")  # the hero, not the villager
    state3 = game()
    state3.pieces[0].pos = state3.heroes[1].pos
    start = state3.pieces[0].pos
    with_cards(state3, card(state3, ("dracula",), moves=3, villager_at="inn"))
    force(state3, BLANK)
    end_phase(state3)
    assert state3.pieces[0].pos == start


def test_a_hit_hero_discards_an_item_or_is_defeated_hf_hit_01():
    """HF-MON-05, HF-HIT-01: a hero is attacked before a villager; one item discarded ignores a hit, else +1 terror and
    off the board until the start of its player's next turn, back at the Hospital with its items."""
    state = game()
    mayor = state.heroes[0]
    state.pieces[0].pos = mayor.pos
    state.villagers = {0: mayor.pos}
    item = give(state, 0, "red", 1)[0]
    with_cards(state, card(state, ("dracula",), dice=2, villager_at="inn"), card(state, (), villager_at="barn"))
    force(state, HIT, HIT)
    end_phase(state)
    assert state.waiting.kind == "defend" and state.waiting.options == ["take the hit", item]
    decisions.answer(state, 1)  # the second hit: no item left, so defeated without a choice
    assert mayor.pos == OFF_BOARD and state.terror == 1 and 0 in state.villagers and item in state.discard
    assert state.active == 2
    end_phase(state)
    assert state.active == 1 and mayor.pos == at(state, "hospital") and state.actions_left == 5


def test_a_villager_hit_is_defeated_hf_hit_02():
    """HF-HIT-02: a villager hit is removed, +1 terror."""
    state = game()
    state.pieces[0].pos = at(state, "inn")
    state.villagers = {3: at(state, "inn")}
    with_cards(state, card(state, ("dracula",), villager_at="barn", villager=2))
    force(state, HIT)
    end_phase(state)
    assert 3 not in state.villagers and state.terror == 1


def test_terror_at_the_skull_loses_hf_goal_02():
    """HF-GOAL-02: terror reaching the skull ends the game, lost."""
    state = game()
    state.terror = state.components.skull - 1
    state.pieces[0].pos = at(state, "inn")
    state.villagers = {3: at(state, "inn")}
    with_cards(state, card(state, ("dracula",), villager_at="barn", villager=2))
    force(state, HIT)
    end_phase(state)
    assert state.over and state.winner is None and state.end_reason == "terror"


def test_an_empty_deck_loses_after_one_more_hero_phase_hf_goal_03():
    """HF-GOAL-03: after the last card one more hero phase is played; the next draw from the empty deck loses."""
    state = game()
    state.pieces[0].pos = at(state, "cave")
    with_cards(state, card(state, (), villager_at="barn", villager=2))
    end_phase(state)
    assert not state.over and state.active == 2 and state.deck == []
    end_phase(state)
    assert state.over and state.end_reason == "out of time"


def test_the_event_monster_strikes_only_when_frenzied_hf_mon_02():
    """HF-MON-02: symbols act left to right; the event's monster skips its own symbol unless frenzied; the Frenzy
    symbol is the frenzied monster; absent monsters' symbols are ignored."""
    state = game(("dracula", "invisible-man"))
    im = state.piece("invisible-man")
    im.pos = state.heroes[0].pos
    state.frenzied = "dracula"
    with_cards(state, card(state, ("invisible-man", "mummy"), event="invisible-man", kind="frenzy"))
    force(state, BLANK)
    end_phase(state)
    assert state.frenzied == "invisible-man" and state.dice.rolled == 1  # frenzied by its event, so it strikes
    state2 = game(("dracula", "invisible-man"))
    state2.piece("invisible-man").pos = state2.heroes[0].pos
    with_cards(state2, card(state2, ("invisible-man",), event="invisible-man", kind="move", amount=1))
    force(state2)
    end_phase(state2)
    assert state2.dice.rolled == 0
    state3 = game(("dracula", "invisible-man"))
    state3.piece("invisible-man").pos = state3.heroes[0].pos
    state3.frenzied = "invisible-man"
    with_cards(state3, card(state3, ("frenzy",), villager_at="barn"))
    force(state3, BLANK)
    end_phase(state3)
    assert state3.dice.rolled == 1


def test_frenzy_passes_to_the_next_higher_order_and_wraps_hf_frz_01():
    """HF-FRZ-01: the next higher Frenzy Order, wrapping to the lowest; one monster left keeps it."""
    from clix.engine.horrified.people import frenzy_next

    state = game(("dracula", "invisible-man"))
    frenzy_next(state)
    assert state.frenzied == "invisible-man"
    frenzy_next(state)
    assert state.frenzied == "dracula"
    state.piece("invisible-man").defeated = True
    frenzy_next(state)
    assert state.frenzied == "dracula"


def test_dark_charm_brings_the_current_hero_to_dracula_hf_m_dra():
    """HF-M-DRA power: each Power face puts the current player's hero in Dracula's space (after the hits, R-HF-02)."""
    state = game()
    state.pieces[0].pos = at(state, "inn")
    state.villagers = {3: at(state, "inn")}
    with_cards(state, card(state, ("dracula",), villager_at="barn", villager=2))
    force(state, POWER)
    end_phase(state)
    assert state.heroes[0].pos == at(state, "inn") and state.terror == 0


def test_stalk_unseen_moves_two_per_power_toward_a_villager_hf_m_inv():
    """HF-M-INV power: after the hits, 2 spaces per Power face toward the closest villager."""
    state = game(("invisible-man",))
    im = state.pieces[0]
    im.pos = state.heroes[0].pos  # the theatre
    state.villagers = {3: at(state, "hospital")}  # theatre-bridge-east-shop-lamp-church-hospital: 5
    with_cards(state, card(state, ("invisible-man",), villager_at="barn", villager=2))
    force(state, POWER)
    end_phase(state)
    assert state.components.board.distance(im.pos, at(state, "hospital")) == 3


def test_an_empty_bag_is_refilled_from_the_discard_pile_hf_item_03():
    """HF-ITEM-03: drawing from an empty bag puts the discard pile back first."""
    from clix.engine.horrified.people import place_items

    state = game()
    state.discard, state.bag = state.bag, []
    place_items(state, 3)
    assert sum(len(v) for v in state.at.values()) == 3 and not state.discard


def test_the_turn_passes_clockwise_with_full_actions_hf_turn_01():
    """HF-TURN-01: up to the badge's actions, then the monster phase, then the next player; perks are free."""
    state = game()
    state.heroes[0].perks = [0]
    for _ in range(5):
        apply(state, options(state, Move)[0])
    assert [a for a in legal_actions(state) if not isinstance(a, PlayPerk | EndPhase)] == []
    assert PlayPerk(0, 0) in legal_actions(state)
    with_cards(state, card(state, (), villager_at="barn", villager=2))
    end_phase(state)
    assert state.active == 2 and state.actions_left == 4 and state.turn == 2


def test_extra_actions_perk_costs_no_action_hf_perk_01():
    """HF-PERK-01: a perk is played during the hero phase without an action, then discarded."""
    state = game()
    late = next(k for k, p in enumerate(state.components.perks) if p.effect == "extra-actions")
    state.heroes[1].perks = [late]
    apply(state, PlayPerk(1, late))
    assert state.actions_left == 7 and state.perk_discard == [late] and state.heroes[1].perks == []


def test_special_actions_cost_an_action_hf_act_03():
    """HF-ACT-03: a badge's special action (its effect kind) costs one action."""
    state = game(heroes=("explorer", "mayor"))
    anywhere = options(state, Special)
    assert len(anywhere) == sum(1 for k in state.components.board.kinds if k != "water") - 1
    apply(state, Special("move-anywhere", at(state, "crypt")))
    assert state.heroes[0].pos == at(state, "crypt") and state.actions_left == 2
