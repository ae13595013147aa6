"""`--json` output: floats rounded to the digits that mean something, at any depth, and nothing else changed."""

from __future__ import annotations

import math

from clix.analyzer.common.jsonout import rounded


def test_floats_lose_only_their_meaningless_digits():
    assert rounded(62.400000000000006) == 62.4
    assert rounded(0.1 + 0.2) == 0.3
    assert rounded(1234567.891) == 1234570.0
    assert rounded(-0.000123456789) == -0.000123457


def test_nested_values_are_rounded_and_others_kept():
    value = {"a": [0.1 + 0.2, {"b": (1, 2.0000000000000004)}], "n": 7, "s": "x", "none": None, "flag": True}
    assert rounded(value) == {"a": [0.3, {"b": [1, 2.0]}], "n": 7, "s": "x", "none": None, "flag": True}
    assert rounded(True) is True and rounded(0.0) == 0.0
    assert math.isnan(rounded(float("nan"))) and rounded(float("inf")) == float("inf")
