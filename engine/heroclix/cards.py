"""What team abilities, feats and battlefield conditions add to a combat value (HX-TEAM, HX-FEAT-07, HX-BFC-01):
their modifiers summed, for the caller to cap with the value's other modifiers under the rule of 3, which takes
precedence over all of them (HX-VALUE-05, HX-EFFECT-06, HX-BFC-05)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import battlefield, feats, teams
from clix.engine.heroclix.state import HeroState

SPEED = "speed"
ATTACK = "attack"
DEFENSE = "defense"
DAMAGE = "damage"


def modifier(state: HeroState, character: Figure, value: str, close: bool | None = None) -> int:
    """The sum of the cards' modifiers to `character`'s `value` now: attack and damage when it makes a close
    (`close`) or ranged attack, defense when one is made against it, speed whenever its speed is read (`close`
    None). Uncapped: the caller adds the value's other modifiers and applies the rule of 3."""
    if state.cards is None:
        return 0
    kind = None if close is None else "close" if close else "ranged"
    found = [*teams.modifiers(state, character), *feats.modifiers(state, character), *battlefield.modifiers(state)]
    return sum(m.amount for m in found if m.value == value and (m.attacks is None or m.attacks == kind))
