"""Monster cards and the special rules that change who a monster is or who controls it.

- Transformation (HC-CARD-01, -09, -12): a card side's `transform` trigger (slayings, kills or either,
  counted since the side came up) flips the card to its transformed side and turns the dial to the
  alternative starting line, ignoring skulls on the way; a "must" transformation happens at once, a "may"
  one is the controller's choice right then, lost if declined until the condition is met again.
- Insanity and possession (HC-SPECIAL-07..10, -17..19): who controls a monster from turn to turn.
- Cabals (HC-SPECIAL-01, -05, -14): who counts as a member, and whether a leader's cabal power works.
- The etiquette roll (HC-SPECIAL-12) for disputes the rules do not cover.

The powers themselves (Insanity, Injection, Possession, Grave, cabal powers, Raise Minion) are handlers
in engine/horrorclix/powers/special.py; this module holds the state changes they and the turn flow share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clix.engine.core import decisions, effects
from clix.engine.horrorclix.events import EventKind

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.models import Transformation
    from clix.engine.horrorclix.state import GameState, Monster

TRANSFORMED = "transformed"
ETIQUETTE_ALLOWED = 4  # HC-SPECIAL-12: 1-3 not allowed, 4-6 allowed


# --- transformation ---------------------------------------------------------------------------------


def transformation(monster: Monster) -> Transformation | None:
    """The transformation trigger printed on the card side `monster` shows now, if any."""
    figure = monster.stats.figure
    if figure is None:
        return None
    side = getattr(figure.card, monster.side, None)
    return None if side is None else side.transform


def after_slay(state: GameState, slayer: Monster) -> None:
    """A victim was slain: count it toward `slayer`'s transformation (HC-CARD-09)."""
    _count(state, slayer, "slay_victims")


def after_kill(state: GameState, killer: Monster | None, killed: Monster) -> None:
    """A monster was killed: count it toward the killer's transformation (HC-CARD-09)."""
    if killer is not None and killer is not killed:
        _count(state, killer, "kill_monsters")


def _count(state: GameState, monster: Monster, trigger: str) -> None:
    trans = transformation(monster)
    if trans is None or not monster.alive or trans.trigger not in (trigger, "slay_or_kill"):
        return
    monster.transform_count += 1
    if monster.transform_count < trans.count:
        return
    # HC-CARD-12: "must" happens at once; "may" is chosen now by the player making the monster's decisions
    # (its controller, HC-SPECIAL-13), and a declined chance is gone until the condition is met again.
    if trans.mode == "may" and not decisions.ask(state, "transform", monster.controller, [False, True], monster.label):
        monster.transform_count = 0
        state.emit(EventKind.TRANSFORM_DECLINED, monster=monster.label)
        return
    transform(state, monster, trans.dial_to)


def transform(state: GameState, monster: Monster, dial_to: str) -> None:
    """Flip `monster`'s card to its transformed side (if it has one and does not show it yet) and turn its
    dial to the `dial_to` line, straight there: skulls passed on the way do not count (HC-CARD-09).
    The line it turns to becomes its starting line (for healing, HC-COMBAT-10)."""
    figure = monster.stats.figure
    if monster.side != TRANSFORMED and figure is not None and figure.card.transformed is not None:
        monster.side = TRANSFORMED
    stats = monster.stats
    if dial_to == "red_start" and stats.red_start is not None:
        monster.click = monster.start_line = stats.red_start
    elif dial_to == "green_start":
        monster.click = monster.start_line = stats.start
    monster.transform_count = 0
    state.emit(EventKind.TRANSFORMED, monster=monster.label, side=monster.side, click=monster.click)


# --- insanity and possession ------------------------------------------------------------------------


def go_insane(state: GameState, monster: Monster, controller: int, why: str) -> None:
    """`monster` becomes insane: its action tokens are cleared (HC-SPECIAL-08) and `controller` controls it
    (its owner for a failed roll, HC-SPECIAL-18; the active player for Injection, HC-SPECIAL-19)."""
    monster.insane = True
    monster.tokens = 0
    monster.controller = controller
    state.emit(EventKind.INSANE, monster=monster.label, owner=monster.owner, controller=controller, by=why)


def owner_barred(monster: Monster) -> bool:
    """An insane monster still with its owner: the owner may not give it actions (HC-SPECIAL-08), and for the
    end of the game nobody controls it (HC-END-12: its owner has lost it to the next player)."""
    return monster.insane and monster.controller == monster.owner


def pass_control(state: GameState) -> None:
    """At the beginning of a turn: each insane monster goes to the active player, or back to its owner when
    the owner is active, no longer insane (an Insanity power still showing rolls again) (HC-SPECIAL-08,
    HC-SPECIAL-17, HC-SPECIAL-19, HC-END-11)."""
    for m in state.monsters:
        if not m.alive or not m.insane:
            continue
        if m.owner == state.active:
            m.insane = False
            m.controller = m.owner
            state.emit(EventKind.SANE, monster=m.label, owner=m.owner)
        elif m.controller != state.active:
            m.controller = state.active
            state.emit(EventKind.CONTROL, monster=m.label, controller=state.active, why="insane")


def possess(state: GameState, monster: Monster) -> None:
    """`monster` becomes the active player's puppet until the end of that player's turn (HC-SPECIAL-09)."""
    monster.puppet_of = state.active
    monster.controller = state.active
    state.emit(EventKind.POSSESSED, monster=monster.label, owner=monster.owner, controller=state.active)


def end_possession(state: GameState) -> None:
    """At the end of the possessor's turn its puppets go back to their owners (HC-SPECIAL-09)."""
    for m in state.monsters:
        if m.puppet_of == state.active:
            m.puppet_of = None
            if m.alive and not m.insane:
                m.controller = m.owner
                state.emit(EventKind.CONTROL, monster=m.label, controller=m.owner, why="possession ends")


# --- cabals -----------------------------------------------------------------------------------------


def cabal(monster: Monster) -> str | None:
    """The cabal whose symbol `monster` bears, if any (HC-SPECIAL-05)."""
    return monster.stats.cabal


def leader_in_charge(leader: Monster) -> bool:
    """A cabal power works only while its leader is in play and neither insane nor possessed
    (HC-SPECIAL-01, HC-SPECIAL-05)."""
    return leader.alive and not leader.insane and leader.puppet_of is None


def member(leader: Monster, monster: Monster) -> bool:
    """`monster` is a member of `leader`'s cabal that the leader's controller controls: "all the monsters
    you control that share the leader's cabal symbol" (HC-SPECIAL-05). The leader is a member too."""
    if monster is leader:
        return True
    if not monster.alive or monster.controller != leader.controller:
        return False
    name = leader.stats.cabal
    return name is not None and monster.stats.cabal == name


def extra_action_source(state: GameState, actor: Monster) -> Monster | None:
    """The monster whose power lets `actor` be given an action beyond the turn's actions now (HC-SPECIAL-16)."""
    for m in state.monsters:
        if m.alive and m.controller == actor.controller:
            for handler, params, _ in effects.in_effect(state, m):
                if handler.extra_action(state, m, actor, params):
                    return m
    return None


# --- etiquette --------------------------------------------------------------------------------------


def etiquette(state: GameState, question: str) -> bool:
    """Players disagree on a situation the rules do not cover: roll a d6, 1-3 not allowed, 4-6 allowed
    (HC-SPECIAL-12). Logged as a rule gap."""
    roll = decisions.d6(state)
    allowed = roll >= ETIQUETTE_ALLOWED
    state.emit(EventKind.RULE_GAP, question=question, roll=roll, allowed=allowed, rule="HC-SPECIAL-12")
    return allowed
