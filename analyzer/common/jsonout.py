"""What `--json` prints: one JSON document on one line, with floats rounded to the digits that mean something."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

SIGNIFICANT = 6
"""Significant digits a float keeps: a score of 0.62400000000000006 prints as 0.624 (no number clix reports is
known to better than one part in a million)."""


def rounded(value: Any) -> Any:
    """`value` with every float in it (in dicts, lists and tuples, at any depth) rounded to `SIGNIFICANT` digits."""
    if isinstance(value, float):
        return value if not math.isfinite(value) or value == 0 else float(f"{value:.{SIGNIFICANT}g}")
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(item) for item in value]
    return value


def print_json(payload: Any) -> None:
    """Write `payload` to stdout as one line of JSON (values JSON cannot hold as their string, floats rounded)."""
    sys.stdout.write(json.dumps(rounded(payload), default=str) + "\n")
