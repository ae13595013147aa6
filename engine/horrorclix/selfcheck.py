"""HorrorClix's conformance runs (`clix selfcheck`, the ruleset's `check_game` entry point): thousands of seeded
random-play games on random armies and every map, checking the invariants after every action (no two pieces in
one space, nothing in blocking terrain, dials in range, victory points equal to what the log explains, every game
ends)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.players import Decision, RandomAgent
from clix.engine.horrorclix import rules
from clix.engine.horrorclix.armybuilder import random_army
from clix.engine.horrorclix.game import settle
from clix.engine.horrorclix.invariants import violations
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.setup import new_game


@dataclass(frozen=True)
class GameCheck:
    """What one conformance game showed."""

    index: int
    problems: tuple[str, ...]
    turns: int
    end_reason: str
    log_digest: str
    actions: int


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
    problems: list[str] = []
    actions = 0
    try:
        state = new_game(roster, armies, maps[index % len(maps)], np.random.default_rng(dice_seed), turn_limit)
        settle(state, agents)
        while not state.over and not problems:
            options = rules.legal_actions(state)
            action = options[agents[state.active - 1].choose(state, Decision("action", state.active, options))]
            rules.apply(state, action)
            settle(state, agents)
            actions += 1
            problems.extend(f"after {action}: {v}" for v in violations(state))
            if actions > 50_000:
                problems.append("the game did not end")
    except Exception as exc:  # a crash is a finding, reported with the seed that replays it
        return GameCheck(index, (f"crash: {exc!r}",), 0, "crash", "", actions)
    digest = hashlib.sha1("\n".join(map(str, state.log)).encode()).hexdigest()[:16]
    return GameCheck(index, tuple(problems), state.turn, state.end_reason, digest, actions)
