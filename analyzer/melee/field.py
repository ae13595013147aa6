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
from typing import Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.melee.design import SLOTS, Melee, play_row

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


def pod_count(armies: int, games: int, size: int = POD) -> int:
    """Pods enough for `games` games (`size` a pod), at least two pods an army."""
    return max(-(-games // size), -(-2 * armies // size))


def build_field(melee: Melee, games: int, seed: int, size: int = POD) -> Field:
    """The field of `melee`'s armies (`size` or more, no teams) in pods of `size` enough for `games` games."""
    check_pod_size(size)
    if melee.size > MAX_FIELD:
        raise ClixError(f"ARMIES: a field in pods takes at most {MAX_FIELD} armies (got {melee.size}); name fewer")
    if melee.size < size or melee.teams:
        raise ClixError(
            f"--pods {size}: a field seats {size} or more armies in pods of {size} (got {melee.size}"
            f"{' and --teams' if melee.teams else ''}); name more armies or leave out --teams"
        )
    return Field(melee, draw_pods(melee.size, pod_count(melee.size, games, size), seed, size), size)


def play_field_row(field: Field, seed: int, index: int) -> dict[str, Any]:
    """Game `index` of the field (pod index // size, rotation index % size) as a melee row with its pod."""
    pod = index // field.size
    row = play_row(field.pod_melee(pod), seed, index)
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
    low, high = np.nanpercentile(np.array(draws), [2.5, 97.5], axis=0) if draws else (estimate, estimate)
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
    summary = {
        "games": len(games),
        "pods": int(games["pod"].nunique()),
        "pod_size": field.size,
        "armies": rated,
        "meetings": {"fewest": min(meets), "most": max(meets)},
        "bootstrap": resamples,
        "pod_armies": [[field.melee.armies[i] for i in pod] for pod in field.pods],
        "map": field.melee.map_name,
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


def play_field(field: Field, seed: int, jobs: int, progress: Any = None) -> tuple[list[dict[str, Any]], Any]:
    """Every game of the field's pods on `jobs` processes (the duel's worker pool): the rows and the outcome."""
    from clix.analyzer.play.pool import run_items
    from clix.analyzer.play.result import report_line
    from clix.analyzer.play.runner import batch_size_for

    indexes = list(range(len(field.pods) * field.size))
    rows: dict[int, dict[str, Any]] = {}
    outcome = run_items(
        partial(play_field_row, field, seed),
        indexes,
        jobs,
        batch_size_for(len(indexes), jobs),
        describe=lambda p: f"game {indexes[p]} (pod {indexes[p] // field.size})",
        report=report_line,
        progress=progress,
        stop_on_raise=True,
        on_result=lambda p, row: rows.__setitem__(indexes[p], row),
        keep=False,
    )
    return [rows[i] for i in sorted(rows)], outcome


def field_lines(summary: dict[str, Any]) -> list[str]:
    """The console summary: the headline, the field's size, then one line per army, best first."""
    lines = [
        summary["headline"],
        f"{summary['games']} games in {summary['pods']} pods of {summary['pod_size']} on {summary['map']}, seed "
        f"{summary['seed']}; each pair met in {summary['meetings']['fewest']}-{summary['meetings']['most']} pods",
        "",
        "Plackett-Luce ratings (log-strength, 0 the field's mean) with 95% bootstrap intervals over pods; pod win:"
        f" the chance to win a pod of {summary['pod_size'] - 1} average armies:",
    ]
    for a in summary["armies"]:
        lines.append(
            f"  {a['army']:<14} {a['rating']:+.2f} [{a['low']:+.2f}, {a['high']:+.2f}] pod win {a['pod_win']:.0%}"
            f"  {a['games']} games  won {a['win_share']:.0%}  place {a['mean_place']:.2f}"
        )
    return lines


def run_field(
    melee: Melee,
    games: int,
    seed: int,
    jobs: int,
    out: Any,
    as_json: bool,
    console: Any,
    size: int = POD,
    resamples: int = BOOTSTRAP,
) -> int:
    """`clix melee ... --pods N`: draw the pods, play them, print the summary (text or one line of JSON) and write
    games.csv, ratings.csv, summary.json and report.html to `out` (a `report.folder.Target`; None writes nothing);
    the exit code."""
    import json
    from contextlib import nullcontext

    import pandas as pd
    from clix.analyzer.common.jsonout import print_json, rounded
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.common.text import print_lines
    from clix.analyzer.play.pool import close_pool
    from clix.analyzer.play.result import run_exit_code
    from clix.analyzer.report.duel import TEMPLATES
    from clix.analyzer.report.folder import claim_output, writing
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    field = build_field(melee, games, seed, size)
    with claim_output(out) if out is not None else nullcontext() as claimed:
        try:
            with progress_bar(console, "field", len(field.pods) * field.size, as_json or console.quiet, 0) as advance:
                rows, outcome = play_field(field, seed, jobs, advance)
        finally:
            close_pool()
        table = pd.DataFrame(rows)
        whole = table.groupby("pod")["game"].transform("size") == field.size if len(table) else []
        table = table[whole].reset_index(drop=True) if len(table) else table
        if table.empty:
            raise ClixError("no whole pod of games finished: nothing to report (see the lines above)")
        summary = summarize_field(field, table, seed, resamples)
        summary["ended"] = {"interrupted": outcome.interrupted, "failed": len(outcome.failed)}
        if claimed is not None:
            with claimed.staged() as staging:
                paths = [staging / n for n in ("games.csv", "ratings.csv", "summary.json", "report.html")]
                with writing(paths[0]):
                    table.to_csv(paths[0], index=False)
                with writing(paths[1]):
                    pd.DataFrame(summary["armies"]).to_csv(paths[1], index=False)
                with writing(paths[2]):
                    paths[2].write_text(json.dumps(rounded(summary), default=str, indent=1) + "\n")
                env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
                html = env.get_template("field.html.j2").render(summary=summary, pct=_pct)
                with writing(paths[3]):
                    paths[3].write_text(html, encoding="utf-8")
            summary["outputs"] = [str(claimed.final(p)) for p in paths]
    if as_json:
        print_json(summary)
    else:
        print_lines(console, field_lines(summary), keep=("  ",))
        if "outputs" in summary:
            console.print(f"report: {summary['outputs'][-1]}", markup=False)
    return run_exit_code(outcome.interrupted, bool(outcome.failed), outcome.stopped)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"
