"""Plot twists in play (HC-PLOT-01..14): crypts and the timing windows.

A player's crypt (`Player.hidden_cards`) holds card names, hidden from the other players (HC-PLOT-01);
`GameState.cards` gives each name's roster card: kind, windows, effect and parameters, whose meaning
and conventions are engine/horrorclix/registry/plot_effects.py. A card leaves the crypt when it is played. An
ordinary card is removed from the game once resolved (HC-PLOT-02); a subplot is revealed at setup and
scored at the end unless its player was eliminated (HC-SETUP-09, HC-PLOT-04, HC-END-08, HC-END-10); a
ticking clock stays in play until another ticking clock replaces it (HC-PLOT-05).

The windows (HC-PLOT-07), each opened by the rules at one point and closed by one card:

- preview (`preview`, from rules.begin_turn): the active player may play one ticking clock (HC-PLOT-10);
- suspense (`suspense`, from rules._choose_victim): once the chosen victim is face up, the first opponent
  clockwise from the active player who can play a card may play one (HC-VICTIM-03, HC-PLOT-08); a card
  that moves or freezes the victim replaces the active player's move of it;
- slaying / rescue (`before_slay`, from rules.slay, before the victim is taken): the same opponent may
  play one card (HC-PLOT-06, HC-PLOT-13, HC-SLAY-06);
- attack_roll (`after_attack_roll`, a roll responder of the HorrorClix ruleset): cards whose text names that time, right
  after an attack roll, each player in turn order from the active player; one card per roll, so a
  rerolled roll is never rerolled again (HC-PLOT-12);
- hunting (`PlayCard`, a legal action): cards played in their player's own hunting phase, at no action.

Who may respond is judged by whether a player can play a card now: a player none of whose cards fits
the window is passed over like one with an empty crypt, and once an asked player declines no one else
may play (HC-PLOT-08). A card never answers a card (no stacking, HC-PLOT-11): no effect opens a window.
"""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.horrorclix.card_effects import EFFECTS
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.plot_plays import (  # noqa: F401  (re-exported: players and tests read the options through plots)
    PATH,
    PLACE,
    PLAY,
    Path,
    Place,
    PlayCard,
    Window,
    affected,
    card_plays,
    window_plays,
)
from clix.engine.horrorclix.plot_table import (  # noqa: F401  (re-exported: the cards and the table are read through plots)
    Mark,
    PlotCard,
    PlotTable,
    blocked_ends,
    card,
    end_action,
    expire,
    frozen,
    lasting_until,
    mark_victim,
    protection,
    table,
)
from clix.engine.horrorclix.state import GameState, Monster, Phase, Victim

# --- the windows ------------------------------------------------------------------------------------


def preview(state: GameState) -> None:
    """Preview phase: the active player may play one ticking clock (HC-PLOT-05, HC-PLOT-07, HC-PLOT-10)."""
    player = state.active
    crypt = state.player(player).hidden_cards
    if not crypt:
        return
    w = Window("preview")
    plays = window_plays(state, w, player)
    if plays:
        choice = decisions.ask(state, PLAY, player, [None, *plays], "preview", w)
        if choice is not None:
            _resolve(state, w, choice)


def suspense(state: GameState, victim: Victim) -> bool:
    """The chosen victim is face up: one opponent may play one card affecting it (HC-VICTIM-03, HC-PLOT-07,
    HC-PLOT-08); if the card moved or froze it, the active player does not move it. True if a card was
    played (the caller checks whether the game ended)."""
    w = Window("suspense", victim=victim)
    if not _respond(state, w):
        return False
    if w.outcome == "done":
        state.chosen_victim = None
        state.phase = Phase.HUNTING
    return True


def before_slay(state: GameState, actor: Monster, victim: Victim) -> str:
    """A monster is about to slay or rescue `victim`: one opponent may play one card (HC-PLOT-06, HC-PLOT-13,
    HC-SLAY-01, HC-SLAY-06). Returns '' (it goes ahead), 'no_vp' (it goes ahead, scoring nothing) or
    'stopped' (prevented, the victim removed, or the monster killed)."""
    w = Window("rescue" if actor.rescuer else "slaying", victim=victim, actor=actor)
    _respond(state, w)
    return w.outcome if actor.alive else "stopped"


