"""HorrorClix's conformance runs (`clix selfcheck`, the ruleset's `check_game` entry point): thousands of seeded
random-play games on random armies and every map, checking the invariants after every action (no two pieces in
one space, nothing in blocking terrain, dials in range, victory points equal to what the log explains, every game
ends)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.players import RandomAgent
from clix.engine.core.selfcheck import GameCheck, play_checked
from clix.engine.horrorclix.armybuilder import random_army
from clix.engine.horrorclix.invariants import violations
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.setup import new_game


def check_game(
    library: Path | tuple[Path, ...], index: int, seed: np.random.SeedSequence, turn_limit: int
) -> GameCheck:
    """Play one random game (random armies, map by index), checking the invariants after every action."""
    roster = roster_at(library)
    maps = [roster.maps[name] for name in sorted(roster.maps)]
    army_seed, dice_seed, *player_seeds = child_seeds(seed, 4)
    rng = np.random.default_rng(army_seed)
    build_total = int(rng.choice([100, 200]))
    armies = [random_army(roster, build_total, rng) for _ in range(2)]
    agents = [RandomAgent(np.random.default_rng(s)) for s in player_seeds]
    layout = maps[index % len(maps)]
    return play_checked(
        index,
        lambda: new_game(roster, armies, layout, np.random.default_rng(dice_seed), turn_limit),
        agents,
        violations,
    )
