"""Self-play tuning of the Horrified team player's weights (`TeamWeights`, issue 40; docs/tuning.md): a paired race.

Every candidate (the defaults with one or two weights changed) plays the same games: the same line-ups (monsters,
heroes and player counts, `LINEUPS`) from the same seeds (game k of line-up j: the k-th child of
SeedSequence([seed, j]), dice and seats derived as `clix horrified` derives them), so differences are paired. The
race picks the candidate that wins most on the DEV seeds (a second round tries the best changes together), then
plays it against the defaults on FRESH seeds the race never saw; it is worth adopting only if the paired gain's 95%
interval lies above 0.

    python -m clix.engine.horrified.tuning [--games 150] [--confirm 1000] [--dev 9601] [--fresh 9602] [--start hand-set]

`--start hand-set` races from the hand-set weights, as the recorded run did (docs/tuning.md); by default the race
starts from today's defaults (`DEFAULT_WEIGHTS`, that run's winner).
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
from clix.engine.core.dice import Dice
from clix.engine.core.driver import play
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.players import DEFAULT_WEIGHTS, HAND_SET, TeamPlayer, TeamWeights
from clix.engine.horrified.setup import new_game

Lineup = tuple[tuple[str, ...], tuple[str, ...]]

LINEUPS: tuple[Lineup, ...] = (
    (("dracula", "invisible-man"), ("mayor", "archaeologist")),
    (("dracula", "wolf-man"), ("inspector",)),
    (("invisible-man", "mummy"), ("explorer", "professor", "scientist")),
    (("dracula", "creature", "frankenstein"), ("mayor", "archaeologist", "courier", "inspector")),
)
"""Monsters and heroes: the default line-up (2 players), a solo game, 3 players and 4 players against 3 monsters."""

CANDIDATES: dict[str, dict[str, float]] = {
    "start": {},
    "pick up first": {"pick_up": 950.0},
    "pick up late": {"pick_up": 300.0, "pick_up_adjacent": 290.0},
    "rescue first": {"rescue": 600.0},
    "rescue late": {"rescue": 45.0},
    "share late": {"share": 45.0},
    "share first": {"share": 520.0},
    "short steps": {"walk_step": 3.0},
    "long steps": {"walk_step": 30.0},
    "carry free": {"carry": 0.0},
    "carry shy": {"carry": 8.0},
    "escort": {"escort": 5.0},
    "escort strong": {"escort": 20.0},
    "guide below walk": {"guide": 30.0},
    "guide above walk": {"guide": 120.0},
    "defeat reach 2": {"defeat_reach": 2.0},
    "defeat reach 5": {"defeat_reach": 5.0},
    "items perk first": {"items_perk": 600.0},
    "items perk never": {"items_perk": -1.0},
    "extra actions late": {"extra_actions": 40.0},
    "leap eager": {"leap": 70.0},
    "leap shy": {"leap": 20.0},
}
"""The first round's candidates: the starting weights and one change each (`TeamWeights` fields)."""
STARTS = {"default": DEFAULT_WEIGHTS, "hand-set": HAND_SET}

Z95 = 1.959964


def weights_of(changes: Mapping[str, float], start: TeamWeights = DEFAULT_WEIGHTS) -> TeamWeights:
    """The `start` weights with `changes` made."""
    return replace(start, **changes)


def play_one(weights: TeamWeights, lineup: Lineup, seed: np.random.SeedSequence) -> int:
    """One game of `lineup` from `seed` by team players with `weights`: 1 won, 0 lost. Its dice and seats come from
    the seed as `clix horrified` takes them (the default weights play the same game as the style `team`)."""
    monsters, heroes = lineup
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    dice_seed, *seat_seeds = fresh.spawn(1 + len(heroes))
    state = new_game(components_at(), list(monsters), list(heroes), Dice(np.random.default_rng(dice_seed)))
    seat = functools.partial(TeamPlayer, weights=weights)
    play(state, [seat(np.random.default_rng(s)) for s in seat_seeds])
    return int(state.winner is not None)


def results(weights: TeamWeights, seed: int, games: int, lineups: Sequence[Lineup] | None = None) -> np.ndarray:
    """Wins (0/1) of `games` games of each line-up (default `LINEUPS`), line-up by line-up, from `seed`: the same
    games for any weights."""
    won = [
        play_one(weights, lineup, s)
        for j, lineup in enumerate(LINEUPS if lineups is None else lineups)
        for s in np.random.SeedSequence([seed, j]).spawn(games)
    ]
    return np.array(won, dtype=float)


