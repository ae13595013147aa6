"""Modifiers that outlast the action that made them: Perplex's +1 or -1 to a character's speed, attack, defense or
range until the beginning of its user's next turn (HX-POWER-46, HX-PAC-17), kept as the core's lasting effects
(`state.lasting`). A modifier, so under the rule of 3 with the others on the same value (HX-VALUE-05): the code
that reads a value adds `modifier` to its other modifiers before capping them."""

from __future__ import annotations

from clix.engine.core.pieces import Figure, Lasting
from clix.engine.heroclix.powers import PERPLEX
from clix.engine.heroclix.state import HeroState

SPEED = "speed"
ATTACK = "attack"
DEFENSE = "defense"
RANGE = "range"
PERPLEXED: tuple[str, ...] = (SPEED, ATTACK, DEFENSE, RANGE)
"""The combat values Perplex may modify: not damage (HX-POWER-46 OPEN)."""


def modifier(state: HeroState, character: Figure, value: str) -> int:
    """The lasting modifiers on `character`'s combat value `value` (SPEED, ATTACK, DEFENSE or RANGE), summed."""
    if not state.lasting:
        return 0
    return sum(
        m.amount for m in state.lasting if m.monster == character.uid and m.stat == value and m.source == PERPLEX
    )


def add(state: HeroState, target: Figure, value: str, amount: int, player: int) -> None:
    """Player `player`'s Perplex modifies `target`'s `value` by `amount` until the beginning of its next turn."""
    state.lasting = [*state.lasting, Lasting(value, amount, PERPLEX, monster=target.uid, until_turn_of=player)]


def expire(state: HeroState, player: int) -> None:
    """At the beginning of `player`'s turn its Perplex modifiers end (HX-PAC-17, HX-TURN-03)."""
    if state.lasting:
        state.lasting = [m for m in state.lasting if not (m.source == PERPLEX and m.until_turn_of == player)]
