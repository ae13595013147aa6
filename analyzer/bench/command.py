"""`clix bench`: games per second of a fixed reference duel on one core and on all cores."""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import library_text
from clix.analyzer.play.runner import DEFAULT_STYLE, Matchup, kit, play_one, run_matchup, start_state
from clix.engine import compiled
from clix.engine.core import driver
from clix.engine.core.players import Decision
from clix.engine.core.ruleset import DEFAULT_RULESET
from joblib import Parallel, delayed
from rich.console import Console

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster
    from clix.engine.horrorclix.state import GameState

REFERENCE = ("butcher-shop", "firing-line", "graveyard", DEFAULT_STYLE, DEFAULT_STYLE)
"""Two sample 100-point armies, the default players, the graveyard map."""
REFERENCES = {"heroclix-2005": ("dawn-patrol", "night-shift", "chemical-plant")}
"""Another ruleset's reference duel: two sample forces of 100 points and a map (its kit's default players)."""
REFERENCES_200 = {
    DEFAULT_RULESET: ("crimson-court", "drowned-choir", "graveyard"),
    "heroclix-2005": ("dawnguard-strike", "iron-syndicate", "chemical-plant"),
}
"""Each ruleset's 200-point duel: two sample armies (forces) of 200 points and a map, the default players."""
SEARCH_STYLE = "search"
"""The style of the search game `clix bench` times against the default player, on the reference duel."""


def reference_duel(ruleset: str = DEFAULT_RULESET) -> tuple[str, ...]:
    """The reference duel of `ruleset`: HorrorClix's `REFERENCE`; another's armies and map (`REFERENCES`), then
    the ruleset and its kit's default style (what a bench worker is told, `against.worker_command`)."""
    if ruleset == DEFAULT_RULESET:
        return REFERENCE
    if ruleset not in REFERENCES:
        raise ClixError(f"--ruleset {ruleset}: clix has no reference duel of that ruleset to time")
    return (*REFERENCES[ruleset], ruleset, str(kit(ruleset).default_style))


def search_duel(style: str = SEARCH_STYLE, ruleset: str = DEFAULT_RULESET) -> tuple[str, ...]:
    """The reference duel of `ruleset` with a search player (`style`) against the default player, as a bench
    worker is told it (armies, map, ruleset, each side's style): `clix bench --against --search STYLE`."""
    army_a, army_b, map_name = reference_duel(ruleset)[:3]
    return (army_a, army_b, map_name, ruleset, style, str(kit(ruleset).default_style))


WARM_UP_GAMES = 20
"""Games each process plays before timing: per-map caches (lines of fire, distance tables) fill as games are
played, so steady state is what is timed."""


