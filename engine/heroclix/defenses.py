"""The defense powers that change what an attack does to its target (HX-POWER, read in 2005 terms): damage
reducers (Toughness -1, Invulnerability and Impervious -2: damage taken, knockback damage included, never
pushing damage or the critical-miss click, HX-DAMAGE-01, -08, HX-KNOCK-08), Super Senses' evade roll (5-6: the
attack misses this target, HX-EFFECT-08), Impervious' roll (5-6: no damage taken from the attack) and Defend (an
adjacent friend's unmodified defense value in place of the target's own, HX-POWER-27). Their dice come in the
contract's order: each hit target's evade die right after the attack roll, then the dice that set the damage
(scenario-format-heroclix.md section 6)."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import DEFEND
from clix.engine.heroclix.sides import adjacency, team
from clix.engine.heroclix.state import HeroState

TOUGHNESS = "Toughness"
INVULNERABILITY = "Invulnerability"
IMPERVIOUS = "Impervious"
INVINCIBLE = "Invincible"
SUPER_SENSES = "Super Senses"
COMBAT_REFLEXES = "Combat Reflexes"
ENERGY_SHIELD = "Energy Shield/Deflection"
REDUCTION = {TOUGHNESS: 1, INVULNERABILITY: 2, IMPERVIOUS: 2, INVINCIBLE: 2}
"""Damage taken less this much, by power (HX-POWER-26, -36, -34, -33)."""
DEFENSE_BONUS = 2
"""Combat Reflexes against close attacks, Energy Shield/Deflection against ranged ones (HX-POWER-28, -29)."""
RULE_OF_THREE = 3
"""No combat value is modified by more than this, up or down (HX-VALUE-05): powers override the standard rules, the
rule of 3 overrides powers (HX-EFFECT-06)."""
EVADES_AT = 5
"""The lowest d6 with which Super Senses evades (HX-POWER-25)."""
IMPERVIOUS_AT = 5
"""The lowest d6 with which Impervious turns an attack's damage to 0 (HX-POWER-34 OPEN: 5-6)."""


def reduced(character: Figure, damage: int, penetrating: bool = False) -> int:
    """The damage `character` takes of `damage` dealt to it, after its damage reducer (the best showing; only
    Invincible against penetrating damage, HX-PAC-06), never below 0 (HX-DAMAGE-02)."""
    return max(0, damage - reducer(character, penetrating))


def reducer(character: Figure, penetrating: bool = False) -> int:
    """How much `character`'s damage reducer takes off damage dealt to it (`reduced`, before the floor of 0): the
    best showing, only Invincible against penetrating damage (HX-PAC-06), 0 with none."""
    powers = character.powers
    cut = 0  # every reducer takes at least 1: the best showing, or none
    if penetrating:
        if INVINCIBLE in powers:
            cut = REDUCTION[INVINCIBLE]
    else:
        for name, amount in REDUCTION.items():
            if amount > cut and name in powers:
                cut = amount
    return cut


def capped(modifier: int) -> int:
    """A combat value's modifiers, summed, within the rule of 3 (HX-VALUE-05)."""
    return max(-RULE_OF_THREE, min(RULE_OF_THREE, modifier))


def defense_bonus(character: Figure, close: bool) -> int:
    """What its powers add to `character`'s defense against a close (or else a ranged) attack (HX-POWER-28, -29;
    a thrown object and a Telekinesis attack are ranged, HX-OBJECT-15 OPEN)."""
    return DEFENSE_BONUS if (COMBAT_REFLEXES if close else ENERGY_SHIELD) in character.powers else 0


def defense_value(state: HeroState, target: Figure) -> int:
    """The defense value `target` uses against an attack, before modifiers: its own, or the unmodified defense
    value of an adjacent friend showing Defend, whichever is higher (HX-POWER-27: a replacement the defender may
    choose; its OPEN: the best of several). Adjacent as for Support (one square, HX-MOVE-03)."""
    best = target.defense
    side, known = 0, False
    figures: list[Figure] = state.monsters  # typed: compiled, a figure's fields are read directly
    for c in figures:  # Defend first: most characters do not show it, and no list is built
        if c.alive and c.uid != target.uid and DEFEND in c.powers and c.defense > best:  # as max([own, *lent])
            if not known:
                side, known = team(state, target.controller), True
            if team(state, c.controller) == side and adjacency(state, target, c) == 1:
                best = c.defense
    return best


def evades(state: HeroState, target: Figure, handicap: int = 0) -> bool:
    """Super Senses' roll for a target an attack hit: True when it evades (HX-POWER-25, HX-EFFECT-08); the roll
    counts `handicap` less (Precision Strike, HX-POWER-21)."""
    return _rolls(state, target, SUPER_SENSES, EVADES_AT + handicap, EventKind.EVADE_ROLL)


def shrugs_off(state: HeroState, target: Figure) -> bool:
    """Impervious' roll when an attack would damage `target`: True when it takes no damage (HX-POWER-34)."""
    return _rolls(state, target, IMPERVIOUS, IMPERVIOUS_AT, EventKind.IMPERVIOUS_ROLL)


def _rolls(state: HeroState, target: Figure, power: str, needed: int, kind: EventKind) -> bool:
    """A d6 for `target`'s `power` when it shows: True on `needed` or more (logged as `kind`)."""
    if power not in target.powers:
        return False
    roll = decisions.d6(state)
    state.emit(kind, character=target.label, roll=roll, succeeded=roll >= needed)
    return roll >= needed
