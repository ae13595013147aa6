"""The design of `clix value`: how many random near-full legal armies of one budget (from the library or a pool of
figures), who plays whom (a shuffled ring), the cells they play on every map and player style, and the holdout:
armies outside the design, drawn from their own seed stream, that play each other to check the fitted values."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.experiment import Cell
from clix.analyzer.value.pieces import HorrorPieces, pieces_of


@dataclass(frozen=True)
class Design:
    """What `clix value` plays: `armies` random armies of `budget`, each against `opponents` others, `games`
    games (whole seat-swapped pairs) per matchup on every map and player style."""

    budget: int
    armies: int = 1500
    opponents: int = 6
    games: int = 2
    maps: tuple[str, ...] = ("graveyard",)
    styles: tuple[str, ...] = ("tuned",)
    turns: int = 15
    seed: int = 0
    pool: tuple[str, ...] = ()
    """Figures the armies are drawn from (empty: every legal figure of the library)."""
    holdout: int = 16
    """Armies outside the design that play each other to check the fit (0: no holdout)."""
    holdout_games: int = 100
    """Games (whole seat-swapped pairs) per holdout pairing, map and style."""

    def __post_init__(self) -> None:
        # opponents and games come in whole seat-swapped pairs: an odd count asked for is rounded up
        for name in ("opponents", "games", "holdout_games"):
            count = getattr(self, name)
            object.__setattr__(self, name, count + count % 2)


_HORROR = HorrorPieces(None)
"""HorrorClix's matchups (`design_cells` and `holdout_cells` without pieces)."""


def random_armies(roster: Any, design: Design, *, holdout: bool = False) -> dict[str, Any]:
    """The design's random near-full legal armies (`pieces.full_army`; HeroClix: `random_force`), named random-0001 ...,
    drawn from a generator seeded by the master seed (the same design gives the same armies); with `holdout`, the
    design.holdout armies outside the design, named holdout-01 ..., from a seed stream of their own. `roster`: a
    ruleset's library data or its pieces (analyzer/value/pieces.py)."""
    view = pieces_of(roster).pooled(design.pool, design.budget)
    count, prefix, stream = (design.holdout, "holdout", 5) if holdout else (design.armies, "random", 1)
    rng = np.random.default_rng([design.seed, design.budget, stream])
    width = max(2, len(str(count))) if holdout else len(str(count))
    armies = {}
    for i in range(count):
        army = view.random_army(design.budget, rng)
        name = f"{prefix}-{i + 1:0{width}d}"
        armies[name] = army.model_copy(update={"name": name, "provenance": f"{prefix} {view.army_kind} (clix value)"})
    return armies


def handicap_armies(roster: Any, armies: dict[str, Any], design: Design) -> dict[str, Any]:
    """Each design army with one of its figures taken out (drawn at random, seeded; never one that grants plot
    twists, and never the last figure), named NAME-less. Near-full armies all spend about the budget, so their
    games alone cannot tell what a point of cost is worth; an army against itself a figure short measures that
    figure's worth directly, which ties the values to points."""
    pieces = pieces_of(roster)
    rng = np.random.default_rng([design.seed, design.budget, 6])
    short = {}
    for name, army in armies.items():
        removable = pieces.removable(army)
        if len(pieces.contents(army)) < 2 or not removable:
            continue
        drop = removable[int(rng.integers(len(removable)))]
        short[f"{name}-less"] = pieces.without(army, drop, f"{name}-less")
    return short


def design_games(roster: Any, design: Design) -> int:
    """The games the design and its holdout play: each army's ring matchups, its handicap matchup and the holdout's
    pairings, on every map and style."""
    short = handicap_armies(roster, random_armies(roster, design), design)
    per_cell = len(design.maps) * len(design.styles)
    matchups = design.armies * ((design.opponents + 1) // 2) + len(short)
    return per_cell * (matchups * design.games + len(holdout_pairings(design.holdout)) * design.holdout_games)


def least_spent(roster: Any, armies: dict[str, Any]) -> int:
    """The fewest points any of `armies` spends."""
    pieces = pieces_of(roster)
    return min((sum(pieces.points(f) for f in pieces.contents(a)) for a in armies.values()), default=0)


def pairings(count: int, opponents: int, seed: int) -> list[tuple[int, int]]:
    """Each of `count` armies against `opponents` others (rounded up to even): a shuffled ring, every army
    meeting the ones 1 .. opponents/2 places further along it, so no pair meets twice."""
    half = max(1, (opponents + 1) // 2)
    if count < 2 * half + 1:
        raise ClixError(
            f"--armies {count}: each army meets {2 * half} others, so at least {2 * half + 1} armies are needed"
        )
    order = np.random.default_rng([seed, 2]).permutation(count)
    return [(int(order[t]), int(order[(t + d) % count])) for d in range(1, half + 1) for t in range(count)]


def design_cells(
    library: Path | tuple[Path, ...],
    armies: dict[str, Any],
    design: Design,
    handicaps: dict[str, Any] | None = None,
    pieces: HorrorPieces | None = None,
) -> tuple[list[Cell], list[dict[str, str]]]:
    """The cells of the design (every pairing on every map and style), with each cell's labels; with
    `handicaps` (`handicap_armies`), each army against itself a figure short too."""
    names = list(armies)
    cells, labels = [], []
    matches = [(names[i], names[j]) for i, j in pairings(len(names), design.opponents, design.seed)]
    matches += [(name, f"{name}-less") for name in names if f"{name}-less" in (handicaps or {})]
    everyone = armies | (handicaps or {})
    for a, b in matches:
        for map_name in design.maps:
            for style in design.styles:
                matchup = (pieces or _HORROR).matchup(library, (a, b), everyone, map_name, (style, style), design.turns)
                cells.append(Cell(matchup, 0, design.games))
                labels.append({"map": map_name, "style": style})
    return cells, labels


def holdout_pairings(count: int) -> list[tuple[int, int]]:
    """The holdout's pairings: each army against the next one around a ring (each meets two others); two armies
    meet once."""
    if count < 2:
        return []
    if count == 2:
        return [(0, 1)]
    return [(t, (t + 1) % count) for t in range(count)]


def holdout_cells(
    library: Path | tuple[Path, ...], armies: dict[str, Any], design: Design, pieces: HorrorPieces | None = None
) -> tuple[list[Cell], list[dict[str, str]]]:
    """The holdout's cells: every holdout pairing on every map and style, design.holdout_games games each."""
    names = list(armies)
    cells, labels = [], []
    for i, j in holdout_pairings(len(names)):
        for map_name in design.maps:
            for style in design.styles:
                pair = (names[i], names[j])
                matchup = (pieces or _HORROR).matchup(library, pair, armies, map_name, (style, style), design.turns)
                cells.append(Cell(matchup, 0, design.holdout_games))
                labels.append({"map": map_name, "style": style})
    return cells, labels
