"""`clix tune`: tuning the heuristic's weights by self-play, by successive halving with paired seeds.

Candidates are the current default weights and random log-normal perturbations of them. Every candidate
plays the same games (common random numbers): each sample army's mirror on each map, seat-swapped pairs,
against every style of the opponent pool. After each round the better half by score (wins + ½ draws)
stays and plays twice as many pairs in the next. The winner is printed as a `Weights(...)` line to paste
into engine/horrorclix/players/weights.py; docs/tuning.md records the run that gave the shipped default.
`--ruleset heroclix-2005` tunes the HeroClix heuristic the same way (the sample forces' mirrors on the sample
maps, `tune_heroclix`; its weights go to engine/heroclix/players/weights.py).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.ladder import tune_heroclix
from clix.engine.core.dice import child_seed
from clix.engine.core.ruleset import ruleset_named
from joblib import Parallel, delayed

if TYPE_CHECKING:
    from clix.engine.horrorclix.players.weights import Weights

TUNED_FIELDS = ("victims", "kills", "threat", "approach", "pressure", "tempo", "lockout", "urgency", "hold")
"""The weights the search varies (noise stays as it is: it only breaks ties)."""
HORRORCLIX = "horrorclix"
"""The ruleset tuned unless `--ruleset` names another (its own weights, styles and roster)."""


def _part(name: str, ruleset: str = HORRORCLIX) -> ModuleType:
    """The ruleset's part `name` (its heuristic player, weights, game, matchups), through the core's registry."""
    return ruleset_named(ruleset).part(name)


def _fields(base: Any) -> tuple[str, ...]:
    """The weights the search varies for `base`'s ruleset."""
    return (
        tune_heroclix.TUNED_FIELDS if isinstance(base, _part("weights", tune_heroclix.NAME).Weights) else TUNED_FIELDS
    )


def _weights_class(ruleset: str) -> type:
    return _part("weights", ruleset).Weights  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Cell:
    """One game of the design: army (mirror), map, opponent style, pair, and which seat the candidate has."""

    army: str
    map_name: str
    opponent: str
    pair: int
    swapped: bool
    key: int
    """The game's seed index: the same for every candidate and opponent (common random numbers)."""


def perturb(base: Any, rng: np.random.Generator, spread: float) -> Any:
    """`base` with each tuned weight multiplied by exp(N(0, spread))."""
    values = asdict(base)
    for name in _fields(base):
        values[name] = round(float(values[name] * math.exp(rng.normal(0.0, spread))), 3)
    return type(base)(**values)


def _agent_factory(style: Any):  # type: ignore[no-untyped-def]
    """The factory of a HorrorClix player: a style's name, or a candidate's weights."""
    players = _part("players")
    if isinstance(style, players.Weights):
        return players.style_factory("candidate", style)
    return ruleset_named(HORRORCLIX).matchups().player_factory(style)


def play_cell(
    library: Path,
    weights: Weights | dict[str, float],
    cell: Cell,
    seed: int,
    turns: int,
    opponent: Weights | None = None,
    ruleset: str = HORRORCLIX,
) -> float:
    """The candidate's score (1, ½, 0) in one game of the design (weights as a record or its fields: the
    compiled engine's records do not pickle, so workers get the fields)."""
    if isinstance(weights, dict):
        weights = _weights_class(ruleset)(**weights)
    if ruleset == tune_heroclix.NAME:
        return tune_heroclix.play_cell(library, weights, cell, seed, opponent)  # type: ignore[arg-type]
    roster = _part("matchups").roster_at(library)
    army = roster.armies[cell.army]
    factories = [_agent_factory(weights), _agent_factory(opponent if opponent is not None else cell.opponent)]
    if cell.swapped:
        factories.reverse()
    game_seed = child_seed(seed, cell.key)
    state = _part("game").play_game(roster, [army, army], roster.maps[cell.map_name], factories, game_seed, turns)
    mine = 2 if cell.swapped else 1
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner == mine else 0.0


def _batch(
    library: Path,
    jobs: list[tuple[int, dict[str, float], Cell]],
    seed: int,
    turns: int,
    base: dict[str, float] | None = None,
    ruleset: str = HORRORCLIX,
) -> list[tuple[int, float]]:
    opponent = _weights_class(ruleset)(**base) if base is not None else None
    return [(index, play_cell(library, weights, cell, seed, turns, opponent, ruleset)) for index, weights, cell in jobs]


def design(armies: list[str], maps: list[str], opponents: list[str], pairs: range) -> list[Cell]:
    """Every game of one round: each army's mirror on each map against each opponent, seats swapped."""
    return [
        Cell(army, map_name, opponent, pair, swapped, (a * len(maps) + m) * 100_000 + pair)
        for a, army in enumerate(armies)
        for m, map_name in enumerate(maps)
        for opponent in opponents
        for pair in pairs
        for swapped in (False, True)
    ]


