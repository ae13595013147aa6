"""Parameter declarations shared by powers, abilities and plot-twist effects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COMBAT_VALUES = ("speed", "attack", "defense", "damage")
"""The four combat values of a dial click (HC-VALUE-01): what a power or plot twist may name as its `stat`."""


@dataclass(frozen=True)
class ParamSpec:
    """One parameter a power or effect takes: its type, whether it is required, allowed values."""

    kind: type
    required: bool = True
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    help: str = ""

    def describe(self) -> str:
        if self.choices:
            return " | ".join(str(c) for c in self.choices)
        if self.kind is int and self.minimum is not None:
            return f"a whole number >= {self.minimum}"
        return {int: "a whole number", str: "text", bool: "true or false"}.get(self.kind, self.kind.__name__)


def check_params(owner: str, declared: Mapping[str, ParamSpec], given: Mapping[str, Any]) -> list[str]:
    """Return one message per problem with `given` against `declared` (empty when all is well)."""
    problems: list[str] = []
    for key, value in given.items():
        spec = declared.get(key)
        if spec is None:
            allowed = ", ".join(sorted(declared)) or "none"
            problems.append(f"{owner} takes no parameter '{key}' (it takes: {allowed})")
            continue
        if (spec.kind is int and (isinstance(value, bool) or not isinstance(value, int))) or (
            spec.kind is not int and not isinstance(value, spec.kind)
        ):
            problems.append(f"{owner} parameter '{key}' must be {spec.describe()}, not {value!r}")
        elif spec.choices and value not in spec.choices:
            problems.append(f"{owner} parameter '{key}' must be one of {spec.describe()}, not {value!r}")
        elif spec.minimum is not None and value < spec.minimum:
            problems.append(f"{owner} parameter '{key}' must be >= {spec.minimum}, not {value!r}")
    for key, spec in declared.items():
        if spec.required and key not in given:
            problems.append(f"{owner} needs parameter '{key}' ({spec.describe()})")
    return problems
