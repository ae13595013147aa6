"""`clix melee A B C D ... --pods N` and `clix meta --pods N`: a field of armies played in pods of N = 3 or 4
(issue 39). Pods are drawn so that every pair of armies meets about equally often (`draw_pods`); each pod plays its
N cyclic seat rotations under one seed (every army in every seat once, the first player rotating with them,
HC-SETUP-03), and the armies are rated by a Plackett-Luce model on the placings (`choix`), with 95% intervals from a
bootstrap over pods (docs/statistics.md, "Field"). A field of exactly N armies plays every pod at one table."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.melee.design import SLOTS, Melee, play_row
from scipy.stats import t as t_dist

POD = 4
"""Armies at a pod's table unless asked otherwise."""
MAX_FIELD = 40
"""The most armies a field in pods takes (`draw_pods` weighs every pod of the field's armies)."""
POD_SIZES = (3, 4)
"""The pod sizes a field plays (HC-VICTIM-02: 12 victims divide among 3 or 4 players)."""
BOOTSTRAP = 200
"""Pod resamples for the rating intervals."""
ALPHA = 0.01
"""choix's regularization: keeps an army that always places first (or last) at a finite rating."""


@dataclass(frozen=True)
class Field:
    """A field's armies (the melee holds the map, styles by army, turns and ties) and its pods (army indexes)."""

    melee: Melee
    pods: tuple[tuple[int, ...], ...]
    size: int = POD
    """Armies at each pod's table (3 or 4)."""
    maps: tuple[str, ...] = ()
    """The maps every pod plays on, each in all its seat rotations, when several (empty: the melee's map)."""

    @property
    def on_maps(self) -> tuple[str, ...]:
        """The maps every pod plays on (the melee's alone, or `maps`)."""
        return self.maps or (self.melee.map_name,)

    @property
    def pod_games(self) -> int:
        """Games a pod plays: its seat rotations on each map."""
        return self.size * len(self.on_maps)

    @property
    def games(self) -> int:
        """Games the whole field plays."""
        return len(self.pods) * self.pod_games

    def pod_melee(self, pod: int) -> Melee:
        """Pod `pod` as a melee of its armies, each seat rotation once."""
        chosen = self.pods[pod]
        return replace(
            self.melee,
            armies=tuple(self.melee.armies[i] for i in chosen),
            styles=tuple(self.melee.styles[i] for i in chosen),
            rotations=True,
        )


def draw_pods(armies: int, pods: int, seed: int, size: int = POD) -> tuple[tuple[int, ...], ...]:
    """`pods` pods of `size` armies from `armies`, one at a time: among the pods that keep every army's count of
    pods within one of every other's (the least-played armies first), the one whose pairs have met least (the sum
    of their squared meetings so far, so no pair falls far behind), ties broken by a generator seeded from `seed`.
    Every army plays equally often give or take one pod, and every pair meets about equally often (a spread of at
    most 2-3 pods over the field, tests/test_melee_field.py)."""
    rng = np.random.default_rng([seed, 39])
    played = np.zeros(armies, dtype=np.int64)
    met = np.zeros((armies, armies), dtype=np.int64)
    combos = np.array(list(itertools.combinations(range(armies), size)), dtype=np.int64)
    pairs = list(itertools.combinations(range(size), 2))
    out = []
    for _ in range(pods):
        noise = rng.random(len(combos))
        least = played == played.min()
        allowed = least[combos].sum(axis=1) == min(int(least.sum()), size)
        allowed &= (played[combos] <= played.min() + 1).all(axis=1)
        crowding = sum(met[combos[:, i], combos[:, j]] ** 2 for i, j in pairs)
        chosen = combos[np.lexsort((noise, np.where(allowed, crowding, np.iinfo(np.int64).max)))[0]]
        played[chosen] += 1
        for i, j in pairs:
            met[chosen[i], chosen[j]] += 1
            met[chosen[j], chosen[i]] += 1
        out.append(tuple(int(a) for a in chosen))
    return tuple(out)


