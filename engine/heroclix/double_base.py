"""Double-base characters (HX-SPECIAL-02..06): a base on two touching squares, `pos` (its front: the first square
a scenario lists, then the square its move ends on) and `state.rears[uid]` (its rear half). It is adjacent to
what is adjacent to either square (10 squares side by side, 12 on a diagonal), and on a diagonal it parts the
characters on either side of it and blocks lines of fire across it; lines of fire and range are drawn from and
to either square. It moves as one character from a square next to it that counts as the first of its speed,
terrain and adjacency applying to its leading square, then its rear half is placed next to where it ends (the
checklist's suggestion for HX-SPECIAL-04 OPEN). Knockback, Telekinesis and carriers leave it alone (HX-SPECIAL-06).

The hooks that call this module sit in `sides.py` (adjacency), `movement.py` (moving, carrying, occupied squares),
`combat.py` and `elevated_lines.py` (lines of fire, range), `knockback.py`, `telekinesis.py`, `terrain.py`,
`transport.py`, `power_actions.py`, `area_attacks.py`, `throwing.py`, `targeted.py`, `setup.py`, `scenario.py` and
`invariants.py`; `rules.py` and `mind_control.py` pass a move's `rear` on. A double-base character's size
class is standard (HX-PAC-13 OPEN): `state.sizes` does not list it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.state import SOARING, HeroState

DOUBLE_BASE = "double-base"
"""The `size` that marks a double-base character in character and scenario files (HX-CHAR-08)."""

Pairwise = Callable[[HeroState, Figure, int, bool, Figure, int], int]
"""`sides.square_adjacency`: adjacency of `one` on a square (soaring or not) and `other` on a square."""
LineFrom = Callable[[HeroState, Figure, int, Figure, int], tuple[bool, bool]]
"""`combat.line_from`: the line of fire from one character's square to another's."""
AwayFrom = Callable[[HeroState, int, int], tuple[tuple[int, int], ...]]
"""`knockback.away_from`: the knockback directions from one square to another."""


def immovable(state: HeroState, figure: Figure) -> bool:
    """A double-base character: never knocked back (Force Blast included), carried or moved by Telekinesis
    (HX-SPECIAL-06, HX-KNOCK-09, -14, HX-MOVE-22)."""
    return figure.uid in state.rears


def squares(state: HeroState, figure: Figure) -> tuple[int, ...]:
    """The squares `figure` occupies: its own, and a double-base character's rear square too (HX-SPECIAL-02)."""
    rear = state.rears.get(figure.uid, -1)
    return (figure.pos,) if rear < 0 else (figure.pos, rear)


def occupied(state: HeroState, figures: Iterable[Figure]) -> dict[int, Figure]:
    """Every square `figures` occupy, with who occupies it (HX-MOVE-06: nobody shares one)."""
    if not state.rears:
        return {c.pos: c for c in figures}
    return {square: c for c in figures for square in squares(state, c)}


def spots(state: HeroState, figures: Iterable[Figure]) -> set[int]:
    """Every square `figures` occupy."""
    if not state.rears:
        return {c.pos for c in figures}
    return {square for c in figures for square in squares(state, c)}


def distance(state: HeroState, one: Figure, other: Figure) -> int:
    """Squares between the nearest squares of two characters: range counts from the square the line of fire
    is drawn from, to either square of a double-base target (HX-SPECIAL-05)."""
    apart = state.geometry.distance
    return min(apart(a, b) for a in squares(state, one) for b in squares(state, other))


def distance_to(state: HeroState, square: int, figure: Figure) -> int:
    """Squares from `square` to the nearest square of `figure`."""
    return min(state.geometry.distance(square, s) for s in squares(state, figure))


def nearest(state: HeroState, figure: Figure, square: int) -> tuple[int, ...]:
    """`figure`'s squares nearest `square` (its front first): where its attack on a character there comes from."""
    mine = squares(state, figure)
    best = min(state.geometry.distance(s, square) for s in mine)
    return tuple(s for s in mine if state.geometry.distance(s, square) == best)


def across(state: HeroState, a: int, b: int, skip: tuple[int, ...] = ()) -> Figure | None:
    """The standing double-base character (not in `skip`) whose two diagonal squares flank the corner between the
    diagonal squares `a` and `b`: a line or a step from one to the other crosses its base (HX-SPECIAL-03)."""
    flanks = state.geometry.diagonal_flanks.get((a, b))
    if flanks is None:
        return None
    for uid, rear in state.rears.items():
        figure = state.monsters[uid]
        if figure.alive and uid not in skip and (figure.pos, rear) in (flanks, (flanks[1], flanks[0])):
            return figure
    return None


def in_the_way(state: HeroState, here: int, ahead: int, target: Figure) -> bool:
    """Whether a knockback step of `target` from `here` to `ahead` would cross a double-base character's diagonal in
    its layer: it stops before, as before a character (HX-KNOCK-07, HX-SPECIAL-03)."""
    crossed = across(state, here, ahead, (target.uid,)) if state.rears else None
    return crossed is not None and state.soars(crossed) == state.soars(target)


