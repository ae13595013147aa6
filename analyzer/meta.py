"""`clix meta`: balance across a whole field of armies (issue 18).

Every unordered pair of the field's armies plays on every map with every player style asked (both sides the
same style): one cell each. A cell's games are exactly `clix duel A B --map M --seed S --players s,s`'s (the
same matchup, master seed and game indexes, so the same seed paths): every cell shares the seeds (common random
numbers), games come in seat-swapped pairs, and a cell's score carries the duel's interval over pairs.

With a target half-width (`--target-ci W`) the cells play in planned looks (pairs doubling from 20, each look
at the Bonferroni level of `analyzer.sequential`); after each look a cell settles when its interval is
narrow enough ("precise") or lies wholly on one side of 50% ("clear": who is favoured is known); the others play
on, up to `--games`. A cell's score is then known to the same confidence as a `clix duel --target-ci` run's.

From the cells: the score matrix (each army pair's score, an equal-weight mean over maps and styles), each
army's score against the field, Bradley-Terry ratings, the Nash mixture of the matchup game (`analyzer.nash`)
with a bootstrap of the pairs, dominated armies, outliers, the first-player advantage by army and map, draws
and tie-breaks, plot-twist balance, map balance and, with a style sweep, the range over styles.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer import nash
from clix.analyzer.errors import ClixError
from clix.analyzer.ladder import fit_ratings, text_table
from clix.analyzer.outputs import Target, claim_output, writing
from clix.analyzer.pool import Outcome, run_items
from clix.analyzer.runner import (
    GameRows,
    Matchup,
    batch_size_for,
    ended_early,
    game_seed_path,
    play_one,
    report_line,
    run_exit_code,
)
from clix.analyzer.scoring import CONFIDENCE, game_scores, mean_interval, pair_means
from clix.analyzer.sequential import look_confidence, mean_interval_at, planned_looks
from clix.analyzer.stats import _records
from clix.engine import RULESET_VERSION, compiled
from clix.engine.players.heuristic import DEFAULT_STYLE, STYLES
from clix.engine.roster.loader import Roster
from rich.console import Console
from scipy import stats as st

Z = float(st.norm.ppf(0.5 + CONFIDENCE / 2))
WIDTH = 100
OUTLIER_HIGH, OUTLIER_LOW = 0.60, 0.40
"""An army whose field score interval lies wholly above 60% or below 40% is an outlier to look at."""
RESAMPLES = 200
META_FIRST_PAIRS = 20
"""Pairs of a cell's first look under --target-ci: fewer than a duel's (50), since most cells of a field are
lopsided and settle as clear at once; the looks then double as the duel's do."""
PAIR_KEY = ["army_a", "army_b", "map", "players_a", "pair"]
"""The columns naming a seat-swapped pair among all the meta's games."""

Runner = Callable[[Sequence[tuple[Matchup, int]], Callable[[int], None] | None], Outcome]
"""Plays items (matchup, game index) and returns the outcome by position (`run_items`'s contract)."""


# --- the field --------------------------------------------------------------------------------------------


def field_styles(players: str | None) -> list[str]:
    """The player styles of the meta's cells: the default style, one named style, or `sweep` (every heuristic
    style); both sides of a cell play the same style."""
    if players is None or players.strip() in ("", "default"):
        return [DEFAULT_STYLE]
    if players.strip() == "sweep":
        return list(STYLES)
    names = [n.strip() for n in players.split(",") if n.strip()]
    known = ("random", *STYLES)
    for name in names:
        if name not in known:
            raise ClixError(
                f"--players: unknown player style '{name}'; use default, sweep or any of {', '.join(known)}"
            )
    if len(set(names)) != len(names):
        raise ClixError("--players: a style is named twice")
    return names


def expand_army_arguments(arguments: Sequence[str]) -> list[str]:
    """The field's army arguments with each folder replaced by the army files in it (sorted by name)."""
    from clix.engine.roster.loader import ROSTER_SUFFIXES

    expanded: list[str] = []
    for argument in arguments:
        folder = Path(argument)
        if folder.is_dir():
            files = sorted(str(p) for p in folder.iterdir() if p.is_file() and p.name.endswith(ROSTER_SUFFIXES))
            if not files:
                raise ClixError(f"{argument}: this folder holds no army files (*.yaml)")
            expanded += files
        else:
            expanded.append(argument)
    return expanded


def field_armies(roster: Roster, named: Sequence[str], budget: int | None) -> list[str]:
    """The field: the armies named (ids, in order) and, with `budget`, every library army of that build total."""
    armies = list(dict.fromkeys(named))
    if budget is not None:
        armies += sorted(a for a, army in roster.armies.items() if army.build_total == budget and a not in armies)
        if not armies:
            totals = sorted({army.build_total for army in roster.armies.values()})
            raise ClixError(
                f"--budget {budget}: the library has no army of that build total (it has {', '.join(map(str, totals))})"
            )
    if len(armies) < 2:
        raise ClixError("a field needs at least two armies: name them, or pass --budget 100|200|300")
    return armies


def field_cells(
    library: Path | tuple[Path, ...],
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    turns: int,
    ties: str = "break",
) -> list[Matchup]:
    """Every cell: each unordered pair of armies (the earlier in the field as A) on each map with each style."""
    return [
        Matchup(library, a, b, map_name, style, style, turns, ties)
        for i, a in enumerate(armies)
        for b in armies[i + 1 :]
        for map_name in maps
        for style in styles
    ]


