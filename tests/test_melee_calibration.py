"""The melee's win-share interval covers the equal share in mirrors (issue 39): simulated blocks with a strong
seat effect (fast), and real 3-player mirrors (slow, tests/conftest.py SLOW_TESTS)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.melee.command import build_melee, games_frame, play_games
from clix.analyzer.melee.design import SLOTS, seat_orders
from clix.analyzer.melee.stats import armies


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


@pytest.mark.parametrize(("size", "runs"), [(3, 200), (4, 60)])
def test_simulated_mirrors_cover_the_equal_share_about_95_percent(size: int, runs: int) -> None:
    rng = np.random.default_rng(39)
    covered = [
        a["win_low"] <= 1 / size <= a["win_high"]
        for _ in range(runs)
        for a in armies(simulated_mirror(rng, size, blocks=20))
    ]
    assert 0.92 <= np.mean(covered) <= 0.975


def test_real_three_player_mirrors_cover_one_third() -> None:
    """40 runs of a 3-player mirror, 10 blocks each: the share of intervals covering 1/3 is near 95% (three
    intervals a run, summing to one, are not independent: the bound allows for it)."""
    melee = build_melee(None, ["haunting"] * 3, None, None, None, 8, "break")
    covered = []
    for seed in range(40):
        rows, _ = play_games(melee, 60, 1000 + seed, 1)
        covered += [a["win_low"] <= 1 / 3 <= a["win_high"] for a in armies(games_frame(rows, melee))]
    assert 0.86 <= np.mean(covered) <= 1.0
