"""What every roster file format shares: strict models, ids, bounds on values and parameters, and how a
model reports all its problems at once (`engine.horrorclix.roster.models`, `engine.horrorclix.roster.maps`)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, NoReturn

from clix.engine.core.dial import MAX_VALUE
from clix.engine.core.files.problems import did_you_mean
from clix.engine.horrorclix.registry import check_params
from pydantic import BaseModel, ConfigDict, Field

RULESET_NAME = "horrorclix"
"""HorrorClix's name in the core's registry, and what its files may say as their `ruleset` (or leave out)."""

Rank = Literal["rookie", "experienced", "veteran", "unique", "limited_edition", "demo"]
SpeedMode = Literal["boot", "wing", "fin"]
Slot = Literal["speed", "attack", "defense", "damage"]
Colour = Literal["red", "orange", "yellow", "green", "blue", "purple", "brown", "gray", "black", "pink"]
Side = Literal["north", "south", "east", "west"]
MapKind = Literal["outdoor", "indoor", "indoor_outdoor"]
Gender = Literal["male", "female"]

MAJOR_CLASSES = ("Beasts", "Guardians", "Occultists", "Slashers", "Spirits", "Undead")
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
ID_HINT = "lower-case letters, digits and single hyphens, like 'grave-countess-v'"
Provenance = Annotated[str, Field(min_length=1)]
Coord = tuple[int, int]

MAX_POINTS = 500
"""A figure's point value: the sample figures cost 10-145 and the errata name costs of 50-110 (HC-DATA-12, -15,
-20); 500 is half the largest build total."""
BUILD_TOTALS = (100, 1000)
"""Build totals clix plays: whole multiples of 100 (HC-SETUP-02) up to 1000; the sample armies use 100 and 200."""
MAX_MAP_SIDE = 100
"""Spaces along a map's side: printed maps are 24x16; 100 keeps the engine's per-map tables small."""
MAX_TRIGGER_COUNT = 20
"""Slayings or kills a transformation may wait for: a game has twelve victims (HC-VICTIM-02) and the sample
cards wait for one."""

_DIAL_BOUND = (-MAX_VALUE, MAX_VALUE)
_DISTANCE_BOUND = (0, MAX_MAP_SIDE)
PARAM_BOUNDS: dict[str, tuple[int, int]] = {
    # changes to or amounts of dial values (a modifier or a damage beyond what a dial shows means nothing)
    "amount": _DIAL_BOUND,
    "damage": (0, MAX_VALUE),
    "speed": (0, MAX_VALUE),
    "attack": (0, MAX_VALUE),
    "defense": (0, MAX_VALUE),
    "points": (0, MAX_POINTS),
    "range": (0, 20),  # a figure's range is at most 20 too
    # spaces on the map
    "distance": _DISTANCE_BOUND,
    "then_move": _DISTANCE_BOUND,
    "speed_bonus": _DISTANCE_BOUND,
    "reach": _DISTANCE_BOUND,
    "vp": (0, 100),  # per 100 points of build total; the sample subplots give 1-10
}
"""Bounds on whole-number parameters of powers, abilities and plot-twist effects, by parameter name; the
registry's own minimum and choices apply first."""
DEFAULT_PARAM_BOUND = (-1000, 1000)


def param_problems(owner: str, declared: dict[str, Any], given: dict[str, Any]) -> list[str]:
    """`check_params`, plus each whole-number parameter within its bound (`PARAM_BOUNDS`)."""
    problems = check_params(owner, declared, given)
    for key, value in given.items():
        spec = declared.get(key)
        if spec is None or spec.kind is not int or isinstance(value, bool) or not isinstance(value, int):
            continue
        low, high = PARAM_BOUNDS.get(key, DEFAULT_PARAM_BOUND)
        if not low <= value <= high and not (spec.choices and value in spec.choices):
            shown = value if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
            problems.append(f"{owner} parameter '{key}' is {shown}; it must be between {low} and {high}")
    return problems


class Strict(BaseModel):
    """Base for every roster model: unknown keys are errors, so typos never pass silently."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


def _slug(value: str) -> str:
    if not re.match(ID_PATTERN, value):
        raise ValueError(f"id '{value}' is not valid; use {ID_HINT}")
    return value


def fail(field: str, message: str) -> NoReturn:
    """Raise one problem, as `raise_all` does a list."""
    raise ValueError(f"{field}::{message}")


def raise_all(problems: list[tuple[str, str]]) -> None:
    """Raise one ValueError carrying every problem as a `field::message` line (split by the loader)."""
    if problems:
        raise ValueError("\n".join(f"{field}::{message}" for field, message in problems))


def _a(word: str) -> str:
    """The word with its indefinite article: 'an orange', 'a red'."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _unknown(what: str, name: str, known: dict[str, Any]) -> str:
    return "the engine implements " + did_you_mean(what, name, known)


def _no_repeats(what: str, names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{what} '{name}' is listed twice; each name once")
        seen.add(name)
