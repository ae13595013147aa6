"""Powers given as power actions (HX-TURN-15, HX-POWER, read in 2005 terms): Regeneration heals half a d6
(HX-POWER-35); Support heals an adjacent friend on a roll of 2d6 plus attack against its defense (HX-POWER-39,
HX-COMBAT-06); Charge and Running Shot move at half speed, then give a free close or ranged attack from where the
move ended (HX-POWER-05, -12, HX-MOVE-09); Force Blast knocks an opposing character back 3 squares, no roll
(HX-POWER-08); Smoke Cloud and Barrier place hindering and blocking terrain markers (HX-POWER-20, -30, `markers`);
Hypersonic Speed moves, attacks and moves again (HX-POWER-10, `hypersonic`). Each is one action and one
token (pushing as any action)."""

from __future__ import annotations

from collections.abc import Callable

from clix.engine.core import decisions
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base, hypersonic, markers, movement, teams
from clix.engine.heroclix.battle_fury import no_ranged
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.knockback import directions_problem, knock_back, way_from
from clix.engine.heroclix.objects import lying_at
from clix.engine.heroclix.powers import BARRIER, FORCE_BLAST, HYPERSONIC, SMOKE_CLOUD
from clix.engine.heroclix.scoring import heal, take_damage
from clix.engine.heroclix.sides import adjacency, adjacent_opponents, at, bulky, cannot_act, opponents, team
from clix.engine.heroclix.state import Close, HeroState, PowerAction, Ranged
from clix.engine.heroclix.targeted import power_range, within_power_range

REGENERATION = "Regeneration"
SUPPORT = "Support"
CHARGE = "Charge"
RUNNING_SHOT = "Running Shot"
POWER_ACTIONS = (REGENERATION, SUPPORT, CHARGE, RUNNING_SHOT, FORCE_BLAST, SMOKE_CLOUD, BARRIER, HYPERSONIC)
FORCE_BLAST_DISTANCE = 3
"""How many squares Force Blast knocks its target back (HX-POWER-08 OPEN: the garbled clause read as 3)."""
MARKERS = {SMOKE_CLOUD: (markers.SMOKE, 6), BARRIER: (markers.BARRIER, 4)}
"""The kind of terrain marker each power places, and how many at most (HX-POWER-20 OPEN a: 6; HX-POWER-30)."""
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
    if action.power not in user.powers and not teams.grants(state, user, action.power):  # HX-TEAM-05
        return f"{user.label} does not show {action.power} now"
    if action.power == RUNNING_SHOT or isinstance(action.attack, Ranged):  # HX-POWER-38 OPEN: none with Battle Fury
        why = no_ranged(user)
        if why:
            return why
    if action.power == SUPPORT:
        return _support_problem(state, user, action)
    if action.power in (CHARGE, RUNNING_SHOT):
        return _move_then_attack_problem(state, user, action)
    if action.power == FORCE_BLAST:
        return _force_blast_problem(state, user, action)
    if action.power in MARKERS:
        return _markers_problem(state, user, action)
    if action.power == HYPERSONIC:
        return hypersonic.problem(state, user, action)
    return ""


def _force_blast_problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """One opposing character within range (at least 6) and clear line of fire, which knockback can move; usable
    next to opponents, as it is not a ranged attack (HX-POWER-08, HX-PAC-03 OPEN, HX-KNOCK-09, HX-SPECIAL-13)."""
    if action.target is None:
        return "Force Blast names the opposing character it knocks back ('target')"
    target = state.monsters[action.target]
    if not target.alive or target not in opponents(state, user):
        return f"{target.label} is not an opposing character on the map (HX-POWER-08)"
    if bulky(state, target) or target.uid in state.transporters:
        return f"{target.label} is a giant, big character or transporter: Force Blast does not affect it (HX-KNOCK-09)"
    if double_base.immovable(state, target):
        return f"{target.label} is a double-base character: Force Blast does not affect it (HX-KNOCK-14, HX-SPECIAL-06)"
    if state.soars(user) and not state.soars(target):
        return f"a soaring character affects only soaring characters, not {target.label} (HX-MOVE-15)"
    indoor = state.geometry.indoor
    if state.soars(user) != state.soars(target) and (indoor[user.pos] or indoor[target.pos]):
        return "no line of fire between an indoor square and a soaring character (HX-COMBAT-19 OPEN c)"
    far = within_power_range(state, user, target.pos)
    if far:
        return far
    if not combat.line_of_fire(state, user, target, within=power_range(state, user))[0]:  # HX-SPECIAL-05: either square
        return f"no clear line of fire from {user.label} to {target.label} (HX-POWER-08, HX-PAC-03)"
    return directions_problem(state, user, (target.uid,), action.knockback)


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


def _markers_problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """Up to the power's number of markers, one at a time in distinct squares within range (counting at least 6),
    each after the first adjacent to one already placed, at least one in the user's line of fire (HX-POWER-20, -30,
    HX-PAC-03); not on blocking terrain nor on another marker (HX-POWER-20, -30 OPEN)."""
    kind, most = MARKERS[action.power]
    squares = action.squares
    if not squares:
        return f"{action.power} names the squares of its markers ('squares')"
    if len(squares) > most or len(set(squares)) != len(squares):
        return f"{action.power} places up to {most} markers in distinct squares (HX-POWER-20, -30)"
    if state.soars(user):
        return "a soaring character affects only soaring characters, not terrain (HX-MOVE-15)"
    geometry = state.geometry
    for index, square in enumerate(squares):
        why = within_power_range(state, user, square) or _marker_square_problem(state, square, kind)
        if why:
            return why
        if index and not any(square in geometry.all_neighbour_sets[s] for s in squares[:index]):
            return f"the marker on {at(state, square)} is not adjacent to one already placed (HX-POWER-20)"
    if not any(_in_sight(state, user, square) for square in squares):
        return f"no marker is in {user.label}'s line of fire (HX-POWER-20, HX-PAC-03)"
    return ""


