"""Feats in play (HX-FEAT): a feat is used only by the characters of its own force it was assigned to, and only
while they are controlled by that force's player (HX-FEAT-04); only while its prerequisites are printed on the base
or show in the stat slot, unmodified (HX-FEAT-05); during every action unless its player says at the start of one
that it is not used, back right after it (HX-FEAT-06); a feat used by giving an action, only in an action given to
use it. Its modifiers count while it is used (HX-FEAT-07). A feat chosen for no character is used by every
character of its force while one of them on the map meets its prerequisites (HX-FEAT-02 OPEN, docs/rulings.md).

Victory points (HX-END-09, -10): a feat still in the game at the end scores its points for its player; a feat
assigned to one character, or to several, is removed when the last of them is defeated and scores like that one;
a feat costing its points per character gives up one part, scored like the character, each time one is defeated;
a feat chosen for no character is removed when the last character of its force is defeated."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.card_files import Cards, FeatCard, Modifier, Prerequisites
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.state import HeroState

WHOLE = -1
"""The holder in `Cards.removed` of a feat removed as a whole."""


def meets(state: HeroState, character: Figure, needs: Prerequisites) -> bool:
    """Whether `character` meets `needs` now: the team symbol printed on its base (a wild card's copy does not
    count, HX-TEAM-11), the powers showing and at least these unmodified values on its click, its range and speed
    mode (HX-FEAT-05: modifiers never meet a prerequisite)."""
    cards: Cards = state.cards
    if needs.team is not None and cards.symbols.get(character.uid) != needs.team:
        return False
    if needs.range is not None and character.stats.range < needs.range:
        return False
    if needs.speed_mode is not None and character.stats.speed_mode != needs.speed_mode:
        return False
    if any(power not in character.powers for power in needs.powers):
        return False
    slots = character.stats
    showing = {
        "speed": slots.speed[character.click],
        "attack": slots.attack[character.click],
        "defense": slots.defense[character.click],
        "damage": slots.damage[character.click],
    }
    return all(showing[slot] >= least for slot, least in needs.values().items())


def holds(card: FeatCard, character: Figure) -> bool:
    """Whether `card` may be used by `character`: assigned to it (or to its whole force), and `character` is
    controlled by the card's player (HX-FEAT-04)."""
    return character.uid in card.holders and character.controller == card.owner


def in_use(state: HeroState, character: Figure) -> list[FeatCard]:
    """The feats `character` uses now (see the module)."""
    cards: Cards | None = state.cards
    if cards is None or not cards.feats or character.uid in state.powerless:  # HX-PAC-16: no feats either
        return []
    used = []
    for card in cards.feats:
        feat = card.feat
        if not holds(card, character) or (character.uid, feat.name) in cards.unused:
            continue
        if feat.action is not None and cards.using.get(character.uid) != feat.name:
            continue
        if feat.characters:
            qualified = meets(state, character, feat.requires)
        else:
            qualified = any(c.alive and meets(state, c, feat.requires) for c in state.monsters if holds(card, c))
        if qualified:
            used.append(card)
    return used


def modifiers(state: HeroState, character: Figure) -> list[Modifier]:
    """The modifiers of the feats `character` uses now (HX-FEAT-07)."""
    if state.cards is None:
        return []
    return [card.feat.modifier for card in in_use(state, character) if card.feat.modifier is not None]


def assigned(state: HeroState, character: Figure, name: str) -> FeatCard | None:
    """The feat `name` assigned to `character` for its player, if any."""
    cards: Cards | None = state.cards
    if cards is None:
        return None
    return next((card for card in cards.feats if card.feat.name == name and holds(card, character)), None)


def has(state: HeroState, player: int, name: str) -> bool:
    """Whether a feat named `name` is `player`'s (what `cancel` may name)."""
    cards: Cards | None = state.cards
    return cards is not None and any(card.feat.name == name and card.owner == player for card in cards.feats)


def pushing(state: HeroState, character: Figure) -> int:
    """The pushing damage the feat `character` was given its action to use costs (HX-FEAT-08), 0 for none; logged
    as the feat's when there is some (the caller deals it)."""
    cards: Cards | None = state.cards
    if cards is None or character.uid not in cards.using:
        return 0
    card = next((c for c in in_use(state, character) if c.feat.name == cards.using[character.uid]), None)
    if card is None or not card.feat.pushing:
        return 0
    state.emit(EventKind.FEAT_PUSHING, character=character.label, feat=card.feat.name, clicks=card.feat.pushing)
    return card.feat.pushing


def defeated(state: HeroState, character: Figure, shares: dict[int, float]) -> dict[int, float]:
    """The feat points scored as `character` is defeated, by player: its part of each feat costing per character,
    and each feat whose last holder it was, shared as the character's own points are (`shares`, HX-END-09, -10;
    an archenemy's double does not double a feat, docs/rulings.md)."""
    cards: Cards | None = state.cards
    scored: dict[int, float] = {}
    if cards is None or not shares:
        return scored
    whole = sum(shares.values())
    for index, card in enumerate(cards.feats):
        if character.uid not in card.holders or (index, WHOLE) in cards.removed:
            continue
        if card.feat.per_character:
            cards.removed.add((index, character.uid))
            worth = float(card.feat.points)
        elif any(state.monsters[uid].alive for uid in card.holders):
            continue
        else:
            cards.removed.add((index, WHOLE))
            worth = float(card.feat.points)
        for player, amount in shares.items():
            scored[player] = scored.get(player, 0.0) + worth * amount / whole
    return scored


def still_in_game(state: HeroState) -> dict[int, float]:
    """The points of the feats (and per-character parts) still in the game at the end, by the player who built
    with them (HX-END-09)."""
    cards: Cards | None = state.cards
    scored: dict[int, float] = {}
    if cards is None:
        return scored
    for index, card in enumerate(cards.feats):
        if (index, WHOLE) in cards.removed:
            continue
        parts = [uid for uid in card.holders if (index, uid) not in cards.removed] if card.feat.per_character else []
        worth = card.feat.points * len(parts) if card.feat.per_character else card.feat.points
        scored[card.owner] = scored.get(card.owner, 0.0) + worth
    return scored
