"""Powers that change combat, movement and values: one handler per power of engine/horrorclix/registry/powers.py.

Each handler does what its registry text says, through the hooks of engine/core/effects.py; the rule IDs
are those of docs/horrorclix_rules.md. Dependant powers (trigger move, close or ranged) act only during
an action they were declared for (HC-CARD-08): `effects.in_effect` leaves them out otherwise, so their
hooks here need not check that again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clix.engine.core import decisions
from clix.engine.core.effects import PowerHandler, Query, base_value, handles
from clix.engine.horrorclix import plots
from clix.engine.horrorclix.actions import VICTIM_TARGET, AttackKind, Close, Frenzy, LureVictim
from clix.engine.horrorclix.combat import adjacent, heal, heal_floor
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.movement import VictimContext, check_path, destinations
from clix.engine.horrorclix.state import ON_MAP, Lasting, Monster

if TYPE_CHECKING:
    from clix.engine.horrorclix.state import GameState

Params = dict[str, Any]
CLOSE_KINDS = (AttackKind.CLOSE, AttackKind.FRENZY)  # a frenzy's attack is a close combat attack (HC-SLAY-12)


def _roll(state: GameState, source: Monster, power: str) -> int:
    """A d6 a power rolls, logged so a game can be followed and a scenario can expect it."""
    roll = decisions.d6(state)
    state.emit(EventKind.POWER_ROLL, monster=source.label, power=power, roll=roll)
    return roll


# --- damage ------------------------------------------------------------------------------------------


@handles("Slash")
class Slash(PowerHandler):
    """On a hit a d6 replaces the damage value (HC-DATA-05), in a frenzy too, replacing its 1 (HC-SLAY-08,
    -12); a replacement, so modifiers apply after it (HC-VALUE-04, -07). One roll per attack."""

    def resolve(self, state: GameState, source: Monster, stat: str, value: int, q: Query, p: Params) -> int | None:
        return _roll(state, source, "Slash") if stat == "damage" else None


@handles("Execution")
class Execution(PowerHandler):
    """Close combat action against a vulnerable target (HC-TURN-04): the damage value becomes `damage`
    (a replacement, HC-VALUE-02), in a frenzy's attack too (HC-SLAY-12)."""

    def check(self, state: GameState, source: Monster, action: Any, p: Params) -> str:
        target = action.target if isinstance(action, (Close, Frenzy)) else None
        if target is None:
            return "Execution is declared for a close attack on a vulnerable target; this action makes none"
        if target == VICTIM_TARGET or not 0 <= target < len(state.monsters):
            return ""  # the action's own checks say why the target is wrong
        if not state.monsters[target].vulnerable:
            return f"Execution needs a vulnerable target (two action tokens); {state.monsters[target].label} is not"
        return ""

    def replace(self, state: GameState, source: Monster, stat: str, value: int, q: Query, p: Params) -> int | None:
        if stat == "damage" and q.kind in CLOSE_KINDS and isinstance(q.target, Monster) and q.target.vulnerable:
            return p["damage"]
        return None


@handles("Frenzied Strength")
class FrenziedStrength(PowerHandler):
    """In a frenzy the damage value stays the dial value instead of becoming 1 (HC-SLAY-08, -12)."""

    def replace(self, state: GameState, source: Monster, stat: str, value: int, q: Query, p: Params) -> int | None:
        return base_value(source, "damage") if stat == "damage" and q.kind == AttackKind.FRENZY else None


@handles("Penetrating Strike")
class PenetratingStrike(PowerHandler):
    """Damage this monster deals is penetrating: damage reducers do not reduce it (HC-COMBAT-27, -29); it
    is not unpreventable (HC-COMBAT-09)."""

    def penetrating(self, state: GameState, source: Monster, kind: str, p: Params) -> bool:
        return True


@handles("Hellfire")
class Hellfire(PowerHandler):
    """Ranged combat action: the damage dealt is unpreventable, so nothing reduces it (HC-COMBAT-09)."""

    def unpreventable(self, state: GameState, source: Monster, kind: str, p: Params) -> bool:
        return kind == AttackKind.RANGED