def check_pod_size(size: int) -> None:
    """A pod seats 3 or 4 armies (one line otherwise)."""
    if size not in POD_SIZES:
        raise ClixError(
            f"--pods: a pod seats 3 or 4 armies (got {size}; HC-VICTIM-02: 12 victims divide among 3 or 4 players); "
            "write --pods 3 or --pods 4"
        )


def pod_count(armies: int, games: int, size: int = POD, maps: int = 1) -> int:
    """Pods enough for `games` games (`size` a pod on each of `maps` maps), at least two pods an army."""
    return max(-(-games // (size * maps)), -(-2 * armies // size))


def build_field(melee: Melee, games: int, seed: int, size: int = POD) -> Field:
    """The field of `melee`'s armies (`size` or more, no teams) in pods of `size` enough for `games` games; a
    melee whose map is several, comma-separated (`command.build_melee` with a field), plays every pod on each."""
    check_pod_size(size)
    if melee.size > MAX_FIELD:
        raise ClixError(f"ARMIES: a field in pods takes at most {MAX_FIELD} armies (got {melee.size}); name fewer")
    if melee.size < size or melee.teams:
        raise ClixError(
            f"--pods {size}: a field seats {size} or more armies in pods of {size} (got {melee.size}"
            f"{' and --teams' if melee.teams else ''}); name more armies or leave out --teams"
        )
    maps = tuple(melee.map_name.split(","))
    pods = draw_pods(melee.size, pod_count(melee.size, games, size, len(maps)), seed, size)
    return Field(replace(melee, map_name=maps[0]), pods, size, maps if len(maps) > 1 else ())


def play_field_row(field: Field, seed: int, index: int) -> dict[str, Any]:
    """Game `index` of the field as a melee row with its pod: pod index // pod_games, on map (index // size) % maps,
    rotation index % size (one map: pod index // size, as fields have always been numbered). Each pod's games on
    each map are a block of their own seed."""
    pod = index // field.pod_games
    on = field.on_maps[(index // field.size) % len(field.on_maps)]
    row = play_row(replace(field.pod_melee(pod), map_name=on), seed, index)
    return {"pod": pod, **row}


def rankings(games: Any, field: Field, seed: int) -> list[list[int]]:
    """Each game's armies (field indexes) best first by placing; tied placings in an order drawn from a generator
    seeded by the game (choix takes strict rankings)."""
    index = {a: i for i, a in enumerate(field.melee.armies)}
    out = []
    for _, game in games.iterrows():
        noise = np.random.default_rng([seed, int(game["pod"]), int(game["game"])]).random(field.size)
        slots = sorted(range(field.size), key=lambda s: (float(game[f"place_{SLOTS[s]}"]), noise[s]))
        out.append([index[game[f"army_{SLOTS[s]}"]] for s in slots])
    return out


def ratings(field: Field, games: Any, seed: int, resamples: int = BOOTSTRAP) -> list[dict[str, Any]]:
    """Per army: its Plackett-Luce log-strength (0 the field's mean), a 95% percentile interval from `resamples`
    resamples of pods (none: the interval is the estimate), its chance to win a pod of average armies (e^r / (e^r + size - 1)), its games, win share and mean
    placing; best rating first."""
    import choix

    size = field.melee.size
    ranked = rankings(games, field, seed)
    pod_of = games["pod"].to_numpy()
    pods = sorted(set(pod_of.tolist()))
    by_pod = {p: [r for r, q in zip(ranked, pod_of, strict=True) if q == p] for p in pods}
    estimate = _fit(choix, size, ranked)
    rng = np.random.default_rng([seed, 40])
    draws = []
    for _ in range(resamples):
        picked = rng.choice(pods, len(pods))
        draws.append(_fit(choix, size, [r for p in picked for r in by_pod[p]]))
    low, high = rating_interval(estimate, np.array(draws), len(pods))
    rows = []
    for i, army in enumerate(field.melee.armies):
        mine = [(games[f"win_{x}"], games[f"place_{x}"]) for x in SLOTS[: field.size]]
        wins = sum(float(w[games[f"army_{x}"] == army].sum()) for (w, _), x in zip(mine, SLOTS, strict=False))
        places = sum(float(p[games[f"army_{x}"] == army].sum()) for (_, p), x in zip(mine, SLOTS, strict=False))
        count = int(sum((games[f"army_{x}"] == army).sum() for x in SLOTS[: field.size]))
        rows.append(
            {
                "army": army,
                "rating": float(estimate[i]),
                "low": float(low[i]),
                "high": float(high[i]),
                "pod_win": float(np.exp(estimate[i]) / (np.exp(estimate[i]) + field.size - 1)),
                "games": count,
                "win_share": wins / count if count else None,
                "mean_place": places / count if count else None,
            }
        )
    return sorted(rows, key=lambda r: -r["rating"])


def rating_interval(estimate: np.ndarray, draws: np.ndarray, pods: int) -> tuple[np.ndarray, np.ndarray]:
    """95% intervals around the ratings from their bootstrap over pods: estimate ± t(P - 1) · √(P / (P - 1)) · s,
    s the resamples' standard deviation, P pods. Percentile intervals covered 0 in only 88-91% of simulated fields of
    equal armies with 15 pods (a bootstrap over few clusters is too narrow by about √((P - 1) / P) and its
    percentiles miss the t tail); this one covered 94-95% (tests/test_melee_field_calibration.py). Without
    resamples (or with one pod) the interval is the estimate."""
    if len(draws) < 2 or pods < 2:
        return estimate.copy(), estimate.copy()
    spread = np.nanstd(draws, axis=0, ddof=1) * np.sqrt(pods / (pods - 1)) * float(t_dist.ppf(0.975, pods - 1))
    return estimate - spread, estimate + spread


def _fit(choix: Any, size: int, ranked: Sequence[list[int]]) -> np.ndarray:
    """Plackett-Luce log-strengths by choix's ILSR, centred on 0; NaN for an army no game of the sample had."""
    seen = {a for r in ranked for a in r}
    strengths = np.asarray(choix.ilsr_rankings(size, list(ranked), alpha=ALPHA), dtype=float)
    strengths = strengths - strengths[sorted(seen)].mean()
    strengths[[a for a in range(size) if a not in seen]] = np.nan
    return strengths


def summarize_field(field: Field, games: Any, seed: int, resamples: int = BOOTSTRAP) -> dict[str, Any]:
    """Everything `clix melee --pods N` reports, JSON-able."""
    rated = ratings(field, games, seed, resamples)
    pairs = [(a, b) for p in field.pods for a in p for b in p if a < b]
    meets = [pairs.count((a, b)) for a in range(field.melee.size) for b in range(a + 1, field.melee.size)]
    from clix.analyzer.melee.stats import by_position, king_making, table_words

    summary = {
        "games": len(games),
        "pods": int(games["pod"].nunique()),
        "teams": "",
        "seats": by_position(games, "seat"),
        "positions": by_position(games, "position"),
        "king_making": king_making(games),
        "words": table_words(games),
        "pod_size": field.size,
        "armies": rated,
        "meetings": {"fewest": min(meets), "most": max(meets)},
        "bootstrap": resamples,
        "pod_armies": [[field.melee.armies[i] for i in pod] for pod in field.pods],
        "map": ",".join(field.on_maps),
        "maps": list(field.on_maps),
        "seed": seed,
    }
    best = rated[0]
    clear = best["low"] > max(r["high"] for r in rated[1:]) if len(rated) > 1 else False
    summary["headline"] = (
        f"{best['army']} rates highest in a field of {field.melee.size}: {best['rating']:+.2f} "
        f"[{best['low']:+.2f} to {best['high']:+.2f}] (Plackett-Luce log-strength, 0 the field's mean; wins "
        f"{best['pod_win']:.0%} of pods of average armies, {'clear of' if clear else 'not clear of'} the rest)"
    )
    return summary


def play_field(
    field: Field, seed: int, jobs: int, progress: Any = None, keeper: Any = None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every game of the field's pods on `jobs` processes (the melee's `play_games`, the duel's worker pool), those
    the result store has (`keeper`, a `keep.MeleeKeeper` under `field_key`) taken from it: the rows and how the run
    ended."""
    from clix.analyzer.melee.command import play_games

    return play_games(
        field.melee,
        field.games,
        seed,
        jobs,
        progress,
        keeper=keeper,
        play=partial(play_field_row, field, seed),
        describe=lambda index: f"game {index} (pod {index // field.pod_games})",
    )


def field_key(field: Field, seed: int) -> Any:
    """The store key of the field's games (`keep.melee_key` with its pod size and pods)."""
    from clix.analyzer.melee.keep import melee_key

    return melee_key(field.melee, seed, field.pods, field.size, field.maps)


def field_command(field: Field, games: int, seed: int) -> str:
    """The command line that plays this field again (as `clix results list` records it)."""
    from clix.analyzer.melee.command import melee_command

    command = melee_command(replace(field.melee, map_name=",".join(field.on_maps)), games, seed)
    return command.replace(" --games", f" --pods {field.size} --games", 1)


@dataclass(frozen=True)
class FieldPlay:
    """How a field is played, rated and kept: its games, master seed and worker processes, the pod size, the
    bootstrap's resamples, the result store (None: none), --fresh and --pdf."""

    games: int
    seed: int = 0
    jobs: int = 1
    size: int = POD
    resamples: int = BOOTSTRAP
    store: Path | None = None
    fresh: bool = False
    pdf: bool = False


def run_field(melee: Melee, play: FieldPlay, out: Any, as_json: bool, console: Any) -> int:
    """`clix melee ... --pods N` (and `clix meta --pods N`): draw the pods, play them (those the result store has
    taken from it unless --fresh, the others added), print the summary (text or one line of JSON), write the
    field's folder to `out` (a `report.folder.Target`; None writes nothing; `field_report.write_field`) and record
    the run in the store's runs (`clix results`); the exit code."""
    from contextlib import nullcontext

    import pandas as pd
    from clix.analyzer.common.jsonout import print_json
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.common.text import print_lines
    from clix.analyzer.melee.console import field_lines
    from clix.analyzer.melee.field_report import write_field
    from clix.analyzer.melee.keep import MeleeKeeper, run_settings
    from clix.analyzer.play.pool import close_pool
    from clix.analyzer.play.result import run_exit_code
    from clix.analyzer.report.folder import claim_output

    if play.pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    seed, store = play.seed, play.store
    field = build_field(melee, play.games, seed, play.size)
    played = field.games
    with claim_output(out) if out is not None else nullcontext() as claimed:
        keeper = None if store is None else MeleeKeeper(store, melee, seed, played, play.fresh, field_key(field, seed))
        try:
            done = len(keeper.known) if keeper is not None else 0
            with progress_bar(console, "field", played, as_json or console.quiet, done) as advance:
                rows, ended = play_field(field, seed, play.jobs, advance, keeper)
        finally:
            close_pool()
        table = pd.DataFrame(rows)
        whole = table.groupby("pod")["game"].transform("size") == field.pod_games if len(table) else []
        table = table[whole].reset_index(drop=True) if len(table) else table
        if table.empty:
            raise ClixError("no whole pod of games finished: nothing to report (see the lines above)")
        summary = summarize_field(field, table, seed, play.resamples) | {"ended": ended, "store": str(store or "")}
        summary["settings"] = run_settings(melee, summary, field_command(field, played, seed))
        if claimed is not None:
            with claimed.staged() as staging:
                written = write_field(staging, table, summary, play.pdf)
            summary["outputs"] = [str(claimed.final(p)) for p in written]
        if keeper is not None:
            folder = str(Path(summary["outputs"][0]).resolve().parent) if "outputs" in summary else ""
            indexes = [int(i) for i in table["game"]]
            keeper.record(melee, summary, indexes, summary["settings"]["command"], folder)
    if as_json:
        print_json(summary)
    else:
        print_lines(console, field_lines(summary), keep=("  ",))
        if "outputs" in summary:
            console.print(f"report: {summary['outputs'][-1]}", markup=False)
    return run_exit_code(ended["interrupted"], bool(ended["failed"]), ended["stopped"])