def tune(
    library: Path,
    base: Weights,
    *,
    candidates: int,
    rounds: int,
    first_pairs: int,
    opponents: list[str],
    seed: int,
    spread: float = 0.35,
    turns: int = 15,
    jobs: int = -1,
    log: Any = print,
    extra: list[Weights] | None = None,
    ruleset: str = HORRORCLIX,
    armies: list[str] | None = None,
) -> dict[str, Any]:
    """Successive halving over `candidates` weight sets (`base`, `extra` ones, random perturbations of `base`);
    returns the winner and every round's scores. `armies`: only these (every sample army or force if None)."""
    if ruleset == tune_heroclix.NAME:
        every, maps = tune_heroclix.armies_and_maps(library)
    else:
        roster = _part("matchups").roster_at(library)
        every, maps = sorted(roster.armies), sorted(roster.maps)
    armies = every if not armies else [a for a in every if a in armies]
    if not armies or not maps:
        fix = f"name some of {', '.join(every)} with --armies" if every else "name the library with --rosters"
        raise ClixError(
            f"{library}: no armies or forces and maps to tune on (it has {len(every)} armies and {len(maps)} maps"
            f"{', none named by --armies' if every else ''}); {fix}"
        )
    rng = np.random.default_rng(seed)
    pool = [base, *(extra or [])]
    pool += [perturb(base, rng, spread) for _ in range(candidates - len(pool))]
    alive = list(range(len(pool)))
    totals = {i: [0.0, 0] for i in alive}
    history: list[dict[str, Any]] = []
    pairs_done = 0
    started = time.perf_counter()
    with Parallel(n_jobs=jobs) as parallel:
        for round_number in range(rounds):
            pairs = first_pairs * 2**round_number
            cells = design(armies, maps, opponents, range(pairs_done, pairs_done + pairs))
            work = [(i, asdict(pool[i]), cell) for i in alive for cell in cells]
            size = max(1, math.ceil(len(work) / (8 * max(1, jobs if jobs > 0 else 2))))
            batches = [work[k : k + size] for k in range(0, len(work), size)]
            for results in parallel(delayed(_batch)(library, b, seed, turns, None, ruleset) for b in batches):
                for index, score in results:
                    totals[index][0] += score
                    totals[index][1] += 1
            pairs_done += pairs
            ranked = sorted(alive, key=lambda i: -totals[i][0] / totals[i][1])
            history.append(
                {
                    "round": round_number + 1,
                    "games_each": totals[ranked[0]][1],
                    "scores": {i: round(totals[i][0] / totals[i][1], 4) for i in ranked},
                }
            )
            log(
                f"round {round_number + 1}: {len(alive)} candidates x {len(cells)} games; best "
                + ", ".join(f"#{i} {totals[i][0] / totals[i][1]:.3f}" for i in ranked[:4])
                + f" ({time.perf_counter() - started:.0f} s)"
            )
            if len(ranked) > 1:
                alive = ranked[: max(1, len(ranked) // 2)]
    best = alive[0]
    return {
        "winner": pool[best],
        "winner_index": best,
        "score": totals[best][0] / totals[best][1],
        "games": sum(t[1] for t in totals.values()),
        "history": history,
        "pool": pool,
        "seconds": time.perf_counter() - started,
    }


STEPS = (0.5, 1.0, 1.5, 2.0)


def head_to_head(
    library: Path, candidates: list[Weights], base: Weights, *, pairs: int, seed: int, turns: int = 15, jobs: int = -1
) -> list[float]:
    """Each candidate's score against `base` itself, over every army's mirror on every map (`pairs` pairs
    each, the same seeds for every candidate)."""
    roster = _part("matchups").roster_at(library)
    cells = design(sorted(roster.armies), sorted(roster.maps), ["base"], range(pairs))
    work = [(i, asdict(weights), cell) for i, weights in enumerate(candidates) for cell in cells]
    size = max(1, math.ceil(len(work) / 32))
    batches = [work[k : k + size] for k in range(0, len(work), size)]
    totals = [0.0] * len(candidates)
    results = Parallel(n_jobs=jobs)(delayed(_batch)(library, b, seed, turns, asdict(base)) for b in batches)
    for batch in results:
        for index, score in batch:
            totals[index] += score
    return [t / len(cells) for t in totals]


def climb(
    library: Path,
    base: Weights,
    *,
    iterations: int,
    pairs: int,
    seed: int,
    factors: tuple[float, float] = (0.6, 1.6),
    accept: float = 0.53,
    log: Any = print,
) -> tuple[Weights, list[dict[str, Any]]]:
    """Hill climbing by deviations: every weight alone times each factor plays the current weights head to
    head; the best deviation is taken when it scores at least `accept`, else the climb stops (every
    single-weight deviation of the result loses to it)."""
    history: list[dict[str, Any]] = []
    current = base
    for iteration in range(iterations):
        candidates = []
        labels = []
        for name in TUNED_FIELDS:
            for factor in factors:
                values = asdict(current)
                values[name] = round(values[name] * factor, 3)
                candidates.append(_weights_class(HORRORCLIX)(**values))
                labels.append(f"{name} x{factor}")
        scores = head_to_head(library, candidates, current, pairs=pairs, seed=seed + iteration)
        ranked = sorted(range(len(candidates)), key=lambda i: -scores[i])
        history.append({"iteration": iteration + 1, "scores": {labels[i]: round(scores[i], 4) for i in ranked}})
        log(f"climb {iteration + 1}: " + ", ".join(f"{labels[i]} {scores[i]:.3f}" for i in ranked[:5]))
        best = ranked[0]
        if scores[best] < accept:
            break
        current = candidates[best]
    return current, history


def toward(base: Any, other: Any, t: float) -> Any:
    """`base` moved `t` of the way (geometrically) toward `other`: each weight times (other/base)**t."""
    values = asdict(base)
    for name in _fields(base):
        if values[name] > 0 and getattr(other, name) > 0:
            values[name] = round(values[name] * (getattr(other, name) / values[name]) ** t, 3)
    return type(base)(**values)


def weights_source(weights: Weights) -> str:
    """The weights as a `Weights(...)` expression."""
    parts = ", ".join(f"{f.name}={getattr(weights, f.name)!r}" for f in fields(weights))
    return f"Weights({parts})"


def main() -> None:
    """`python -m clix.analyzer.ladder.tune [--candidates N] [--rounds R] [--pairs P] [--seed S] [--opponents a,b]`."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=1, help="Pairs per army, map and opponent in round 1.")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--spread", type=float, default=0.35)
    parser.add_argument("--base", default="balanced", help="The style whose weights the candidates perturb.")
    parser.add_argument("--opponents", default="balanced,rusher,hunter")
    parser.add_argument(
        "--toward",
        default="",
        help="Also try the base moved 0.5x, 1x, 1.5x and 2x of the way toward these styles (comma-separated), "
        "multiplying each weight by (style/base)**t.",
    )
    parser.add_argument("--rosters", type=Path, default=Path("rosters"))
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--climb", type=int, default=0, help="Hill-climb this many steps instead (see `climb`).")
    parser.add_argument("--set", default="", help="Start from the base with these weights set: name=value,...")
    parser.add_argument("--ruleset", default=HORRORCLIX, choices=(HORRORCLIX, tune_heroclix.NAME))
    parser.add_argument("--armies", default="", help="Only these sample armies or forces (comma-separated).")
    args = parser.parse_args()
    hero = args.ruleset == tune_heroclix.NAME
    styles = _part("weights", args.ruleset).STYLES
    make = _weights_class(args.ruleset)
    if hero and args.opponents == parser.get_default("opponents"):
        args.opponents = "balanced,brawler,cautious"
    start = asdict(styles[args.base])
    for item in filter(None, args.set.split(",")):
        name, value = item.split("=")
        start[name.strip()] = float(value)
    if args.climb and not hero:
        found, _ = climb(args.rosters, make(**start), iterations=args.climb, pairs=args.pairs, seed=args.seed)
        print(weights_source(found))
        return
    try:
        result = tune_from_arguments(args, start, make, styles)
    except ClixError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    print(f"winner #{result['winner_index']}: score {result['score']:.3f} over its games; {result['games']} games")
    print(f"in {result['seconds']:.0f} s")
    print(weights_source(result["winner"]))


def tune_from_arguments(args: Any, start: dict[str, float], make: Any, styles: Any) -> dict[str, Any]:
    """The race the command line asks for."""
    return tune(
        args.rosters,
        make(**start),
        candidates=args.candidates,
        rounds=args.rounds,
        first_pairs=args.pairs,
        opponents=args.opponents.split(","),
        seed=args.seed,
        spread=args.spread,
        jobs=args.jobs,
        extra=[toward(styles[args.base], styles[name], t) for name in args.toward.split(",") if name for t in STEPS],
        ruleset=args.ruleset,
        armies=[a for a in args.armies.split(",") if a] or None,
    )


if __name__ == "__main__":
    # run from the imported module, so workers unpickle its functions by reference, not by value
    from clix.analyzer.ladder.tune import main as tune_main

    tune_main()
