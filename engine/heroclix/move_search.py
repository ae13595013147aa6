"""HeroClix's move search (HX-MOVE-02..06, -10, -12..20, HX-TERRAIN-05..17, -20, HX-ELEV-02, -03, HX-SPECIAL-03,
-04, -12, -16, HX-POWER-02, -03): every square a character may end a move in, found breadth first with each step
judged as it is added (`Search`), for every mover, double-base characters' included; and the per-map tables it
reads (`closed_steps`, `closed_flags`, `walker_terrain`). `movement.reachable` sets a search up; `movement.step_problem`
judges a path step by step, the rules' reference for this search."""

from __future__ import annotations

from typing import Any, cast

from clix.engine.core.geometry import BLOCKING, HINDERING, WATER, Geometry
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.state import HOVERING, SOARING, HeroState


def closed_steps(geometry: Geometry) -> list[frozenset[int]]:
    """Per square, the touching squares cut apart from it (`Geometry.separated`: a wall, or a corner shut both ways
    round, HX-MOVE-03, HX-TERRAIN-16), worked out once per map: the search reads them at every step."""
    found: Any = geometry.cached("heroclix closed steps", lambda: _closed_steps(geometry))
    return cast(list[frozenset[int]], found)


def _closed_steps(geometry: Geometry) -> list[frozenset[int]]:
    """`closed_steps` of a map, shared by maps with the same walls and blocking terrain: only they shut a step
    (`Geometry.separated`); a map made when objects move differs in what hinders, and finds its table there."""
    found: Any = geometry.shared(
        "heroclix closed steps",
        lambda: [
            frozenset(j for j in geometry.all_neighbours[i] if geometry.separated(i, j)) for i in range(geometry.size)
        ],
    )
    return cast(list[frozenset[int]], found)


def closed_flags(geometry: Geometry) -> list[tuple[bool, ...]]:
    """`closed_steps` as flags in the order of `Geometry.all_neighbours` (per square, per touching square: whether
    the step is shut), read by index in the search instead of a set lookup; kept as `closed_steps` is."""
    found: Any = geometry.cached("heroclix closed flags", lambda: _closed_flags(geometry))
    return cast(list[tuple[bool, ...]], found)


def _closed_flags(geometry: Geometry) -> list[tuple[bool, ...]]:
    closed = closed_steps(geometry)
    found: Any = geometry.shared(
        "heroclix closed flags",
        lambda: [tuple(j in closed[i] for j in geometry.all_neighbours[i]) for i in range(geometry.size)],
    )
    return cast(list[tuple[bool, ...]], found)


def walker_terrain(geometry: Geometry, swims: bool) -> tuple[list[int], list[bool]]:
    """Per square, its terrain type for a walker's movement (`_kind` with nothing lifted: water clear for a
    swimmer, HX-MOVE-19) and whether that is hindering or water, once per map: `reachable` reads them at every
    step (`_stops`)."""
    found: Any = geometry.cached(
        "heroclix walker terrain", lambda: (_kinds(geometry, False), _kinds(geometry, True))
    )  # fmt: skip
    return cast(tuple[tuple[list[int], list[bool]], tuple[list[int], list[bool]]], found)[1 if swims else 0]


def _kinds(geometry: Geometry, swims: bool) -> tuple[list[int], list[bool]]:
    kinds = [0 if terrain == WATER and swims else terrain for terrain in geometry.terrain]
    return kinds, [kind in (HINDERING, WATER) for kind in kinds]


def _stops(kinds: tuple[list[int], list[bool]], flanks: dict[tuple[int, int], tuple[int, int]], here: int,
           square: int) -> bool:  # fmt: skip
    """`_terrain_stop` of a step from `here` into `square` with nothing lifted, read from `walker_terrain`'s
    tables (HX-TERRAIN-05, HX-MOVE-20)."""
    kind, rough = kinds
    if rough[square] and kind[square] != kind[here]:
        return True
    if rough[here]:
        return False
    flank = flanks.get((here, square))
    return flank is not None and rough[flank[0]] and rough[flank[1]]


