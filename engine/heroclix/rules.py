"""HeroClix's rules on the core: which actions are legal (`why_not`, `legal_actions`), performing one (`apply`),
the turn flow, damage and knockback, victory points and the end of the game.

This first slice plays characters on one level (no elevated terrain) that walk or swim (no flight), without
powers, objects in hand, carrying or attacks on terrain: the scenario loader refuses what it does not play, by
name, rather than playing it as nothing. Cited rules: ../shared/rules/heroclix_rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from clix.engine.core import decisions
from clix.engine.core.geometry import BLOCKING, HINDERING, WATER
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.state import (
    DIRECTIONS,
    KNOCKBACK,
    PHASES,
    PUSHING,
    Action,
    Close,
    EndTurn,
    HeroState,
    Move,
    Ranged,
)

POINTS_PER_ACTION = 100
"""One action a turn per 100 points of the build total (HX-TURN-02)."""
PUSHING_DAMAGE = 1
"""Clicks a character takes when its second action token is placed (HX-TURN-11, -12)."""
BREAK_AWAY = 4
"""The lowest d6 that breaks away (HX-MOVE-08)."""
HINDERED_DEFENSE = 1
"""Defense added when a line of fire crosses hindering terrain (HX-TERRAIN-07)."""
CRITICAL_HIT_DAMAGE = 1
"""Damage added to each target of a critical hit (HX-COMBAT-04)."""
CRITICAL_MISS_CLICKS = 1
"""Clicks the attacker takes on a critical miss (HX-COMBAT-03)."""
OBSTACLE_KNOCKBACK_DAMAGE = 1
"""Damage a character knocked back into a wall, the edge or blocking terrain takes (HX-KNOCK-06)."""


# --- who may act ----------------------------------------------------------------------------------


def opponents(state: HeroState, character: Figure) -> list[Figure]:
    """The opposing characters on the map (HX-CHAR-11: allies are friendly)."""
    team = _team(state, character.controller)
    return [c for c in state.standing() if _team(state, c.controller) != team]


def _team(state: HeroState, player: int) -> int:
    return next((p.team for p in state.players if p.number == player), player)


def adjacent_opponents(state: HeroState, character: Figure, at: int | None = None) -> list[Figure]:
    """Opposing characters adjacent to `character` (standing at `at`): touching squares not cut apart by walls or
    by blocking terrain round a corner (HX-MOVE-03, HX-TERRAIN-16, -17)."""
    square = character.pos if at is None else at
    near = state.geometry.piece_neighbours[square]
    return [c for c in opponents(state, character) if c.pos in near]


def _cannot_act(state: HeroState, character: Figure) -> str:
    """Why `character` may not be given a non-free action now ("" if it may)."""
    if state.over:
        return "the game is over"
    if not character.alive:
        return f"{character.label} was knocked out"
    if character.controller != state.active:
        return f"{character.label} is not the active player's (player {state.active})"
    if character.acted:
        return f"{character.label} was already given an action this turn (HX-TURN-06)"
    if character.tokens >= 2:
        return f"{character.label} has two action tokens and may take no action this turn (HX-TURN-06, -13)"
    if state.actions_left <= 0:
        per_turn = state.build_total // POINTS_PER_ACTION
        return f"no action left this turn: {per_turn} per turn at {state.build_total} points (HX-TURN-02)"
    return ""


# --- movement ---------------------------------------------------------------------------------------


def _kind(state: HeroState, square: int, swims: bool) -> int:
    """The terrain type of `square` for the movement of a walker (`swims`: water is clear, HX-MOVE-19)."""
    terrain = state.geometry.terrain[square]
    return 0 if terrain == WATER and swims else terrain


def move_speed(state: HeroState, character: Figure) -> int:
    """The squares `character` may move: its speed, halved (rounded up) when it begins in hindering terrain or
    water (HX-TERRAIN-06, HX-MOVE-20)."""
    speed = character.speed
    if _kind(state, character.pos, character.stats.speed_mode == "dolphin") in (HINDERING, WATER):
        return (speed + 1) // 2
    return speed


def step_problem(state: HeroState, character: Figure, start: int, path: tuple[int, ...]) -> str:
    """Why `path` is not a move `character` may make from `start`, assuming any break-away roll succeeds ("" if
    it is one)."""
    geometry = state.geometry
    speed = move_speed(state, character)
    if len(path) > speed:
        return f"the path is {len(path)} squares; {character.label} may move {speed} (HX-MOVE-02, HX-TERRAIN-06)"
    swims = character.stats.speed_mode == "dolphin"
    broke_from = {c.uid for c in adjacent_opponents(state, character, start)}
    others = {c.pos: c for c in state.standing() if c.uid != character.uid}
    foes = {c.uid for c in opponents(state, character)}
    here = start
    for index, square in enumerate(path):
        where = _at(state, square)
        last = index == len(path) - 1
        if square not in geometry.all_neighbour_sets[here]:
            return f"{where} is not a step from {_at(state, here)} (HX-MOVE-02)"
        if geometry.separated(here, square):
            return (
                f"a wall or blocking terrain cuts the step from {_at(state, here)} to {where} (HX-TERRAIN-12, -16, -17)"
            )
        if geometry.terrain[square] == BLOCKING:
            return f"{where} is blocking terrain (HX-TERRAIN-11)"
        standing = others.get(square)
        if standing is not None and standing.uid in foes:
            return f"{where} holds an opposing character, {standing.label} (HX-MOVE-04)"
        if not last and _must_stop(state, character, here, square, swims, broke_from):
            return f"the move must end at {where} (HX-MOVE-05, HX-TERRAIN-05)"
        here = square
    if path and path[-1] in others:
        return f"{_at(state, path[-1])} is taken by {others[path[-1]].label} (HX-MOVE-06)"
    return ""


def _must_stop(state: HeroState, character: Figure, here: int, square: int, swims: bool, broke_from: set[int]) -> bool:
    """Whether the step from `here` into `square` ends the move: it crosses into hindering terrain or water
    (through the corner between two diagonal hindering squares too: HX-TERRAIN-05), or enters a square next to
    an opposing character it did not break away from (HX-MOVE-05, -10)."""
    geometry = state.geometry
    entered = _kind(state, square, swims)
    left = _kind(state, here, swims)
    if entered in (HINDERING, WATER) and entered != left:
        return True
    flanks = geometry.diagonal_flanks.get((here, square))
    if (
        flanks is not None
        and left not in (HINDERING, WATER)
        and all(_kind(state, f, swims) in (HINDERING, WATER) for f in flanks)
    ):
        return True
    return any(c.uid not in broke_from for c in adjacent_opponents(state, character, square))


def reachable(state: HeroState, character: Figure) -> dict[int, tuple[int, ...]]:
    """Every square `character` may end a move in (its own included), with a shortest legal path to it. A square
    is reached once, by the first path found (breadth first): enough to list moves, while `step_problem` judges
    any path a step names."""
    geometry = state.geometry
    start = character.pos
    speed = move_speed(state, character)
    swims = character.stats.speed_mode == "dolphin"
    broke_from = {c.uid for c in adjacent_opponents(state, character, start)}
    seen: set[int] = {start}
    ends: dict[int, tuple[int, ...]] = {start: ()}
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        grown = []
        for path in frontier:
            here = path[-1] if path else start
            if len(path) >= speed:
                continue
            for square in geometry.all_neighbours[here]:
                if square in seen:
                    continue
                candidate = (*path, square)
                problem = step_problem(state, character, start, candidate)
                if problem and not problem.endswith("(HX-MOVE-06)"):  # a friend's square: pass, do not end
                    continue
                seen.add(square)
                if not problem:
                    ends[square] = candidate
                if not _must_stop(state, character, here, square, swims, broke_from):
                    grown.append(candidate)
        frontier = grown
    return ends


# --- combat ---------------------------------------------------------------------------------------


def line_of_fire(state: HeroState, attacker: Figure, target: Figure) -> tuple[bool, bool]:
    """Whether the line of fire from `attacker` to `target` is clear, and whether it is hindered (+1 defense):
    blocked by walls and blocking terrain (HX-COMBAT-11, HX-TERRAIN-11, -12, -16), by another character in a
    square it crosses or diagonal to blocking terrain at a corner it passes, and between two characters on a
    diagonal (HX-COMBAT-12); hindered by hindering terrain it crosses (HX-TERRAIN-07..09)."""
    ray = state.geometry.ray(attacker.pos, target.pos)
    if ray.walled or ray.blocked_by_terrain:
        return False, False
    others = {c.pos for c in state.standing() if c.uid not in (attacker.uid, target.uid)}
    if any(square in others for square in ray.cells):
        return False, False
    if any(square in others for square in ray.blocking_corner_partners):
        return False, False
    if any(a in others and b in others for a, b in ray.corners):
        return False, False
    hindered = ray.hindering or any(square in others for square in ray.hindering_corner_partners)
    return True, hindered


def attack_problem(state: HeroState, action: Close | Ranged) -> str:
    """Why a combat action may not be given ("" if it may)."""
    attacker = state.monsters[action.character]
    problem = _cannot_act(state, attacker)
    if problem:
        return problem
    if isinstance(action, Close):
        target = state.monsters[action.target]
        if not target.alive or target not in opponents(state, attacker):
            return f"{target.label} is not an opposing character on the map"
        if target not in adjacent_opponents(state, attacker):
            return f"{target.label} is not adjacent to {attacker.label} (HX-COMBAT-07)"
        return ""
    if attacker.stats.range <= 0:
        return f"{attacker.label} has range 0 and makes no ranged attacks (HX-COMBAT-09)"
    if adjacent_opponents(state, attacker):
        return f"{attacker.label} is adjacent to an opposing character (HX-COMBAT-09)"
    if not action.targets or len(action.targets) > attacker.stats.bolts:
        return f"{attacker.label} may target 1 to {attacker.stats.bolts} characters (HX-COMBAT-21)"
    if len(set(action.targets)) != len(action.targets):
        return "no character may be targeted twice in one attack (HX-COMBAT-21)"
    for uid in action.targets:
        target = state.monsters[uid]
        if not target.alive or target not in opponents(state, attacker):
            return f"{target.label} is not an opposing character on the map"
        distance = state.geometry.distance(attacker.pos, target.pos)
        if distance > attacker.stats.range:
            return f"{target.label} is {distance} squares away; {attacker.label}'s range is {attacker.stats.range} (HX-COMBAT-15)"
        if not line_of_fire(state, attacker, target)[0]:
            return f"no clear line of fire from {attacker.label} to {target.label} (HX-COMBAT-11, -12)"
    for uid, amount in action.split:
        if uid not in action.targets or amount < 0:
            return "damage is divided in whole numbers among the targets (HX-COMBAT-24)"
    if action.split and sum(a for _, a in action.split) != attacker.damage:
        return f"the damage divided must add up to {attacker.label}'s damage value {attacker.damage} (HX-COMBAT-24)"
    return ""


def knockback_problem(state: HeroState, action: Close | Ranged) -> str:
    """Why a named knockback direction is not one the attacker may choose (HX-KNOCK-04 OPEN, docs/rulings.md)."""
    attacker = state.monsters[action.character]
    targets = (action.target,) if isinstance(action, Close) else action.targets
    for uid, direction in action.knockback:
        if uid not in targets or direction not in DIRECTIONS:
            return f"knockback: a direction ({', '.join(DIRECTIONS)}) for a target of the attack"
        if DIRECTIONS[direction] not in away_from(state, attacker.pos, state.monsters[uid].pos):
            return f"knockback: {direction} does not lead away from {attacker.label} (HX-KNOCK-04)"
    return ""


def away_from(state: HeroState, source: int, target: int) -> tuple[tuple[int, int], ...]:
    """The knockback directions for a target at `target` hit from `source`: the straight line when it is on one
    (row, column or exact diagonal), else the diagonal whose two steps both lead away or the orthogonal along
    the larger offset (HX-KNOCK-04 OPEN: the attacker picks)."""
    sx, sy = state.geometry.xy(source)
    tx, ty = state.geometry.xy(target)
    dx, dy = tx - sx, ty - sy
    ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        return ((ux, uy),)
    larger = (ux, 0) if abs(dx) > abs(dy) else (0, uy)
    return (larger, (ux, uy))


# --- the rules object's entry points ---------------------------------------------------------------


def why_not(state: HeroState, action: Action) -> str:
    """Why `action` is not legal now ("" when it is)."""
    if isinstance(action, EndTurn):
        return "the game is over" if state.over else ""
    if isinstance(action, Move):
        character = state.monsters[action.character]
        return _cannot_act(state, character) or step_problem(state, character, character.pos, action.path)
    return attack_problem(state, action) or knockback_problem(state, action)


def legal_actions(state: HeroState) -> list[Action]:
    """The actions the active player may take: a move to each square its characters may reach, a close attack on
    each adjacent opponent, a ranged attack on each opponent in range and line of fire (one target, all the
    damage), and ending the turn."""
    if state.over:
        return []
    found: list[Action] = []
    for character in state.standing():
        if _cannot_act(state, character):
            continue
        for path in reachable(state, character).values():
            found.append(Move(character.uid, path))
        for target in adjacent_opponents(state, character):
            found.append(Close(character.uid, target.uid))
        for target in opponents(state, character):
            shot = Ranged(character.uid, (target.uid,))
            if not attack_problem(state, shot):
                found.append(shot)
    found.append(EndTurn())
    return found


def apply(state: HeroState, action: Action, listed: bool = False) -> None:
    """Perform `action` (checked unless `listed`: taken from `legal_actions`)."""
    if not listed:
        problem = why_not(state, action)
        if problem:
            raise ValueError(f"{action} is not legal: {problem}")
    decisions.perform(state, _perform, action)


def _perform(state: HeroState, action: Action) -> None:
    if isinstance(action, EndTurn):
        end_turn(state)
        return
    character = state.monsters[action.character]
    if isinstance(action, Move):
        _move(state, character, action.path)
    else:
        _attack(state, character, action)
    _after_action(state, character)


def _after_action(state: HeroState, character: Figure) -> None:
    """The action token, and pushing damage when it is the second (HX-TURN-09, -11, -12), after the action has
    resolved, knockback included."""
    state.actions_left -= 1
    character.acted = True
    if not character.alive or state.over:
        return
    character.tokens += 1
    if character.tokens == 2:
        take_damage(state, character, PUSHING_DAMAGE, PUSHING, None)  # HX-TURN-14 OPEN: never reduced


def _move(state: HeroState, character: Figure, path: tuple[int, ...]) -> None:
    """A move action: the break-away roll first when it starts next to an opponent and moves at all (HX-MOVE-07,
    -08: 1-3 fails, the character stays and its action ends), then along `path`."""
    if path and adjacent_opponents(state, character):
        roll = decisions.d6(state)
        state.emit("break_away", character=character.label, roll=roll, broke=roll >= BREAK_AWAY)
        if roll < BREAK_AWAY:
            return
    if path:
        character.pos = path[-1]
    state.emit("moved", character=character.label, to=state.geometry.xy(character.pos), squares=len(path))


def _attack(state: HeroState, attacker: Figure, action: Close | Ranged) -> None:
    """One attack roll against every target (HX-COMBAT-02, -23), criticals (HX-COMBAT-03, -04), the damage
    divided among the targets hit (HX-COMBAT-24), then knockback on doubles (HX-KNOCK-01)."""
    targets = (
        [state.monsters[action.target]] if isinstance(action, Close) else [state.monsters[u] for u in action.targets]
    )
    first, second = decisions.d6(state), decisions.d6(state)
    critical_miss = first == second == 1
    critical_hit = first == second == 6
    total = first + second + attacker.attack
    hits = []
    for target in targets:
        hindered = isinstance(action, Ranged) and line_of_fire(state, attacker, target)[1]
        defense = target.defense + (HINDERED_DEFENSE if hindered else 0)
        if critical_hit or (not critical_miss and total >= defense):
            hits.append(target)
    state.emit("attack", attacker=attacker.label, dice=(first, second), total=total,
               hit=tuple(t.label for t in hits))  # fmt: skip
    if critical_miss:
        take_damage(state, attacker, CRITICAL_MISS_CLICKS, "critical miss", None)  # HX-COMBAT-03 OPEN: direct
        return
    if not hits:
        return
    shares = _shares(hits, attacker.damage, dict(action.split) if isinstance(action, Ranged) else {})
    taken: dict[int, int] = {}
    for target in hits:
        dealt = shares[target.uid] + (CRITICAL_HIT_DAMAGE if critical_hit else 0)
        taken[target.uid] = take_damage(state, target, dealt, "attack", attacker)
    if first == second:
        chosen = dict(action.knockback)
        far_first = sorted(hits, key=lambda t: -state.geometry.distance(attacker.pos, t.pos))  # HX-KNOCK-05
        for target in far_first:
            if target.alive and taken[target.uid] > 0:
                direction = (
                    DIRECTIONS[chosen[target.uid]]
                    if target.uid in chosen
                    else away_from(state, attacker.pos, target.pos)[0]
                )
                knock_back(state, attacker, target, taken[target.uid], direction)


def _shares(hits: list[Figure], damage: int, split: dict[int, int]) -> dict[int, int]:
    """Damage per hit target: as divided, a missed target's share to the first hit target, all of it to the first
    hit target when not divided (HX-COMBAT-24; the HorrorClix ruling of HC-COMBAT-23, docs/rulings.md)."""
    shares = {t.uid: 0 for t in hits}
    if not split:
        shares[hits[0].uid] = damage
        return shares
    for uid, amount in split.items():
        shares[uid if uid in shares else hits[0].uid] += amount
    return shares


def knock_back(state: HeroState, attacker: Figure, target: Figure, distance: int, direction: tuple[int, int]) -> None:
    """Move `target` up to `distance` squares along `direction` (HX-KNOCK-03, -04): it stops before a wall, the
    map edge or blocking terrain and takes 1 knockback damage (HX-KNOCK-06), or stops before another character
    with no damage (HX-KNOCK-07). Hindering terrain does not stop it; it is not movement (HX-KNOCK-13)."""
    geometry = state.geometry
    occupied = {c.pos for c in state.standing() if c.uid != target.uid}
    x, y = geometry.xy(target.pos)
    for _ in range(distance):
        nx, ny = x + direction[0], y + direction[1]
        here = geometry.index(x, y)
        off = not (0 <= nx < geometry.width and 0 <= ny < geometry.height)
        if (
            off
            or geometry.separated(here, geometry.index(nx, ny))
            or geometry.terrain[geometry.index(nx, ny)] == BLOCKING
        ):
            target.pos = here
            state.emit("knocked_back", character=target.label, to=(x, y), stopped="obstacle")
            take_damage(state, target, OBSTACLE_KNOCKBACK_DAMAGE, KNOCKBACK, attacker)
            return
        if geometry.index(nx, ny) in occupied:
            break
        x, y = nx, ny
    target.pos = geometry.index(x, y)
    state.emit("knocked_back", character=target.label, to=(x, y), stopped="")


def take_damage(state: HeroState, character: Figure, amount: int, cause: str, source: Figure | None) -> int:
    """Click `character`'s dial `amount` times (HX-CHAR-04, HX-DAMAGE-01, -02), knocking it out at a KO click
    (HX-DAMAGE-06); returns the clicks taken. `source`: the opposing character whose attack dealt it, if any."""
    if amount <= 0 or not character.alive:
        return 0
    if source is not None and source.controller != character.controller:
        state.damaged_by[character.uid] = source.controller  # HX-DAMAGE-10
    taken = 0
    last = character.stats.clicks - 1
    while taken < amount and character.click < last:
        character.click += 1
        taken += 1
        if character.stats.killed[character.click]:
            break
    character.damage_taken += taken
    if cause in (PUSHING, KNOCKBACK):
        kinds = state.tallies.setdefault(character.uid, {})
        kinds[cause] = kinds.get(cause, 0) + taken
    state.emit("damage", character=character.label, clicks=taken, cause=cause)
    if character.stats.killed[character.click]:
        _knock_out(state, character, source)
    return taken


def _knock_out(state: HeroState, character: Figure, source: Figure | None) -> None:
    """A KO: the character leaves the map and its points are scored at once (HX-END-05) by the player whose
    character defeated it (double for an archenemy, HX-END-06), else by the opponent who damaged it last, else
    split evenly among its opponents (HX-END-08)."""
    character.alive = False
    state.emit("ko", character=character.label)
    worth = float(character.stats.points)
    rivals = sorted({p.number for p in state.players if _team(state, p.number) != _team(state, character.controller)})
    if source is not None and source.controller != character.controller:
        double = character.uid in state.archenemies.get(source.uid, frozenset())
        _score(state, {source.controller: worth * (2 if double else 1)})
    elif character.uid in state.damaged_by:
        _score(state, {state.damaged_by[character.uid]: worth})
    elif rivals:
        _score(state, dict.fromkeys(rivals, worth / len(rivals)))
    left = {p.number for p in state.players if any(c.controller == p.number for c in state.standing())}
    teams_left = {_team(state, p) for p in left}
    if len(teams_left) <= 1:  # HX-END-01 OPEN: the game ends when at most one side has characters left
        finish(state, "a force was eliminated")


def _score(state: HeroState, points: dict[int, float]) -> None:
    for player, amount in points.items():
        state.points[player] = state.points.get(player, 0.0) + amount


# --- turns and the end -----------------------------------------------------------------------------


def begin_turn(state: HeroState) -> None:
    """A turn's actions: one per 100 points of the build total (HX-TURN-02)."""
    state.phase = PHASES[0]
    state.actions_left = state.build_total // POINTS_PER_ACTION


