"""Action tokens placed by an effect rather than by an action (HX-TURN-12): Incapacitate's (HX-POWER-18). A token
that is a character's second deals pushing damage; no character ever gets a third (HX-PAC-21)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.scoring import take_damage
from clix.engine.heroclix.state import PUSHING, HeroState

BATTLE_FURY = "Battle Fury"
"""Characters showing it cannot be given action tokens by opposing effects (HX-POWER-38)."""
MOST_TOKENS = 2
"""No character holds more action tokens (HX-TURN-13, HX-PAC-21)."""
EFFECT_PUSHING_DAMAGE = 1
"""Clicks a character takes when an effect places its second token (HX-TURN-12)."""


def give_token(state: HeroState, character: Figure, source: Figure) -> None:
    """`source`'s effect gives `character` an action token: none past the second, none to a Battle Fury character;
    the second deals pushing damage, credited to `source` (HX-TURN-12, HX-DAMAGE-10 OPEN)."""
    if not character.alive or character.tokens >= MOST_TOKENS or BATTLE_FURY in character.powers:
        return
    character.tokens += 1
    state.emit(EventKind.TOKEN, character=character.label, by=source.label, tokens=character.tokens)
    if character.tokens == MOST_TOKENS:
        take_damage(state, character, EFFECT_PUSHING_DAMAGE, PUSHING, source)
