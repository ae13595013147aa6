"""The monster phase (HF-MON-01..06): draw a monster card (none left: the players lose, HF-GOAL-03), place its
items, resolve its event, then each strike symbol left to right: move, then attack with dice, hits, then powers."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.horrified.components import SIGN, Card
from clix.engine.horrified.library import PAIRED
from clix.engine.horrified.mats import check_pair, follow_sign, lure, spec_of
from clix.engine.horrified.monsters import power
from clix.engine.horrified.people import (
    check_safe,
    finish,
    frenzy_next,
    heroes_at,
    hit_hero,
    hit_villager,
    move_monster_toward_person,
    place_items,
    villagers_at,
)
from clix.engine.horrified.state import HorrifiedState

FRENZY = "frenzy"


def monster_phase(state: HorrifiedState) -> None:
    """One monster card, top to bottom (HF-MON-01); a phase skipped by a perk draws none (docs/rulings.md R-HF-07)."""
    if state.skip_monster_phase:
        state.skip_monster_phase = False
        state.emit("monster phase skipped")
        return
    if not state.deck:
        finish(state, False, "out of time")  # HF-GOAL-03
        return
    card = state.components.cards[state.deck.pop()]
    state.emit("monster card", card=card.index, event=card.event, strike=card.symbols)
    place_items(state, card.items)
    event(state, card)
    for symbol in card.symbols:
        if state.over:
            break
        monster = state.frenzied if symbol == FRENZY else symbol
        if state.piece(monster) is None:
            continue  # not in the game or defeated (HF-MON-02, HF-DEF-01)
        if symbol != FRENZY and PAIRED.get(monster, monster) == card.event and monster != state.frenzied:
            continue  # the event monster does not strike, unless frenzied (HF-MON-02, docs/rulings.md R-HF-03, R-HF-28)
        strike(state, monster, card.moves, card.dice)
        check_pair(state)  # HF-M-FRB: the pair meeting after a strike
    state.played.append(card.index)
    state.defeated_heroes = []


def event(state: HorrifiedState, card: Card) -> None:
    """The card's event (HF-MON-01), as a parameterized effect: a villager placed (one already on the board is moved
    there, docs/rulings.md R-HF-08), or the event monster moving toward the closest person, or the frenzy marker
    passed on, or (assumed, R-HF-22) the Soul-sign hero drawn toward the Mummy / the Wolf Man toward the Hunted
    hero. An event of a monster not in the game is ignored."""
    if card.event_kind == "villager":
        state.villagers[card.villager] = card.villager_at
        state.emit("villager placed", villager=state.components.villagers[card.villager][0],
                   at=state.components.board.names[card.villager_at])  # fmt: skip
        check_safe(state, card.villager)
        return
    piece = state.piece(card.event)
    if piece is None:
        return
    if spec_of(state, piece.id).lure and not piece.holder:
        lure(state, piece)  # HF-M-MUM Reincarnated Soul, HF-M-WOL Hunted by the Wolf (docs/rulings.md R-HF-22)
    elif card.event_kind == SIGN:
        follow_sign(state, piece)  # an event that reads the sign (assumed: `sign_events`, R-HF-22)
    elif card.event_kind == "move":
        move_monster_toward_person(state, card.event, card.event_amount)
    elif card.event_kind == FRENZY:
        frenzy_next(state)
    check_pair(state)


def roll(state: HorrifiedState, dice: int) -> tuple[int, int]:
    """`dice` monster dice (HF-MON-05): (power faces, hit faces), each die a d6 read through the dice file's faces."""
    faces = state.components.faces
    shown = [faces[decisions.d6(state) - 1] for _ in range(dice)]
    return shown.count("power"), shown.count("hit")


def strike(state: HorrifiedState, monster: str, moves: int, dice: int) -> None:
    """Move toward the closest person, then attack one person in the space: a hero before a villager, the current
    player choosing among several (a decision `target`, before the roll, HF-MON-05); nobody there: no roll."""
    move_monster_toward_person(state, monster, moves)
    piece = state.piece(monster)
    assert piece is not None
    heroes = heroes_at(state, piece.pos)
    targets: list[str] = [f"hero:{h.id}" for h in heroes] or [f"villager:{v}" for v in villagers_at(state, piece.pos)]
    if not targets:
        return
    target = decisions.ask(state, "target", state.active, targets, subject=f"whom {monster} attacks")
    powers, hits = roll(state, dice)
    state.emit("attack", monster=monster, target=target, powers=powers, hits=hits)
    kind, _, who = target.partition(":")
    if hits:
        if kind == "hero":
            hit_hero(state, next(h for h in state.heroes if h.id == who), hits, monster)
        else:
            hit_villager(state, int(who), monster)
    if not state.over:
        power(state, monster, powers)