def adjacency(state: HeroState, one: Figure, other: Figure, at: int | None, high: bool, pairwise: Pairwise) -> int:
    """`sides.adjacency` with double-base characters in play: the nearest adjacency from any square of `one` (only
    `at`, when given: a moving double-base character's leading square) to any square of `other` (HX-SPECIAL-02,
    -05); two squares on either side of a double-base character's diagonal, in its layer, are not adjacent
    (HX-SPECIAL-03)."""
    best = 0
    for a in squares(state, one) if at is None else (at,):
        for b in squares(state, other):
            found = pairwise(state, one, a, high, other, b)
            if found and (best == 0 or found < best):
                parted = across(state, a, b, (one.uid, other.uid))
                if parted is None or state.soars(parted) != high:
                    best = found
    return best


def best_line(
    state: HeroState, attacker: Figure, target: Figure, within: int, line_from: LineFrom
) -> tuple[bool, bool]:
    """The line of fire the attacker's player draws when either end is a double-base character: from and to any
    of its squares, `within` squares apart or closer (-1: any), clear and unhindered if it can be, else clear
    (HX-SPECIAL-05)."""
    found = (False, False)
    for a in squares(state, attacker):
        for b in squares(state, target):
            if within >= 0 and state.geometry.distance(a, b) > within:
                continue
            clear, hindered = line_from(state, attacker, a, target, b)
            if clear and not hindered:
                return True, False
            if clear:
                found = (True, True)
    return found


def away(state: HeroState, attacker: Figure, target: Figure, away_from: AwayFrom) -> tuple[tuple[int, int], ...]:
    """The knockback directions for `target` hit by `attacker`: away from the attacker's square nearest it, from
    either when both are as near (HX-KNOCK-04 with HX-SPECIAL-05; the first: the front's)."""
    found: list[tuple[int, int]] = []
    for square in nearest(state, attacker, target.pos):
        for way in away_from(state, square, target.pos):
            if way not in found:
                found.append(way)
    return tuple(found)


def touching(state: HeroState, figure: Figure) -> dict[int, int]:
    """The squares adjacent to a double-base character, each with its own square next to it (front first): where
    its move may begin counting, and the square that first step leaves from (HX-SPECIAL-04, HX-MOVE-03)."""
    geometry = state.geometry
    level = levels_of(geometry).level
    mine = squares(state, figure)
    found: dict[int, int] = {}
    for own in mine:
        for square in geometry.piece_neighbours[own]:
            if square not in mine and square not in found and level[square] == level[own]:
                found[square] = own
    return found


def rear_problem(state: HeroState, figure: Figure, front: int, rear: int, mode: str | None) -> str:
    """Why `figure`'s rear half may not rest on `rear` when its move ends on `front` (in flight mode `mode`): it
    goes next to the front, with no wall between the centre dots, at the same elevation even when soaring
    (HX-SPECIAL-04), on a square the character could occupy (HX-MOVE-06, HX-TERRAIN-11, HX-MOVE-15, -18), not
    across another double-base character's diagonal (HX-SPECIAL-03)."""
    geometry = state.geometry
    label = figure.label
    mode = mode or state.flight.get(figure.uid)
    if not 0 <= rear < geometry.size or rear == front or geometry.distance(front, rear) != 1:
        return f"{label}'s rear half goes on a square next to {_at(state, front)}, where its move ends (HX-SPECIAL-04)"
    where = f"{_at(state, front)} and {_at(state, rear)}"
    if rear not in geometry.piece_neighbours[front]:
        return f"a wall would stand between the centre dots of {label}'s base on {where} (HX-SPECIAL-04)"
    level = levels_of(geometry).level
    if level[rear] != level[front]:
        return f"both ends of {label}'s base rest at the same elevation, even soaring; not {where} (HX-SPECIAL-04)"
    taken = occupied(state, (c for c in state.standing() if c.uid != figure.uid)).get(rear)
    if taken is not None:
        return f"{_at(state, rear)} is taken by {taken.label} (HX-MOVE-06)"
    if mode != SOARING and geometry.terrain[rear] == BLOCKING:
        return f"{label}'s rear half may not rest on blocking terrain at {_at(state, rear)} (HX-TERRAIN-11)"
    if mode == SOARING and geometry.indoor[rear]:
        return f"no soaring indoors: {label}'s rear half may not go over {_at(state, rear)} (HX-MOVE-18)"
    crossed = across(state, front, rear, (figure.uid,))
    if crossed is not None:
        return f"{label}'s base on {where} would cross {crossed.label}'s (HX-SPECIAL-03)"
    return ""


def partners(state: HeroState, front: int, free: Iterable[int]) -> list[int]:
    """The squares of `free` where a double-base character with its front on `front` may set its rear half down
    as it is placed (HX-SETUP-08, HX-SPECIAL-04): next to it, no wall between, at the same elevation, not across
    another double-base character's diagonal."""
    geometry = state.geometry
    level = levels_of(geometry).level
    return [
        square
        for square in free
        if square in geometry.piece_neighbours[front]
        and level[square] == level[front]
        and not across(state, front, square)
    ]