def run_bench(
    library: Path | tuple[Path, ...],
    games: int,
    jobs: int | None,
    profile: bool,
    console: Console,
    rounds: int = 3,
    roster: Roster | None = None,
    ruleset: str = DEFAULT_RULESET,
    search_games: int = 1,
) -> int:
    """Time the reference duel (of `ruleset`); print games/s on one core and on `jobs` (all) cores, then on one
    core the 200-point duel and `search_games` games of the search player (`more_rates`); return the exit code."""
    if ruleset == DEFAULT_RULESET:
        army_a, army_b, map_name, style_a, style_b = REFERENCE
        if roster is not None:
            check_reference(library, roster)
        heading = "reference duel"
    else:
        army_a, army_b, map_name, _, style_a = reference_duel(ruleset)
        style_b = style_a
        heading = f"{ruleset} reference duel"
    matchup = Matchup(library, army_a, army_b, map_name, style_a, style_b, ruleset=ruleset)
    cores = jobs or os.cpu_count() or 1
    run_matchup(matchup, WARM_UP_GAMES, 0, jobs=1)
    run_matchup(matchup, WARM_UP_GAMES * cores, 0, jobs=cores, batch_size=WARM_UP_GAMES)  # the pool reuses workers
    # A shared machine's speed drifts from minute to minute: each round times one core and then all cores
    # back to back (so each efficiency compares neighbours in time), and the medians are reported.
    rates_one: list[float] = []
    rates_many: list[float] = []
    identical = True
    for _ in range(rounds):
        one = run_matchup(matchup, games, 1, jobs=1)
        many = run_matchup(matchup, games, 1, jobs=cores)
        rates_one.append(len(one.games) / one.seconds)
        rates_many.append(len(many.games) / many.seconds)
        identical = identical and one.games == many.games
    efficiencies = [m / o / cores for o, m in zip(rates_one, rates_many, strict=True)]
    console.print(
        f"{heading}: {army_a} vs {army_b} on {map_name}, {style_a} players, {games} games per run; "
        f"median of {rounds} rounds (lowest-highest)",
        markup=False,
    )
    console.print(f"  engine: {compiled.status}", markup=False)
    console.print(f"  1 core:   {spread(rates_one)} games/s", markup=False)
    console.print(
        f"  {cores} cores: {spread(rates_many)} games/s (parallel efficiency {spread(efficiencies, '.2f')})",
        markup=False,
    )
    console.print(f"  results identical for 1 and {cores} jobs: {identical}", markup=False)
    for line in more_rates(matchup, games, rounds, search_games):
        console.print(line, markup=False)
    copy_cost = state_copy_cost(matchup) if ruleset == DEFAULT_RULESET else None  # the search player's: HorrorClix
    if copy_cost is not None:
        console.print(
            f"  state copy (search): {copy_cost['copy_us']:.1f} µs = {copy_cost['per_step']:.2f} actions between "
            f"actions; {copy_cost['paused_copy_us']:.1f} µs = {copy_cost['paused_per_step']:.2f} actions paused at "
            f"a question inside one (an action: {copy_cost['step_us']:.1f} µs), turn {copy_cost['turn']} of game 0",
            markup=False,
        )
    if cores > 1:
        ceiling = machine_efficiency(cores)
        console.print(
            f"  this machine's own parallel efficiency for plain Python work on {cores} cores: {ceiling:.2f}",
            markup=False,
        )
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


