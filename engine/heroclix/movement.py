"""HeroClix movement: how far a character moves, which paths it may take, break away (HX-MOVE), terrain
(HX-TERRAIN-05..17), elevated terrain and ladders (HX-ELEV-02..04) and flight (HX-MOVE-12..18); the powers that
change them are in movement_powers (Plasticity, Phasing/Teleport, Earthbound/Neutralized) and here (Leap/Climb)."""

from __future__ import annotations

from typing import Any

from clix.engine.core import decisions
from clix.engine.core.geometry import BLOCKING, HINDERING, TERRAIN_CODES, WATER
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import cards, double_base
from clix.engine.heroclix.defenses import capped
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.modifiers import SPEED, modifier
from clix.engine.heroclix.move_search import Search, walker_terrain
from clix.engine.heroclix.movement_powers import break_away_needed, earthbound, phases, speed_mode
from clix.engine.heroclix.objects import layout_of, lift, lying_at, strong, within_reach
from clix.engine.heroclix.powers import BATTLE_FURY, LEAP_CLIMB
from clix.engine.heroclix.sides import GIANT, GIANT_REACH, adjacency, adjacent_opponents, at, bulky, opponents, size
from clix.engine.heroclix.state import HOVERING, SOARING, HeroState

BREAK_AWAY = 4
"""The lowest d6 that breaks away (HX-MOVE-08; big characters too, HX-SPECIAL-17 OPEN)."""
GIANT_BREAK_AWAY = 3
"""The lowest d6 with which a giant breaks away (HX-SPECIAL-12), from any opponent, a giant too (HX-PAC-28: the
card's easier break away from smaller characters only is not 2005's)."""
MODE_CHANGE_SPEED = 1
"""Speed a flier gives up to change between hovering and soaring in one action (HX-MOVE-13)."""


def flies(character: Figure) -> bool:
    """Whether `character` flies now (wing speed mode; not while Earthbound/Neutralized shows, HX-POWER-04)."""
    return speed_mode(character) == "wing"


def swims(character: Figure) -> bool:
    """Whether water is clear terrain for `character` now (dolphin speed mode, HX-MOVE-19; HX-POWER-04)."""
    return speed_mode(character) == "dolphin"


def _kind(state: HeroState, square: int, swims: bool, lifted: int = -1) -> int:
    """The terrain type of `square` for the movement of a walker (`swims`: water is clear, HX-MOVE-19; `lifted`:
    the square of an object already picked up, no longer hindering, HX-OBJECT-03)."""
    if square == lifted:
        x, y = state.geometry.xy(square)
        terrain = TERRAIN_CODES[layout_of(state).printed(x, y)]
    else:
        terrain = state.geometry.terrain[square]
    return 0 if terrain == WATER and swims else terrain


def final_mode(state: HeroState, character: Figure, mode: str | None) -> str | None:
    """The flight mode `character` moves in and ends in: `mode` when named, else its own (None: not a flier)."""
    return mode or state.flight.get(character.uid)


