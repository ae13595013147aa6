"""The `power` steps of the powers played as power actions or free actions beyond the contract's own table
(../shared/scenario-format-heroclix.md section 5: "`use` plus the keys that name what the power's text asks to
choose"), a transporter's free attack written in its move step, and attacks on terrain (`destroy`). Each addition
to the contract is listed in docs/data-formats.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clix.engine.heroclix.free_actions import POISON, SIDESTEP
from clix.engine.heroclix.modifiers import PERPLEX
from clix.engine.heroclix.powers import BARRIER, FORCE_BLAST, HYPERSONIC, OUTWIT, SMOKE_CLOUD, power_named
from clix.engine.heroclix.state import Close, HeroState, PowerAction, Ranged, Raze


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
    actions, marked free by the power itself: `{power: A, use: Poison}`, `{power: A, use: Sidestep, path: [...]}`,
    `{power: A, use: Perplex, target: B, value: defense, by: -1}`, `{power: A, use: Outwit, target: B, counter: NAME}`."""
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
    if name == OUTWIT:
        return PowerAction(user, name, uid(step.get("target")), chosen=power_named(str(step.get("counter", ""))))
    if name == PERPLEX:
        by = step.get("by")
        if not isinstance(by, int):
            raise ScenarioError("a Perplex step names the 'value' it modifies and 'by': 1 or -1")
        return PowerAction(user, name, uid(step.get("target")), chosen=str(step.get("value", "")), amount=by)
    return None


def free_attack(
    step: dict[str, Any], mover: int, uid: Any, knockback: tuple[tuple[int, str], ...]
) -> Close | Ranged | None:
    """A transporter's free attack written in its move step: `attack_after: N` with `close: B`, or with
    `ranged: [B, ...]` and `damage` (HX-SPECIAL-08; an extension of the contract)."""
    if "attack_after" not in step:
        if "close" in step or "ranged" in step:
            raise ScenarioError("a move step attacks only with 'attack_after' (a transporter's free attack)")
        return None
    after = step["attack_after"]
    if not isinstance(after, int) or after < 0:
        raise ScenarioError("attack_after is the number of squares of the path entered before the attack")
    if ("close" in step) == ("ranged" in step):
        raise ScenarioError("a move with attack_after names its attack: 'close: B' or 'ranged: [B, ...]'")
    if "close" in step:
        return Close(mover, uid(step["close"]), knockback)
    targets = step["ranged"]
    if not isinstance(targets, list):
        raise ScenarioError("the free attack's 'ranged' is a list of target ids")
    split = tuple((uid(name), int(amount)) for name, amount in (step.get("damage") or {}).items())
    return Ranged(mover, tuple(uid(t) for t in targets), split, knockback)


def raze_step(state: HeroState, step: dict[str, Any], uid: Any, square: Any) -> Raze:
    """A `destroy` step: a square of blocking terrain `[x, y]`, or a wall `{at: [x, y], side: ...}`."""
    attacker = uid(step.get("close", step.get("ranged")))
    ranged = "ranged" in step
    if "target" in step or "targets" in step:
        raise ScenarioError("one attack may not target both characters and terrain (HX-COMBAT-26)")
    target = step["destroy"]
    if isinstance(target, dict):
        spot, side = target.get("at"), target.get("side")
        if side not in ("north", "south", "east", "west"):
            raise ScenarioError("destroy: a wall is {at: [x, y], side: north, south, east or west}")
        here = square(spot)
        x, y = state.geometry.xy(here)
        dx, dy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}[side]
        if not (0 <= x + dx < state.geometry.width and 0 <= y + dy < state.geometry.height):
            raise ScenarioError("destroy: a wall on the map's edge borders no square beyond it")
        there = state.geometry.index(x + dx, y + dy)
        return Raze(attacker, here, (min(here, there), max(here, there)), ranged)
    return Raze(attacker, square(target), None, ranged)
