"""Powers (shown by a coloured circle on the dial) and abilities (always on for a card side).

The texts here are clix's own wording. The HorrorClix documents name many powers without giving
their text (HC-DATA-27); where a name comes from the rules its effect follows what they say of it,
and every other power is ours, designed for the sample figures (see docs/rulings.md).

`trigger` says when a power acts (HC-CARD-08): `always` while its colour shows, or `move`,
`close`, `ranged` for a dependant power named when the action is given, or an event:
`turn_start`, `slay`, `hit`, `damaged`, `kill`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clix.engine.horrorclix.registry.params import COMBAT_VALUES, ParamSpec

TRIGGERS = ("always", "move", "close", "ranged", "turn_start", "slay", "hit", "damaged", "kill")


@dataclass(frozen=True)
class PowerSpec:
    """A power the engine knows by name."""

    name: str
    trigger: str
    summary: str
    params: dict[str, ParamSpec] = field(default_factory=dict)
    source: str = "clix sample design"


@dataclass(frozen=True)
class AbilitySpec:
    """A card ability: in effect for the whole card side, with no colour on the dial."""

    name: str
    summary: str
    params: dict[str, ParamSpec] = field(default_factory=dict)
    source: str = "clix sample design"


def _amount(help_text: str = "how much", minimum: int = 1) -> ParamSpec:
    return ParamSpec(int, minimum=minimum, help=help_text)


_POWER_LIST: list[PowerSpec] = [
    PowerSpec(
        "Slash",
        "hit",
        "On a hit, roll a d6 and replace this monster's damage value with the result (also in a frenzy).",
        source="000 §6 Frenzy example (HC-DATA-05)",
    ),
    PowerSpec(
        "Blood Drinker",
        "hit",
        "When this monster damages an opposing monster with a close attack, heal this monster of `amount` damage.",
        {"amount": _amount()},
    ),
    PowerSpec("Feast", "slay", "When this monster slays a victim, heal it of `amount` damage.", {"amount": _amount()}),
    PowerSpec(
        "Stamina",
        "damaged",
        "Damage dealt to this monster is reduced by 1.",
        source="named in 000/001 (HC-DATA-27); text ours",
    ),
    PowerSpec(
        "Invulnerability",
        "damaged",
        "Damage dealt to this monster is reduced by 2.",
        source="named in 000/001 (HC-DATA-27); text ours",
    ),
    PowerSpec(
        "Penetrating Strike",
        "always",
        "Damage this monster deals is penetrating: damage reducers do not reduce it (HC-COMBAT-27).",
    ),
    PowerSpec(
        "Prey on the Weak", "always", "+`amount` to attack rolls against a vulnerable target.", {"amount": _amount()}
    ),
    PowerSpec(
        "Execution",
        "close",
        "Close combat action against a vulnerable target: damage value becomes `damage`.",
        {"damage": _amount()},
    ),
    PowerSpec(
        "Dodge",
        "damaged",
        "When hit by an attack (critical hits too), roll a d6: on 5-6 the hit is evaded.",
        source="named in 001 (HC-COMBAT-31); text ours",
    ),
    PowerSpec(
        "Martial Artist",
        "damaged",
        "When hit by a close attack (critical hits too), roll a d6: on 4-6 the hit is evaded.",
        source="named in 001 (HC-COMBAT-31); text ours",
    ),
    PowerSpec(
        "Insanity",
        "turn_start",
        "In its owner's preview phase roll a d6; below `threshold` the monster goes insane (HC-SPECIAL-07).",
        {"threshold": ParamSpec(int, choices=(2, 3, 4, 5, 6))},
        source="000 §9 Insanity",
    ),
    PowerSpec(
        "Injection",
        "close",
        "Close combat action: on a hit, deal no damage; the target goes insane "
        "until its owner's next turn (HC-SPECIAL-19).",
        source="001 §9",
    ),
    PowerSpec(
        "Possession",
        "close",
        "Close combat action: on a hit, deal no damage; the target becomes "
        "this player's puppet until the end of the turn (HC-SPECIAL-09).",
        source="000 §9 Possession",
    ),
    PowerSpec(
        "Raise Minion",
        "slay",
        "Instead of slaying a victim, replace it with a minion token with "
        "these values; the monster is not blooded (HC-SPECIAL-06, HC-SLAY-16).",
        {
            "speed": _amount(minimum=0),
            "attack": _amount(minimum=0),
            "defense": _amount(minimum=0),
            "damage": _amount(minimum=0),
            "points": ParamSpec(int, required=False, minimum=0),
        },
        source="000 §9 Minions; values ours",
    ),
    PowerSpec(
        "Focus",
        "ranged",
        "Ranged combat action: +`attack` to the attack roll and -`defense` to "
        "this monster's defense until its next turn.",
        {"attack": _amount(), "defense": _amount()},
        source="named in 001 (HC-DATA-24); text ours",
    ),
    PowerSpec(
        "Grave",
        "kill",
        "When this monster kills a monster, turn its dial to the green starting line and flip its card.",
        source="001 errata (HC-DATA-22)",
    ),
    PowerSpec(
        "Terror",
        "always",
        "Opposing monsters adjacent to this monster get -1 to attack.",
    ),
    PowerSpec(
        "Frenzied Strength", "always", "In a frenzy, this monster's damage stays its dial value instead of becoming 1."
    ),
    PowerSpec(
        "Hellfire",
        "ranged",
        "Ranged combat action: damage dealt is unpreventable.",
    ),
    PowerSpec(
        "Pounce",
        "move",
        "Move action: after moving, make a close attack as a free action even if not blooded, with damage 1.",
    ),
    PowerSpec(
        "Shriek",
        "ranged",
        "Ranged combat action: each hit target gets an action token instead of taking damage if it has none.",
    ),
    PowerSpec(
        "Regeneration",
        "turn_start",
        "In its controller's preview phase, roll a d6: on 5-6 heal 1.",
    ),
    PowerSpec(
        "Lure",
        "move",
        "Move action: instead of moving, move one face-up victim within `range` spaces up to 2 spaces.",
        {"range": _amount()},
    ),
    PowerSpec("Toughened Hide", "always", "+`amount` defense against ranged attacks.", {"amount": _amount()}),
    PowerSpec(
        "Sure Shot",
        "ranged",
        "Ranged combat action: the hindering +1 defense does not apply.",
    ),
    PowerSpec(
        "Cabal Rally",
        "always",
        "Cabal power: while the leader is in play and sane, `who` "
        "(members: every friendly member; leader: this monster) gets +`amount` to `stat`.",
        {
            "stat": ParamSpec(str, choices=COMBAT_VALUES),
            "amount": _amount(),
            "who": ParamSpec(str, choices=("members", "leader")),
        },
        source="cabal mechanics 000 §3, 001 §3 (HC-SPECIAL-05, -14); effect ours",
    ),
    PowerSpec(
        "Cabal Feast",
        "kill",
        "Cabal power: when a friendly member kills a monster, heal a different friendly member of 1 damage.",
        source="R'lyeh power as told in 001 §3 (HC-DATA-14)",
    ),
    PowerSpec(
        "Cabal Command",
        "turn_start",
        "Cabal power: once per turn a friendly member may be given one extra action (with an action token).",
        source="Furies power as told in 001 (HC-SPECIAL-16)",
    ),
    PowerSpec(
        "Pack Tactics",
        "always",
        "Cabal power (this monster): +`amount` attack when another friendly member is adjacent to the target.",
        {"amount": _amount()},
        source="Wolf Brothers power as told in 001 (HC-SPECIAL-15); amount ours",
    ),
]

_ABILITY_LIST: list[AbilitySpec] = [
    AbilitySpec(
        "Ghost",
        "Automatically breaks away and ignores hindering terrain, monsters, portals, victims "
        "and walls for movement; passes indoor blocking terrain.",
        source="001 errata (HC-DATA-16)",
    ),
    AbilitySpec(
        "Leap/Climb",
        "Automatically breaks away and ignores monsters, victims, hindering terrain and "
        "outdoor blocking terrain for movement.",
        source="001 errata (HC-DATA-17)",
    ),
    AbilitySpec(
        "Rescuer",
        "Benevolent: rescues victims instead of slaying them (HC-SLAY-03, HC-SLAY-11).",
        source="000 §6 Rescuing Victims",
    ),
]

POWERS: dict[str, PowerSpec] = {p.name: p for p in _POWER_LIST}
ABILITIES: dict[str, AbilitySpec] = {a.name: a for a in _ABILITY_LIST}