def paired_gain(new: np.ndarray, old: np.ndarray) -> tuple[float, float, float]:
    """The win rate of `new` minus `old`, game by game, with its 95% normal interval: (gain, low, high)."""
    d = new - old
    half = Z95 * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("inf")
    return float(d.mean()), float(d.mean()) - half, float(d.mean()) + half


def race(
    candidates: Mapping[str, Mapping[str, float]], seed: int, games: int, start: TeamWeights = DEFAULT_WEIGHTS
) -> dict[str, np.ndarray]:
    """Every candidate's wins on the same games (printed as they finish: win rate and paired gain on the first)."""
    found: dict[str, np.ndarray] = {}
    for name, changes in candidates.items():
        found[name] = results(weights_of(changes, start), seed, games)
        base = next(iter(found.values()))
        gain, low, high = paired_gain(found[name], base)
        print(f"  {name:22} {found[name].mean():6.1%}  {gain:+6.1%} [{low:+.1%}, {high:+.1%}]", flush=True)
    return found


def combined(
    candidates: Mapping[str, Mapping[str, float]], gains: Mapping[str, float], top: int = 3
) -> dict[str, float]:
    """The changes of the `top` best candidates that beat the first, at most one per weight, together."""
    best = sorted((g, n) for n, g in gains.items() if g > 0)[::-1][:top]
    merged: dict[str, float] = {}
    for _, name in best:
        merged.update({k: v for k, v in candidates[name].items() if k not in merged})
    return merged


def main(argv: Sequence[str] | None = None) -> None:
    """The race on the dev seeds, then its winner against the defaults on the fresh seeds (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=150, help="games per line-up and candidate on the dev seeds")
    parser.add_argument("--confirm", type=int, default=1000, help="games per line-up on the fresh seeds")
    parser.add_argument("--dev", type=int, default=9601, help="the dev seed (choosing)")
    parser.add_argument("--fresh", type=int, default=9602, help="the fresh seed (confirming)")
    parser.add_argument("--start", choices=sorted(STARTS), default="default", help="the weights the race starts from")
    args = parser.parse_args(argv)
    start_weights = STARTS[args.start]
    if min(args.games, args.confirm) < 2 or min(args.dev, args.fresh) < 0:
        parser.error("--games and --confirm must be 2 or more, the seeds 0 or more")
    start = time.perf_counter()
    games = args.games * len(LINEUPS)
    print(f"round 1: {len(CANDIDATES)} candidates x {games} games (seed {args.dev}); win rate, gain on the start:")
    first = race(CANDIDATES, args.dev, args.games, start_weights)
    gains = {n: float((w - first["start"]).mean()) for n, w in first.items()}
    together = combined(CANDIDATES, gains)
    pool = {n: dict(CANDIDATES[n]) for n in CANDIDATES}
    if len(together) > 1:
        print(f"round 2: the best changes together {together}:")
        second = race({"start": {}, "together": together}, args.dev, args.games, start_weights)
        gains["together"], pool["together"] = float((second["together"] - second["start"]).mean()), together
    winner = max(gains, key=lambda n: (gains[n], n == "start"))
    print(f"dev winner: {winner} {pool[winner]} ({gains[winner]:+.1%}); {time.perf_counter() - start:.0f} s")
    if winner == "start":
        print("no candidate beat the starting weights on the dev seeds: keep them")
        return
    print(f"confirm: {winner} against the start, {args.confirm * len(LINEUPS)} games (fresh seed {args.fresh}):")
    new = results(weights_of(pool[winner], start_weights), args.fresh, args.confirm)
    old = results(start_weights, args.fresh, args.confirm)
    gain, low, high = paired_gain(new, old)
    for j, lineup in enumerate(LINEUPS):
        part = slice(j * args.confirm, (j + 1) * args.confirm)
        label = "+".join(lineup[0]) + " vs " + "+".join(lineup[1])
        print(f"  {label:60} {old[part].mean():6.1%} -> {new[part].mean():6.1%}")
    print(f"  all: {old.mean():.1%} -> {new.mean():.1%}, paired gain {gain:+.1%} [{low:+.1%}, {high:+.1%}]")
    verdict = "adopt it" if low > 0 else "keep the starting weights (the interval reaches 0)"
    print(f"{verdict}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
