"""What team abilities, feats and battlefield conditions add to a combat value (HX-TEAM, HX-FEAT-07, HX-BFC-01):
their modifiers summed, for the caller to cap with the value's other modifiers under the rule of 3, which takes
precedence over all of them (HX-VALUE-05, HX-EFFECT-06, HX-BFC-05)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import battlefield, feats, teams
from clix.engine.heroclix.card_files import Cards
from clix.engine.heroclix.state import HeroState

SPEED = "speed"
ATTACK = "attack"
DEFENSE = "defense"
DAMAGE = "damage"


def modifier(state: HeroState, character: Figure, value: str, close: bool | None = None) -> int:
    """The sum of the cards' modifiers to `character`'s `value` now: attack and damage when it makes a close
    (`close`) or ranged attack, defense when one is made against it, speed whenever its speed is read (`close`
    None). Uncapped: the caller adds the value's other modifiers and applies the rule of 3."""
    cards = state.cards
    if cards is None or (cards.modified is not None and value not in cards.modified):
        return 0  # no card of the game modifies `value`: the sum below would be 0
    kind = None if close is None else "close" if close else "ranged"
    found = [*teams.modifiers(state, character), *feats.modifiers(state, character), *battlefield.modifiers(state)]
    return sum(m.amount for m in found if m.value == value and (m.attacks is None or m.attacks == kind))


def modified_values(cards: Cards) -> frozenset[str]:
    """The values some card of the game may modify (`may_modify`), for `Cards.modified` once the cards are dealt
    (the symbols on the characters' bases, the feats and conditions in play do not change after)."""
    return frozenset(v for v in (SPEED, ATTACK, DEFENSE, DAMAGE) if may_modify(cards, v))


def may_modify(cards: Cards, value: str) -> bool:
    """Whether any card of the game could modify `value`: a team ability of a team whose symbol a character
    carries (its own, or the one a wild card copies from a friendly member, HX-TEAM-02, -06, -07), a feat or a
    battlefield condition with a modifier of `value` (HX-FEAT-07, HX-BFC-01). False spares `modifier` working out
    which abilities and feats each character uses now (most games' cards modify few values); the sum it would
    find is 0 either way."""
    present = cards.symbols.values()
    for key, ability in cards.teams.items():  # modifier first: most abilities have none
        modifies = ability.modifier is not None and ability.modifier.value == value
        if modifies and (key in present or ability.team in present):
            return True
    for card in cards.feats:
        if card.feat.modifier is not None and card.feat.modifier.value == value:
            return True
    return any(
        condition.modifier is not None and condition.modifier.value == value for _, condition in cards.conditions
    )