def move_speed(state: HeroState, character: Figure, mode: str | None = None, halved: bool = False) -> int:
    """The squares `character` may move: its speed, halved (rounded up, HX-VALUE-04) when a walker begins in
    hindering terrain or water (HX-TERRAIN-06, HX-MOVE-20; a flier ignores them, HX-MOVE-14, -15), less 1 when a
    flier changes flight mode (a modifier after the halving, HX-MOVE-13, HX-VALUE-06). `halved`: halved once more
    (Charge, Running Shot, Mind Control), a replacement before the modifiers; both halvings round up (HX-VALUE-06
    OPEN). Perplex's modifier and the cards' (HX-FEAT-07, HX-TEAM, HX-BFC) come after the halvings, with the flier's
    -1, under the rule of 3 (HX-POWER-46, HX-VALUE-05)."""
    speed = character.speed
    bonus = modifier(state, character, SPEED) + cards.modifier(state, character, cards.SPEED)
    if flies(character):
        changes = mode is not None and mode != state.flight.get(character.uid)
        speed = (speed + 1) // 2 if halved else speed
        return max(0, speed + capped(bonus - (MODE_CHANGE_SPEED if changes else 0)))
    slowed = not strides(state, character) and any(  # HX-SPECIAL-12, -16: giants and big ones ignore hindering terrain
        _kind(state, square, swims(character)) in (HINDERING, WATER)
        for square in double_base.squares(state, character)  # HX-SPECIAL-04 (OPEN): either half in it
    )
    if slowed:
        speed = (speed + 1) // 2
    return max(0, ((speed + 1) // 2 if halved else speed) + capped(bonus))


def moves_at_all(state: HeroState, character: Figure, path: tuple[int, ...], mode: str | None) -> bool:
    """Whether a move action moves the character: a square or a change of flight mode (HX-MOVE-13 OPEN)."""
    return bool(path) or (mode is not None and mode != state.flight.get(character.uid))


def step_problem(
    state: HeroState,
    character: Figure,
    start: int,
    path: tuple[int, ...],
    mode: str | None = None,
    pick_up: tuple[int, int] | None = None,
    halved: bool = False,
    rear: int = -1,
    squares: int = -1,
    passing: bool = False,
) -> str:
    """Why `path` (with flight mode `mode`, picking up the object on square `pick_up[1]` after entering
    `pick_up[0]` of its squares) is not a move `character` may make from `start`, assuming any break-away roll
    succeeds ("" if it is one). `halved`: its speed halved once more, rounded up (Charge, Running Shot: HX-VALUE-06
    OPEN, halved twice when it begins in hindering terrain). `squares`: how far it may move, in place of its speed
    (Sidestep's 2, HX-POWER-09 OPEN). `passing`: it may pass squares next to opponents (Hypersonic Speed). A
    double-base character's path begins with the square next to it that it counts from, and `rear` is where its
    rear half ends (-1: the engine's choice; HX-SPECIAL-04)."""
    if pick_up is not None:
        problem = _pick_up_problem(state, character, start, path, pick_up)
        if problem:
            return problem
    if mode is not None and not flies(character):
        return f"{character.label} does not fly (HX-MOVE-12)"
    speed = move_speed(state, character, mode, halved) if squares < 0 else squares
    if len(path) > speed:
        return f"the path is {len(path)} squares; {character.label} may move {speed} (HX-MOVE-02, -13, HX-TERRAIN-06)"
    ending = double_base.end_problem(state, character, path, rear, final_mode(state, character, mode))
    beginning = None if start == character.pos else start  # None: from either square of a double-base character
    if character.uid in state.rears:  # HX-SPECIAL-04: a double-base character counts from a square next to it
        problem = double_base.setting_out(state, character, path, rear)
        if problem:
            return problem
        start = double_base.touching(state, character)[path[0]] if path else start
    if flies(character):
        return _flight_problem(state, character, start, path, final_mode(state, character, mode)) or ending
    geometry = state.geometry
    broke_from = {c.uid for c in adjacent_opponents(state, character, beginning)}
    if passing or passes_opponents(state, character, beginning):
        broke_from = {c.uid for c in opponents(state, character)}
    others = double_base.occupied(state, (c for c in state.standing() if c.uid != character.uid))
    foes = {c.uid for c in opponents(state, character)}
    levels = levels_of(geometry)
    indoor = geometry.indoor
    huge = strides(state, character)
    phaser = phases(character)
    after, lifted = pick_up if pick_up is not None else (len(path) + 1, -1)
    here = start
    for index, square in enumerate(path):
        where = at(state, square)
        if square not in geometry.all_neighbour_sets[here]:
            return f"{where} is not a step from {at(state, here)} (HX-MOVE-02)"
        # giants and big characters pass outdoor walls and blocking terrain (HX-SPECIAL-12, -16), Phasing/Teleport
        # any (HX-POWER-03)
        through = phaser or (huge and not indoor[here] and not indoor[square])
        if geometry.separated(here, square) and not through:
            return (
                f"a wall or blocking terrain cuts the step from {at(state, here)} to {where} (HX-TERRAIN-12, -16, -17)"
            )
        if geometry.terrain[square] == BLOCKING and not through:
            return f"{where} is blocking terrain (HX-TERRAIN-11)"
        if levels.level[square] != levels.level[here] and frozenset((here, square)) not in levels.ladders and not huge:
            return f"the step from {at(state, here)} to {where} changes level without a ladder (HX-ELEV-02, -03)"
        standing = others.get(square)
        if standing is not None and standing.uid in foes and not leaps(character):
            return f"{where} holds an opposing character, {standing.label} (HX-MOVE-04)"
        crossed = double_base.across(state, here, square) if state.rears and not leaps(character) else None
        if crossed is not None and crossed.uid in foes:  # HX-SPECIAL-03: through an opposing double-base's base
            return f"the step from {at(state, here)} to {where} crosses {crossed.label}'s base (HX-MOVE-04)"
        gone = lifted if index >= after else -1
        if index < len(path) - 1 and must_stop(state, character, here, square, broke_from, gone):
            return f"the move must end at {where} (HX-MOVE-05, HX-TERRAIN-05)"
        here = square
    if path and path[-1] in others:
        return f"{at(state, path[-1])} is taken by {others[path[-1]].label} (HX-MOVE-06)"
    if path and geometry.terrain[path[-1]] == BLOCKING:
        return f"{character.label} may pass over blocking terrain but not end on it at {at(state, path[-1])} (HX-SPECIAL-12)"
    return ending


def passes_opponents(state: HeroState, character: Figure, start: int | None = None) -> bool:
    """Whether a move from `start` (None: where it stands) may pass squares next to opponents without stopping:
    a transporter's that begins next to none (HX-SPECIAL-08; not while Earthbound/Neutralized, HX-POWER-04), or a
    Leap/Climb or Phasing/Teleport character's (HX-POWER-02, -03 OPEN)."""
    transporter = character.uid in state.transporters and not earthbound(character)
    return leaps(character) or (transporter and not adjacent_opponents(state, character, start))


def leaps(character: Figure) -> bool:
    """Leap/Climb: it breaks away automatically and ignores characters, hindering, elevated and outdoor blocking
    terrain when it moves (HX-POWER-02 OPEN, the checklist's reading); Phasing/Teleport too, and it passes walls
    and blocking terrain besides (`phases`, HX-POWER-03 OPEN)."""
    return LEAP_CLIMB in character.powers or phases(character)


def strides(state: HeroState, character: Figure) -> bool:
    """Whether `character` moves over hindering, elevated and outdoor blocking terrain (HX-SPECIAL-12, -16,
    HX-POWER-02)."""
    return bulky(state, character) or leaps(character)


def break_away_at(state: HeroState, character: Figure) -> int:
    """The lowest d6 with which `character` breaks away (HX-MOVE-08, HX-SPECIAL-12, -17; Plasticity, HX-POWER-07)."""
    return break_away_needed(state, character, GIANT_BREAK_AWAY if size(state, character) == GIANT else BREAK_AWAY)


def _flight_problem(state: HeroState, character: Figure, start: int, path: tuple[int, ...], mode: str | None) -> str:
    """A flier's path: any touching squares, through terrain, walls and opposing characters, never stopping for
    them (HX-MOVE-12, -14, -15; walls outdoors: HX-MOVE-20 OPEN); indoors no soaring (HX-MOVE-18), and a hovering
    flier crosses no wall and passes over no blocking terrain (HX-TERRAIN-20, -21); it may not end on an occupied
    square (HX-MOVE-06), nor hovering on blocking terrain (HX-MOVE-14; soaring may, HX-MOVE-15 OPEN)."""
    geometry = state.geometry
    indoor = geometry.indoor
    phaser = phases(character)  # HX-POWER-03: through indoor walls and blocking terrain too
    if mode == SOARING and any(indoor[s] for s in (start, *path)):
        return "no soaring indoors: a flier descends to hovering before it enters an indoor square (HX-MOVE-18)"
    here = start
    for square in path:
        if square not in geometry.all_neighbour_sets[here]:
            return f"{at(state, square)} is not a step from {at(state, here)} (HX-MOVE-02)"
        if mode == HOVERING and (indoor[here] or indoor[square]) and not phaser:
            if geometry.separated(here, square):
                return f"indoors a hovering flier crosses no wall: {at(state, here)} to {at(state, square)} (HX-TERRAIN-20)"
            if indoor[square] and geometry.terrain[square] == BLOCKING:
                return f"indoors a hovering flier does not pass over blocking terrain at {at(state, square)} (HX-TERRAIN-20)"
        here = square
    end = path[-1] if path else start
    taken = double_base.occupied(state, (c for c in state.standing() if c.uid != character.uid)).get(end)
    if taken is not None:
        return f"{at(state, end)} is taken by {taken.label} (HX-MOVE-06)"
    if mode == HOVERING and geometry.terrain[end] == BLOCKING:
        return f"a hovering character may not end on blocking terrain at {at(state, end)} (HX-MOVE-14, -15)"
    return ""


def must_stop(
    state: HeroState, character: Figure, here: int, square: int, broke_from: set[int], lifted: int = -1
) -> bool:
    """Whether a walker's step from `here` into `square` ends its move: it crosses into hindering terrain or
    water (through the corner between two diagonal hindering squares too: HX-TERRAIN-05), or enters a square
    next to an opposing character it did not break away from (HX-MOVE-05, -10). A flier never stops for them."""
    if flies(character):
        return False
    if not strides(state, character) and _terrain_stop(state, here, square, swims(character), lifted):
        return True
    return any(c.uid not in broke_from for c in adjacent_opponents(state, character, square))


def _terrain_stop(state: HeroState, here: int, square: int, swims: bool, lifted: int = -1) -> bool:
    """Whether a walker's step from `here` into `square` crosses into hindering terrain or water, through the
    corner between two diagonal hindering squares too (HX-TERRAIN-05, HX-MOVE-20)."""
    entered = _kind(state, square, swims, lifted)
    left = _kind(state, here, swims, lifted)
    if entered in (HINDERING, WATER) and entered != left:
        return True
    flanks = state.geometry.diagonal_flanks.get((here, square))
    return (
        flanks is not None
        and left not in (HINDERING, WATER)
        and all(_kind(state, f, swims, lifted) in (HINDERING, WATER) for f in flanks)
    )


def reachable(
    state: HeroState, character: Figure, squares: int = -1, passing: bool = False
) -> dict[int, tuple[int, ...]]:
    """Every square `character` may end a move in (in its own flight mode; its own square included), with a
    shortest legal path to it. A square is reached once, by the first path found (breadth first): enough to list
    moves, while `step_problem` judges any path a step names. Each step is judged as it is added, by the checks
    `step_problem` makes of a path's last step and end, so the search does not walk every path again. `squares`
    and `passing` as for `step_problem`."""
    start = character.pos
    return {path[-1] if path else start: path for path in reachable_paths(state, character, squares, passing)}


def reachable_paths(
    state: HeroState, character: Figure, squares: int = -1, passing: bool = False
) -> list[tuple[int, ...]]:
    """`reachable`'s paths, in its order (the path to the character's own square first), without the dict: what
    listing the moves reads."""
    geometry = state.geometry
    start = character.pos
    speed = move_speed(state, character) if squares < 0 else squares
    level = levels_of(geometry).level
    indoor = geometry.indoor
    flier = flies(character)
    mode = state.flight.get(character.uid)
    if flier and mode == SOARING and indoor[start]:
        return [()]  # no soaring indoors (HX-MOVE-18): every path is refused
    swimmer = swims(character)
    huge = strides(state, character)
    leaper = leaps(character)
    phaser = phases(character)
    foes = opponents(state, character)
    others = double_base.spots(state, (c for c in state.standing() if c.uid != character.uid))
    foe_squares = double_base.spots(state, foes)
    foe_ids = {c.uid for c in foes}
    broke_from = {c.uid for c in adjacent_opponents(state, character)}
    danger: set[int] = set()  # squares next to an opponent it did not break away from (HX-MOVE-05, -10)
    if not flier and not passing and not passes_opponents(state, character):
        for foe in foes:
            if foe.uid in broke_from:
                continue
            if (
                not huge and foe.uid not in state.sizes and not state.rears
            ):  # two standard characters: the squares touching the foe's
                if not state.soars(foe):
                    danger.update(s for s in geometry.piece_neighbours[foe.pos] if level[s] == level[foe.pos])
                continue
            fx, fy = geometry.xy(foe.pos)
            for y in range(max(0, fy - GIANT_REACH), min(geometry.height, fy + GIANT_REACH + 1)):
                for x in range(max(0, fx - GIANT_REACH), min(geometry.width, fx + GIANT_REACH + 1)):
                    square = geometry.index(x, y)
                    if adjacency(state, character, foe, square, False):
                        danger.add(square)

    walker = not flier and not huge
    kinds = walker_terrain(geometry, swimmer)
    starts = double_base.touching(state, character) if character.uid in state.rears else None  # HX-SPECIAL-04
    search = Search(
        state, character, mode, flier, phaser, huge, leaper, walker, kinds, others, foe_squares, foe_ids, danger, starts
    )
    return search.ends(start, speed)


def carry_problem(
    state: HeroState, character: Figure, path: tuple[int, ...], mode: str | None, carry: int, to: int, rear: int = -1
) -> str:
    """Why the mover may not carry character `carry` to square `to`: only a hovering flier carries, and it ends
    hovering (HX-MOVE-22, -24); it carries one friendly walker or swimmer holding no object, adjacent when the
    action begins (HX-MOVE-22, -23, -25); `to` is a square next to where the carrier ends that the carried
    character may occupy (HX-MOVE-25, -27 OPEN b). A double-base carrier (its rear half ending on `rear`) is
    adjacent from either square, and ends on both."""
    geometry = state.geometry
    carried = state.monsters[carry]
    transporter = character.uid in state.transporters and not earthbound(character)  # HX-POWER-04: no carrying
    if not flies(character) and not transporter:
        return f"only fliers and transporters carry, not {character.label} (HX-MOVE-22, HX-SPECIAL-07)"
    hovers = state.flight.get(character.uid) == HOVERING and final_mode(state, character, mode) == HOVERING
    if flies(character) and not hovers:
        return "a flier carries only hovering, from the start of its action to its end (HX-MOVE-24)"
    if carried.uid == character.uid or not carried.alive or carried in opponents(state, character):
        return f"{carried.label} is not a friendly character to carry (HX-MOVE-22)"
    if double_base.immovable(state, carried):  # HX-SPECIAL-06
        return f"{carried.label} is a double-base character and cannot be carried (HX-SPECIAL-06, HX-MOVE-22)"
    if bulky(state, carried) or carried.uid in state.transporters:
        return (
            f"{carried.label} is a giant, big character or transporter and cannot be carried (HX-SPECIAL-07, -13, -16)"
        )
    if speed_mode(carried) not in ("boot", "dolphin"):
        return f"{carried.label} cannot be carried: only characters that walk or swim can (HX-MOVE-22)"
    if BATTLE_FURY in carried.powers:
        return f"{carried.label} shows Battle Fury and cannot be carried (HX-POWER-38)"
    if carried.uid in state.holding:
        return f"{carried.label} holds an object and cannot be carried (HX-MOVE-23)"
    level = levels_of(geometry).level
    beside = [s for s in double_base.squares(state, character) if carried.pos in geometry.piece_neighbours[s]]
    if not beside or level[carried.pos] != level[beside[0]]:
        return f"{carried.label} is not adjacent to {character.label} as the action begins (HX-MOVE-25)"
    end, behind = double_base.pose(state, character, path, rear, final_mode(state, character, mode))
    if to < 0 or to not in geometry.piece_neighbours[end] or level[to] != level[end]:
        return f"carry_to must be a square next to where {character.label} ends (HX-MOVE-25)"
    taken = double_base.spots(state, (c for c in state.standing() if c.uid not in (character.uid, carried.uid)))
    if to in taken or to in (end, behind) or geometry.terrain[to] == BLOCKING:
        return f"{carried.label} cannot be placed on {at(state, to)} (HX-MOVE-25)"
    return ""


def _pick_up_problem(
    state: HeroState, character: Figure, start: int, path: tuple[int, ...], pick_up: tuple[int, int]
) -> str:
    """Why the mover may not pick up the object on `pick_up[1]` after entering `pick_up[0]` squares: it needs
    Super Strength and free hands, and the object must lie in its square or an adjacent one at that moment
    (HX-OBJECT-02, -07, -08)."""
    after, square = pick_up
    if not strong(character):
        return f"only a character with Super Strength picks up objects, not {character.label} (HX-OBJECT-02)"
    if character.uid in state.holding:
        return f"{character.label} already holds an object; it holds one at most (HX-OBJECT-07)"
    if not 0 <= after <= len(path):
        return f"pick_up_after is 0 to the path's {len(path)} squares"
    if lying_at(state, square) is None:
        return f"no object lies at {at(state, square)} (HX-OBJECT-08)"
    there = path[after - 1] if after else start
    if not within_reach(state, there, square):
        return f"the object at {at(state, square)} is not in or next to {at(state, there)} (HX-OBJECT-08)"
    return ""


def move(
    state: HeroState,
    character: Figure,
    path: tuple[int, ...],
    mode: str | None,
    pick_up: int | None = None,
    carry: int | None = None,
    carry_to: int = -1,
    break_away: bool = True,
    rear: int = -1,
) -> bool:
    """A move action: the break-away roll first when it starts next to an opponent and moves at all (HX-MOVE-07,
    -08: below `break_away_at` it fails, the character stays and its action ends; a flier changing mode moves
    too), then along `path`, in flight mode `mode`; a double-base character's rear half then on `rear` (-1: the
    engine's choice, HX-SPECIAL-04). `break_away`: False for the rest of a transporter's move after its free
    attack (HX-SPECIAL-08 OPEN a). False when the character broke away in vain."""
    moving = moves_at_all(state, character, path, mode)
    if break_away and moving and not leaps(character) and adjacent_opponents(state, character):
        roll = decisions.d6(state)
        responders: Any = state.ruleset.roll_responders  # one die here, where the core's type says two: Any
        for respond in responders:  # HX-POWER-42: Probability Control may have it rerolled
            roll = respond(state, character, (), (roll,))[0]
        needed = break_away_at(state, character)
        state.emit(EventKind.BREAK_AWAY, character=character.label, roll=roll, broke=roll >= needed)
        if roll < needed:
            return False
    if path:  # HX-SPECIAL-04: a double-base character's rear half placed next to where it ends
        double_base.put(
            state, character, *double_base.pose(state, character, path, rear, final_mode(state, character, mode))
        )
        state.moved.add(character.uid)  # HX-POWER-22: it has moved this turn
    if mode is not None and flies(character):
        state.flight[character.uid] = mode
    if carry is not None:  # HX-MOVE-25, -26: placed beside the carrier, no token, no action this turn
        carried = state.monsters[carry]
        carried.pos = carry_to
        state.carried.add(carried.uid)
        state.moved.add(carried.uid)  # HX-PAC-11: placed
        state.emit(EventKind.CARRIED, character=carried.label, by=character.label, to=state.geometry.xy(carry_to))
    if pick_up is not None:
        state.holding[character.uid] = lift(state, pick_up)
        state.emit(EventKind.PICKED_UP, character=character.label, object=state.holding[character.uid])
    state.emit(
        EventKind.MOVE, character=character.label, to=state.geometry.xy(character.pos), squares=len(path),
        flight=state.flight.get(character.uid),
    )  # fmt: skip
    return True


__all__ = ["BREAK_AWAY", "HOVERING", "SOARING", "move", "move_speed", "reachable", "reachable_paths", "step_problem"]
