"""The melee's win-share interval covers the equal share in mirrors (issue 39): simulated blocks with a strong
seat effect (fast), and real 3- and 4-player mirrors, bootstrapped and cut into disjoint runs (slow,
tests/conftest.py SLOW_TESTS)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.melee.command import build_melee, games_frame, play_games
from clix.analyzer.melee.design import SLOTS, seat_orders
from clix.analyzer.melee.stats import armies, wilson_blocks


def simulated_mirror(rng: np.random.Generator, size: int, blocks: int) -> pd.DataFrame:
    """A mirror's games table: the armies alike, each block's seats winning with chances drawn around a strong
    seat effect (the block's shared seed), every seat order once a block, so every army's true share is 1/size."""
    orders = np.array(seat_orders(size))
    seat_effect = np.linspace(2.0, 1.0, size) / np.linspace(2.0, 1.0, size).sum()
    rows = []
    for block in range(blocks):
        chances = rng.dirichlet(seat_effect * 20)
        for order in orders:
            winner_seat = rng.choice(size, p=chances)
            row: dict[str, object] = {"block": block, "teams": ""}
            for seat, slot in enumerate(order):
                x = SLOTS[slot]
                won = seat == winner_seat
                row |= {f"army_{x}": "mirror", f"win_{x}": float(won), f"place_{x}": 1.0 if won else 2.0}
                row |= {f"vp_{x}": 0, f"victims_{x}": 0, f"eliminated_{x}": False}
            rows.append(row)
    return pd.DataFrame(rows)


SIMULATED_RUNS = {3: 300, 4: 200}
"""Runs of 20 simulated blocks per size: 900 and 800 intervals. Intervals of one run are nearly independent in
whether they cover (their spread over runs is within 1.2 times the binomial one, measured on real mirrors), so
the covered share strays from the true coverage by about √(1.2 · 0.95 · 0.05 / 800) = 0.85 points: ±3 of
them allow 92.4-97.6%."""


@pytest.mark.parametrize("size", [3, 4])
def test_simulated_mirrors_cover_the_equal_share_about_95_percent(size: int) -> None:
    rng = np.random.default_rng(39)
    covered = [
        a["win_low"] <= 1 / size <= a["win_high"]
        for _ in range(SIMULATED_RUNS[size])
        for a in armies(simulated_mirror(rng, size, blocks=20))
    ]
    assert 0.924 <= np.mean(covered) <= 0.976


POOL_BLOCKS = {3: 120, 4: 24}
"""Blocks of real mirror games played per size (720 and 576 games, about 25 s and 60 s on the pure engine)."""
RUN_BLOCKS = {3: 6, 4: 3}
"""Blocks per run: the pool is cut into 20 and 8 disjoint runs, each a melee of its own (blocks are independent)."""
RESAMPLES = 3000


def real_mirror(size: int) -> pd.DataFrame:
    """A pool of real games of `size` haunting armies (8 turns), in blocks."""
    melee = build_melee(None, ["haunting"] * size, None, None, None, 8, "break")
    rows, _ = play_games(melee, POOL_BLOCKS[size] * melee.block_size, 3900 + size, 1)
    return games_frame(rows, melee)


def block_means(games: pd.DataFrame) -> dict[str, np.ndarray]:
    return {x: games.groupby("block")[f"win_{x}"].mean().to_numpy() for x in SLOTS if f"win_{x}" in games}


@pytest.mark.parametrize("size", [3, 4])
def test_real_mirrors_cover_the_equal_share_about_95_percent(size: int) -> None:
    """Real 3- and 4-player mirrors (issue 39). (a) Runs drawn from the pool's blocks with replacement (a block
    bootstrap: the truth is the pool's own mean): 3000 runs of 10 blocks, 9000 or 12000 intervals, cover within
    94-96% give or take 1 point (Monte Carlo error about 0.25 points; the rest for the pool's own luck: the
    bootstrap of 600 real 3-player blocks gave 95.4%, of 120 4-player blocks 94.8%). (b) The pool cut into
    disjoint runs (independent melees, the truth exactly 1/N by symmetry): 60 or 32 intervals, so only a binomial
    floor, 3 standard errors (with the 1.2 spread factor) below 95%."""
    games = real_mirror(size)
    means = block_means(games)
    rng = np.random.default_rng(39)
    covered = []
    for _ in range(RESAMPLES):
        picked = rng.integers(0, POOL_BLOCKS[size], 10)
        for m in means.values():
            if np.std(m[picked]) > 0:
                low, high = wilson_blocks(m[picked])
                covered.append(low <= m.mean() <= high)
    assert 0.93 <= np.mean(covered) <= 0.97, f"bootstrap coverage {np.mean(covered):.3f}"
    runs = POOL_BLOCKS[size] // RUN_BLOCKS[size]
    real = []
    for r in range(runs):
        part = games[games["block"] // RUN_BLOCKS[size] == r]
        real += [a["win_low"] <= 1 / size <= a["win_high"] for a in armies(part)]
    floor = 0.95 - 3 * np.sqrt(1.2 * 0.95 * 0.05 / len(real))
    assert floor <= np.mean(real) <= 1.0, f"disjoint runs cover {np.mean(real):.3f} ({len(real)} intervals)"
