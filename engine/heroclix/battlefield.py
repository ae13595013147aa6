"""Battlefield conditions in play (HX-BFC): each player may bring one (HX-BFC-02, HX-BUILD-05); they are revealed
all at once in setup step 3 (HX-SETUP-04) and change the rules for every character on the battlefield
(HX-BFC-01) to the end of the game, even after the force of the player who brought one is gone (HX-BFC-04). Each is
one global rule (HX-BFC-05 OPEN: data-defined): a terrain rule (hindering terrain counts as clear: the map's
printed hindering squares, not objects or markers placed later, docs/rulings.md), a modifier to every character's
combat value, which the rule of 3 caps with the others (HX-BFC-05, HX-VALUE-05), or a roll at the beginning of
each turn, one die for each copy in play (HX-BFC-03)."""

from __future__ import annotations

from typing import TypeVar

from clix.engine.core import decisions
from clix.engine.heroclix.card_files import Cards, Condition, Modifier
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.maps import HeroMap
from clix.engine.heroclix.scoring import heal
from clix.engine.heroclix.state import HeroState

HINDERING = "h"
CLEAR = "."
"""The map legend's hindering and clear terrain (HX-TERRAIN-02)."""
Layout = TypeVar("Layout", bound=HeroMap)


def terrain(layout: Layout, conditions: list[Condition]) -> Layout:
    """`layout` as the conditions make its terrain: with `terrain: {hindering: clear}`, every printed hindering
    square is clear."""
    if not any(c.terrain is not None and c.terrain.hindering == "clear" for c in conditions):
        return layout
    return layout.model_copy(update={"rows": [row.replace(HINDERING, CLEAR) for row in layout.rows]})


def modifiers(state: HeroState) -> list[Modifier]:
    """The modifiers the conditions in play give every character on the battlefield, one per copy."""
    cards: Cards | None = state.cards
    if cards is None:
        return []
    return [condition.modifier for _, condition in cards.conditions if condition.modifier is not None]


def reveal(state: HeroState) -> None:
    """Setup step 3: the conditions the players brought, revealed all at once (HX-SETUP-04, HX-BFC-02)."""
    cards: Cards | None = state.cards
    if cards is not None and cards.conditions:
        state.emit(EventKind.CONDITIONS, conditions=tuple((p, c.name) for p, c in cards.conditions))


def begin_turn(state: HeroState) -> None:
    """At the beginning of a turn, each condition that rolls rolls one d6 per copy in play (HX-BFC-03): on its
    number or more each of the active player's characters heals (never past its starting click)."""
    cards: Cards | None = state.cards
    if cards is None:
        return
    for _, condition in cards.conditions:
        rule = condition.each_turn
        if rule is None:
            continue
        roll = decisions.d6(state)
        state.emit(EventKind.CONDITION_ROLL, condition=condition.name, roll=roll, succeeded=roll >= rule.roll)
        if roll >= rule.roll:
            for character in state.standing():
                if character.controller == state.active:
                    heal(state, character, rule.heal)
