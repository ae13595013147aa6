"""What a player declares with an action, or between actions, about team abilities and feats: canceling them at the
beginning of an action (HX-TEAM-04: until the end of the turn; HX-FEAT-06: for that action only), giving an
action to use a feat (HX-FEAT-05, -07, -08), and which team ability a wild card uses (HX-TEAM-06..08). The
players the engine lists for never declare: these come from scenario steps (`cancel`, `use`, `copy`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clix.engine.heroclix import feats, teams
from clix.engine.heroclix.card_files import Cards
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.state import Action, Close, EndTurn, HeroState, Move, Ranged, Raze, Throw


@dataclass(frozen=True)
class Declared:
    """`action` with what its player declares at its beginning: team abilities and feats canceled (`cancel`, by
    name) and a feat the action is given to use (`use`)."""

    action: Action
    cancel: tuple[str, ...] = ()
    use: str = ""


@dataclass(frozen=True)
class Copy:
    """Wild card `character` declares that it uses team `team`'s ability from now on (HX-TEAM-07): in its player's
    turn between actions, in an opponent's right after that player declares an action (HX-TEAM-08)."""

    character: int
    team: str


Check = Callable[[HeroState, Any], str]
Perform = Callable[[HeroState, Any], None]


def kind(action: Action) -> str:
    """The kind of action a feat may be used by giving (HX-TURN-08): move, close or ranged; "" for another."""
    if isinstance(action, Move):
        return "move"
    if isinstance(action, Close):
        return "close"
    if isinstance(action, Ranged | Throw):
        return "ranged"
    if isinstance(action, Raze):
        return "ranged" if action.ranged else "close"
    return ""


def problem(state: HeroState, declared: Declared | Copy, check: Check) -> str:
    """Why the declaration may not be made now ("" if it may): what it names must be the player's, a feat used
    must be the character's, suit the action and meet its prerequisites as the action is given (HX-FEAT-05), and
    the action itself must be legal once the declaration is made (`check`: the rules' `why_not`)."""
    if isinstance(declared, Copy):
        return "the game is over" if state.over else teams.copy_problem(
            state, state.monsters[declared.character], declared.team
        )  # fmt: skip
    action = declared.action
    if isinstance(action, EndTurn):
        return "cancel and use go with an action, not with ending the turn"
    character = state.monsters[action.character]
    player = character.controller
    for name in declared.cancel:
        if not (teams.has(state, player, name) or feats.has(state, player, name)):
            return f"player {player} has no team ability or feat named '{name}' to cancel (HX-TEAM-04, HX-FEAT-06)"
    if declared.use:
        why = _use_problem(state, character.label, declared, feats.assigned(state, character, declared.use))
        if why:
            return why
    cards: Cards | None = state.cards
    if cards is None:
        return check(state, action)
    kept = (set(cards.canceled), set(cards.unused), dict(cards.using))
    _declare(state, declared)
    try:
        if declared.use and not any(c.feat.name == declared.use for c in feats.in_use(state, character)):
            return f"{character.label} does not meet the prerequisites of {declared.use} now (HX-FEAT-05)"
        return check(state, action)
    finally:
        cards.canceled, cards.unused, cards.using = kept


def _use_problem(state: HeroState, label: str, declared: Declared, card: Any) -> str:
    """Why the action may not be given to use the feat `declared.use` (`card`: the character's, if any)."""
    if card is None:
        return f"{label} has no feat named '{declared.use}' assigned (HX-FEAT-02, -04)"
    wanted = card.feat.action
    if wanted is None or wanted != kind(declared.action):
        return f"{declared.use} is not used by giving a {kind(declared.action) or 'power'} action (HX-FEAT-05)"
    if getattr(declared.action, "use", ""):
        return "a given action may activate only one effect (HX-TURN-05)"
    if declared.use in declared.cancel:
        return f"{declared.use} is both used and canceled"
    return ""


def _declare(state: HeroState, declared: Declared) -> None:
    """Make the declaration: canceled team abilities stay off to the end of the turn (HX-TEAM-04), canceled feats
    for this action (HX-FEAT-06); the feat used is used by the acting character for this action."""
    cards: Cards = state.cards
    character = state.monsters[declared.action.character]  # type: ignore[union-attr]
    player = character.controller
    for name in declared.cancel:
        if teams.has(state, player, name):
            teams.cancel(state, player, name)
        else:
            cards.unused.update((c.uid, name) for c in state.monsters if c.controller == player)
    if declared.use:
        cards.using[character.uid] = declared.use


def perform(state: HeroState, declared: Declared | Copy, act: Perform) -> None:
    """Carry out the declaration and then its action (`act`: the rules' own performing); feats canceled or used
    for the action are back to normal once it has resolved (HX-FEAT-06)."""
    cards: Cards | None = state.cards
    if isinstance(declared, Copy):
        assert cards is not None
        cards.copying[declared.character] = declared.team
        state.emit(EventKind.COPIED, character=state.monsters[declared.character].label, team=declared.team)
        return
    if cards is None:
        act(state, declared.action)
        return
    _declare(state, declared)
    try:
        act(state, declared.action)
    finally:
        cards.unused.clear()
        cards.using.clear()


__all__ = ["Copy", "Declared", "perform", "problem"]
