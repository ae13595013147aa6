"""Hypersonic Speed (HX-POWER-10, read in 2005 terms): a power action in which the character, its range halved,
moves, makes one close or ranged attack from where it stopped, then may move again up to its speed minus the
squares already moved; both moves may pass squares next to opposing characters without stopping, breaking away
whenever a move begins next to one (HX-POWER-10 OPEN). One action, one token."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base, movement
from clix.engine.heroclix.powers import HYPERSONIC
from clix.engine.heroclix.sides import at, in_close_reach, opponents
from clix.engine.heroclix.state import Close, HeroState, PowerAction, Ranged

PASSES_OPPONENTS = True
"""Both moves may pass squares next to opposing characters without stopping (HX-POWER-10 OPEN: the lost icons)."""


def problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """Why the action may not be given ("" if it may): the first move as any move (passing opponents), the attack
    as the rules allow it from where that move ends with the range halved, and the second move from there within
    the speed left, judged with everyone where they stand before the attack. A double-base character's rear half
    rests on `rear` after the first move and on `then_rear` after the second (-1: the engine's choice)."""
    why = movement.step_problem(
        state, user, user.pos, action.path, action.mode, passing=PASSES_OPPONENTS, rear=action.rear
    )
    if why:
        return why
    left = movement.move_speed(state, user, action.mode) - len(action.path)
    end, rear = double_base.pose(state, user, action.path, action.rear, action.mode)  # HX-SPECIAL-04
    start = double_base.put(state, user, end, rear)
    state.short_range.add(user.uid)
    try:
        found = _attack_problem(state, user, action.attack)
        if not found and action.then_path:
            found = movement.step_problem(
                state, user, end, action.then_path, squares=left, passing=PASSES_OPPONENTS, rear=action.then_rear
            )
    finally:
        double_base.put(state, user, *start)
        state.short_range.discard(user.uid)
    return f"from {at(state, end)}: {found}" if found else ""


def _attack_problem(state: HeroState, user: Figure, attack: Close | Ranged | None) -> str:
    """Why `attack` is not one close or ranged attack `user` may make now."""
    if attack is None:
        return ""
    if attack.character != user.uid or attack.use or (isinstance(attack, Close) and attack.then):
        return f"Hypersonic Speed's attack is one close or ranged attack by {user.label}"
    return combat.attack_problem(state, attack) or combat.knockback_problem(state, attack)


def perform(state: HeroState, user: Figure, action: PowerAction) -> None:
    """Move, attack with the range halved, move again if the attack left it standing and the second move is still
    a legal one (a failed break away before either move ends the action, HX-MOVE-09)."""
    left = movement.move_speed(state, user, action.mode) - len(action.path)
    if not movement.move(state, user, action.path, action.mode, rear=action.rear):
        return
    if action.attack is not None and user.alive and not state.over:
        state.short_range.add(user.uid)  # HX-POWER-10, HX-VALUE-08: a replacement value
        try:
            combat.attack(state, user, action.attack)
        finally:
            state.short_range.discard(user.uid)
    if action.then_path and user.alive and not state.over:
        move_again(state, user, action.then_path, left, action.then_rear)


def move_again(state: HeroState, user: Figure, path: tuple[int, ...], left: int, rear: int = -1) -> None:
    """The second move, up to `left` squares, if it is still a legal one now that the attack has resolved (a
    break-away roll first when it begins next to an opponent; a failed one ends the action)."""
    if not movement.step_problem(state, user, user.pos, path, squares=left, passing=PASSES_OPPONENTS, rear=rear):
        movement.move(state, user, path, None, rear=rear)


def listed(state: HeroState, user: Figure) -> list[PowerAction]:
    """The Hypersonic Speed actions `legal_actions` lists for `user`: for each opponent, the first square reached
    from which it may attack it in close combat, the attack, and the way back to where it started if its speed
    allows (other moves and ranged attacks are legal, `problem`, but not listed)."""
    if HYPERSONIC not in user.powers:
        return []
    found: list[PowerAction] = []
    speed = movement.move_speed(state, user)
    ends = movement.reachable(state, user, passing=PASSES_OPPONENTS)
    double = user.uid in state.rears  # HX-SPECIAL-04: its way back would begin on its own rear square; none listed
    for target in opponents(state, user):
        for path in ends.values():
            start = double_base.put(state, user, *double_base.pose(state, user, path, -1, None))
            reaches = in_close_reach(state, user, target)
            double_base.put(state, user, *start)
            if not reaches:
                continue
            back = tuple(reversed((user.pos, *path[:-1]))) if path and 2 * len(path) <= speed and not double else ()
            hit = PowerAction(user.uid, HYPERSONIC, path=path, attack=Close(user.uid, target.uid), then_path=back)
            if not problem(state, user, hit):
                found.append(hit)
                break
    return found
