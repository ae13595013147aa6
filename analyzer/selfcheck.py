"""`clix selfcheck`: many random games in parallel, each checked against the engine's invariants."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from rich.console import Console

from analyzer.conformance import GameCheck, check_game


def run_selfcheck(games: int, seed: int, jobs: int | None, turns: int, library: Path, console: Console) -> int:
    """Run the games; return 0 when every game kept every invariant, 1 otherwise."""
    seeds = np.random.SeedSequence(seed).spawn(games)
    started = time.perf_counter()
    batch = max(1, games // (8 * (jobs or 2)))
    results: list[GameCheck] = Parallel(n_jobs=jobs or -1, batch_size=batch)(
        delayed(check_game)(library, i, s, turns) for i, s in enumerate(seeds)
    )
    elapsed = time.perf_counter() - started
    failed = [r for r in results if r.problems]
    for result in failed[:10]:
        console.print(f"game {result.index} (seed {seed}): {result.problems[0]}", markup=False)
    ends = Counter(r.end_reason for r in results)
    actions = sum(r.actions for r in results)
    console.print(
        f"{games} games, {len(failed)} with problems; ends: "
        + ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        + f"; {actions} actions; {games / elapsed:.1f} games/s in {elapsed:.1f} s",
        markup=False,
    )
    return 1 if failed else 0