@handles("Stamina")
class Stamina(PowerHandler):
    """Damage dealt to this monster is reduced by 1 (HC-COMBAT-29), unless penetrating or unpreventable."""

    def reduce_damage(self, state: GameState, source: Monster, amount: int, p: Params) -> int:
        return 1


@handles("Invulnerability")
class Invulnerability(PowerHandler):
    """Damage dealt to this monster is reduced by 2 (HC-COMBAT-29), unless penetrating or unpreventable."""

    def reduce_damage(self, state: GameState, source: Monster, amount: int, p: Params) -> int:
        return 2


@handles("Shriek")
class Shriek(PowerHandler):
    """Ranged combat action: a hit target with no action token gets one instead of taking damage; a target
    that already has a token takes the damage as usual. The attack is not a "no damage" attack, so a
    critical miss still damages the attacker (HC-COMBAT-07, -12)."""

    def instead_of_damage(self, state: GameState, source: Monster, target: Monster, kind: str, p: Params) -> bool:
        if kind != AttackKind.RANGED or target.tokens:
            return False
        target.tokens = 1
        state.emit(EventKind.ACTION_TOKEN, monster=target.label, power="Shriek")
        return True


# --- attack and defense values ----------------------------------------------------------------------


@handles("Prey on the Weak")
class PreyOnTheWeak(PowerHandler):
    """+`amount` attack against a vulnerable target (HC-TURN-04), a modifier (HC-VALUE-05)."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        if subject is source and stat == "attack" and isinstance(q.target, Monster) and q.target.vulnerable:
            return p["amount"]
        return 0


@handles("Focus")
class Focus(PowerHandler):
    """Ranged combat action: +`attack` to the attack roll; -`defense` to this monster's defense until its
    controller's next turn begins (HC-TURN-08 (1)), both modifiers (HC-VALUE-05; HC-DATA-24)."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        return p["attack"] if subject is source and stat == "attack" and q.kind == AttackKind.RANGED else 0

    def on_declare(self, state: GameState, source: Monster, action: Any, p: Params) -> None:
        state.lasting.append(
            Lasting("defense", -p["defense"], source="Focus", monster=source.uid, until_turn_of=source.controller)
        )