# --- playing -----------------------------------------------------------------------------------------------


def _play_item(master_seed: int, item: tuple[Matchup, int]) -> GameRows:
    matchup, index = item
    return play_one(matchup, master_seed, index)


def local_runner(
    master_seed: int, jobs: int, report: Callable[[str], None] = report_line, stop_on_error: bool = False
) -> Runner:
    """Play items on this machine's worker processes (`analyzer.pool`)."""

    def run(items: Sequence[tuple[Matchup, int]], progress: Callable[[int], None] | None) -> Outcome:
        return run_items(
            partial(_play_item, master_seed),
            items,
            jobs,
            batch_size_for(len(items), jobs),
            describe=lambda position: describe_item(*items[position]),
            report=report,
            progress=progress,
            stop_on_error=stop_on_error,
        )

    return run


def describe_item(matchup: Matchup, index: int) -> str:
    """A failed game of the meta, named so `clix replay` plays it again."""
    path = ":".join(map(str, game_seed_path(matchup, index)))
    return (
        f"game {index} of {matchup.army_a} vs {matchup.army_b} on {matchup.map_name}, players {matchup.style_a} "
        f"(seed path {path})"
    )


@dataclass
class CellState:
    """How far a cell got: its games by index, the games it needs, and whether (and why) it settled."""

    games: dict[int, GameRows] = field(default_factory=dict)
    upto: int = 0
    settled: str = "open"
    """open (still playing), precise (half-width reached), clear (interval off 50%), cap (--games reached)."""
    look: int = 0
    interval: dict[str, Any] = field(default_factory=dict)
    failed: int = 0


@dataclass
class FieldRun:
    """The played field: each cell's state, failures, and how the run went."""

    cells: list[CellState]
    looks: list[int]
    confidence: float
    failed: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    stopped: bool = False
    seconds: float = 0.0
    played: int = 0
    from_store: int = 0


def settle(interval: dict[str, Any], target: float | None) -> str:
    """Whether a cell is done after a look: precise when its half-width reached `target`, clear when its
    interval lies wholly above or below 50%, else open."""
    if target is None or interval.get("half_width") is None:
        return "open"
    if interval["half_width"] <= target:
        return "precise"
    if interval["low"] > 0.5 or interval["high"] < 0.5:
        return "clear"
    return "open"


