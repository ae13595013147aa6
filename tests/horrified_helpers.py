"""Small Horrified setups for the tests: a game from the sample components, emptied and arranged by hand, with chosen
monster cards and forced dice (die 1 shows Power, 2 a Hit, 3-6 blank: rosters/horrified/game.yaml)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from clix.engine.core import decisions
from clix.engine.core.dice import Dice, ForcedDice
from clix.engine.horrified.components import Card
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.rules import EndPhase, apply, legal_actions
from clix.engine.horrified.setup import new_game
from clix.engine.horrified.state import HorrifiedState

POWER, HIT, BLANK = 1, 2, 3


def game(monsters=("dracula",), heroes=("mayor", "inspector"), seed: int = 0) -> HorrifiedState:
    """A set-up game: nothing on the board but the heroes and monsters (items back in the bag, no villagers)."""
    state = new_game(components_at(), list(monsters), list(heroes), Dice(np.random.default_rng(seed)))
    for items in state.at.values():
        state.bag.extend(items)
    state.at = {}
    state.villagers = {}
    return state


def at(state: HorrifiedState, name: str) -> int:
    return state.components.board.index(name)


def card(state: HorrifiedState, symbols=(), event="mummy", kind="move", moves=1, dice=1, items=0, villager=0,
         villager_at="inn", amount=1) -> Card:  # fmt: skip
    return Card(0, items, event, kind, amount, villager, at(state, villager_at), tuple(symbols), moves, dice)


# a card's event is the Mummy's by default: not in these games, so it is ignored (HF-MON-01)


def with_cards(state: HorrifiedState, *cards: Card) -> None:
    """The deck holds `cards` (the first drawn first)."""
    numbered = tuple(replace(c, index=k) for k, c in enumerate(cards))
    state.components = replace(state.components, cards=numbered)
    state.deck = list(range(len(numbered)))[::-1]
    state.played = []


def force(state: HorrifiedState, *dice: int) -> None:
    """The dice the next steps roll; the state as arranged by hand becomes the one its copies re-run from."""
    state.dice = ForcedDice(dice)
    state.origin = None
    state.history = []


def give(state: HorrifiedState, hero: int, colour: str, *strengths: int, location: str | None = None) -> list[int]:
    """Items of `colour` and `strengths` from the bag into hero `hero`'s hands (uids)."""
    taken = []
    for s in strengths:
        uid = next(
            u
            for u in state.bag
            if state.item(u).colour == colour
            and state.item(u).strength == s
            and (location is None or state.item(u).location == at(state, location))
        )
        state.bag.remove(uid)
        state.heroes[hero].items.append(uid)
        taken.append(uid)
    return taken


def end_phase(state: HorrifiedState, *answers: int) -> None:
    """End the hero phase; answer the decisions the monster phase asks, in order."""
    apply(state, EndPhase())
    for choice in answers:
        decisions.answer(state, choice)


def options(state: HorrifiedState, kind: type) -> list:
    return [a for a in legal_actions(state) if isinstance(a, kind)]
