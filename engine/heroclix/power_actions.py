"""Powers given as power actions (HX-TURN-15, HX-POWER, read in 2005 terms): Regeneration heals half a d6
(HX-POWER-35); Support heals an adjacent friend on a roll of 2d6 plus attack against its defense (HX-POWER-39,
HX-COMBAT-06); Charge and Running Shot move at half speed, then give a free close or ranged attack from where the
move ended (HX-POWER-05, -12, HX-MOVE-09). Each is one action and one token (pushing as any action)."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base, movement
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.scoring import heal, take_damage
from clix.engine.heroclix.sides import adjacency, adjacent_opponents, at, cannot_act, opponents
from clix.engine.heroclix.state import Close, HeroState, PowerAction, Ranged

REGENERATION = "Regeneration"
SUPPORT = "Support"
CHARGE = "Charge"
RUNNING_SHOT = "Running Shot"
POWER_ACTIONS = (REGENERATION, SUPPORT, CHARGE, RUNNING_SHOT)
SUPPORT_LOSS = 2
"""Support heals the d6 less this (HX-POWER-39) ..."""
SUPPORT_MINIMUM = 1
"""... but never less than this (HX-POWER-39 OPEN: the extract's "minimum 2" read as 1)."""
SUPPORT_CRITICAL_BONUS = 1
"""Healing added when the Support roll is 12 (HX-COMBAT-06)."""
SUPPORT_FUMBLE_CLICKS = 1
"""Clicks the supported character takes when the Support roll is 2 (HX-COMBAT-06)."""


def problem(state: HeroState, action: PowerAction) -> str:
    """Why the power action may not be given ("" if it may)."""
    user = state.monsters[action.character]
    why = cannot_act(state, user)
    if why:
        return why
    if action.power not in POWER_ACTIONS:
        return f"'{action.power}' is not a power given as a power action here"
    if action.power not in user.powers:
        return f"{user.label} does not show {action.power} now"
    if action.power == SUPPORT:
        return _support_problem(state, user, action)
    if action.power in (CHARGE, RUNNING_SHOT):
        return _move_then_attack_problem(state, user, action)
    return ""


def _support_problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """Support targets an adjacent friendly character, not the user, and neither may be next to an opponent
    (HX-POWER-39)."""
    if action.target is None:
        return "Support names the friendly character it heals ('target')"
    friend = state.monsters[action.target]
    if friend.uid == user.uid or not friend.alive or friend in opponents(state, user):
        return f"{friend.label} is not another friendly character on the map (HX-POWER-39)"
    if adjacency(state, user, friend) != 1:
        return f"{friend.label} is not adjacent to {user.label} (HX-POWER-39)"
    if adjacent_opponents(state, user) or adjacent_opponents(state, friend):
        return f"neither {user.label} nor {friend.label} may be next to an opposing character (HX-POWER-39)"
    return ""


def _move_then_attack_problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """The move at half speed (every movement rule applies), then the free attack judged from where it ends:
    close for Charge, ranged for Running Shot (HX-POWER-05, -12)."""
    why = movement.step_problem(state, user, user.pos, action.path, action.mode, halved=True, rear=action.rear)
    if why:
        return why
    attack = action.attack
    if attack is None:
        return ""
    wanted = Close if action.power == CHARGE else Ranged
    if not isinstance(attack, wanted) or attack.character != user.uid:
        return f"{action.power}'s free attack is a {'close' if wanted is Close else 'ranged'} attack by {user.label}"
    end, rear = double_base.pose(state, user, action.path, action.rear, action.mode)  # HX-SPECIAL-04
    start = double_base.put(state, user, end, rear)  # the attack as it would be made from there
    try:
        found = combat.attack_problem(state, attack) or combat.knockback_problem(state, attack)
    finally:
        double_base.put(state, user, *start)
    return f"from {at(state, end)}: {found}" if found else ""


def perform(state: HeroState, user: Figure, action: PowerAction) -> None:
    """The power action (see the module)."""
    state.emit(EventKind.POWER, character=user.label, power=action.power)
    if action.power == REGENERATION:
        heal(state, user, (decisions.d6(state) + 1) // 2)  # HX-POWER-35: half a d6, rounded up
    elif action.power == SUPPORT:
        assert action.target is not None
        _support(state, user, state.monsters[action.target])
    else:
        moved = movement.move(
            state, user, action.path, action.mode, rear=action.rear
        )  # HX-MOVE-09 OPEN: a failed break away ends it
        if moved and action.attack is not None and user.alive and not state.over:
            combat.attack(state, user, action.attack)


def _support(state: HeroState, user: Figure, friend: Figure) -> None:
    """2d6 plus the user's attack value against the friend's defense: a success heals a d6 less 2 (at least 1);
    2 fails and clicks the friend, 12 succeeds and heals 1 more (HX-POWER-39, HX-COMBAT-06). Not an attack."""
    first, second = decisions.d6(state), decisions.d6(state)
    fumble, critical = first == second == 1, first == second == 6
    total = first + second + user.attack
    succeeded = critical or (not fumble and total >= friend.defense)
    state.emit(EventKind.SUPPORT_ROLL, character=user.label, target=friend.label, dice=(first, second), total=total)
    if fumble:
        take_damage(state, friend, SUPPORT_FUMBLE_CLICKS, "support", None)
    elif succeeded:
        amount = max(SUPPORT_MINIMUM, decisions.d6(state) - SUPPORT_LOSS)
        heal(state, friend, amount + (SUPPORT_CRITICAL_BONUS if critical else 0))


def listed(state: HeroState, user: Figure) -> list[PowerAction]:
    """The power actions `legal_actions` lists for `user`: Regeneration, and Support on each friend it may heal
    (Charge and Running Shot are legal, `problem`, but not listed)."""
    found: list[PowerAction] = []
    if REGENERATION in user.powers and user.click > user.start_line:
        found.append(PowerAction(user.uid, REGENERATION))
    if SUPPORT in user.powers:
        for friend in state.standing():
            action = PowerAction(user.uid, SUPPORT, target=friend.uid)
            if friend.controller == user.controller and friend.uid != user.uid and not problem(state, action):
                found.append(action)
    return found