@handles("Terror")
class Terror(PowerHandler):
    """Opposing monsters adjacent to this monster get -1 attack (a modifier, HC-VALUE-05)."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        if stat != "attack" or subject is source or not state.opposing(source, subject):
            return 0
        return -1 if adjacent(state, source.pos, subject.pos) else 0


@handles("Toughened Hide")
class ToughenedHide(PowerHandler):
    """+`amount` defense against ranged attacks (a modifier, HC-VALUE-05)."""

    def modifier(self, state: GameState, source: Monster, subject: Monster, stat: str, q: Query, p: Params) -> int:
        return p["amount"] if subject is source and stat == "defense" and q.kind == AttackKind.RANGED else 0


@handles("Sure Shot")
class SureShot(PowerHandler):
    """Ranged combat action: the hindering +1 defense does not apply (HC-TERRAIN-06, -29)."""

    def ignores_hindering(self, state: GameState, source: Monster, kind: str, p: Params) -> bool:
        return kind == AttackKind.RANGED


# --- evading -----------------------------------------------------------------------------------------


@handles("Dodge")
class Dodge(PowerHandler):
    """When hit by any attack, critical hits included (HC-COMBAT-31), a d6 of 5-6 evades the hit (HC-COMBAT-26)."""

    def evades(self, state: GameState, source: Monster, attacker: Monster, kind: str, p: Params) -> bool:
        return _roll(state, source, "Dodge") >= 5


@handles("Martial Artist")
class MartialArtist(PowerHandler):
    """When hit by a close attack (a frenzy's too), critical hits included (HC-COMBAT-31), a d6 of 4-6
    evades the hit (HC-COMBAT-26)."""

    def evades(self, state: GameState, source: Monster, attacker: Monster, kind: str, p: Params) -> bool:
        return kind in CLOSE_KINDS and _roll(state, source, "Martial Artist") >= 4


# --- healing -----------------------------------------------------------------------------------------


@handles("Blood Drinker")
class BloodDrinker(PowerHandler):
    """Damaging an opposing monster with a close attack (a frenzy's too) heals this monster `amount`,
    within the healing limits (HC-COMBAT-10)."""

    def on_hit(self, state: GameState, source: Monster, target: Monster, kind: str, taken: int, p: Params) -> None:
        if kind in CLOSE_KINDS and taken > 0 and state.opposing(source, target):
            heal(state, source, p["amount"])


@handles("Feast")
class Feast(PowerHandler):
    """Slaying a victim heals this monster `amount` (HC-COMBAT-10 limits); rescuing is not slaying
    (HC-SLAY-06), so a benevolent monster's Feast does nothing."""

    def on_slay(self, state: GameState, source: Monster, p: Params) -> None:
        if not source.rescuer:
            heal(state, source, p["amount"])


@handles("Regeneration")
class Regeneration(PowerHandler):
    """In its controller's preview phase (HC-TURN-08 (2)) a d6 of 5-6 heals 1 (HC-COMBAT-10). No die is
    rolled when there is nothing to heal: the roll could change nothing."""

    def on_turn_start(self, state: GameState, source: Monster, p: Params) -> None:
        if source.click > heal_floor(source) and _roll(state, source, "Regeneration") >= 5:
            heal(state, source, 1)


# --- move powers -------------------------------------------------------------------------------------


@handles("Pounce")
class Pounce(PowerHandler):
    """Move action: after moving, a free close attack on the Move's `target`, blooded or not; its damage
    value becomes 1 (a replacement, as a frenzy's, HC-SLAY-08) which Slash may replace again. The rules
    check and list the target as a frenzy's (`grants_attack`); the attack is lost if Pounce stops showing
    before it is rolled (HC-SLAY-14)."""

    grants_attack = True

    def replace(self, state: GameState, source: Monster, stat: str, value: int, q: Query, p: Params) -> int | None:
        return 1 if stat == "damage" and q.kind == AttackKind.CLOSE else None


@handles("Lure")
class Lure(PowerHandler):
    """Move action: instead of moving, this monster moves one face-up victim within `range` spaces up to 2
    spaces, by the victims' movement rules (HC-VICTIM-04, -08). The action is a `LureVictim`."""

    moves_victims = True
    STEPS = 2

    def check(self, state: GameState, source: Monster, action: Any, p: Params) -> str:
        if not isinstance(action, LureVictim):
            return "Lure moves a face-up victim instead of this monster: name the victim and its path"
        if not 0 <= action.victim < len(state.victims):
            return "no such victim"
        victim = state.victims[action.victim]
        if victim.state != ON_MAP:
            return f"{victim.label} is not on the map"
        if not victim.face_up:
            return f"{victim.label} is face down; Lure moves a face-up victim"
        holder = plots.frozen(state, victim.uid)
        if holder:
            return f"{holder} holds {victim.label}: no one may move it"
        distance = state.geometry.distance(source.pos, victim.pos)
        if distance > p["range"]:
            return f"{victim.label} is {distance} spaces away, beyond Lure's range {p['range']}"
        ctx = VictimContext(state, victim.uid)
        return check_path(ctx, victim.pos, list(action.path), ctx.budget(victim.pos, self.STEPS))

    def actions(self, state: GameState, source: Monster, name: str, p: Params, base: list[Any]) -> list[Any]:
        if source.immovable:
            return []  # no move action for an immovable monster (HC-HOURGLASS-02)
        found: list[Any] = []
        for victim in state.victims:
            if (
                victim.state == ON_MAP
                and victim.face_up
                and state.geometry.distance(source.pos, victim.pos) <= p["range"]
                and not plots.frozen(state, victim.uid)
            ):
                ctx = VictimContext(state, victim.uid)
                for path in destinations(ctx, victim.pos, ctx.budget(victim.pos, self.STEPS)).values():
                    found.append(LureVictim(source.uid, victim.uid, tuple(path), name))
        return found
