"""The `power` steps of the powers played as power actions or free actions beyond the contract's own table
(../shared/scenario-format-heroclix.md section 5: "`use` plus the keys that name what the power's text asks to
choose"). Each is listed in docs/data-formats.md as an addition to the contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clix.engine.heroclix.free_actions import POISON, SIDESTEP
from clix.engine.heroclix.powers import BARRIER, FORCE_BLAST, HYPERSONIC, SMOKE_CLOUD
from clix.engine.heroclix.state import Close, PowerAction, Ranged


class ScenarioError(Exception):
    """A file the format allows that names something this engine cannot set up or play."""


Uid = Callable[[object], int]
Square = Callable[[object], int]


def power_step(
    name: str, step: dict[str, Any], uid: Uid, square: Square, knockback: tuple[tuple[int, str], ...], mode: str | None
) -> PowerAction | None:
    """The action of a `power` step using `name` when it is one of these powers, else None:
    `{power: A, use: Force Blast, target: B}` (with `knockback: {B: direction}` off the straight lines),
    `{power: A, use: Smoke Cloud, squares: [[x, y], ...]}` (the markers, in the order placed) and Barrier alike,
    `{power: A, use: Hypersonic Speed, path: [...], target: B, path_after: [...]}` (a close attack on B; `targets`
    and `damage` for a ranged one, as Running Shot's; `path_after`: the second move); the free
    actions, marked free by the power itself: `{power: A, use: Poison}`, `{power: A, use: Sidestep, path: [...]}`."""
    user = uid(step["power"])
    if name == FORCE_BLAST:
        return PowerAction(user, name, target=uid(step.get("target")), knockback=knockback)
    if name == HYPERSONIC:
        path = tuple(square(s) for s in step.get("path") or [])
        after = tuple(square(s) for s in step.get("path_after") or [])
        attack: Close | Ranged | None = None
        if step.get("target") is not None:
            attack = Close(user, uid(step["target"]), knockback)
        elif step.get("targets"):
            split = tuple((uid(n), int(amount)) for n, amount in (step.get("damage") or {}).items())
            attack = Ranged(user, tuple(uid(t) for t in step["targets"]), split, knockback)
        return PowerAction(user, name, path=path, mode=mode, attack=attack, then_path=after)
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
