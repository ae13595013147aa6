"""Powers that change what a character's attacks deal, or what they bring it (HX-POWER, read in 2005 terms):
Exploit Weakness makes the damage of its close attacks penetrating (HX-POWER-40, HX-PAC-06); Precision Strike keeps
a hit target's damage taken at 1 or more and lowers its Super Senses roll by 1 (HX-POWER-21); Steal Energy heals
its user 1 click after a close attack that damaged (HX-POWER-23); Empower and Enhancement add 1 to the damage value
of adjacent friends' close and ranged attacks, on terrain too (HX-POWER-45, -41); the Combat Experts add 1 to their
own attacks' attack and damage values (HX-POWER-37, -44); `damage_modifier` sums a damage value's modifiers within
the rule of 3."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.defenses import capped
from clix.engine.heroclix.powers import (
    CLOSE_EXPERT,
    EMPOWER,
    ENHANCEMENT,
    EXPLOIT_WEAKNESS,
    PRECISION_STRIKE,
    RANGED_EXPERT,
    STEAL_ENERGY,
)  # fmt: skip
from clix.engine.heroclix.scoring import heal
from clix.engine.heroclix.sides import adjacency, team
from clix.engine.heroclix.state import Close, HeroState, Ranged, Telekinesis, Throw

PRECISION_FLOOR = 1
"""Damage taken from a Precision Strike attack is never reduced below this (HX-POWER-21)."""
PRECISION_SENSES = 1
"""What a Precision Strike attack takes off its target's Super Senses d6 (HX-POWER-21, -25)."""
STOLEN_CLICKS = 1
"""Clicks Steal Energy heals after a close attack that damaged (HX-POWER-23)."""
EXPERT_BONUS = 1
"""Ranged and Close Combat Expert's modifier to attack and to damage (HX-POWER-37, -44)."""
BOOST = 1
"""What each adjacent friend showing Empower (close) or Enhancement (ranged) adds to the damage value
(HX-POWER-45, -41)."""


def exploits(attacker: Figure, close: bool) -> bool:
    """Whether the damage of `attacker`'s attack is penetrating by Exploit Weakness: a close attack (HX-POWER-40)."""
    return close and EXPLOIT_WEAKNESS in attacker.powers


def senses_handicap(attacker: Figure) -> int:
    """What `attacker`'s Precision Strike takes off a target's Super Senses roll (HX-POWER-21)."""
    return PRECISION_SENSES if PRECISION_STRIKE in attacker.powers else 0


def floored(attacker: Figure, dealt: int, taken: int) -> int:
    """The damage a target takes of `dealt`, `taken` after its reducers: with Precision Strike never reduced
    below 1 (HX-POWER-21: after every reducer, an Impervious roll included); damage dealt below 1 is not raised."""
    if PRECISION_STRIKE not in attacker.powers:
        return taken
    return max(taken, min(dealt, PRECISION_FLOOR))


def boost(state: HeroState, attacker: Figure, close: bool) -> int:
    """What adjacent friends add to the damage value of `attacker`'s close (Empower) or ranged (Enhancement)
    attack: 1 each, stacking (HX-POWER-45, -41); not the user's own power, not an opponent's. Adjacent as for
    Support: one square apart, not across a wall, on one level and layer (HX-MOVE-03)."""
    power = EMPOWER if close else ENHANCEMENT
    friends = 0
    side, known = 0, False
    figures: list[Figure] = state.monsters  # typed: compiled, a figure's fields are read directly
    for c in figures:  # the power first: most characters show neither, and no list is built
        if c.alive and c.uid != attacker.uid and power in c.powers:
            if not known:
                side, known = team(state, attacker.controller), True
            if team(state, c.controller) == side and adjacency(state, attacker, c) == 1:
                friends += 1
    return BOOST * friends


def steal_energy(state: HeroState, attacker: Figure, damaged: bool) -> None:
    """Steal Energy: once a close attack that damaged at least one hit character has resolved, its user heals 1
    click, never past its starting click (HX-POWER-23, HX-DAMAGE-05)."""
    if damaged and attacker.alive and STEAL_ENERGY in attacker.powers:
        heal(state, attacker, STOLEN_CLICKS)


def damage_modifier(state: HeroState, attacker: Figure, action: Close | Ranged | Throw | Telekinesis) -> int:
    """The modifiers to the damage value of `attacker`'s attack, within the rule of 3 (HX-VALUE-05, -07): an
    expert's +1 and adjacent friends' Empower or Enhancement (HX-POWER-37, -44, -45, -41); a Telekinesis attack
    (a power action) has none."""
    friends = 0 if isinstance(action, Telekinesis) else boost(state, attacker, isinstance(action, Close))
    return capped(expert_bonus(attacker, action) + friends)


def expert_bonus(attacker: Figure, action: Close | Ranged | Throw | Telekinesis) -> int:
    """Ranged or Close Combat Expert's +1 to attack and to damage for the attack `action` (HX-POWER-37, -44)."""
    if isinstance(action, Close):
        return EXPERT_BONUS if CLOSE_EXPERT in attacker.powers else 0
    if isinstance(action, (Ranged, Throw)):
        return EXPERT_BONUS if RANGED_EXPERT in attacker.powers else 0
    return 0
