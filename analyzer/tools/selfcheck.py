"""`clix selfcheck`: many random games in parallel, each checked against the engine's invariants."""

from __future__ import annotations

import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import library_text
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.runner import batch_size_for
from clix.engine.core.dice import child_seed
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster


def check_ruleset_at(ruleset: str, library: tuple[Path, ...], seed: int, turns: int, index: int) -> Any:
    """Game `index` of master seed `seed` (its seed is the index-th child of the master seed), checked against
    the invariants of the ruleset, found through the core's registry."""
    return ruleset_named(ruleset).check_game(library, index, child_seed(seed, index), turns)


def run_selfcheck(
    games: int,
    seed: int,
    jobs: int | None,
    turns: int,
    library: Path | tuple[Path, ...],
    console: Console,
    roster: Roster | None = None,
    ruleset: str = DEFAULT_RULESET,
) -> int:
    """Run the games; return 0 when every game kept every invariant, 1 otherwise (a game whose worker died
    twice counts as a problem), 130 when interrupted."""
    if roster is not None and not roster.maps:
        raise ClixError(f"{library_text(library)}: no maps in the roster library; selfcheck plays on every map")
    started = time.perf_counter()
    problems: list[str] = []

    def report(line: str) -> None:
        if line.startswith("note:"):
            console.print(line, markup=False)
        else:
            problems.append(line)

    layers = (library,) if isinstance(library, Path) else tuple(library)
    outcome = run_items(
        partial(check_ruleset_at, ruleset, layers, seed, turns),
        range(games),
        jobs or 1,
        batch_size_for(games, jobs or 1),
        describe=lambda index: f"game {index} (seed {seed})",
        report=report,
    )
    elapsed = time.perf_counter() - started
    results: list[Any] = [outcome.results[i] for i in sorted(outcome.results)]
    failed = [f"game {r.index} (seed {seed}): {r.problems[0]}" for r in results if r.problems]
    failed += problems
    for line in failed[:10]:
        console.print(line, markup=False)
    ends = Counter(r.end_reason for r in results)
    ends.update(outcome.failed.values())
    actions = sum(r.actions for r in results)
    played = len(results) + len(outcome.failed)
    console.print(
        f"{played} games{' (interrupted)' if outcome.interrupted else ''}, {len(failed)} with problems; ends: "
        + ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        + f"; {actions} actions; {played / max(elapsed, 1e-9):.1f} games/s in {elapsed:.1f} s",
        markup=False,
    )
    if outcome.interrupted:
        return 130
    return 1 if failed else 0
