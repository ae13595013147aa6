"""What every ruleset's scenario harness checks the same way."""

from __future__ import annotations

from collections.abc import Sequence


def events_in_order(kinds: Sequence[str], wanted: Sequence[str]) -> str:
    """Why the logged event `kinds` do not hold `wanted` in this order, others allowed between ("" if they do;
    `expect.events` of both scenario contracts)."""
    logged = [str(kind) for kind in kinds]
    position = 0
    for kind in map(str, wanted):
        try:
            position = logged.index(kind, position) + 1
        except ValueError:
            return f"events: expected {kind!r} (in order) among {logged}"
    return ""
