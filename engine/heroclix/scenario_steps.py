"""The `power` steps of the powers played as power actions or free actions beyond the contract's own table
(../shared/scenario-format-heroclix.md section 5: "`use` plus the keys that name what the power's text asks to
choose"). Each is listed in docs/data-formats.md as an addition to the contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clix.engine.heroclix.free_actions import POISON, SIDESTEP
from clix.engine.heroclix.powers import BARRIER, FORCE_BLAST, SMOKE_CLOUD
from clix.engine.heroclix.state import PowerAction


class ScenarioError(Exception):
    """A file the format allows that names something this engine cannot set up or play."""


Uid = Callable[[object], int]
Square = Callable[[object], int]


def power_step(
    name: str, step: dict[str, Any], uid: Uid, square: Square, knockback: tuple[tuple[int, str], ...], mode: str | None
) -> PowerAction | None:
    """The action of a `power` step using `name` when it is one of these powers, else None:
    `{power: A, use: Force Blast, target: B}` (with `knockback: {B: direction}` off the straight lines),
    `{power: A, use: Smoke Cloud, squares: [[x, y], ...]}` (the markers, in the order placed) and Barrier alike; the free
    actions, marked free by the power itself: `{power: A, use: Poison}`, `{power: A, use: Sidestep, path: [...]}`."""
    user = uid(step["power"])
    if name == FORCE_BLAST:
        return PowerAction(user, name, target=uid(step.get("target")), knockback=knockback)
    if name in (SMOKE_CLOUD, BARRIER):
        squares = step.get("squares")
        if not isinstance(squares, list):
            raise ScenarioError(f"a {name} step lists the 'squares' of its markers, in the order they are placed")
        return PowerAction(user, name, squares=tuple(square(s) for s in squares))
    if name == POISON:
        return PowerAction(user, name)
    if name == SIDESTEP:
        return PowerAction(user, name, path=tuple(square(s) for s in step.get("path") or []))
    return None
