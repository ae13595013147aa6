"""The powers HeroClix plays so far, by name (HX-POWER, read in 2005 terms): only those whose effects 002 itself
gives, Super Strength (HX-OBJECT-07..11); the rest of the card comes in part 2. A character naming another power
is refused with its name."""

from __future__ import annotations

from clix.engine.core.ruleset import PowerSpec

POWERS: dict[str, PowerSpec] = {
    "Super Strength": PowerSpec(
        "Super Strength",
        "passive",
        "May pick up an object in its square or an adjacent one while moving, hold one, and use it in close combat "
        "(+1 or +2 damage) or throw it (6 or 4 squares, 2 or 3 damage); dropped where it stands when KO'd.",
        "002 L1172-1220",
    ),
}


def power_named(name: str) -> str:
    """A power's name as the ruleset spells it (names are matched without regard to case, contract section 4)."""
    return next((known for known in POWERS if known.lower() == name.strip().lower()), name)