def more_rates(reference: Matchup, games: int, rounds: int, search_games: int) -> list[str]:
    """Lines for the other speeds issue 38 asks of the bench, each on one core: the ruleset's 200-point duel
    (`REFERENCES_200`; a quarter of `games` a round, median of `rounds`, after a warm-up game) and `search_games`
    games of `SEARCH_STYLE` against the default player on the reference duel (the search's cost a game). A
    library without the 200-point armies gets a line saying so."""
    lines = []
    army_a, army_b, map_name = REFERENCES_200.get(reference.ruleset, ("", "", ""))
    big = replace(reference, army_a=army_a, army_b=army_b, map_name=map_name)
    rules = kit(reference.ruleset)
    data = rules.library(reference.layers)
    if (
        not army_a
        or army_a not in rules.armies(data)
        or army_b not in rules.armies(data)
        or map_name not in rules.maps(data)
    ):
        lines.append(f"  200-point duel: not timed ({army_a} and {army_b} on {map_name} are not in the library)")
    else:
        run_matchup(big, 1, 0, jobs=1)
        count = max(2, games // 4)
        rates = []
        for _ in range(rounds):
            run = run_matchup(big, count, 1, jobs=1)
            rates.append(len(run.games) / run.seconds)
        lines.append(
            f"  200-point duel ({army_a} vs {army_b} on {map_name}, {count} games a round), 1 core: "
            f"{spread(rates)} games/s"
        )
    if search_games > 0:
        searching = replace(reference, style_a=SEARCH_STYLE)
        run = run_matchup(searching, search_games, 1, jobs=1)
        lines.append(
            f"  search game ({SEARCH_STYLE} vs {reference.style_b} on the reference duel, {len(run.games)} "
            f"game{'s' if len(run.games) > 1 else ''}), 1 core: {run.seconds / len(run.games):.1f} s a game "
            f"({len(run.games) / run.seconds:.2f} games/s)"
        )
    return lines


def check_reference(library: Path | tuple[Path, ...], roster: Roster) -> None:
    """A ClixError unless the roster library holds the reference duel's armies and map."""
    army_a, army_b, map_name = REFERENCE[:3]
    needed = ((army_a, roster.armies), (army_b, roster.armies), (map_name, roster.maps))
    missing = next((name for name, known in needed if name not in known), None)
    if missing:
        raise ClixError(f"{library_text(library)}: the reference duel needs {missing}, which this roster library lacks")


def check_ruleset_reference(library: Any, ruleset: str) -> None:
    """A ClixError unless `library` (the data of `ruleset`) holds that ruleset's reference duel's armies and map."""
    rules = kit(ruleset)
    army_a, army_b, map_name = reference_duel(ruleset)[:3]
    needed = ((army_a, rules.armies(library)), (army_b, rules.armies(library)), (map_name, rules.maps(library)))
    missing = next((name for name, known in needed if name not in known), None)
    if missing:
        raise ClixError(f"the {ruleset} reference duel needs {missing}, which the library lacks")


def state_copy_cost(matchup: Matchup, until_turn: int = 12, copies: int = 300) -> dict[str, float]:
    """What `GameState.copy` costs against an action, in the middle of the matchup's game 0: the mean time of
    one answer of the game's driver (an action chosen and applied, or a question answered in the middle of
    one) over the first `until_turn` turns; of one copy between actions; and of one copy of the game paused at
    a question in the middle of an action (which re-runs the paused action from the state before it)."""
    state, agents = start_state(matchup, 1, 0)
    step_seconds = 0.0
    steps = 0
    paused: GameState | None = None
    while not state.over and (state.turn < until_turn or state.waiting is not None):
        started = time.perf_counter()
        driver.step(state, agents)
        step_seconds += time.perf_counter() - started
        steps += 1
        if paused is None and state.turn >= until_turn // 2 and isinstance(state.waiting, Decision):
            paused = state.copy()
    copy_seconds = _copy_seconds(state, copies)
    paused_seconds = _copy_seconds(paused, copies) if paused is not None else float("nan")
    step = step_seconds / max(steps, 1)
    return {
        "copy_us": 1e6 * copy_seconds,
        "paused_copy_us": 1e6 * paused_seconds,
        "step_us": 1e6 * step,
        "per_step": copy_seconds / step if step else float("nan"),
        "paused_per_step": paused_seconds / step if step else float("nan"),
        "turn": state.turn,
    }


def _copy_seconds(state: GameState, copies: int) -> float:
    state.copy()  # a paused state rebuilds the state before its action once
    started = time.perf_counter()
    for _ in range(copies):
        state.copy()
    return (time.perf_counter() - started) / copies


def spread(values: Sequence[float], spec: str = ".1f") -> str:
    """The median of `values`, and their range when there are several."""
    middle = format(statistics.median(values), spec)
    if len(values) < 2:
        return middle
    return f"{middle} ({min(values):{spec}}-{max(values):{spec}})"


def _python_work(rounds: int) -> float:
    """Plain interpreter work touching no shared state: what the machine gives a Python process."""
    started = time.perf_counter()
    total = 0
    for i in range(rounds):
        total += i % 7
    return time.perf_counter() - started


def machine_efficiency(cores: int, rounds: int = 3_000_000) -> float:
    """Plain Python work per second on `cores` processes at once, over `cores` times one process's: the
    ceiling any parallel Python run meets on this machine (shared caches, turbo, neighbours on the host)."""
    with Parallel(n_jobs=cores) as parallel:
        parallel(delayed(_python_work)(rounds // 10) for _ in range(cores))  # start the workers
        alone = min(_python_work(rounds) for _ in range(2))
        together = max(parallel(delayed(_python_work)(rounds) for _ in range(cores)))
    return alone / together
