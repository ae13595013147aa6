"""Horrified's board as a graph (HF-ACT-01, HF-MON-03): locations by index, lit paths for heroes, villagers and most
monsters, water paths and water spaces only for the Creature, and shortest-path distances on both."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from clix.engine.horrified.library import BoardData

UNREACHABLE = 10_000


@dataclass(frozen=True)
class Board:
    """The board's locations and paths, computed once and shared by every game (never changed in play)."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    land: tuple[tuple[int, ...], ...]
    """Neighbours along lit paths (HF-ACT-01): never a water space."""
    wet: tuple[tuple[int, ...], ...]
    """Neighbours along lit and water paths (the Creature, HF-M-CRE)."""
    land_distance: tuple[tuple[int, ...], ...]
    wet_distance: tuple[tuple[int, ...], ...]
    hospital: int

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def is_water(self, at: int) -> bool:
        return self.kinds[at] == "water"

    def named(self) -> list[int]:
        """The named locations (where items and villagers are placed), in board order."""
        return [k for k, kind in enumerate(self.kinds) if kind == "named"]

    def neighbours(self, at: int, water: bool = False) -> tuple[int, ...]:
        return self.wet[at] if water else self.land[at]

    def distance(self, a: int, b: int, water: bool = False) -> int:
        return (self.wet_distance if water else self.land_distance)[a][b]

    def steps_toward(self, at: int, goal: int, water: bool = False) -> list[int]:
        """The neighbours of `at` on a shortest path to `goal` (HF-MON-03: ties are the current player's)."""
        here = self.distance(at, goal, water)
        if here in (0, UNREACHABLE):
            return []
        return [n for n in self.neighbours(at, water) if self.distance(n, goal, water) == here - 1]


def build_board(data: BoardData) -> Board:
    """The graph of a board file (its locations in file order)."""
    names = tuple(loc.id for loc in data.locations)
    kinds = tuple(loc.kind for loc in data.locations)
    at = {name: k for k, name in enumerate(names)}
    land: list[set[int]] = [set() for _ in names]
    wet: list[set[int]] = [set() for _ in names]
    for path in data.paths:
        a, b = at[path.a], at[path.b]
        wet[a].add(b)
        wet[b].add(a)
        if path.kind == "lit" and kinds[a] != "water" and kinds[b] != "water":
            land[a].add(b)
            land[b].add(a)
    land_t = tuple(tuple(sorted(s)) for s in land)
    wet_t = tuple(tuple(sorted(s)) for s in wet)
    return Board(names, kinds, land_t, wet_t, _distances(land_t), _distances(wet_t), at[data.hospital])


def _distances(neighbours: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    rows = []
    for start in range(len(neighbours)):
        seen = [UNREACHABLE] * len(neighbours)
        seen[start] = 0
        queue: deque[int] = deque([start])
        while queue:
            here = queue.popleft()
            for n in neighbours[here]:
                if seen[n] == UNREACHABLE:
                    seen[n] = seen[here] + 1
                    queue.append(n)
        rows.append(tuple(seen))
    return tuple(rows)


def board_problems(board: Board) -> list[str]:
    """What makes a board unplayable: land locations heroes cannot reach from each other."""
    land = [k for k, kind in enumerate(board.kinds) if kind != "water"]
    cut = [board.names[k] for k in land if board.land_distance[land[0]][k] == UNREACHABLE]
    return [f"no lit path joins {board.names[land[0]]} and {', '.join(cut)}"] if cut else []
