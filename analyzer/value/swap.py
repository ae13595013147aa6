"""The swap test of `clix value --swap FIGURE --in ARMY`: the army and its variants with the figure replaced by
equal points of alternatives play the same games against a field; the score change with a paired interval."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.play.experiment import Cell, play_cells
from clix.analyzer.play.result import ended_early, report_line, run_exit_code
from clix.analyzer.play.store import Store
from clix.analyzer.stats.scoring import game_scores, mean_interval
from clix.analyzer.value.pieces import pieces_of
from clix.analyzer.value.report import _table
from clix.engine.core.files.problems import did_you_mean
from rich.console import Console


def alternatives(roster: Any, army: Any, figure_id: str, limit: int, pool: Sequence[str] = ()) -> list[list[Any]]:
    """Replacements of one copy of `figure_id` in `army` by equal points of other figures: single figures and
    pairs that fit the points it frees (its cost plus the army's unspent points), closest to its cost first
    (HeroClix: characters that may join the rest, HX-BUILD-03/04)."""
    pieces = pieces_of(roster)
    cost = pieces.points(figure_id)
    rest = pieces.contents(army)
    spent = sum(pieces.points(f) for f in rest)
    free = cost + army.build_total - spent
    rest.remove(figure_id)
    legal = [
        f
        for k, f in sorted(pieces.figures.items())
        if k != figure_id
        and pieces.playable(k)
        and pieces.fits(f, rest)
        and (not pool or k in pool)
        and f.points <= free
    ]
    options: list[list[Any]] = [[f] for f in legal]
    for f, g in itertools.combinations_with_replacement(legal, 2):
        if f.points + g.points <= free and pieces.fits(g, [*rest, f.id]):
            options.append([f, g])
    options.sort(key=lambda fs: (abs(sum(f.points for f in fs) - cost), len(fs), [f.id for f in fs]))
    return options[:limit]


def run_swap(
    roster: Any,
    library: Path | tuple[Path, ...],
    army_id: str,
    figure_id: str,
    *,
    opponents: Sequence[str],
    limit: int,
    games: int,
    maps: Sequence[str],
    style: str,
    turns: int,
    seed: int,
    jobs: int | None,
    store: Path | None,
    as_json: bool,
    console: Console,
) -> int:
    """`clix value --swap FIGURE --in ARMY`: the army and its variants with FIGURE replaced by equal points of
    alternatives play the same games against `opponents`; print each variant's score change with a paired
    interval (army minus variant: above 0, the figure is worth more than what replaces it). `roster`: a ruleset's
    library data or its pieces (analyzer/value/pieces.py)."""
    pieces = pieces_of(roster)
    army = pieces.armies[army_id]
    word = pieces.figure_word
    if figure_id not in pieces.figures:
        hint = "`clix roster list` shows every figure" if word == "figure" else ""
        raise ClixError("--swap: " + did_you_mean(word, figure_id, pieces.figures, hint))
    if figure_id not in pieces.contents(army):
        fielded = ", ".join(pieces.contents(army))
        raise ClixError(f"--swap {figure_id}: {army_id} does not field it (it fields {fielded})")
    options = alternatives(pieces, army, figure_id, limit)
    if not options:
        raise ClixError(f"--swap {figure_id}: no other {word} fits the {pieces.points(figure_id)} points it frees")
    rest = pieces.contents(army)
    rest.remove(figure_id)
    variants = {}
    for option in options:
        name = f"{army_id}-without-{figure_id}-with-" + "-".join(f.id for f in option)
        figures = rest + [f.id for f in option]
        variants[name] = pieces.legal(name, army.build_total, figures, army, "swap test (clix value)")
    armies = {army_id: army, **variants}
    cells = []
    for name in armies:
        for opponent in opponents:
            for map_name in maps:
                matchup = pieces.matchup(library, (name, opponent), variants, map_name, (style, style), turns)
                cells.append(Cell(matchup, 0, games + games % 2))
    view = pieces.view(variants)
    opened = Store.open(store) if store is not None else None
    played = play_cells(view, cells, seed, jobs, opened)
    if played.crashed:  # the variants no longer played the same games: nothing to compare
        report_line(
            "stopped at the first game that crashed (a bug or bad data, named above; `clix replay` plays it again); "
            "the games finished are kept in the store"
        )
        return run_exit_code(played.interrupted, True, True)
    ended_early(sum(map(len, played.games)), "games", played.interrupted, played.stopped, len(played.failed))
    per = len(opponents) * len(maps)
    units: dict[str, pd.Series] = {}
    for n, name in enumerate(armies):
        frames = []
        for k in range(per):
            rows = pd.DataFrame(played.games[n * per + k])
            if len(rows):
                frames.append(game_scores(rows, "A").groupby(rows["pair"]).mean().rename(lambda p, k=k: (k, p)))
        units[name] = pd.concat(frames) if frames else pd.Series(dtype=float)
    base = units[army_id]
    results = []
    for name, option in zip(variants, options, strict=True):
        common = base.index.intersection(units[name].index)
        diff = mean_interval((base[common] - units[name][common]).to_numpy() / 2 + 0.5)
        results.append(
            {
                "replacement": [f.id for f in option],
                "points": sum(f.points for f in option),
                "score": mean_interval(units[name].to_numpy())["score"],
                "change": _centred(diff),
            }
        )
    common = base.index
    for name in variants:
        common = common.intersection(units[name].index)
    mean_alt = sum(units[n][common] for n in variants) / len(variants)
    overall = _centred(mean_interval((base[common] - mean_alt).to_numpy() / 2 + 0.5))
    summary = {
        "army": army_id,
        "figure": figure_id,
        "cost": pieces.points(figure_id),
        "opponents": list(opponents),
        "maps": list(maps),
        "players": style,
        "games_per_opponent": games + games % 2,
        "seed": seed,
        "score": mean_interval(base.to_numpy()),
        "change": overall,
        "alternatives": results,
    }
    if as_json:
        print_json(summary)
    else:
        sc: dict[str, Any] = summary["score"]  # type: ignore[assignment]
        console.print(
            f"swap test: {figure_id} ({summary['cost']} points) in {army_id}, against {', '.join(opponents)} on "
            f"{', '.join(maps)}, players {style}, {summary['games_per_opponent']} games per opponent, seed {seed}",
            markup=False,
        )
        console.print(
            f"  {army_id} scores {100 * sc['score']:.1f}% [{100 * sc['low']:.1f}–{100 * sc['high']:.1f}]; keeping "
            f"{figure_id} instead of the average alternative: {_change(overall)} points",
            markup=False,
        )
        table = [["replacement", "points", "variant's score", f"change from keeping {figure_id} [95%]"]] + [
            [" + ".join(r["replacement"]), str(r["points"]), f"{100 * r['score']:.1f}%", _change(r["change"])]
            for r in results
        ]
        for line in _table(table):
            console.print("  " + line, markup=False)
        console.print(
            "  change: the army's score minus the variant's over the same seat-swapped pairs (common random "
            "numbers), in percentage points; above 0, the figure is worth more than its replacement",
            markup=False,
        )
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def _centred(interval: dict[str, Any]) -> dict[str, Any]:
    """A paired interval computed on (d/2 + ½) back as a difference d in [-1, 1]."""
    if interval["score"] is None:
        return {"difference": None, "low": None, "high": None, "pairs": 0}
    return {
        "difference": 2 * interval["score"] - 1,
        "low": 2 * interval["low"] - 1,
        "high": 2 * interval["high"] - 1,
        "pairs": interval["pairs"],
    }


def _change(d: dict[str, Any]) -> str:
    if d["difference"] is None:
        return "–"
    return f"{100 * d['difference']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"