def play_field(
    matchups: Sequence[Matchup],
    games: int,
    runner: Runner,
    target: float | None = None,
    known: Sequence[dict[int, GameRows]] | None = None,
    on_played: Callable[[int, list[tuple[int, GameRows]]], None] | None = None,
    progress: Callable[[int], None] | None = None,
    on_look: Callable[[int], None] | None = None,
    first_pairs: int = META_FIRST_PAIRS,
) -> FieldRun:
    """Play every cell to `games` games (pairs), or with `target` in planned looks until each settles.

    `known[c]` holds cell c's games from the result store (by index): taken, not played. `on_played(c, games)`
    is told of the games each look played for cell c (to store them); `on_look(n)` of the games a look will
    play, before it plays them. A Ctrl-C keeps every finished game and stops after the look."""
    games += games % 2
    looks = planned_looks(games, first_pairs) if target is not None else [games]
    confidence = look_confidence(len(looks)) if target is not None else CONFIDENCE
    run = FieldRun([CellState() for _ in matchups], looks, confidence)
    started = time.perf_counter()
    stored = [dict(k) for k in known] if known is not None else [{} for _ in matchups]
    for number, upto in enumerate(looks, 1):
        open_cells = [c for c, state in enumerate(run.cells) if state.settled == "open"]
        if not open_cells:
            break
        items: list[tuple[Matchup, int]] = []
        keys: list[tuple[int, int]] = []
        for c in open_cells:
            state = run.cells[c]
            for index in range(state.upto, upto):
                if index in stored[c]:
                    state.games[index] = stored[c][index]
                    run.from_store += 1
                else:
                    items.append((matchups[c], index))
                    keys.append((c, index))
            state.upto, state.look = upto, number
        # pair by pair across the cells, so that an interrupted look leaves every cell with games
        order = sorted(range(len(items)), key=lambda k: (keys[k][1] // 2, keys[k][0], keys[k][1]))
        items, keys = [items[k] for k in order], [keys[k] for k in order]
        if on_look is not None:
            on_look(len(items))
        outcome = runner(items, progress) if items else Outcome()
        fresh: dict[int, list[tuple[int, GameRows]]] = {}
        for position, rows in sorted(outcome.results.items()):
            c, index = keys[position]
            run.cells[c].games[index] = rows
            fresh.setdefault(c, []).append((index, rows))
        run.played += len(outcome.results)
        for position, why in sorted(outcome.failed.items()):
            c, index = keys[position]
            run.cells[c].failed += 1
            run.failed.append({**_cell_names(matchups[c]), "game": index, "reason": why})
            run.failed[-1]["seed_path"] = ":".join(map(str, game_seed_path(matchups[c], index)))
        if on_played is not None:
            for c, played in fresh.items():
                on_played(c, played)
        for c in open_cells:
            state = run.cells[c]
            frame = pd.DataFrame([state.games[i][0] for i in sorted(state.games)]) if state.games else pd.DataFrame()
            state.interval = mean_interval_at(pair_means(frame) if len(frame) else np.zeros(0), confidence)
            state.settled = settle(state.interval, target)
        if outcome.interrupted or outcome.stopped:
            run.interrupted, run.stopped = outcome.interrupted, outcome.stopped
            break
    for state in run.cells:
        if state.settled == "open" and not (run.interrupted or run.stopped):
            state.settled = "cap" if target is not None else "all"
    run.seconds = time.perf_counter() - started
    return run


def _cell_names(m: Matchup) -> dict[str, Any]:
    return {"army_a": m.army_a, "army_b": m.army_b, "map": m.map_name, "players": m.style_a}


def field_games(matchups: Sequence[Matchup], run: FieldRun) -> pd.DataFrame:
    """Every game of the field, cell by cell in game order, with its cell number first."""
    rows = [{"cell": c, **state.games[i][0]} for c, state in enumerate(run.cells) for i in sorted(state.games)]
    return pd.DataFrame(rows)


# --- statistics ---------------------------------------------------------------------------------------------


def _se(values: np.ndarray) -> float:
    """The standard error of a mean of per-pair scores (0 for fewer than two)."""
    return float(np.std(values, ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0


def _normal(mean: float | None, error: float, **more: Any) -> dict[str, Any]:
    if mean is None:
        return {"score": None, "low": None, "high": None, **more}
    return {"score": mean, "low": max(0.0, mean - Z * error), "high": min(1.0, mean + Z * error), **more}


def long_games(games: pd.DataFrame) -> pd.DataFrame:
    """Each game twice, once from each army's side: army, opponent, map, style, its score, whether it went
    first, its starting area and the plot twists it played; with `cell` and `pair` naming the pair."""
    score_a = game_scores(games, "A").to_numpy()
    parts = []
    for side, other, score in (("a", "b", score_a), ("b", "a", 1 - score_a)):
        parts.append(
            pd.DataFrame(
                {
                    "cell": games["cell"].to_numpy(),
                    "pair": games["pair"].to_numpy(),
                    "army": games[f"army_{side}"].to_numpy(),
                    "opponent": games[f"army_{other}"].to_numpy(),
                    "map": games["map"].to_numpy(),
                    "style": games[f"players_{side}"].to_numpy(),
                    "score": score,
                    "first": (games["first"] == side.upper()).to_numpy(),
                    "area": games[f"area_{side}"].to_numpy(),
                    "cards": games.get(f"plot_twist_cards_{side}", pd.Series([""] * len(games))).fillna("").to_numpy(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def cell_table(matchups: Sequence[Matchup], run: FieldRun, games: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: its armies, map and style, games and pairs, A's score with its 95% interval (at the
    looks' level under --target-ci), how it settled, draws, tie-breaks and the first player's score."""
    rows = []
    by_cell = dict(tuple(games.groupby("cell", sort=True))) if len(games) else {}
    for c, m in enumerate(matchups):
        state = run.cells[c]
        sub = by_cell.get(c)
        row: dict[str, Any] = {
            **_cell_names(m),
            "games": 0 if sub is None else len(sub),
            "settled": state.settled,
            "look": state.look,
        }
        if sub is not None and len(sub):
            means = pair_means(sub)
            ci = mean_interval_at(means, run.confidence)
            first_scores = (sub["winner"] == sub["first"]) + 0.5 * (sub["winner"] == "draw")
            row |= {
                "pairs": ci["pairs"],
                "score": ci["score"],
                "low": ci["low"],
                "high": ci["high"],
                "half_width": ci["half_width"],
                "se": _se(means),
                "draws": float((sub["winner"] == "draw").mean()),
                "tie_breaks": float(sub["tie_break"].astype(bool).mean()),
                "first_player": float(first_scores.mean()),
            }
        rows.append(row)
    return pd.DataFrame(rows)


def score_matrix(armies: Sequence[str], cells: pd.DataFrame, columns: str = "score") -> tuple[np.ndarray, np.ndarray]:
    """The field's score matrix (row army's score against the column's; ½ on the diagonal) and its standard
    errors: each army pair's cells (maps, styles) averaged with equal weight."""
    n = len(armies)
    index = {a: i for i, a in enumerate(armies)}
    scores = np.full((n, n), 0.5)
    se = np.zeros((n, n))
    seen = np.eye(n, dtype=bool)
    done = cells.dropna(subset=[columns]) if columns in cells else cells.iloc[0:0]
    for (a, b), sub in done.groupby(["army_a", "army_b"], sort=False):
        i, j = index[a], index[b]
        mean = float(sub[columns].mean())
        err = float(np.sqrt((sub["se"] ** 2).sum()) / len(sub))
        scores[i, j], scores[j, i] = mean, 1 - mean
        se[i, j] = se[j, i] = err
        seen[i, j] = seen[j, i] = True
    if not seen.all():
        missing = [(armies[i], armies[j]) for i, j in zip(*np.nonzero(~seen), strict=True) if i < j]
        raise ClixError(
            f"no finished game of {missing[0][0]} vs {missing[0][1]}: the summary needs every army pair (the run "
            "was stopped too early; run it again, the result store keeps the games finished)"
        )
    return scores, se


def bootstrap_matrices(
    armies: Sequence[str], games: pd.DataFrame, resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """`resamples` score matrices from resampling each cell's pairs with replacement (numpy Generator seeded
    with `seed`), and the game counts per army pair."""
    n = len(armies)
    index = {a: i for i, a in enumerate(armies)}
    rng = np.random.default_rng(seed)
    sums = np.zeros((resamples, n, n))
    counts = np.zeros((n, n))
    cells_per_pair = np.zeros((n, n))
    for (_, a, b), sub in games.groupby(["cell", "army_a", "army_b"], sort=True):
        means = pair_means(sub)
        picks = rng.integers(0, len(means), size=(resamples, len(means)))
        i, j = index[a], index[b]
        sums[:, i, j] += means[picks].mean(axis=1)
        counts[i, j] += len(sub)
        counts[j, i] += len(sub)
        cells_per_pair[i, j] += 1
    matrices = np.full((resamples, n, n), 0.5)
    upper = cells_per_pair > 0
    matrices[:, upper] = sums[:, upper] / cells_per_pair[upper]
    lower = upper.T
    matrices[:, lower] = 1 - np.transpose(matrices, (0, 2, 1))[:, lower]
    return matrices, counts


def ratings(scores: np.ndarray, counts: np.ndarray, boot: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bradley-Terry ratings (Elo points, mean 0) from the score matrix weighted by games played, with the
    2.5% and 97.5% points of the same fit on the bootstrap matrices."""
    elo = fit_ratings(scores * counts, counts)
    fits = np.array([fit_ratings(b * counts, counts) for b in boot]) if len(boot) else np.array([elo])
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    return elo, low, high


MIN_GROUP = 20
"""Games each side of a comparison needs (played vs not, first vs second): with fewer, a normal interval from
their spread means nothing (two wins have no spread)."""


def _difference(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """x's mean − y's mean with a normal 95% interval (Welch's standard error; games as independent); none when
    either side has fewer than MIN_GROUP games."""
    if len(x) < MIN_GROUP or len(y) < MIN_GROUP:
        return {"difference": None, "low": None, "high": None}
    d = float(x.mean() - y.mean())
    se = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    return {"difference": d, "low": max(-1.0, d - Z * se), "high": min(1.0, d + Z * se)}


def _games_interval(values: np.ndarray) -> dict[str, Any]:
    """A mean over games with its 95% t interval (games as independent)."""
    result = mean_interval(values)
    result["games"] = result.pop("pairs")
    return result


def first_player_by_army(long: pd.DataFrame, armies: Sequence[str]) -> list[dict[str, Any]]:
    """Each army's score going first and going second over all its games, and the difference."""
    rows = []
    for army in armies:
        sub = long[long["army"] == army]
        first = sub.loc[sub["first"], "score"].to_numpy(float)
        second = sub.loc[~sub["first"], "score"].to_numpy(float)
        rows.append(
            {
                "army": army,
                "first": _games_interval(first),
                "second": _games_interval(second),
                "effect": _difference(first, second),
            }
        )
    return rows


def map_balance(games: pd.DataFrame, long: pd.DataFrame, armies: Sequence[str], cells: pd.DataFrame) -> dict[str, Any]:
    """By map: the first player's score (pairs as the unit), draws, each army's field score on the map, and
    the score of the army that started in each starting area."""
    maps = []
    for map_name, sub in games.groupby("map", sort=True):
        first_scores = (sub["winner"] == sub["first"]).astype(float) + 0.5 * (sub["winner"] == "draw")
        per_pair = first_scores.groupby([sub["cell"], sub["pair"]], sort=True).mean().to_numpy(float)
        on_map = cells[cells["map"] == map_name]
        try:
            scores, se = score_matrix(armies, on_map)
            field_scores = field_score_rows(armies, scores, se)
        except ClixError:
            field_scores = []
        areas = []
        mine = long[long["map"] == map_name]
        for area, part in mine.groupby("area", sort=True):
            areas.append({"area": area, **_games_interval(part["score"].to_numpy(float))})
        maps.append(
            {
                "map": map_name,
                "games": len(sub),
                "first_player": mean_interval(per_pair),
                "draws": float((sub["winner"] == "draw").mean()),
                "field": field_scores,
                "areas": areas,
            }
        )
    return {"maps": maps}


def field_score_rows(armies: Sequence[str], scores: np.ndarray, se: np.ndarray) -> list[dict[str, Any]]:
    """Each army's score against the field (the mean over the other armies, equal weights) with its interval."""
    n = len(armies)
    rows = []
    for i, army in enumerate(armies):
        others = [j for j in range(n) if j != i]
        mean = float(scores[i, others].mean())
        err = float(np.sqrt((se[i, others] ** 2).sum()) / len(others))
        rows.append({"army": army, **_normal(mean, err, se=err)})
    return rows


def _cards(text: str) -> list[tuple[str, str]]:
    """A game's plot_twist_cards cell, "Watch Out!@slaying; Cold Spot@preview", as (card, window) pairs."""
    found = []
    for part in str(text).split("; "):
        card, _, window = part.rpartition("@")
        if card:
            found.append((card, window))
    return found


def plot_twist_balance(long: pd.DataFrame, roster: Roster, armies: Sequence[str]) -> dict[str, Any]:
    """For every plot-twist card in the field's crypts, per army that holds it: how often it is played, in
    which windows, and the army's score in games where it was played against games where it was held or not
    drawn (an observed association: a card is played when the game gives it a chance)."""
    rows: list[dict[str, Any]] = []
    cards_of = {a: list(dict.fromkeys(roster.armies[a].crypt)) for a in armies}
    for army in armies:
        sub = long[long["army"] == army]
        if sub.empty:
            continue
        parsed = [_cards(t) for t in sub["cards"]]
        score = sub["score"].to_numpy(float)
        for card in cards_of[army]:
            plays = np.array([sum(1 for c, _ in p if c == card) for p in parsed])
            windows: dict[str, int] = {}
            for p in parsed:
                for c, w in p:
                    if c == card:
                        windows[w] = windows.get(w, 0) + 1
            played = plays > 0
            rows.append(
                {
                    "card": card,
                    "army": army,
                    "kind": getattr(roster.plot_twists.get(card), "kind", None),
                    "games": len(sub),
                    "played_share": float(played.mean()),
                    "plays_per_game": float(plays.mean()),
                    "windows": dict(sorted(windows.items())),
                    "played": _games_interval(score[played]),
                    "not_played": _games_interval(score[~played]),
                    "effect": _difference(score[played], score[~played]),
                }
            )
    cards: list[dict[str, Any]] = []
    for card in sorted({r["card"] for r in rows}):
        mine = [r for r in rows if r["card"] == card]
        games_total = sum(r["games"] for r in mine)
        pooled: dict[str, int] = {}
        for r in mine:
            for w, n in r["windows"].items():
                pooled[w] = pooled.get(w, 0) + n
        effects = [r for r in mine if r["effect"]["difference"] is not None]
        # the within-army differences, weighted by games: army strength cancels out of the comparison
        weight = sum(r["games"] for r in effects)
        effect: dict[str, float] | None = None
        if weight:
            d = sum(r["games"] * r["effect"]["difference"] for r in effects) / weight
            se = math.sqrt(
                sum(
                    (r["games"] / weight) ** 2 * ((r["effect"]["high"] - r["effect"]["low"]) / (2 * Z)) ** 2
                    for r in effects
                )
            )
            effect = {"difference": d, "low": max(-1.0, d - Z * se), "high": min(1.0, d + Z * se)}
        cards.append(
            {
                "card": card,
                "armies": [r["army"] for r in mine],
                "games": games_total,
                "played_share": sum(r["played_share"] * r["games"] for r in mine) / games_total,
                "plays_per_game": sum(r["plays_per_game"] * r["games"] for r in mine) / games_total,
                "windows": dict(sorted(pooled.items())),
                "effect": effect or {"difference": None, "low": None, "high": None},
            }
        )
    return {"cards": cards, "by_army": rows}


def style_range(
    long: pd.DataFrame, cells: pd.DataFrame, armies: Sequence[str], styles: Sequence[str]
) -> list[dict[str, Any]]:
    """With several styles: each army's field score under each style, and the range (max − min)."""
    if len(styles) < 2:
        return []
    per_style = {}
    for style in styles:
        try:
            scores, se = score_matrix(armies, cells[cells["players"] == style])
        except ClixError:
            continue
        per_style[style] = {r["army"]: r for r in field_score_rows(armies, scores, se)}
    rows = []
    for army in armies:
        values = {s: per_style[s][army] for s in per_style}
        points = [v["score"] for v in values.values()]
        rows.append({"army": army, "by_style": values, "range": (max(points) - min(points)) if points else None})
    return rows


def meta_summary(
    armies: Sequence[str],
    styles: Sequence[str],
    matchups: Sequence[Matchup],
    run: FieldRun,
    games: pd.DataFrame,
    roster: Roster,
    seed: int,
    resamples: int = RESAMPLES,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """Every summary of the meta, JSON-ready, and the cells table."""
    cells = cell_table(matchups, run, games)
    scores, se = score_matrix(armies, cells)
    boot, counts = bootstrap_matrices(armies, games, resamples, seed)
    elo, elo_low, elo_high = ratings(scores, counts, boot)
    equilibrium = nash.equilibrium(scores, boot)
    field_rows = field_score_rows(armies, scores, se)
    long = long_games(games)
    for i, row in enumerate(field_rows):
        row |= {
            "rating": float(elo[i]),
            "rating_low": float(elo_low[i]),
            "rating_high": float(elo_high[i]),
            "nash_weight": equilibrium["weights"][i],
            "support_frequency": equilibrium.get("support_frequency", [None] * len(armies))[i],
            "against_mixture": equilibrium["against_mixture"][i],
            "games": int((long["army"] == armies[i]).sum()),
        }
    matrix = {
        a: {
            b: {"score": float(scores[i, j]), **_normal(float(scores[i, j]), float(se[i, j]))}
            for j, b in enumerate(armies)
            if j != i
        }
        for i, a in enumerate(armies)
    }
    outliers = [
        {
            "army": r["army"],
            "score": r["score"],
            "low": r["low"],
            "high": r["high"],
            "why": "above 60%" if r["low"] > OUTLIER_HIGH else "below 40%",
        }
        for r in field_rows
        if r["low"] > OUTLIER_HIGH or r["high"] < OUTLIER_LOW
    ]
    settled = cells["settled"].value_counts().to_dict()
    summary = {
        "armies": list(armies),
        "styles": list(styles),
        "matrix": matrix,
        "scores": scores.round(6).tolist(),
        "field": field_rows,
        "nash": {
            "support": [{"army": armies[i], "weight": w} for i, w in enumerate(equilibrium["weights"]) if w > 0],
            **equilibrium,
        },
        "dominated": [{"army": armies[i], "by": armies[k]} for i, k in nash.dominated(scores)],
        "outliers": outliers,
        "first_player": {
            "overall": _games_interval(
                ((games["winner"] == games["first"]) + 0.5 * (games["winner"] == "draw")).to_numpy(float)
            ),
            "by_army": first_player_by_army(long, armies),
        },
        "draws": {
            "share": float((games["winner"] == "draw").mean()),
            "tie_break_share": float(games["tie_break"].astype(bool).mean()),
        },
        "maps": map_balance(games, long, armies, cells)["maps"],
        "plot_twists": plot_twist_balance(long, roster, armies),
        "styles_range": style_range(long, cells, armies, styles),
        "cells_settled": {k: int(v) for k, v in settled.items()},
    }
    return summary, cells


def field_document(summary: dict[str, Any], command: str, budget: int | None, roster: Roster) -> dict[str, Any]:
    """field.json: the Nash mixture's support as a field `clix build` can read (issue 19)."""
    total = budget
    if total is None:
        totals = {roster.armies[s["army"]].build_total for s in summary["nash"]["support"]}
        total = totals.pop() if len(totals) == 1 else None
    return {
        "source": command,
        "budget": total,
        "field": [{"army": s["army"], "weight": round(float(s["weight"]), 6)} for s in summary["nash"]["support"]],
    }


# --- the command ---------------------------------------------------------------------------------------------


@dataclass
class MetaOptions:
    """What `clix meta` was asked (besides the field)."""

    games: int = 200
    seed: int = 0
    jobs: int | None = None
    turns: int = 15
    ties: str = "break"
    target_ci: float | None = None
    budget: int | None = None
    resamples: int = RESAMPLES
    stop_on_error: bool = False
    pdf: bool = False
    store: Path | None = None
    fresh: bool = False
    backend: str = "local"
    scheduler: str | None = None


class _Progress:
    """A progress bar whose total grows look by look (under --target-ci, cells settle as the run goes)."""

    def __init__(self, console: Console, quiet: bool) -> None:
        self.console, self.quiet = console, quiet
        self.progress: Any = None
        self.task: Any = None
        self.total = 0
        self.started = time.perf_counter()

    @contextmanager
    def shown(self, description: str) -> Iterator[_Progress]:
        if self.quiet:
            yield self
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=self.console, transient=True) as progress:
            self.progress = progress
            self.task = progress.add_task(description, total=0)
            yield self

    def look(self, games: int) -> None:
        self.total += games
        if self.progress is not None:
            self.progress.update(self.task, total=self.total)

    def advance(self, games: int) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, games)


def run_meta(
    roster: Roster,
    library: Path | tuple[Path, ...],
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    *,
    out: Path | Target,
    as_json: bool,
    console: Console,
) -> int:
    """Play the meta, print its summary (or JSON) and write its outputs; return the exit code (as `run_duel`'s)."""
    if options.ties not in ("break", "draw"):
        raise ClixError(f"--ties takes 'break' or 'draw' (got {options.ties!r})")
    if options.target_ci is not None and not 0 < options.target_ci < 0.5:
        raise ClixError(
            f"--target-ci is a half-width between 0 and 0.5, like 0.03 for ±3 points (got {options.target_ci})"
        )
    matchups = field_cells(library, armies, maps, styles, options.turns, options.ties)
    if options.pdf:
        from clix.analyzer.report import check_pdf

        check_pdf()
    runner = _runner(roster, options)
    keeper = _MetaStore.open(options.store, roster, matchups, options) if options.store is not None else None
    with claim_output(out) as folder:
        bar = _Progress(console, as_json)
        try:
            with bar.shown(f"meta of {len(armies)} armies, {len(matchups)} cells"):
                run = play_field(
                    matchups,
                    options.games,
                    runner,
                    options.target_ci,
                    known=keeper.known if keeper else None,
                    on_played=keeper.save if keeper else None,
                    progress=bar.advance,
                    on_look=bar.look,
                )
        finally:
            close = getattr(runner, "close", None)
            if close is not None:
                close()
        if keeper is not None and run.interrupted and run.played:
            report_line(
                f"the finished games are kept in the store {options.store}: the same command plays only the rest"
            )
        games = field_games(matchups, run)
        ended_early(len(games), "games", run.interrupted, run.stopped, len(run.failed))
        if games.empty:
            raise ClixError("no game finished before the run was interrupted; nothing to report")
        summary, cells = meta_summary(armies, styles, matchups, run, games, roster, options.seed, options.resamples)
        settings = _settings(armies, maps, styles, options, run, len(matchups), library)
        field_doc = field_document(summary, settings["command"], options.budget, roster)
        with folder.staged() as staging:
            written = write_meta(staging, summary, cells, games, settings, field_doc, pdf=options.pdf)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        payload = {"settings": settings, **summary, "outputs": {k: str(v) for k, v in written.items()}}
        sys.stdout.write(json.dumps(payload, default=str) + "\n")
    else:
        for line in meta_lines(summary, settings):
            console.print(line, markup=False)
        console.print(f"wrote {', '.join(str(p) for p in written.values())}", markup=False)
    return run_exit_code(run.interrupted, bool(run.failed), run.stopped)


def _runner(roster: Roster, options: MetaOptions) -> Runner:
    if options.backend == "local":
        if options.scheduler is not None:
            raise ClixError("--scheduler: only with --backend dask (the local backend plays on this machine)")
        return local_runner(options.seed, options.jobs or os.cpu_count() or 1, stop_on_error=options.stop_on_error)
    if options.backend == "dask":
        from clix.analyzer.cluster import dask_runner

        if not options.scheduler:
            raise ClixError("--backend dask: give the cluster's scheduler, --scheduler tcp://HOST:8786")
        return dask_runner(options.scheduler, roster, options.seed, stop_on_error=options.stop_on_error)
    raise ClixError(f"--backend takes local or dask (got {options.backend!r})")


def _settings(
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    options: MetaOptions,
    run: FieldRun,
    cells: int,
    library: Path | tuple[Path, ...],
) -> dict[str, Any]:
    players = "sweep" if len(styles) > 1 and list(styles) == list(STYLES) else ",".join(styles)
    command = (  # the field by its army ids: the same cells even after the library gains an army of that budget
        f"clix meta {' '.join(armies)} --maps {','.join(maps)} --players {players} --games {options.games} "
        f"--seed {options.seed} --turns {options.turns}"
        + (" --ties draw" if options.ties == "draw" else "")
        + (f" --target-ci {options.target_ci}" if options.target_ci is not None else "")
    )
    return {
        "armies": list(armies),
        "maps": list(maps),
        "players": list(styles),
        "budget": options.budget,
        "cells": cells,
        "games_cap": options.games + options.games % 2,
        "target_ci": options.target_ci,
        "looks": run.looks,
        "look_confidence": run.confidence,
        "games": sum(len(s.games) for s in run.cells),
        "played": run.played,
        "from_store": run.from_store,
        "seed": options.seed,
        "turns": options.turns,
        "ties": options.ties,
        "resamples": options.resamples,
        "ruleset": RULESET_VERSION,
        "rosters": [str(p) for p in ((library,) if isinstance(library, Path) else library)],
        "backend": options.backend,
        "scheduler": options.scheduler,
        "jobs": options.jobs or os.cpu_count(),
        "seconds": round(run.seconds, 2),
        "games_per_second": round(run.played / max(run.seconds, 1e-9), 2) if run.played else None,
        "engine": compiled.status,
        "store": None if options.store is None else str(options.store),
        "interrupted": run.interrupted,
        "stopped_on_error": run.stopped,
        "failed_games": run.failed,
        "command": command,
    }


class _MetaStore:
    """The meta's use of the result store: each cell's games (keyed as the duel keys them) read before the run
    and the games each look plays written after it."""

    def __init__(self, store: Any, keys: list[Any], known: list[dict[int, GameRows]]) -> None:
        self.store, self.keys, self.known = store, keys, known

    @classmethod
    def open(cls, path: Path, roster: Roster, matchups: Sequence[Matchup], options: MetaOptions) -> _MetaStore:
        from clix.analyzer.store import Store, game_key

        store = Store.open(path)
        keys = [game_key(roster, m, options.seed) for m in matchups]
        cap = options.games + options.games % 2
        known = [{} if options.fresh else store.load(k, below=cap) for k in keys]
        return cls(store, keys, known)

    def save(self, cell: int, games: list[tuple[int, GameRows]]) -> None:
        import duckdb
        from clix.analyzer.store import StoreBusy

        try:
            self.store.save(self.keys[cell], games)
        except (duckdb.Error, StoreBusy, ClixError, OSError) as exc:
            report_line(
                f"clix: warning: {len(games)} games were not written to the store {self.store.path} ({exc}); "
                "the outputs have them, a later run plays them again"
            )


# --- outputs -------------------------------------------------------------------------------------------------


def _pct(s: dict[str, Any] | None) -> str:
    if not s or s.get("score") is None:
        return "–"
    return f"{100 * s['score']:.0f}% [{100 * s['low']:.0f}-{100 * s['high']:.0f}]"


def _points(d: dict[str, Any] | None) -> str:
    if not d or d.get("difference") is None:
        return "–"
    return f"{100 * d['difference']:+.0f} [{100 * d['low']:+.0f}, {100 * d['high']:+.0f}]"


def meta_lines(summary: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    """The console summary: the matrix, the field table (score, rating, Nash weight), outliers, dominated
    armies, first player, draws, maps, the plot twists that move scores most, and the style range."""
    armies = summary["armies"]
    number = {a: str(i + 1) for i, a in enumerate(armies)}
    settled = summary["cells_settled"]
    how = ", ".join(f"{n} {k}" for k, n in sorted(settled.items()))
    lines = [
        f"meta of {len(armies)} armies on {', '.join(settings['maps'])}, players {', '.join(settings['players'])}: "
        f"{settings['cells']} cells, {settings['games']} games ({settings['played']} played, "
        f"{settings['from_store']} from the store), seed {settings['seed']}, {settings['seconds']} s, engine {settings['engine']}",
        f"  cells: {how}"
        + (
            f" (target ±{100 * settings['target_ci']:.1f} points, up to {settings['games_cap']} games a cell)"
            if settings["target_ci"]
            else ""
        ),
        "  score of the row army against the column army (wins + ½ draws; 95% intervals in cells.csv and the report):",
    ]
    matrix = [["", *[number[a] for a in armies]]]
    for a in armies:
        matrix.append(
            [f"{number[a]} {a}", *("·" if b == a else f"{100 * summary['matrix'][a][b]['score']:.0f}" for b in armies)]
        )
    lines += ["  " + line for line in text_table(matrix, 1)]
    head = ["army", "vs field [95%]", "rating [95%]", "Nash", "in support", "first-second"]
    first = {r["army"]: r for r in summary["first_player"]["by_army"]}
    body = [
        [
            f"{number[r['army']]} {r['army']}",
            _pct(r),
            f"{r['rating']:+.0f} [{r['rating_low']:+.0f}, {r['rating_high']:+.0f}]",
            f"{r['nash_weight']:.2f}",
            "–" if r["support_frequency"] is None else f"{100 * r['support_frequency']:.0f}%",
            _points(first[r["army"]]["effect"]),
        ]
        for r in sorted(summary["field"], key=lambda r: -r["rating"])
    ]
    lines += ["  " + line for line in text_table([head, *body])]
    support = ", ".join(f"{s['army']} {s['weight']:.2f}" for s in summary["nash"]["support"])
    lines.append(
        f"  Nash mixture of the matchup game: {support} (in support: share of {settings['resamples']} bootstrap resamples)"
    )
    if summary["outliers"]:
        lines.append(
            "  outliers (field score interval wholly above 60% or below 40%): "
            + ", ".join(f"{o['army']} {_pct(o)}" for o in summary["outliers"])
        )
    else:
        lines.append("  outliers: none (no field score interval wholly above 60% or below 40%)")
    if summary["dominated"]:
        lines.append("  dominated: " + ", ".join(f"{d['army']} (by {d['by']})" for d in summary["dominated"]))
    fp = summary["first_player"]["overall"]
    lines.append(
        f"  first player scores {_pct(fp)}; draws {100 * summary['draws']['share']:.1f}%, decided by the tie-break "
        f"{100 * summary['draws']['tie_break_share']:.1f}%"
    )
    for m in summary["maps"]:
        areas = ", ".join(f"area {a['area']} {_pct(a)}" for a in m["areas"])
        lines.append(f"  map {m['map']}: first player {_pct(m['first_player'])}, {m['games']} games; {areas}")
    cards = [c for c in summary["plot_twists"]["cards"] if c["effect"]["difference"] is not None]
    cards.sort(key=lambda c: -abs(c["effect"]["difference"]))
    if cards:
        lines.append("  plot twists moving scores most (played vs held or not drawn, within army; all in the report):")
        for c in cards[:5]:
            windows = " ".join(f"{w}:{n}" for w, n in c["windows"].items()) or "never played"
            lines.append(
                f"    {c['card']}: played in {100 * c['played_share']:.0f}% of games ({windows}), "
                f"score {_points(c['effect'])} points"
            )
    for r in summary["styles_range"]:
        by = ", ".join(f"{s} {_pct(v)}" for s, v in r["by_style"].items())
        lines.append(f"  {r['army']} by style: {by}; range {100 * (r['range'] or 0):.0f} points")
    if settings["interrupted"]:
        lines.append("  the run was interrupted: these results cover only the games finished")
    return lines


def write_meta(
    out: Path,
    summary: dict[str, Any],
    cells: pd.DataFrame,
    games: pd.DataFrame,
    settings: dict[str, Any],
    field_doc: dict[str, Any],
    pdf: bool = False,
) -> dict[str, Path]:
    """Write summary.json, field.json, cells.csv/.parquet, games.csv/.parquet, heatmap.png and meta.html (and
    meta.pdf with `pdf`) to `out`; return the paths."""
    from clix.analyzer.metaplots import heatmap_png, nash_png
    from clix.analyzer.report import TEMPLATES, _data_uri, write_pdf
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "summary": out / "summary.json",
        "field": out / "field.json",
        "cells_csv": out / "cells.csv",
        "cells_parquet": out / "cells.parquet",
        "games_csv": out / "games.csv",
        "games_parquet": out / "games.parquet",
    }
    with writing(written["summary"]):
        written["summary"].write_text(
            json.dumps({"settings": settings, **summary}, indent=1, default=str), encoding="utf-8"
        )
    with writing(written["field"]):
        written["field"].write_text(json.dumps(field_doc, indent=1) + "\n", encoding="utf-8")
    with writing(written["cells_csv"]):
        cells.to_csv(written["cells_csv"], index=False)
    with writing(written["cells_parquet"]):
        cells.to_parquet(written["cells_parquet"], index=False)
    with writing(written["games_csv"]):
        games.to_csv(written["games_csv"], index=False)
    with writing(written["games_parquet"]):
        games.to_parquet(written["games_parquet"], index=False)
    written["heatmap"] = heatmap_png(summary, out / "heatmap.png")
    written["nash_plot"] = nash_png(summary, out / "nash.png")
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("meta.html.j2").render(
        summary=summary,
        settings=settings,
        pct=_pct,
        points=_points,
        cells=_records(cells),
        heatmap=_data_uri(written["heatmap"]),
        nash_plot=_data_uri(written["nash_plot"]),
    )
    written["report"] = out / "meta.html"
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "meta.pdf")
    return written
