"""The powers HeroClix plays so far, by name (HX-POWER, read in 2005 terms): those whose effects 002 itself gives,
Super Strength (HX-OBJECT-07..11) and Telekinesis (HX-OBJECT-12..16), and the first of the card's (part 2):
Flurry, Charge, Running Shot, Super Senses, Toughness, Invulnerability, Impervious, Regeneration, Support,
Leap/Climb, Blades/Claws/Fangs, Penetrating/Psychic Blast, Combat Reflexes, Energy Shield/Deflection, Willpower,
Invincible and the two Combat Experts; eleven that need no power action (passive, modifiers, movement): Exploit
Weakness, Precision Strike, Steal Energy, Empower, Enhancement, Defend, Plasticity, Stealth, Battle Fury,
Phasing/Teleport and Earthbound/Neutralized; and ten used as actions: Force Blast, Poison, Sidestep, Quake,
Energy Explosion, Incapacitate, Smoke Cloud, Barrier, Pulse Wave and Hypersonic Speed; and Leadership, Perplex,
Outwit, Shape Change, Mastermind, Probability Control and Mind Control: all 48 of the card. A character naming
another power is refused with its name."""

from __future__ import annotations

from clix.engine.core.ruleset import PowerSpec

FLURRY = "Flurry"
BLADES = "Blades/Claws/Fangs"
PSYCHIC_BLAST = "Penetrating/Psychic Blast"
RANGED_EXPERT = "Ranged Combat Expert"
CLOSE_EXPERT = "Close Combat Expert"
LEAP_CLIMB = "Leap/Climb"
WILLPOWER = "Willpower"
EXPLOIT_WEAKNESS = "Exploit Weakness"
PRECISION_STRIKE = "Precision Strike"
STEAL_ENERGY = "Steal Energy"
EMPOWER = "Empower"
ENHANCEMENT = "Enhancement"
DEFEND = "Defend"
PLASTICITY = "Plasticity"
STEALTH = "Stealth"
BATTLE_FURY = "Battle Fury"
PHASING = "Phasing/Teleport"
EARTHBOUND = "Earthbound/Neutralized"
FORCE_BLAST = "Force Blast"
QUAKE = "Quake"
ENERGY_EXPLOSION = "Energy Explosion"
INCAPACITATE = "Incapacitate"
SMOKE_CLOUD = "Smoke Cloud"
BARRIER = "Barrier"
PULSE_WAVE = "Pulse Wave"
HYPERSONIC = "Hypersonic Speed"
LEADERSHIP = "Leadership"
PERPLEX = "Perplex"
OUTWIT = "Outwit"
SHAPE_CHANGE = "Shape Change"
MASTERMIND = "Mastermind"
PROBABILITY_CONTROL = "Probability Control"
MIND_CONTROL = "Mind Control"
MINIMUM_RANGE = 6
"""The range a power "within range (counting at least 6)" uses when the character's is lower (HX-PAC-03)."""

