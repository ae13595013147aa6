"""Powers of the special rules: insanity, injection, possession, minions, Grave and the cabal powers.

Texts: engine/horrorclix/registry/powers.py. The state changes they share with the turn flow (who controls an
insane or possessed monster, transformations, cabal membership) live in engine/horrorclix/cards.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clix.engine.core import decisions
from clix.engine.core.effects import Params, PowerHandler, Query, handles
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Stats, stats_from_dial
from clix.engine.horrorclix import cards, combat
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.roster.models import parse_dial
from clix.engine.horrorclix.state import ON_MAP, Monster, VictimState

if TYPE_CHECKING:
    from clix.engine.horrorclix.state import GameState, Victim


@handles("Insanity")
class Insanity(PowerHandler):
    """In its owner's preview phase, if the owner also controls it, the owner rolls a d6: below the
    threshold it goes insane (HC-SPECIAL-07, HC-SPECIAL-17). Only the owner ever rolls."""

    def on_turn_start(self, state: GameState, source: Monster, p: Params) -> None:
        if source.insane or source.owner != state.active or source.controller != state.active:
            return
        roll = decisions.d6(state)
        failed = roll < p["threshold"]
        state.emit(EventKind.INSANITY_ROLL, monster=source.label, roll=roll, threshold=p["threshold"], insane=failed)
        if failed:
            # HC-SPECIAL-18: friendly to its owner for the rest of the owner's turn, who cannot act with it
            cards.go_insane(state, source, source.owner, "Insanity")


@handles("Injection")
class Injection(PowerHandler):
    """A no-damage close attack; the hit target is insane at once, no roll, until the beginning of its
    owner's next turn (HC-SPECIAL-19). Insane monsters are friendly to the active player (HC-SPECIAL-08),
    so the active player controls it from now on."""

    def deals_no_damage(self, state: GameState, source: Monster, kind: str, p: Params) -> bool:
        return True

    def on_hit(self, state: GameState, source: Monster, target: Monster, kind: str, taken: int, p: Params) -> None:
        if target.alive and not target.insane:
            cards.go_insane(state, target, state.active, "Injection")


@handles("Possession")
class Possession(PowerHandler):
    """A no-damage close attack; the hit target is the active player's puppet until the end of that
    player's turn (HC-SPECIAL-09); its hourglass-phase damage is in engine.horrorclix.cards (HC-SPECIAL-10)."""

    def deals_no_damage(self, state: GameState, source: Monster, kind: str, p: Params) -> bool:
        return True

    def on_hit(self, state: GameState, source: Monster, target: Monster, kind: str, taken: int, p: Params) -> None:
        if target.alive:
            cards.possess(state, target)


@handles("Grave")
class Grave(PowerHandler):
    """On killing a monster: turn the dial to the green starting line and flip the card (HC-DATA-22). A card
    whose own `transform` describes the same kill sees the card already flipped and does nothing more."""

    def on_kill(self, state: GameState, source: Monster, killed: Monster, p: Params) -> None:
        if source.alive:
            cards.transform(state, source, "green_start")


# --- minions ----------------------------------------------------------------------------------------

_MINION_STATS: dict[tuple[int, ...], Stats] = {}


def minion_stats(p: Params) -> Stats:
    """The stats of a minion token with the power's values: one live click, then killed (HC-SPECIAL-06)."""
    key = (p["speed"], p["attack"], p["defense"], p["damage"], p.get("points") or 0)
    found = _MINION_STATS.get(key)
    if found is None:
        dial = parse_dial([f"{key[0]} {key[1]} {key[2]} {key[3]}", "x"])
        found = _MINION_STATS[key] = stats_from_dial("minion", dial, points=key[4])
    return found


def minion_spaces(state: GameState, slayer: Monster) -> list[int]:
    """Unoccupied spaces adjacent to the slayer where a minion token may stand."""
    geo = state.geometry
    taken = {m.pos for m in state.monsters if m.alive}
    taken.update(v.pos for v in state.victims if v.state == ON_MAP)
    taken.update(o.pos for o in state.objects if o.alive and o.kind != "portal")
    return [s for s in combat.neighbours(state, slayer.pos) if s not in taken and geo.terrain[s] != BLOCKING]