class Search:
    """`movement.reachable`'s breadth-first search: each step judged as it is added, inline, by the checks
    `movement.step_problem` makes of a path's last step and end, with the squares taken, the opponents' and those
    the mover must stop next to read from per-search lists, and a diagonal step's flanks worked out from the squares
    (`Geometry.diagonal_flanks`). With double-base characters on the map a walker does not cross an opposing one's
    diagonal (HX-SPECIAL-03); a double-base mover counts from a square next to it (`starts`: each with its own
    square next to it) and ends only where its rear half may rest (HX-SPECIAL-04)."""

    def __init__(
        self, state: HeroState, character: Figure, mode: str | None, flier: bool, phaser: bool, huge: bool,
        leaper: bool, walker: bool, kinds: tuple[list[int], list[bool]], others: set[int], foe_squares: set[int],
        foe_ids: set[int], danger: set[int], starts: dict[int, int] | None,
    ) -> None:  # fmt: skip
        self.state = state
        self.character = character
        self.geometry = state.geometry
        self.mode = mode
        self.flier = flier
        self.soaring = mode == SOARING
        self.hovering = mode == HOVERING
        self.phaser = phaser
        self.huge = huge
        self.leaper = leaper
        self.walker = walker
        self.kind, self.rough = kinds
        self.foe_ids = foe_ids
        self.crossing = bool(state.rears) and not leaper  # HX-SPECIAL-03: diagonals of double-base opponents
        self.starts = starts
        size = self.geometry.size
        taken = [0] * size  # 1: another character's square; 2: an opponent's (both bits for an opponent)
        for square in others:
            taken[square] |= 1
        for square in foe_squares:
            taken[square] |= 2
        self.taken = taken
        stop = [False] * size
        for square in danger:
            stop[square] = True
        self.stop = stop

    def ends(self, start: int, speed: int) -> list[tuple[int, ...]]:
        """`reachable`'s answer as a list: the first shortest path found to each square the move may end on, in the
        order found, the path to `start` first (the empty one, unless a double-base mover comes back onto it)."""
        geometry = self.geometry
        width = geometry.width
        terrain = geometry.terrain
        indoor = geometry.indoor
        shut_steps = closed_flags(geometry)
        levels = levels_of(geometry)
        level, ladders = levels.level, levels.ladders
        neighbours = geometry.all_neighbours
        taken, stop, kind, rough = self.taken, self.stop, self.kind, self.rough
        flier, soaring, hovering, phaser, huge, leaper = (
            self.flier, self.soaring, self.hovering, self.phaser, self.huge, self.leaper,
        )  # fmt: skip
        walker, crossing = self.walker, self.crossing
        seen = [False] * geometry.size
        starts = self.starts
        double = starts is not None
        first: tuple[int, ...] = ()
        first_shut: tuple[bool, ...] = ()
        first_from: tuple[int, ...] = ()
        if starts is not None:  # HX-SPECIAL-04: its first step is onto a square next to it, from its own beside it
            closed = closed_steps(geometry)
            first = tuple(starts)
            first_from = tuple(starts[square] for square in first)
            first_shut = tuple(square in closed[starts[square]] for square in first)
        else:
            seen[start] = True
        ends: list[tuple[int, ...]] = [()]
        frontier: list[tuple[int, ...]] = [()]
        while frontier:
            grown = []
            for path in frontier:
                if len(path) >= speed:
                    continue
                leading = double and not path
                here = path[-1] if path else start
                if leading:
                    steps, shut = first, first_shut
                else:
                    steps, shut = neighbours[here], shut_steps[here]
                for k in range(len(steps)):
                    square = steps[k]
                    if seen[square]:
                        continue
                    if leading:
                        here = first_from[k]
                    occupied = taken[square]
                    if flier:
                        if soaring and indoor[square]:
                            continue  # HX-MOVE-18
                        if (
                            hovering and (indoor[here] or indoor[square]) and not phaser
                            and (shut[k] or (indoor[square] and terrain[square] == BLOCKING))
                        ):  # fmt: skip
                            continue  # HX-TERRAIN-20
                        passes = occupied & 1 != 0 or (hovering and terrain[square] == BLOCKING)  # HX-MOVE-06, -14
                    elif crossing and self.crosses(here, square):
                        continue  # HX-SPECIAL-03, HX-MOVE-04
                    elif phaser or (huge and not indoor[here] and not indoor[square]):  # HX-SPECIAL-12, -16, -POWER-03
                        if occupied & 2 != 0:
                            if not leaper:
                                continue  # HX-MOVE-04
                            passes = True
                        else:
                            passes = occupied & 1 != 0 or terrain[square] == BLOCKING
                    else:
                        if shut[k] or terrain[square] == BLOCKING:
                            continue  # HX-TERRAIN-11, -12, -16, -17
                        if level[square] != level[here] and frozenset((here, square)) not in ladders and not huge:
                            continue  # HX-ELEV-02, -03
                        if occupied & 2 != 0:
                            if not leaper:
                                continue  # HX-MOVE-04
                            passes = True
                        else:
                            passes = occupied & 1 != 0
                    candidate = path + (square,)  # noqa: RUF005 (*path, square), compiled, builds a list first
                    seen[square] = True
                    if not passes and (not double or self.rear_fits(candidate)):
                        if square == start:  # a double-base mover's own square, reached again: its path replaced
                            ends[0] = candidate
                        else:
                            ends.append(candidate)
                    if flier:
                        grown.append(candidate)
                        continue
                    if stop[square]:
                        continue  # HX-MOVE-05, -10
                    if walker and rough[square] and kind[square] != kind[here]:
                        continue  # `_stops`: into hindering terrain or water,
                    if walker and not rough[here] and here % width != square % width and here // width != square // width:
                        flank_1, flank_2 = here // width * width + square % width, square // width * width + here % width
                        if rough[flank_1] and rough[flank_2]:
                            continue  # or through the corner between two (HX-TERRAIN-05, HX-MOVE-20)
                    grown.append(candidate)
            frontier = grown
        return ends

    def crosses(self, here: int, square: int) -> bool:
        """Whether a walker's step from `here` to `square` crosses an opposing double-base character's base."""
        crossed = double_base.across(self.state, here, square)
        return crossed is not None and crossed.uid in self.foe_ids

    def rear_fits(self, path: tuple[int, ...]) -> bool:
        """Whether a double-base mover's rear half may rest somewhere once it has moved along `path`."""
        return double_base.rear_square(self.state, self.character, path, -1, self.mode) >= 0


__all__ = ["Search", "closed_flags", "closed_steps", "walker_terrain"]
