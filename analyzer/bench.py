"""`clix bench`: games per second of a fixed reference duel on one core and on all cores."""

from __future__ import annotations

import cProfile
import io
import os
import pstats
from pathlib import Path

from rich.console import Console

from analyzer.runner import Matchup, play_one, run_matchup

REFERENCE = ("butcher-shop", "firing-line", "graveyard", "balanced", "balanced")
"""Two sample 100-point armies, balanced players, the graveyard map."""


def run_bench(library: Path, games: int, jobs: int | None, profile: bool, console: Console) -> int:
    army_a, army_b, map_name, style_a, style_b = REFERENCE
    matchup = Matchup(library, army_a, army_b, map_name, style_a, style_b)
    run_matchup(matchup, 2, 0, jobs=1)  # warm up: load the roster, build the map's tables
    one = run_matchup(matchup, games, 1, jobs=1)
    cores = jobs or os.cpu_count() or 1
    run_matchup(matchup, 4 * cores, 0, jobs=cores)  # warm up the workers (joblib reuses them): steady state is timed
    many = run_matchup(matchup, games, 1, jobs=cores)
    rate_one = len(one.games) / one.seconds
    rate_many = len(many.games) / many.seconds
    efficiency = rate_many / rate_one / cores
    console.print(
        f"reference duel: {army_a} vs {army_b} on {map_name}, {style_a} players, {len(one.games)} games", markup=False
    )
    console.print(f"  1 core:   {rate_one:.1f} games/s", markup=False)
    console.print(f"  {cores} cores: {rate_many:.1f} games/s (parallel efficiency {efficiency:.2f})", markup=False)
    console.print(f"  results identical for 1 and {cores} jobs: {one.games == many.games}", markup=False)
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for index in range(min(games, 40)):
            play_one(matchup, 2, index)
        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(18)
        console.print(text.getvalue(), markup=False)
    return 0
