"""The powers HeroClix plays so far, by name (HX-POWER, read in 2005 terms): only those whose effects 002 itself
gives, Super Strength (HX-OBJECT-07..11) and Telekinesis (HX-OBJECT-12..16); the rest of the card comes in part 2.
A character naming another power is refused with its name."""

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
    "Telekinesis": PowerSpec(
        "Telekinesis",
        "action",
        "Power action: move an object in or next to its square up to 10 squares (counted from the object) to clear "
        "or hindering terrain in its line of fire; or hurl it at an opposing character next to it or up to 10 "
        "squares from the object (5 if soaring): an attack for 2 (light) or 3 (heavy) damage, the object used up; "
        "or place an adjacent character up to 10 squares away.",
        "002 L1221-1247",
    ),
}


def power_named(name: str) -> str:
    """A power's name as the ruleset spells it (names are matched without regard to case, contract section 4)."""
    return next((known for known in POWERS if known.lower() == name.strip().lower()), name)
