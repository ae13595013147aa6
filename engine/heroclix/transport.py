"""A transporter's move and attack (HX-SPECIAL-08): given a move action while next to no opponent, it may pass
squares next to opponents, and once during the move, from a square where it could end its move, make one close or
ranged attack as a free action with attack -2, then use the rest of its movement."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base, movement
from clix.engine.heroclix.movement_powers import earthbound
from clix.engine.heroclix.sides import adjacent_opponents, at
from clix.engine.heroclix.state import HeroState, Move

ATTACK_MODIFIER = -2
"""The transporter's free attack's modifier to its attack value (HX-SPECIAL-08)."""


def problem(state: HeroState, action: Move) -> str:
    """Why the move's free attack may not be made ("" if it may; the move itself is checked apart)."""
    mover = state.monsters[action.character]
    attack = action.attack
    assert attack is not None
    if mover.uid not in state.transporters:
        return f"only a transporter attacks during its move, not {mover.label} (HX-SPECIAL-08)"
    if earthbound(mover):
        return f"{mover.label} shows Earthbound/Neutralized: no attack during its move (HX-POWER-04)"
    if adjacent_opponents(state, mover):
        return f"{mover.label} begins next to an opponent: no attack during this move (HX-SPECIAL-08)"
    if action.pick_up is not None or action.carry is not None:
        return "a move with a free attack neither picks up nor carries"
    if attack.character != mover.uid or not 0 <= action.attack_after <= len(action.path):
        return f"attack_after is 0 to the path's {len(action.path)} squares"
    square = action.path[action.attack_after - 1] if action.attack_after else mover.pos
    if movement.step_problem(state, mover, mover.pos, action.path[: action.attack_after], action.mode):
        return f"{mover.label} could not end its move at {at(state, square)}, so it may not attack from there"
    there = double_base.pose(state, mover, action.path[: action.attack_after], -1, action.mode)  # HX-SPECIAL-04
    start = double_base.put(state, mover, *there)  # the attack as it would be made from there
    try:
        return combat.attack_problem(state, attack) or combat.knockback_problem(state, attack)
    finally:
        double_base.put(state, mover, *start)


def perform(state: HeroState, mover: Figure, action: Move) -> None:
    """The move to the attack's square, the attack with attack -2, then the rest of the path without a
    break-away roll (HX-SPECIAL-08 OPEN a)."""
    assert action.attack is not None
    split = action.attack_after
    rear = double_base.pose(state, mover, action.path, action.rear, action.mode)[1]  # HX-SPECIAL-04: where it ends
    if not movement.move(state, mover, action.path[:split], action.mode):
        return
    combat.attack(state, mover, action.attack, ATTACK_MODIFIER)
    if mover.alive and not state.over:
        movement.move(state, mover, action.path[split:], action.mode, break_away=False, rear=rear)
