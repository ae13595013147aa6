"""Compact dial notation: one string per click.

A click is written "speed attack defense damage", e.g. ``"7 10:red 17:orange 3"``. Each value is a
whole number or ``h`` (an hourglass in that slot, HC-HOURGLASS-02..04), optionally followed by
``:colour`` naming the power circle printed on it (HC-CARD-05). A killed click (three skulls,
HC-COMBAT-11) is written ``x``. The scenario format's inline dial ("6 9 16 3", "h", "x") is a
subset of this notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SLOTS = ("speed", "attack", "defense", "damage")
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "brown", "gray", "black", "pink")
HOURGLASS = "h"
KILLED = "x"
MAX_VALUE = 30
"""The largest number a dial slot may show: the sample figures reach 18 and the scenarios 20; a dial window
holds two digits, and 30 leaves room for any real figure while refusing typos like 170."""
MAX_CLICKS = 20
"""The most clicks (killed ones included) a dial may have: the sample figures have at most 14."""
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class DialValue:
    """One slot of one click: a number, or None for an hourglass, and the power colour if any."""

    number: int | None
    colour: str | None = None

    @property
    def hourglass(self) -> bool:
        return self.number is None

    def __str__(self) -> str:
        text = HOURGLASS if self.number is None else str(self.number)
        return f"{text}:{self.colour}" if self.colour else text


@dataclass(frozen=True, slots=True)
class Click:
    """One click of a dial: four values, or a killed click."""

    values: tuple[DialValue, DialValue, DialValue, DialValue] | None

    @property
    def killed(self) -> bool:
        return self.values is None

    @property
    def hourglass(self) -> bool:
        """Whether any slot shows an hourglass (the hourglass state, HC-HOURGLASS-05)."""
        return self.values is not None and any(v.number is None for v in self.values)

    def value(self, slot: str) -> DialValue:
        if self.values is None:
            raise ValueError("a killed click has no values")
        return self.values[SLOTS.index(slot)]

    def __str__(self) -> str:
        return KILLED if self.values is None else " ".join(str(v) for v in self.values)


def parse_value(token: str, slot: str) -> DialValue:
    """Parse one slot token such as ``10``, ``10:red`` or ``h``; raise ValueError saying what is wrong."""
    text, _, colour = token.partition(":")
    if colour and colour not in COLOURS:
        raise ValueError(f"{slot} '{token}': unknown colour '{colour}' (use one of {', '.join(COLOURS)})")
    if text.lower() == HOURGLASS:
        return DialValue(None, colour or None)
    # ASCII digits only: str.isdigit() would read a full-width '６' as 6
    if not _NUMBER.fullmatch(text):
        hint = "; write it with the digits 0-9" if any(c.isdigit() and not c.isascii() for c in text) else ""
        raise ValueError(f"{slot} '{token}' is not a whole number or 'h' (hourglass){hint}")
    digits = text.lstrip("0") or "0"
    number = int(digits) if len(digits) <= len(str(MAX_VALUE)) else MAX_VALUE + 1
    if number > MAX_VALUE:
        raise ValueError(f"{slot} '{token}' is over {MAX_VALUE}, the largest value a dial shows")
    return DialValue(number, colour or None)


def parse_click(entry: object) -> Click:
    """Parse one dial entry; raise ValueError with a message a player can act on."""
    if isinstance(entry, int) or not isinstance(entry, str):
        raise ValueError(f'a click must be a quoted string like "7 10 17 3" or "x", not {entry!r}')
    tokens = entry.split()
    if len(tokens) == 1 and tokens[0].lower() == KILLED:
        return Click(None)
    if len(tokens) != 4:
        raise ValueError(
            f'click "{entry}" has {len(tokens)} values; write four (speed attack defense damage) '
            'like "7 10:red 17 3", or "x" for a killed click'
        )
    values = tuple(parse_value(tok, slot) for tok, slot in zip(tokens, SLOTS, strict=True))
    return Click(values)  # type: ignore[arg-type]
