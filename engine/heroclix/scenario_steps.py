"""The steps of a scenario that name a power, a transporter's free attack or terrain destroyed
(../shared/scenario-format-heroclix.md section 5), read into actions: the contract's own `power` steps
(Telekinesis, Regeneration, Support, Charge, Running Shot), and those of the powers played as power actions or
free actions beyond its table ("`use` plus the keys that name what the power's text asks to choose"; each listed in
docs/data-formats.md as an addition to the contract). A double-base character's steps add `from` and `rear`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clix.engine.heroclix.free_actions import POISON, SIDESTEP
from clix.engine.heroclix.modifiers import PERPLEX
from clix.engine.heroclix.power_actions import CHARGE, POWER_ACTIONS, RUNNING_SHOT, SUPPORT
from clix.engine.heroclix.powers import BARRIER, FORCE_BLAST, HYPERSONIC, OUTWIT, POWERS, SMOKE_CLOUD, power_named
from clix.engine.heroclix.state import Close, HeroState, PowerAction, Ranged, Raze, Telekinesis
from clix.engine.heroclix.telekinesis import TELEKINESIS

NOT_YET = "is not implemented yet (HeroClix part 1, issue 34)"


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
    `{power: A, use: Perplex, target: B, value: defense, by: -1}`, `{power: A, use: Outwit, target: B, counter: NAME}`.
    A double-base character's moves name `rear` (and Hypersonic Speed's second `rear_after`), HX-SPECIAL-04."""
    user = uid(step["power"])
    rear = square(step["rear"]) if "rear" in step else -1
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
        then_rear = square(step["rear_after"]) if "rear_after" in step else -1
        return PowerAction(
            user, name, path=path, mode=mode, attack=attack, rear=rear, then_path=after, then_rear=then_rear
        )
    if name in (SMOKE_CLOUD, BARRIER):
        squares = step.get("squares")
        if not isinstance(squares, list):
            raise ScenarioError(f"a {name} step lists the 'squares' of its markers, in the order they are placed")
        return PowerAction(user, name, squares=tuple(square(s) for s in squares))
    if name == POISON:
        return PowerAction(user, name)
    if name == SIDESTEP:
        return PowerAction(user, name, path=tuple(square(s) for s in step.get("path") or []), rear=rear)
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


def power_action(
    step: dict[str, Any], uid: Any, square: Any, knockback: tuple[tuple[int, str], ...], mode: str | None
) -> Telekinesis | PowerAction:
    """A `power` step (contract section 5): `use: Telekinesis` with `object: [x, y]` and `to` or `target`, or
    with `character: B` and `to` (a character moved, HX-OBJECT-16); `use: Regeneration`; `use: Support` with
    `target`; `use: Charge` with `path` and `target` (null: no attack); `use: Running Shot` with `path`, then
    `targets` and `damage` (a double-base character's Charge and Running Shot also take `from` and `rear`, as its
    move). Another power is not played yet."""
    name = power_named(str(step.get("use", "")))
    user = uid(step["power"])
    played = power_step(name, step, uid, square, knockback, mode)
    if played is not None:
        return played
    if name in POWER_ACTIONS:
        path = tuple(square(s) for s in step.get("path") or [])
        rear = square(step["rear"]) if "rear" in step else -1  # a double-base character's (HX-SPECIAL-04)
        if name == SUPPORT:
            return PowerAction(user, name, target=uid(step.get("target")))
        if name == CHARGE:
            target = step.get("target")
            attack = None if target is None else Close(user, uid(target), knockback)
            return PowerAction(user, name, path=path, mode=mode, attack=attack, rear=rear)
        if name == RUNNING_SHOT:
            targets = step.get("targets")
            shot = None
            if targets:
                split = tuple((uid(n), int(amount)) for n, amount in (step.get("damage") or {}).items())
                shot = Ranged(user, tuple(uid(t) for t in targets), split, knockback)
            return PowerAction(user, name, path=path, mode=mode, attack=shot, rear=rear)
        return PowerAction(user, name)
    if name in POWERS and name != TELEKINESIS:
        given = ", ".join((TELEKINESIS, *POWER_ACTIONS))
        raise ScenarioError(f"'use': {name} is not given as a power action; these are: {given}")
    if name != TELEKINESIS:
        raise ScenarioError(f"a power step names its power in 'use'; the power {step.get('use')!r} {NOT_YET}")
    if "character" in step:
        return Telekinesis(user, to=square(step.get("to")), moved=uid(step["character"]))
    if "object" not in step:
        raise ScenarioError("a Telekinesis step names the 'object' [x, y] it uses, or the 'character' it moves")
    if ("to" in step) == ("target" in step):
        raise ScenarioError("a Telekinesis step moves the object 'to' a square or hurls it at a 'target', one of them")
    if "to" in step:
        return Telekinesis(user, square(step["object"]), to=square(step["to"]))
    return Telekinesis(user, square(step["object"]), target=uid(step["target"]), knockback=knockback)


def raze(state: HeroState, step: dict[str, Any], uid: Any, square: Any) -> Raze:
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
