"""Team abilities and wild cards (HX-TEAM): a character with a team symbol printed on its base is a member and may
use its team's ability while enough members of its side are on the map (HX-TEAM-01, -02); a wild card uses the
ability of a team a friendly character on the battlefield belongs to, one at a time, keeping it until it uses
another (HX-TEAM-06, -07). Team abilities are never lost with the dial nor countered (HX-TEAM-03); they can be
canceled until the end of the turn (HX-TEAM-04) and, like powers, are not used by a character that cannot use
powers during an action (Pulse Wave, HX-PAC-16 OPEN). "On the map" and "on the battlefield" are the same, a
carried character included (HX-TEAM-10 OPEN)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.card_files import Cards, Modifier, TeamAbility
from clix.engine.heroclix.sides import team
from clix.engine.heroclix.state import HeroState


def symbol(state: HeroState, character: Figure) -> str | None:
    """The team symbol printed on `character`'s base, if any."""
    cards: Cards | None = state.cards
    return None if cards is None else cards.symbols.get(character.uid)


def is_wild_card(state: HeroState, character: Figure) -> bool:
    """Whether `character`'s own team ability is a wild card's (HX-TEAM-06)."""
    cards: Cards | None = state.cards
    own = None if cards is None else cards.teams.get(cards.symbols.get(character.uid, ""))
    return own is not None and own.wild_card


def members(state: HeroState, character: Figure, name: str) -> list[Figure]:
    """The friendly characters on the map (`character` itself included) whose base carries team `name`'s symbol:
    the members of its side (HX-TEAM-02; a wild card is not one, HX-TEAM-06)."""
    cards: Cards = state.cards
    side = team(state, character.controller)
    return [c for c in state.standing() if cards.symbols.get(c.uid) == name and team(state, c.controller) == side]


def copy_problem(state: HeroState, character: Figure, name: str) -> str:
    """Why wild card `character` may not use team `name`'s ability now ("" if it may): a friendly character on the
    battlefield must be a member of that team (HX-TEAM-06, -09)."""
    cards: Cards | None = state.cards
    if not character.alive:
        return f"{character.label} was knocked out"
    if not is_wild_card(state, character):
        return f"{character.label} is not a wild card and uses only its own team's ability (HX-TEAM-06)"
    ability = None if cards is None else cards.teams.get(name)
    if ability is None or ability.wild_card:
        known = sorted(t for t, a in cards.teams.items() if not a.wild_card) if cards else []
        return f"no team ability of a team named '{name}' to use; known: {', '.join(known) or 'none'}"
    if not members(state, character, name):
        return f"no friendly character on the battlefield is a member of {name} (HX-TEAM-06)"
    return ""


def ability(state: HeroState, character: Figure) -> TeamAbility | None:
    """The team ability `character` uses now: its own team's, or the one a wild card copies (HX-TEAM-06, -07); None
    when it has none, or it is canceled (HX-TEAM-04), or too few members are on the map (HX-TEAM-02), or the
    character cannot use powers during this action (HX-PAC-16 OPEN)."""
    cards: Cards | None = state.cards
    if cards is None or character.uid in state.powerless:
        return None
    own = cards.teams.get(cards.symbols.get(character.uid, ""))
    if own is None:
        return None
    if own.wild_card:
        copied = cards.copying.get(character.uid)
        found = None if copied is None else cards.teams.get(copied)
        if found is None or not members(state, character, found.team):
            return None
        own = found
    if (character.uid, own.team) in cards.canceled:
        return None
    return own if len(members(state, character, own.team)) >= own.members else None


def grants(state: HeroState, character: Figure, power: str) -> bool:
    """Whether `character` may use `power` through its team ability (HX-TEAM-10 OPEN: "members may use
    Willpower")."""
    cards: Cards | None = state.cards
    if cards is None:
        return False
    own = cards.teams.get(cards.symbols.get(character.uid, ""))
    if own is None:
        return False
    if own.wild_card:
        copied = cards.copying.get(character.uid)
        own = None if copied is None else cards.teams.get(copied)
    if own is None or own.power != power:
        return False  # `ability` is this one or None: no need to count the members (a list of them built)
    found = ability(state, character)
    return found is not None and found.power == power


def modifiers(state: HeroState, character: Figure) -> list[Modifier]:
    """The modifiers `character`'s team ability gives it now."""
    if state.cards is None:
        return []
    found = ability(state, character)
    return [found.modifier] if found is not None and found.modifier is not None else []


def has(state: HeroState, player: int, name: str) -> bool:
    """Whether a character `player` controls may use team `name`'s ability, canceled or not (what `cancel` names)."""
    cards: Cards | None = state.cards
    if cards is None or name not in cards.teams:
        return False
    for character in state.standing():
        if character.controller != player:
            continue
        own = cards.teams.get(cards.symbols.get(character.uid, ""))
        if own is not None and (own.team == name or (own.wild_card and cards.copying.get(character.uid) == name)):
            return True
    return False


def cancel(state: HeroState, player: int, name: str) -> None:
    """`player` cancels team `name`'s ability: it is off for its characters until the end of the turn, back at the
    beginning of the next player's turn (HX-TEAM-04)."""
    cards: Cards = state.cards
    for character in state.standing():
        if character.controller == player:
            cards.canceled.add((character.uid, name))


def turn_over(state: HeroState) -> None:
    """The end of a turn: canceled team abilities come back (HX-TEAM-04)."""
    if state.cards is not None:
        state.cards.canceled.clear()
