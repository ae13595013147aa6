"""`clix bench --meta`: the time a 10-army field takes to reach a target precision on every cell (issue 18).

The field is the library's 100-point armies and, when there are fewer than ten, benchmark-only armies drawn by
the ruleset's army builder (`random_army`, reached through the core's registry) from the library's figures with a
fixed seed (written to a temporary roster layer, so the workers load them like any army); every pair plays on one map with the default players until its
interval's half-width is at most the target or the cell is clear (`analyzer.meta.play`), with a fresh result store.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import yaml
from clix.analyzer.common.errors import ClixError
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.play import local_runner, play_field
from clix.analyzer.play.store import Store, game_key
from clix.analyzer.value.pieces import builder
from clix.engine import compiled
from clix.engine.core.ruleset import ruleset_named
from rich.console import Console

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

FIELD = 10
BUDGET = 100
TARGET = 0.03
CAP = 4000
MAP = "graveyard"
ARMY_SEED = 2026


def bench_armies(roster: Roster, folder: Path, size: int = FIELD, budget: int = BUDGET) -> list[str]:
    """The benchmark field: the library's armies of `budget` points (sorted) topped up to `size` with random
    armies (fixed seed) written as army files into `folder`; their ids."""
    armies = sorted(a for a, army in roster.armies.items() if army.build_total == budget)[:size]
    rng = np.random.default_rng(ARMY_SEED)
    for number in range(1, size - len(armies) + 1):
        army = builder().random_army(roster, budget, rng)
        name = f"bench-{number:02d}"
        document = army.model_dump(mode="json", exclude_none=True)
        document["name"] = f"Benchmark army {number}"
        document["provenance"] = "benchmark-only army drawn from the sample figures (clix bench --meta, seed 2026)"
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
        armies.append(name)
    return armies


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes), as `uptime` shows them."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run_meta_bench(
    layers: tuple[Path, ...], roster: Roster, jobs: int, console: Console, target: float = TARGET, cap: int = CAP
) -> int:
    """Play the benchmark field to `target` on every cell (at most `cap` games a cell) and print games played,
    the time, the share of cells that settled early and the machine's load; return the exit code."""
    if MAP not in roster.maps:
        raise ClixError(f"the meta benchmark plays on {MAP}, which this roster library lacks")
    folder = Path(tempfile.mkdtemp(prefix="clix-bench-meta-"))
    try:
        armies = bench_armies(roster, folder)
        extended = (*layers, folder)
        field_roster, _ = ruleset_named().load_library(list(extended))
        cells = field_cells(extended, armies, [MAP], ["tuned"], 15)
        store = Store.open(folder / "bench.duckdb")
        keys = [game_key(field_roster, m, 0) for m in cells]
        console.print(
            f"meta benchmark: {len(armies)} armies of {BUDGET} points ({', '.join(armies)}), {len(cells)} cells on "
            f"{MAP}, target ±{target} on every cell (cap {cap} games), {jobs} jobs, engine {compiled.status}",
            markup=False,
        )
        before = load_average()
        started = time.perf_counter()
        run = play_field(
            cells,
            cap,
            local_runner(0, jobs),
            target,
            on_played=lambda cell, games: store.save(keys[cell], games),
        )
        seconds = time.perf_counter() - started
        after = load_average()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    settled: dict[str, int] = {}
    for cell in run.cells:
        settled[cell.settled] = settled.get(cell.settled, 0) + 1
    early = sum(1 for cell in run.cells if cell.settled in ("precise", "clear") and cell.upto < run.looks[-1])
    widest = max((c.interval.get("half_width") or 0.0) for c in run.cells if c.settled in ("precise", "cap"))
    console.print(
        f"  {run.played} games in {seconds:.1f} s ({run.played / max(seconds, 1e-9):.0f} games/s); cells: "
        + ", ".join(f"{n} {k}" for k, n in sorted(settled.items()))
        + f"; {early} of {len(cells)} ({100 * early / len(cells):.0f}%) settled before the cap; widest half-width "
        f"of the cells not clear {widest:.3f}",
        markup=False,
    )
    console.print(f"  load average (1, 5, 15 min) before {before}, after {after}", markup=False)
    return 130 if run.interrupted else 0
