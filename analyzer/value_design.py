"""The design of `clix value`: how many random legal armies of one budget (from the library or a pool of figures),
who plays whom (a shuffled ring), and the cells they play on every map and player style."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from clix.analyzer.errors import ClixError
from clix.analyzer.experiment import Cell, given_matchup
from clix.engine.armybuilder import random_army
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army
from clix.engine.roster.problems import did_you_mean


@dataclass(frozen=True)
class Design:
    """What `clix value` plays: `armies` random armies of `budget`, each against `opponents` others, `games`
    games (whole seat-swapped pairs) per matchup on every map and player style."""

    budget: int
    armies: int = 300
    opponents: int = 6
    games: int = 4
    maps: tuple[str, ...] = ("graveyard",)
    styles: tuple[str, ...] = ("tuned",)
    turns: int = 15
    seed: int = 0
    pool: tuple[str, ...] = ()
    """Figures the armies are drawn from (empty: every legal figure of the library)."""


def pool_roster(roster: Roster, pool: Sequence[str], budget: int) -> Roster:
    """The roster whose figures are the pool's (all legal ones when the pool is empty); a ClixError names an
    unknown figure or a pool with no figure that fits the budget."""
    for name in pool:
        if name not in roster.figures:
            raise ClixError(
                "--pool: " + did_you_mean("figure", name, roster.figures, "`clix roster list` shows every figure")
            )
    figures = {k: f for k, f in roster.figures.items() if (not pool or k in pool) and f.rank != "demo"}
    if not any(f.points <= budget for f in figures.values()):
        raise ClixError(f"--budget {budget}: no figure of the pool costs {budget} points or less; raise --budget")
    return Roster(
        figures=figures,
        plot_twists=roster.plot_twists,
        victims=roster.victims,
        maps=roster.maps,
        armies=roster.armies,
        sources=roster.sources,
    )


def random_armies(roster: Roster, design: Design) -> dict[str, Army]:
    """The design's random legal armies, named random-0001 ..., drawn from a generator seeded by the master
    seed (the same design gives the same armies)."""
    view = pool_roster(roster, design.pool, design.budget)
    rng = np.random.default_rng([design.seed, design.budget, 1])
    width = len(str(design.armies))
    armies = {}
    for i in range(design.armies):
        army = random_army(view, design.budget, rng)
        name = f"random-{i + 1:0{width}d}"
        armies[name] = army.model_copy(update={"name": name, "provenance": "random army (clix value)"})
    return armies


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
    library: Path | tuple[Path, ...], armies: dict[str, Army], design: Design
) -> tuple[list[Cell], list[dict[str, str]]]:
    """The cells of the design (every pairing on every map and style), with each cell's labels."""
    names = list(armies)
    cells, labels = [], []
    for i, j in pairings(len(names), design.opponents, design.seed):
        for map_name in design.maps:
            for style in design.styles:
                matchup = given_matchup(library, (names[i], names[j]), armies, map_name, (style, style), design.turns)
                cells.append(Cell(matchup, 0, design.games))
                labels.append({"map": map_name, "style": style})
    return cells, labels