def end_turn(state: HeroState) -> None:
    """Clear the tokens of the active player's characters given no action this turn (HX-TURN-10, -13); the next
    player with characters on the map takes its turn (HX-TURN-01)."""
    for character in state.monsters:
        if character.controller == state.active:
            if not character.acted:
                character.tokens = 0
            character.acted = False
    state.turn += 1
    seats = len(state.players)
    if state.turn_limit is not None and state.turn > state.turn_limit * seats:
        finish(state, "turn limit")  # HX-END-14 OPEN: a limit in rounds of every player's turn
        return
    order = sorted(p.number for p in state.players)
    at = order.index(state.active) if state.active in order else -1
    for step in range(1, len(order) + 1):
        player = order[(at + step) % len(order)]
        if any(c.controller == player for c in state.standing()):
            state.active = player
            break
    begin_turn(state)


def finish(state: HeroState, reason: str) -> None:
    """The end (HX-END-04, -07, -11): survivors score for their own player; the most VP wins; a tie, or no
    character defeated at all, goes to the force built with the fewest points; equal forces draw."""
    state.over = True
    state.phase = PHASES[1]
    state.end_reason = reason
    for character in state.standing():
        _score(state, {character.owner: float(character.stats.points)})
    totals = {p.number: state.points.get(p.number, 0.0) for p in state.players}
    nobody_defeated = all(c.alive for c in state.monsters)
    best = max(totals.values(), default=0.0)
    leaders = [p for p, v in totals.items() if v == best]
    if nobody_defeated or len(leaders) > 1:
        pool = list(totals) if nobody_defeated else leaders
        fewest = min(state.forces.get(p, 0) for p in pool)
        cheapest = [p for p in pool if state.forces.get(p, 0) == fewest]
        state.winner = cheapest[0] if len(cheapest) == 1 else None
    else:
        state.winner = leaders[0]


def score(state: HeroState) -> dict[int, int]:
    """Each player's victory points as the game stands, rounded down."""
    return {p.number: int(state.points.get(p.number, 0.0)) for p in state.players}


def _at(state: HeroState, square: int) -> str:
    x, y = state.geometry.xy(square)
    return f"[{x}, {y}]"


def labels(characters: Iterable[Figure]) -> str:
    return ", ".join(c.label for c in characters)