def _marker_square_problem(state: HeroState, square: int, kind: str) -> str:
    """Why a marker of `kind` may not go on `square`: smoke on any square but blocking terrain, occupied or not
    (HX-POWER-20 OPEN b); a barrier only on an empty square without an object (HX-POWER-30 OPEN)."""
    if state.geometry.terrain[square] == BLOCKING:
        return f"{at(state, square)} is blocking terrain: no marker goes there"
    if square in state.markers:
        return f"{at(state, square)} already holds a terrain marker"
    if kind == markers.BARRIER and square in double_base.spots(state, state.standing()):  # HX-SPECIAL-02
        return f"{at(state, square)} is occupied: a barrier goes only on an empty square (HX-POWER-30 OPEN)"
    if kind == markers.BARRIER and lying_at(state, square) is not None:
        return f"{at(state, square)} holds an object: a barrier goes only on an empty square (HX-POWER-30 OPEN)"
    return ""


def _in_sight(state: HeroState, user: Figure, square: int) -> bool:
    """Whether `user` has a clear line of fire to the centre of `square` (its occupant, if any, not in the way),
    from either square of a double-base user within the power's range (HX-SPECIAL-05)."""
    occupant = double_base.occupied(state, state.standing()).get(square)
    ends = (user.uid,) if occupant is None else (user.uid, occupant.uid)
    return any(
        combat.line_between(state, source, False, square, False, ends)[0]
        for source in double_base.squares(state, user)
        if state.geometry.distance(source, square) <= power_range(state, user)
    )


def perform(state: HeroState, user: Figure, action: PowerAction) -> None:
    """The power action (see the module)."""
    state.emit(EventKind.POWER, character=user.label, power=action.power)
    if action.power == REGENERATION:
        heal(state, user, (decisions.d6(state) + 1) // 2)  # HX-POWER-35: half a d6, rounded up
    elif action.power == SUPPORT:
        assert action.target is not None
        _support(state, user, state.monsters[action.target])
    elif action.power == FORCE_BLAST:
        assert action.target is not None
        target = state.monsters[action.target]
        way = way_from(state, user, target, dict(action.knockback).get(target.uid))  # HX-SPECIAL-05: nearest square
        knock_back(state, user, target, FORCE_BLAST_DISTANCE, way)  # HX-PAC-09; damage credited to the user
    elif action.power in MARKERS:
        markers.lay(state, user, action.squares, MARKERS[action.power][0])
    elif action.power == HYPERSONIC:
        hypersonic.perform(state, user, action)
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
    """The power actions `legal_actions` lists for `user`: Regeneration, Support on each friend it may heal, Force
    Blast on each opponent it may knock back, a Smoke Cloud around each opponent in its range and line of fire, and
    a Barrier across the line of fire to each, and Hypersonic Speed's hit and run on each (`hypersonic.listed`)
    (Charge and Running Shot are legal, `problem`, but not listed)."""
    found: list[PowerAction] = []
    regenerates = REGENERATION in user.powers or teams.grants(state, user, REGENERATION)  # HX-TEAM-05
    if regenerates and user.click > user.start_line:
        found.append(PowerAction(user.uid, REGENERATION))
    if FORCE_BLAST in user.powers:
        for target in opponents(state, user):
            blast = PowerAction(user.uid, FORCE_BLAST, target=target.uid)
            if not problem(state, blast):
                found.append(blast)
    if SMOKE_CLOUD in user.powers and not state.soars(user):
        kind, most = MARKERS[SMOKE_CLOUD]
        for target in opponents(state, user):
            if within_power_range(state, user, target.pos) or not _in_sight(state, user, target.pos):
                continue
            squares = _cluster(state, target.pos, most, lambda s: not _marker_square_problem(state, s, kind))
            smoke = PowerAction(user.uid, SMOKE_CLOUD, squares=squares)
            if not problem(state, smoke):
                found.append(smoke)
    found.extend(hypersonic.listed(state, user))
    if BARRIER in user.powers and not state.soars(user):
        kind, most = MARKERS[BARRIER]
        for target in opponents(state, user):
            if within_power_range(state, user, target.pos) or not _in_sight(state, user, target.pos):
                continue
            fits = [
                s for s in state.geometry.ray(user.pos, target.pos).cells if not _marker_square_problem(state, s, kind)
            ]
            if fits:
                squares = _cluster(state, fits[0], most, lambda s: not _marker_square_problem(state, s, kind))
                wall = PowerAction(user.uid, BARRIER, squares=squares)
                if not problem(state, wall):
                    found.append(wall)
    if SUPPORT in user.powers:
        for friend in state.standing():
            action = PowerAction(user.uid, SUPPORT, target=friend.uid)
            allied = team(state, friend.controller) == team(state, user.controller)  # HX-CHAR-11: teammates too
            if allied and friend.uid != user.uid and not problem(state, action):
                found.append(action)
    return found


def _cluster(state: HeroState, seed: int, most: int, fits: Callable[[int], bool]) -> tuple[int, ...]:
    """Up to `most` squares where `fits` holds, from `seed` outwards, each touching one before it (the markers a
    listed Smoke Cloud or Barrier places)."""
    found: list[int] = []
    frontier = [seed] if fits(seed) else []
    seen = {seed}
    while frontier and len(found) < most:
        square = frontier.pop(0)
        found.append(square)
        for near in state.geometry.all_neighbours[square]:
            if near not in seen and fits(near):
                seen.add(near)
                frontier.append(near)
    return tuple(found)