@handles("Raise Minion")
class RaiseMinion(PowerHandler):
    """Instead of slaying the victim, remove it from the game and put a minion token with the power's values
    on the map (HC-SPECIAL-06); the victim goes on no card, so the monster is not blooded (HC-SLAY-16) and
    nobody scores the victim (it is neither slain nor rescued). HC-SPECIAL-06 / HC-PLOT-06 OPEN (placement):
    the slayer ends its move in the victim's space as in any slaying, and the minion takes an unoccupied
    space adjacent to it chosen by the slayer's controller; with no such space the victim is slain normally."""

    def instead_of_slaying(self, state: GameState, source: Monster, victim: Victim, p: Params) -> bool:
        spaces = minion_spaces(state, source)
        if not spaces:
            return False
        # options are [x, y] lists, so a scenario's `{decide: [x, y]}` step can name the space
        where = decisions.ask(state, "minion_space", source.controller, [list(state.geometry.xy(s)) for s in spaces])
        pos = state.geometry.index(*where)
        victim.state = VictimState.REMOVED
        victim.by = source.uid
        stats = minion_stats(p)
        count = sum(1 for m in state.monsters if m.minion) + 1
        minion = Monster(
            uid=len(state.monsters),
            label=f"{source.label}-minion{count}",
            stats=stats,
            owner=source.controller,
            controller=source.controller,
            pos=pos,
            click=0,
            side="start",
            start_line=0,
            minion=True,
        )
        state.monsters.append(minion)
        state.emit(
            EventKind.MINION_RAISED,
            monster=source.label,
            victim=victim.label,
            minion=minion.label,
            at=state.geometry.xy(pos),
            player=source.controller,
        )
        return True


# --- cabal powers (HC-SPECIAL-01, -05, -14, -15, -16) -----------------------------------------------


@handles("Cabal Rally")
class CabalRally(PowerHandler):
    """+amount to a combat value of every friendly member (`who: members`, the leader included) or of the
    leader alone (`who: leader`, a "this monster" power, HC-SPECIAL-14), while the leader is in charge."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        if stat != p["stat"] or not cards.leader_in_charge(source):
            return 0
        if p["who"] == "leader":
            return p["amount"] if subject is source else 0
        return p["amount"] if cards.member(source, subject) else 0


@handles("Pack Tactics")
class PackTactics(PowerHandler):
    """A "this monster" cabal power: +amount attack for the leader when another friendly member is
    adjacent to its target; the leader does not count for itself (HC-SPECIAL-14, HC-SPECIAL-15)."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        target = q.target
        if stat != "attack" or subject is not source or target is None or not cards.leader_in_charge(source):
            return 0
        for m in state.monsters:
            if m is not source and m.alive and cards.member(source, m) and combat.adjacent(state, m.pos, target.pos):
                return p["amount"]
        return 0


@handles("Cabal Feast")
class CabalFeast(PowerHandler):
    """When a friendly member (the leader included) kills a monster, heal another friendly member of 1
    damage, chosen by the leader's controller; the killer cannot be the one healed (001 §3)."""

    def on_any_kill(
        self, state: GameState, source: Monster, killer: Monster | None, killed: Monster, p: Params
    ) -> None:
        if killer is None or not cards.leader_in_charge(source) or not cards.member(source, killer):
            return
        hurt = [
            m
            for m in state.monsters
            if m is not killer and m.alive and cards.member(source, m) and m.click > combat.heal_floor(m)
        ]
        if not hurt:
            return
        hurt.sort(key=lambda m: m.click - combat.heal_floor(m), reverse=True)
        label = decisions.ask(state, "cabal_feast", source.controller, [m.label for m in hurt], source.label)
        chosen = next(m for m in hurt if m.label == label)
        state.emit(EventKind.CABAL_FEAST, leader=source.label, healed=chosen.label)
        combat.heal(state, chosen, 1)


@handles("Cabal Command")
class CabalCommand(PowerHandler):
    """Once per turn a friendly member (the leader included) that has not acted may be given one action
    beyond the turn's actions; it is a real action and earns an action token (HC-SPECIAL-16)."""

    def extra_action(self, state: GameState, source: Monster, actor: Monster, p: Params) -> bool:
        return (
            source.uid not in state.extra_actions_used
            and source.controller == state.active
            and cards.leader_in_charge(source)
            and cards.member(source, actor)
        )