POWERS: dict[str, PowerSpec] = {
    "Super Strength": PowerSpec(
        "Super Strength",
        "passive",
        "May pick up an object in its square or an adjacent one while moving, hold one, and use it in close combat "
        "(+1 or +2 damage) or throw it (6 or 4 squares, 2 or 3 damage); dropped where it stands when KO'd.",
        "002 L1172-1220",
    ),
    "Telekinesis": PowerSpec(
        "Telekinesis",
        "action",
        "Power action: move an object in or next to its square up to 10 squares (counted from the object) to clear "
        "or hindering terrain in its line of fire; or hurl it at an opposing character next to it or up to 10 "
        "squares from the object (5 if soaring): an attack for 2 (light) or 3 (heavy) damage, the object used up; "
        "or place an adjacent character up to 10 squares away.",
        "002 L1221-1247",
    ),
    FLURRY: PowerSpec(
        FLURRY, "action", "Given a close combat action, up to two close attacks, each with its own roll.", "004 L295"
    ),
    "Charge": PowerSpec(
        "Charge",
        "action",
        "Power action: move at half speed (rounded up), then a close combat attack as a free action.",
        "004 L31",
    ),
    "Running Shot": PowerSpec(
        "Running Shot",
        "action",
        "Power action: move at half speed (rounded up), then a ranged combat attack as a free action.",
        "004 L103",
    ),
    "Super Senses": PowerSpec(
        "Super Senses", "defense", "When hit, roll a d6: on 5-6 the attack misses this character.", "004 L270"
    ),
    "Toughness": PowerSpec("Toughness", "defense", "Damage taken -1 (knockback damage too).", "004 L75"),
    "Invulnerability": PowerSpec("Invulnerability", "defense", "Damage taken -2 (knockback damage too).", "004 L146"),
    "Impervious": PowerSpec(
        "Impervious",
        "defense",
        "Damage taken -2; when an attack would damage it, roll a d6: on 5-6 it takes no damage.",
        "004 L134",
    ),
    "Regeneration": PowerSpec(
        "Regeneration", "action", "Power action: roll a d6 and heal half the result, rounded up.", "004 L140"
    ),
    "Support": PowerSpec(
        "Support",
        "action",
        "Power action: an adjacent friend, neither next to an opponent; 2d6 + attack >= its defense heals a d6 - 2 "
        "(at least 1); 2 clicks the friend, 12 heals 1 more.",
        "004 L118-122; 002 L782-785",
    ),
    LEAP_CLIMB: PowerSpec(
        LEAP_CLIMB,
        "move",
        "With a move action: breaks away automatically and ignores characters, hindering terrain, elevated terrain "
        "and outdoor blocking terrain for movement; never ends on blocking terrain or an occupied square.",
        "004 L19; 002 L1066-1068, L1132-1135 (HX-POWER-02 OPEN: the 2005 text is lost)",
    ),
    BLADES: PowerSpec(
        BLADES,
        "attack",
        "Declared with a close attack on one target: on a hit roll a d6 for the damage value (at least the "
        "unmodified damage value - 1); modifiers then apply.",
        "004 L287-288",
    ),
    PSYCHIC_BLAST: PowerSpec(
        PSYCHIC_BLAST,
        "attack",
        "Its ranged attacks deal penetrating damage: no reducer but Invincible lowers it.",
        "004 L130, L272",
    ),
    "Combat Reflexes": PowerSpec("Combat Reflexes", "defense", "Defense +2 against close attacks.", "004 L85"),
    "Energy Shield/Deflection": PowerSpec(
        "Energy Shield/Deflection", "defense", "Defense +2 against ranged attacks, thrown objects included.", "004 L89"
    ),
    WILLPOWER: PowerSpec(
        WILLPOWER,
        "turn",
        "At the beginning of its controller's turn roll a d6: on 5-6 remove one action token from it.",
        "004 L255-256",
    ),
    "Invincible": PowerSpec(
        "Invincible", "defense", "Damage taken -2, penetrating and knockback damage included.", "004 L257"
    ),
    RANGED_EXPERT: PowerSpec(
        RANGED_EXPERT, "attack", "Attack +1 and damage +1 for its ranged attacks, on terrain too.", "004 L107-108"
    ),
    CLOSE_EXPERT: PowerSpec(
        CLOSE_EXPERT, "attack", "Attack +1 and damage +1 for its close attacks, on terrain too.", "004 L138, L199"
    ),
    EXPLOIT_WEAKNESS: PowerSpec(
        EXPLOIT_WEAKNESS,
        "attack",
        "Its close attacks deal penetrating damage: no reducer but Invincible lowers it.",
        "004 L126, L224",
    ),
    PRECISION_STRIKE: PowerSpec(
        PRECISION_STRIKE,
        "attack",
        "When it attacks, damage a hit target takes is not reduced below 1, and the target's Super Senses roll is -1.",
        "004 L207, L228",
    ),
    STEAL_ENERGY: PowerSpec(
        STEAL_ENERGY,
        "attack",
        "After a close attack that damages 1 or more hit characters, it heals 1 click.",
        "004 L178, L230; 002 L750-752",
    ),
    EMPOWER: PowerSpec(
        EMPOWER,
        "passive",
        "Adjacent friendly characters get damage +1 for their close attacks, on terrain too (stacking, within the "
        "rule of 3).",
        "004 L144, L200",
    ),
    ENHANCEMENT: PowerSpec(
        ENHANCEMENT,
        "passive",
        "Adjacent friendly characters get damage +1 for their ranged attacks, on terrain and thrown objects too "
        "(stacking, within the rule of 3).",
        "004 L167, L189; 002 L356-357",
    ),
    DEFEND: PowerSpec(
        DEFEND,
        "defense",
        "Adjacent friendly characters may replace their defense value with this character's unmodified one.",
        "004 L81, L105",
    ),
    PLASTICITY: PowerSpec(
        PLASTICITY,
        "move",
        "Breaks away on 2-6; adjacent opponents without Phasing/Teleport, Plasticity, Leap/Climb or Hypersonic "
        "Speed break away from it only on a 6 (giants ignore it).",
        "004 L48, L264-265; 002 L1353-1354",
    ),
    STEALTH: PowerSpec(
        STEALTH,
        "defense",
        "When it is not its controller's turn, a line of fire to it from a non-adjacent character that would be "
        "hindered is blocked.",
        "004 L69; 002 L358",
    ),
    BATTLE_FURY: PowerSpec(
        BATTLE_FURY,
        "passive",
        "No ranged attacks or ranged combat actions (no throwing, no power action with a ranged attack); cannot "
        "be carried, given action tokens by opponents or targeted by Mind Control; its attacks bar Shape Change. "
        "Compulsory.",
        "004 L112-114",
    ),
    PHASING: PowerSpec(
        PHASING,
        "move",
        "When it moves: breaks away automatically and ignores walls, blocking, hindering and elevated terrain, "
        "water and characters; never ends on blocking terrain or an occupied square.",
        "004 L23; 002 L1136-1138 (HX-POWER-03 OPEN: the icons are lost)",
    ),
    EARTHBOUND: PowerSpec(
        EARTHBOUND,
        "passive",
        "While it shows, the character has the boot speed mode: no flight (a flier is grounded), swimming, "
        "carrying or transporter attack on the move. Compulsory.",
        "004 L27, L42 (HX-POWER-04 OPEN: the list is lost)",
    ),
    FORCE_BLAST: PowerSpec(
        FORCE_BLAST,
        "action",
        "Power action: an opposing character within range (at least 6) and clear line of fire is knocked back 3 "
        "squares directly away (not an attack: no roll); giants, big characters and transporters are unaffected.",
        "004 L54, L266; 002 L1320-1321, L1353-1354",
    ),
    "Poison": PowerSpec(
        "Poison",
        "free",
        "Free action, once per turn, if it has not moved or been placed this turn: 1 damage to each adjacent "
        "opposing character (not an attack: no roll; reducers apply).",
        "004 L173, L240",
    ),
    "Sidestep": PowerSpec(
        "Sidestep",
        "free",
        "Free action, once per turn: move up to 2 squares (not halved), breaking away and stopping as any move.",
        "004 L60",
    ),
    QUAKE: PowerSpec(
        QUAKE,
        "attack",
        "Declared with a close attack: it targets every adjacent opposing character (a giant's two squares too), "
        "one roll against each; with two or more targets each one hit is dealt 2 damage instead.",
        "004 L238, L290-291",
    ),
    ENERGY_EXPLOSION: PowerSpec(
        ENERGY_EXPLOSION,
        "attack",
        "Declared with a ranged attack: every other character adjacent to one of its targets becomes a target too "
        "(no range or line of fire needed), one roll against each; each one hit is dealt 2 damage instead.",
        "004 L77, L301; 002 L358",
    ),
    INCAPACITATE: PowerSpec(
        INCAPACITATE,
        "attack",
        "Declared with a close or ranged attack: each character hit gets an action token instead of damage (a second "
        "token deals pushing damage, never a third); no critical-hit damage, critical-miss click or knockback.",
        "004 L155, L236; 002 L467-470",
    ),
    SMOKE_CLOUD: PowerSpec(
        SMOKE_CLOUD,
        "action",
        "Power action: up to 6 hindering terrain markers within range (at least 6), touching one another, one in "
        "line of fire; opposing characters on them get attack -1; gone at the beginning of its player's next turn.",
        "004 L157, L259-262; 002 L238-240",
    ),
    BARRIER: PowerSpec(
        BARRIER,
        "action",
        "Power action: up to 4 blocking terrain markers on empty squares within range (at least 6), touching one "
        "another, one in line of fire; they may be destroyed; gone at the beginning of its player's next turn.",
        "004 L93, L248-250; 002 L238-240",
    ),
    PULSE_WAVE: PowerSpec(
        PULSE_WAVE,
        "attack",
        "Declared with a ranged attack: range halved; it targets every other character within it and in line of fire "
        "(characters do not block it), one roll against unmodified defense; those in range use no powers during "
        "it; with two or more targets each one hit is dealt 1 damage instead.",
        "004 L95-101",
    ),
    LEADERSHIP: PowerSpec(
        LEADERSHIP,
        "turn",
        "While one of its player's characters shows it, that player's action total is +1 (once; checked as the turn "
        "begins); at the beginning of its controller's turn roll a d6: on 5-6 remove an action token from an "
        "adjacent friendly character with fewer points.",
        "004 L317-320",
    ),
    PERPLEX: PowerSpec(
        PERPLEX,
        "free",
        "Free action, once per turn: another character within range (at least 6) and line of fire, friend or foe, "
        "gets speed, attack, defense or range +1 or -1 until the beginning of its user's next turn (a modifier).",
        "004 L150, L202-203",
    ),
    OUTWIT: PowerSpec(
        OUTWIT,
        "free",
        "Free action, once per turn: choose an opposing character within range (at least 6) and line of fire and any "
        "standard power; it cannot use that power (countered) until the beginning of its user's next turn.",
        "004 L311-313; 002 L353-355, L1503-1504",
    ),
    SHAPE_CHANGE: PowerSpec(
        SHAPE_CHANGE,
        "defense",
        "When targeted by an attack, roll a d6: on 5-6 the attacker may not target it this turn and may choose another "
        "target instead (not against Battle Fury, not during a Pulse Wave).",
        "004 L196-198",
    ),
    MASTERMIND: PowerSpec(
        MASTERMIND,
        "defense",
        "When an opponent's attack that deals damage would hit it, an adjacent friendly character with fewer points "
        "that the attack does not hit may be hit instead and takes the damage (its own reducers apply; no chains).",
        "004 L251-254",
    ),
    PROBABILITY_CONTROL: PowerSpec(
        PROBABILITY_CONTROL,
        "reaction",
        "Once per turn: a character within range (at least 6) and line of fire, own side or opposing, rerolls an "
        "attack roll or break-away roll it has just made, in any player's turn; the new result stands.",
        "004 L171, L191-192",
    ),
    MIND_CONTROL: PowerSpec(
        MIND_CONTROL,
        "attack",
        "Declared with a close or ranged attack (range at least 6), which deals no damage: each character hit, its "
        "speed halved, becomes friendly to the attacker's force and, one at a time, may move and make one attack as "
        "free actions, then returns to its own force. Not against Battle Fury.",
        "004 L35, L274-275; 002 L188-190, L372-374, L445-448",
    ),
    HYPERSONIC: PowerSpec(
        HYPERSONIC,
        "action",
        "Power action: range halved; move, make one close or ranged attack, then move again up to its speed minus "
        "the squares moved; it may pass squares next to opponents (breaking away as a move begins).",
        "004 L64-67",
    ),
}


def power_named(name: str) -> str:
    """A power's name as the ruleset spells it (names are matched without regard to case, contract section 4)."""
    return next((known for known in POWERS if known.lower() == name.strip().lower()), name)
