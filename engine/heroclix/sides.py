"""Who is whose in a HeroClix game, and who stands next to whom: friends and opponents (HX-CHAR-11), adjacency
with walls, corners and flight layers (HX-MOVE-03), and whether a character may be given an action now."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.state import HeroState

POINTS_PER_ACTION = 100
"""One action a turn per 100 points of the build total (HX-TURN-02)."""


def team(state: HeroState, player: int) -> int:
    """The side `player` plays on (allies share one, HX-BUILD-07)."""
    for p in state.players:  # a loop, not `next` over a generator: called for every pair of characters compared
        if p.number == player:
            return p.team
    return player


def opponents(state: HeroState, character: Figure) -> list[Figure]:
    """The opposing characters on the map (HX-CHAR-11: allies are friendly)."""
    side = team(state, character.controller)
    return [c for c in state.standing() if team(state, c.controller) != side]


def is_opponent(state: HeroState, character: Figure, other: Figure) -> bool:
    """Whether `other`, a character of this state, is among `opponents(state, character)`: on the map, of another
    side (HX-CHAR-11). By uid, not `other in opponents(...)`: a list compares figures with the dataclass's `__eq__`,
    which runs interpreted (~7,500 instructions a comparison, compiled)."""
    return other.alive and team(state, other.controller) != team(state, character.controller)


STANDARD = "standard"
GIANT = "giant"
BIG = "big"
GIANT_REACH = 2
"""How far a giant's adjacency reaches, for movement and its own close attacks (HX-SPECIAL-10)."""


def size(state: HeroState, character: Figure) -> str:
    """`character`'s size class: STANDARD, GIANT or BIG (HX-CHAR-08); a double-base character is standard, in the
    card's size comparisons too (HX-PAC-13 OPEN: Plasticity's "giants ignore it")."""
    return state.sizes.get(character.uid, STANDARD)


def bulky(state: HeroState, character: Figure) -> bool:
    """A giant or a big character: it ignores most terrain when it moves, is never knocked back, carried or moved
    by Telekinesis, and blocks lines of fire (HX-SPECIAL-12..16)."""
    return character.uid in state.sizes


def adjacency(state: HeroState, one: Figure, other: Figure, at: int | None = None, soaring: bool | None = None) -> int:
    """0 when `one` (standing at `at`, soaring or not as `soaring` says) and `other` are not adjacent for movement;
    else how many squares apart they are: 1, or 2 within a giant's reach.

    Standard characters (HX-MOVE-03): touching squares not cut apart by walls or by blocking terrain round a corner
    (HX-TERRAIN-16, -17), in the same layer (a soaring character is adjacent only to soaring ones, and to big
    characters, HX-MOVE-16, HX-SPECIAL-16) and, below soaring, at the same elevation (HX-ELEV-05). A giant and any
    other character up to two squares away, whatever their elevation or flight mode, unless an elevated giant and a
    grounded standard character; at two squares a line from centre to centre cut by a wall, by blocking terrain
    (the other not soaring) or by elevated terrain (both grounded) parts them (HX-SPECIAL-10, -11, -15).

    A double-base character is adjacent from either of its squares (`at`: its leading square alone, as it moves),
    and its diagonal parts the characters on either side of it (HX-SPECIAL-02, -03, -05: `double_base`)."""
    high = state.soars(one) if soaring is None else soaring
    if state.rears:  # HX-SPECIAL-02, -03, -05: double-base characters in play
        return double_base.adjacency(state, one, other, at, high, square_adjacency)
    return square_adjacency(state, one, one.pos if at is None else at, high, other, other.pos)


def square_adjacency(state: HeroState, one: Figure, square: int, high: bool, other: Figure, there: int) -> int:
    """`adjacency` of `one` on `square` (soaring if `high`) and `other` on `there`."""
    other_high = state.soars(other)
    geometry = state.geometry
    level = levels_of(geometry).level
    kinds = (size(state, one), size(state, other))
    if GIANT in kinds:
        if kinds[0] == GIANT:
            return _giant_reach(state, square, there, kinds[1], other_high)
        return _giant_reach(state, there, square, kinds[0], high)
    if there not in geometry.piece_neighbours[square]:
        return 0
    if high or other_high:
        return 1 if high == other_high or BIG in kinds else 0
    return 1 if level[there] == level[square] else 0


def _giant_reach(state: HeroState, giant: int, other: int, other_size: str, other_soars: bool) -> int:
    """`adjacency` between a giant on square `giant` and a character on `other` (HX-SPECIAL-10, -11)."""
    geometry = state.geometry
    level = levels_of(geometry).level
    distance = geometry.distance(giant, other)
    if distance == 0 or distance > GIANT_REACH:
        return 0
    grounded_other = not other_soars and not level[other]
    if level[giant] and other_size == STANDARD and grounded_other:
        return 0
    if distance == 1:
        return 1 if other in geometry.piece_neighbours[giant] else 0
    ray = geometry.ray(giant, other)
    if ray.walled or (not other_soars and ray.blocked_by_terrain):
        return 0
    if not level[giant] and grounded_other and any(level[s] for s in ray.cells):
        return 0
    return GIANT_REACH


def adjacent_opponents(
    state: HeroState, character: Figure, at: int | None = None, soaring: bool | None = None
) -> list[Figure]:
    """Opposing characters adjacent to `character` for movement (standing at `at`, soaring or not as `soaring`
    says): those it must stop next to and break away from (`adjacency`)."""
    return [c for c in opponents(state, character) if adjacency(state, character, c, at, soaring)]


def touching_opponents(state: HeroState, character: Figure) -> list[Figure]:
    """Opposing characters adjacent to `character` at one square: those that keep it from ranged attacks
    (HX-COMBAT-09; at two squares a giant and another are not adjacent for ranged combat, HX-SPECIAL-10)."""
    return [c for c in opponents(state, character) if adjacency(state, character, c) == 1]


def in_close_reach(state: HeroState, attacker: Figure, target: Figure) -> bool:
    """Whether `attacker` may reach `target` in close combat: adjacent, and within one square unless the attacker
    is a giant (HX-COMBAT-07, -08, HX-SPECIAL-10)."""
    apart = adjacency(state, attacker, target)
    return apart == 1 or (apart == GIANT_REACH and size(state, attacker) == GIANT)


def cannot_act(state: HeroState, character: Figure) -> str:
    """Why `character` may not be given a non-free action now ("" if it may)."""
    if state.over:
        return "the game is over"
    if not character.alive:
        return f"{character.label} was knocked out"
    if character.controller != state.active:
        return f"{character.label} is not the active player's (player {state.active})"
    if character.acted:
        return f"{character.label} was already given an action this turn (HX-TURN-06)"
    if character.uid in state.carried:
        return f"{character.label} was carried this turn and may take no action until the next (HX-MOVE-26)"
    if character.tokens >= 2:
        return f"{character.label} has two action tokens and may take no action this turn (HX-TURN-06, -13)"
    if state.actions_left <= 0:
        per_turn = state.build_total // POINTS_PER_ACTION
        return (
            f"no action left this turn: {per_turn} per turn at {state.build_total} points (HX-TURN-02), one more while "
            "a character shows Leadership as the turn begins (HX-POWER-48)"
        )
    return ""


def at(state: HeroState, square: int) -> str:
    """A square as players read it: [x, y]."""
    x, y = state.geometry.xy(square)
    return f"[{x}, {y}]"
