"""What a ruleset's weighted heuristic shares with another's: its styles are records of weights (frozen
dataclasses of floats), the deliberate styles deviations from the tuned weights."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, TypeVar

WeightsT = TypeVar("WeightsT")


def deviation(base: WeightsT, **factors: float) -> WeightsT:
    """`base` with some weights multiplied by the given factors (a style as a deliberate deviation)."""
    return replace(base, **{name: round(getattr(base, name) * factor, 3) for name, factor in factors.items()})  # type: ignore[type-var]


def weights_reduce(weights: Any) -> tuple[Any, ...]:
    """How a record of weights pickles and copies: its class and its fields in order (a compiled record has no
    pickling of its own)."""
    return (type(weights), tuple(getattr(weights, f.name) for f in fields(weights)))