def after_attack_roll(
    state: GameState, attacker: Monster, targets: list[Monster], dice: tuple[int, int]
) -> tuple[int, int]:
    """Right after an attack roll: each player in turn from the active player may play one card whose text
    names this time; the first card closes the window, so a reroll is used and never rerolled (HC-PLOT-07,
    HC-PLOT-12)."""
    players = state.players
    if not any(p.hidden_cards for p in players):
        return dice
    w = Window("attack_roll", attacker=attacker, targets=tuple(targets), dice=dice)
    count = len(players)
    for k in range(count):
        player = (state.active - 1 + k) % count + 1
        if players[player - 1].eliminated or not players[player - 1].hidden_cards:
            continue
        plays = window_plays(state, w, player)
        if plays:
            choice = decisions.ask(state, PLAY, player, [None, *plays], "attack_roll", w)
            if choice is not None:
                _resolve(state, w, choice)
                break
    return w.dice


def hunting_plays(state: GameState) -> list[PlayCard]:
    """The cards the active player may play now in their own hunting phase, before giving an action."""
    player = state.active
    crypt = state.player(player).hidden_cards
    if not crypt or state.actions_left <= 0:
        return []
    w = Window("hunting")
    found: list[PlayCard] = []
    for name in crypt:
        c = card(state, name)
        if "hunting" in c.windows:
            found.extend(card_plays(state, w, player, c))
    return found


def why_not_play(state: GameState, action: PlayCard) -> str:
    """Why `action` cannot be played now as a hunting-phase action ('' if it can)."""
    if action.card not in state.cards:
        return f"there is no plot twist named '{action.card}'"
    if state.phase != Phase.HUNTING or state.chosen_victim is not None:
        return (
            f"a plot twist is played as an action only in its player's hunting phase (now: {state.phase}) (HC-PLOT-07)"
        )
    if action.player != state.active:
        return f"player {action.player} may play '{action.card}' only in their own hunting phase (HC-PLOT-07)"
    if action.card not in state.player(action.player).hidden_cards:
        return f"'{action.card}' is not in player {action.player}'s crypt (HC-PLOT-01, HC-PLOT-02)"
    c = card(state, action.card)
    if "hunting" not in c.windows:
        return (
            f"'{action.card}' is not played in the hunting phase; it fits: {', '.join(sorted(c.windows))} (HC-PLOT-07)"
        )
    if state.actions_left <= 0:
        return "a hunting-phase plot twist is played before giving an action, and no action is left (HC-PLOT-07)"
    if action not in card_plays(state, Window("hunting"), action.player, c):
        return f"'{action.card}' has no such target (it needs: {c.params.get('target')})"
    return ""


def play_hunting(state: GameState, action: PlayCard) -> None:
    _resolve(state, Window("hunting"), action)


def _respond(state: GameState, w: Window) -> bool:
    """Ask the one opponent who may respond (HC-PLOT-08, HC-PLOT-13); resolve the card. True if one was played."""
    if not any(p.hidden_cards for p in state.players if p.number != state.active):
        return False
    plays: dict[int, list[PlayCard]] = {}

    def can(player: int) -> bool:
        plays[player] = window_plays(state, w, player)
        return bool(plays[player])

    order = decisions.responders(state, can)
    if not order:
        return False
    player = order[0]
    choice = decisions.ask(state, PLAY, player, [None, *plays[player]], w.name, w)
    if choice is None:
        return False
    _resolve(state, w, choice)
    return True


def _resolve(state: GameState, w: Window, play: PlayCard) -> None:
    """Play a card: it leaves the crypt (HC-PLOT-01), its text resolves, and an ordinary card is then out of
    the game (HC-PLOT-02); a ticking clock stays in play (HC-PLOT-05)."""
    c = card(state, play.card)
    state.player(play.player).hidden_cards.remove(play.card)
    state.emit(EventKind.PLOT_TWIST, card=c.name, player=play.player, window=w.name, target=play.label or None)
    if w.name == "attack_roll" and c.rerolls:
        EFFECTS["reroll_attack"](state, w, play, c)  # a card's reroll text (HC-PLOT-07)
    else:
        EFFECTS[c.effect](state, w, play, c)


# --- effects ----------------------------------------------------------------------------------------