def base_problem(state: HeroState, figure: Figure) -> str:
    """Why a double-base character's two squares cannot hold its base: they touch, with no wall between their
    centre dots, at one elevation, not across another double-base character's diagonal (HX-SPECIAL-02..04)."""
    geometry = state.geometry
    front, rear = figure.pos, state.rears[figure.uid]
    where = f"{figure.label}'s squares {_at(state, front)} and {_at(state, rear)}"
    if rear not in geometry.all_neighbour_sets[front]:
        return f"{where} do not touch (HX-SPECIAL-02)"
    if rear not in geometry.piece_neighbours[front]:
        return f"a wall stands between the centre dots of {where} (HX-SPECIAL-04)"
    if levels_of(geometry).level[rear] != levels_of(geometry).level[front]:
        return f"{where} are at different elevations (HX-SPECIAL-04)"
    crossed = across(state, front, rear, (figure.uid,))
    return f"{where} cross {crossed.label}'s base (HX-SPECIAL-03)" if crossed is not None else ""


def trailing(state: HeroState, figure: Figure, path: tuple[int, ...]) -> int:
    """Where the rear half follows by default: the square the leading half entered before its last, or, after one
    square, the double-base character's own square that square touches (its front first)."""
    return path[-2] if len(path) > 1 else touching(state, figure).get(path[0], -1)


def rear_square(state: HeroState, figure: Figure, path: tuple[int, ...], rear: int, mode: str | None) -> int:
    """The square `figure`'s rear half rests on after moving along `path` (-1: none it may): `rear` when named,
    else the trailing square, else the first square (by index) next to the path's end that it may rest on."""
    front = path[-1]
    if rear >= 0:
        return rear if not rear_problem(state, figure, front, rear, mode) else -1
    behind = trailing(state, figure, path)
    if behind >= 0 and not rear_problem(state, figure, front, behind, mode):
        return behind
    around = sorted(state.geometry.all_neighbours[front])
    return next((s for s in around if not rear_problem(state, figure, front, s, mode)), -1)


def setting_out(state: HeroState, figure: Figure, path: tuple[int, ...], rear: int) -> str:
    """Why a double-base character's move may not begin so: its first square is one adjacent to it, where it
    begins counting (HX-SPECIAL-04); a rear square is named only with a path."""
    if not path:
        return f"{figure.label} places its rear half only when it moves (HX-SPECIAL-04)" if rear >= 0 else ""
    if path[0] not in touching(state, figure):
        return (
            f"{_at(state, path[0])} is not adjacent to {figure.label}: a double-base character begins counting its "
            "move from a square adjacent to it (HX-SPECIAL-04)"
        )
    return ""


def end_problem(state: HeroState, figure: Figure, path: tuple[int, ...], rear: int, mode: str | None) -> str:
    """Why a double-base character's move along `path` may not end with its rear half on `rear` (-1: on any
    square it may rest on) ("" for any other character, and for no path)."""
    if figure.uid not in state.rears or not path:
        return ""
    if rear >= 0:
        return rear_problem(state, figure, path[-1], rear, mode)
    if rear_square(state, figure, path, -1, mode) < 0:
        return f"no square next to {_at(state, path[-1])} can take {figure.label}'s rear half (HX-SPECIAL-04)"
    return ""


def pose(state: HeroState, figure: Figure, path: tuple[int, ...], rear: int, mode: str | None) -> tuple[int, int]:
    """Where `figure` stands once moved along `path`: its square and its rear square (-1: not a double-base
    character)."""
    if not path:
        return figure.pos, state.rears.get(figure.uid, -1)
    if figure.uid not in state.rears:
        return path[-1], -1
    return path[-1], rear_square(state, figure, path, rear, mode)


def put(state: HeroState, figure: Figure, front: int, rear: int) -> tuple[int, int]:
    """Stand `figure` on `front` (and a double-base character's rear half on `rear`); where it stood before."""
    before = (figure.pos, state.rears.get(figure.uid, -1))
    figure.pos = front
    if rear >= 0 and figure.uid in state.rears:
        state.rears[figure.uid] = rear
    return before


def from_either(state: HeroState, figure: Figure, check: Callable[[], str]) -> str:
    """`check` of an action drawn from `figure`'s square, tried from its rear square too when it is a double-base
    character (HX-SPECIAL-05: either square): "" if it passes from one of them, else the front's problem."""
    problem = check()
    if not problem or figure.uid not in state.rears:
        return problem
    front, rear = figure.pos, state.rears[figure.uid]
    put(state, figure, rear, front)
    try:
        return "" if not check() else problem
    finally:
        put(state, figure, front, rear)


def _at(state: HeroState, square: int) -> str:
    x, y = state.geometry.xy(square)
    return f"[{x}, {y}]"
