"""`clix value`: what each figure and plot-twist card is worth, in points, from a designed experiment.

Many random legal armies of one budget (`engine.armybuilder.random_army`, over the library or a pool of
figures) each play a few opponents among them, in seat-swapped pairs on every map and player style asked. An
additive model of army strength is fitted to the games: a regularized logistic (Bradley-Terry) model,

    logit P(A beats B) = s(A) - s(B) + seat,   s(army) = sum over figures f of n_f * beta_f + sum over cards c of gamma_c,
    beta_f = theta * cost_f / 100 + d_f,

with a normal prior on each d_f and gamma_c (each figure is fairly costed, each card worth nothing, until the
games say otherwise). Every crypt holds six cards (more only with figures that grant them), so the games tell
cards apart but not their common worth: a card's value is relative to the average card, which the prior
centres on 0. Logits become points by one number, lambda, set so that one point of cost is worth one
point on average over the figures the armies fielded (weighted by how often they did): value_f = beta_f /
lambda, and the cost-curve residual is value_f - cost_f. Intervals are the 2.5% and 97.5% points of a
bootstrap over the seat-swapped pairs (the whole fit, lambda included, is redone on each resample).

The swap test (`--swap FIGURE --in ARMY`) is the scale-factor view of one figure in one army: the army and
variants with the figure replaced by equal points of alternatives play the same games (common random numbers)
against a field, and the score change is reported with a paired interval.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.errors import ClixError
from clix.analyzer.experiment import Cell, Played, given_matchup, legal_army, play_cells, with_armies
from clix.analyzer.runner import PLAYER_STYLES, ended_early, run_exit_code
from clix.analyzer.scoring import game_scores, mean_interval
from clix.analyzer.store import Store
from clix.engine import RULESET_VERSION, compiled
from clix.engine.armybuilder import random_army
from clix.engine.roster.loader import Roster
from clix.engine.roster.models import Army, Figure
from clix.engine.roster.problems import did_you_mean
from rich.console import Console
from scipy.optimize import minimize

FIGURE_PRIOR = 1.0
"""Prior sd (logits) of a figure's departure from the cost line: a figure 2 sd off is far off."""
CARD_PRIOR = 0.5
"""Prior sd (logits) of a plot-twist card's worth."""
FLAT_PRIOR = 100.0
"""Prior sd of the cost slope and the seat effect: flat in practice, there only to keep the fit defined."""
RESAMPLES = 200


# --- the design -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Design:
    """What `clix value` plays: `armies` random armies of `budget`, each against `opponents` others, `games`
    games (whole seat-swapped pairs) per matchup on every map and player style."""

    budget: int
    armies: int = 300
    opponents: int = 6
    games: int = 4
    maps: tuple[str, ...] = ("graveyard",)
    styles: tuple[str, ...] = ("tuned",)
    turns: int = 15
    seed: int = 0
    pool: tuple[str, ...] = ()
    """Figures the armies are drawn from (empty: every legal figure of the library)."""


def pool_roster(roster: Roster, pool: Sequence[str], budget: int) -> Roster:
    """The roster whose figures are the pool's (all legal ones when the pool is empty); a ClixError names an
    unknown figure or a pool with no figure that fits the budget."""
    for name in pool:
        if name not in roster.figures:
            raise ClixError(
                "--pool: " + did_you_mean("figure", name, roster.figures, "`clix roster list` shows every figure")
            )
    figures = {k: f for k, f in roster.figures.items() if (not pool or k in pool) and f.rank != "demo"}
    if not any(f.points <= budget for f in figures.values()):
        raise ClixError(f"--budget {budget}: no figure of the pool costs {budget} points or less; raise --budget")
    return Roster(
        figures=figures,
        plot_twists=roster.plot_twists,
        victims=roster.victims,
        maps=roster.maps,
        armies=roster.armies,
        sources=roster.sources,
    )


def random_armies(roster: Roster, design: Design) -> dict[str, Army]:
    """The design's random legal armies, named random-0001 ..., drawn from a generator seeded by the master
    seed (the same design gives the same armies)."""
    view = pool_roster(roster, design.pool, design.budget)
    rng = np.random.default_rng([design.seed, design.budget, 1])
    width = len(str(design.armies))
    armies = {}
    for i in range(design.armies):
        army = random_army(view, design.budget, rng)
        name = f"random-{i + 1:0{width}d}"
        armies[name] = army.model_copy(update={"name": name, "provenance": "random army (clix value)"})
    return armies


def pairings(count: int, opponents: int, seed: int) -> list[tuple[int, int]]:
    """Each of `count` armies against `opponents` others (rounded up to even): a shuffled ring, every army
    meeting the ones 1 .. opponents/2 places further along it, so no pair meets twice."""
    half = max(1, (opponents + 1) // 2)
    if count < 2 * half + 1:
        raise ClixError(
            f"--armies {count}: each army meets {2 * half} others, so at least {2 * half + 1} armies are needed"
        )
    order = np.random.default_rng([seed, 2]).permutation(count)
    return [(int(order[t]), int(order[(t + d) % count])) for d in range(1, half + 1) for t in range(count)]


def design_cells(
    library: Path | tuple[Path, ...], armies: dict[str, Army], design: Design
) -> tuple[list[Cell], list[dict[str, str]]]:
    """The cells of the design (every pairing on every map and style), with each cell's labels."""
    names = list(armies)
    cells, labels = [], []
    for i, j in pairings(len(names), design.opponents, design.seed):
        for map_name in design.maps:
            for style in design.styles:
                matchup = given_matchup(library, (names[i], names[j]), armies, map_name, (style, style), design.turns)
                cells.append(Cell(matchup, 0, design.games))
                labels.append({"map": map_name, "style": style})
    return cells, labels


# --- the model ------------------------------------------------------------------------------------------


@dataclass
class Features:
    """Each army's figure counts and card indicators, and what the columns are."""

    names: list[str]
    figures: list[str]
    cards: list[str]
    costs: np.ndarray
    counts: np.ndarray
    """armies x figures: copies of each figure."""
    crypts: np.ndarray
    """armies x cards: 1 where the card is in the army's crypt."""

    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}


def army_features(roster: Roster, armies: dict[str, Army]) -> Features:
    """The features of `armies`: every figure one of them fields, every card one holds."""
    figures = sorted(
        {e.figure for a in armies.values() for e in a.figures}, key=lambda f: (roster.figures[f].points, f)
    )
    cards = sorted({c for a in armies.values() for c in a.crypt})
    fi, ci = {f: i for i, f in enumerate(figures)}, {c: i for i, c in enumerate(cards)}
    counts = np.zeros((len(armies), len(figures)))
    crypts = np.zeros((len(armies), len(cards)))
    for row, army in enumerate(armies.values()):
        for entry in army.figures:
            counts[row, fi[entry.figure]] += 1
        for card in army.crypt:
            crypts[row, ci[card]] = 1
    costs = np.array([roster.figures[f].points for f in figures], dtype=float)
    return Features(list(armies), figures, cards, costs, counts, crypts)


@dataclass
class GameTable:
    """The games as the model sees them: both armies' rows in `Features`, A's seat, A's score, the pair unit."""

    a: np.ndarray
    b: np.ndarray
    seat: np.ndarray
    """+1 when A sat in seat 1, -1 otherwise."""
    score: np.ndarray
    unit: np.ndarray
    """The seat-swapped pair each game belongs to (the bootstrap's unit)."""
    style: np.ndarray


def game_table(games: pd.DataFrame, features: Features) -> GameTable:
    """`games` (rows with army_a, army_b, seat_a, winner, cell, pair, style) as the model's arrays."""
    index = features.index()
    units = games["cell"].astype(np.int64) * 1_000_000 + games["pair"].astype(np.int64)
    return GameTable(
        a=games["army_a"].map(index).to_numpy(int),
        b=games["army_b"].map(index).to_numpy(int),
        seat=np.where(games["seat_a"].to_numpy() == 1, 1.0, -1.0),
        score=game_scores(games, "A").to_numpy(float),
        unit=pd.factorize(units)[0],
        style=games["players_a"].to_numpy(str),
    )


def _design_matrix(features: Features, table: GameTable) -> np.ndarray:
    """Columns: cost/100 (the slope), each figure, each card, the seat."""
    counts = features.counts[table.a] - features.counts[table.b]
    crypts = features.crypts[table.a] - features.crypts[table.b]
    slope = counts @ features.costs / 100
    return np.column_stack([slope, counts, crypts, table.seat])


def _precision(features: Features) -> np.ndarray:
    return np.concatenate(
        [
            [FLAT_PRIOR**-2],
            np.full(len(features.figures), FIGURE_PRIOR**-2),
            np.full(len(features.cards), CARD_PRIOR**-2),
            [FLAT_PRIOR**-2],
        ]
    )


def fit_logistic(
    x: np.ndarray, y: np.ndarray, weight: np.ndarray, precision: np.ndarray, start: np.ndarray
) -> np.ndarray:
    """The penalized maximum-likelihood weights (a normal prior of precision `precision` on each), by
    scipy's trust-region Newton method; `y` may hold ½ for a draw."""

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        eta = x @ w
        loss = float(np.sum(weight * (np.logaddexp(0.0, eta) - y * eta)) + 0.5 * np.sum(precision * w * w))
        p = 1.0 / (1.0 + np.exp(-eta))
        return loss, x.T @ (weight * (p - y)) + precision * w

    def hessian(w: np.ndarray) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        return (x * (weight * p * (1 - p))[:, None]).T @ x + np.diag(precision)

    found = minimize(objective, start, jac=True, hess=hessian, method="trust-exact", options={"gtol": 1e-8})
    return np.asarray(found.x)


def _points(w: np.ndarray, features: Features, used: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Figure and card values in points and lambda (logits per point), from fitted weights."""
    nf = len(features.figures)
    beta = w[0] * features.costs / 100 + w[1 : 1 + nf]
    gamma = w[1 + nf : 1 + nf + len(features.cards)]
    lam = float(np.sum(used * beta) / np.sum(used * features.costs))
    if lam <= 0:
        return np.full(nf, np.nan), np.full(len(gamma), np.nan), lam
    return beta / lam, gamma / lam, lam


@dataclass
class Fit:
    """A fitted value model: point estimates and bootstrap draws of every value in points."""

    features: Features
    weights: np.ndarray
    lam: float
    figure_values: np.ndarray
    card_values: np.ndarray
    figure_draws: np.ndarray
    card_draws: np.ndarray
    lam_draws: np.ndarray
    games: int
    pairs: int


def fit_values(features: Features, table: GameTable, resamples: int = RESAMPLES, seed: int = 0) -> Fit:
    """Fit the value model to the games and bootstrap it over the seat-swapped pairs."""
    x = _design_matrix(features, table)
    precision = _precision(features)
    used = features.counts.sum(axis=0)
    ones = np.ones(len(table.score))
    w = fit_logistic(x, table.score, ones, precision, np.zeros(x.shape[1]))
    values, cards, lam = _points(w, features, used)
    if not np.isfinite(lam) or lam <= 0:
        raise ClixError(
            "the games show no link between points and winning (armies of more points do not win more); "
            "play more games (--armies, --games) or check the library"
        )
    rng = np.random.default_rng([seed, 3])
    units = int(table.unit.max()) + 1 if len(table.unit) else 0
    fdraws = np.full((resamples, len(values)), np.nan)
    cdraws = np.full((resamples, len(cards)), np.nan)
    ldraws = np.full(resamples, np.nan)
    for r in range(resamples):
        picked = np.bincount(rng.integers(0, units, units), minlength=units)
        wr = fit_logistic(x, table.score, picked[table.unit].astype(float), precision, w)
        fdraws[r], cdraws[r], ldraws[r] = _points(wr, features, used)
    return Fit(features, w, lam, values, cards, fdraws, cdraws, ldraws, len(table.score), units)


def _interval(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(invalid="ignore"):
        finite = np.where(np.isfinite(draws), draws, np.nan)
        low, high = np.nanpercentile(finite, [2.5, 97.5], axis=0) if len(draws) else (np.nan, np.nan)
    return np.asarray(low), np.asarray(high)


def verdict(low: float, high: float) -> str:
    """A figure by its residual's interval: under-costed (worth more than it costs), over-costed, or fair."""
    if low > 0:
        return "under-costed"
    if high < 0:
        return "over-costed"
    return "fair (within the data)"


def value_rows(roster: Roster, fit: Fit, budget: int, pool: Sequence[str]) -> list[dict[str, Any]]:
    """One row per figure of the library (those the armies never fielded say why) and one per plot twist."""
    f = fit.features
    low, high = _interval(fit.figure_draws)
    residual = fit.figure_draws - f.costs
    rlow, rhigh = _interval(residual)
    clow, chigh = _interval(fit.card_draws)
    used = f.counts.sum(axis=0)
    at = {name: i for i, name in enumerate(f.figures)}
    rows: list[dict[str, Any]] = []
    for fid, figure in sorted(roster.figures.items(), key=lambda kv: (kv[1].points, kv[0])):
        row: dict[str, Any] = {"kind": "figure", "name": fid, "cost": figure.points}
        i = at.get(fid)
        if i is None:
            if figure.rank == "demo":
                why = "a demo figure, not legal in an army"
            elif figure.points > budget:
                why = f"costs more than --budget {budget}"
            elif pool and fid not in pool:
                why = "not in --pool"
            else:
                why = "no random army drew it"
            rows.append(
                row
                | {
                    "fielded": 0,
                    "value": None,
                    "low": None,
                    "high": None,
                    "residual": None,
                    "residual_low": None,
                    "residual_high": None,
                    "verdict": f"not measured: {why}",
                }
            )
            continue
        value = float(fit.figure_values[i])
        rows.append(
            row
            | {
                "fielded": int(used[i]),
                "value": value,
                "low": float(low[i]),
                "high": float(high[i]),
                "residual": value - figure.points,
                "residual_low": float(rlow[i]),
                "residual_high": float(rhigh[i]),
                "verdict": verdict(float(rlow[i]), float(rhigh[i])),
            }
        )
    held = f.crypts.sum(axis=0)
    for i, card in enumerate(f.cards):
        value = float(fit.card_values[i])
        rows.append(
            {
                "kind": "plot twist",
                "name": card,
                "cost": 0,
                "fielded": int(held[i]),
                "value": value,
                "low": float(clow[i]),
                "high": float(chigh[i]),
                "residual": value,
                "residual_low": float(clow[i]),
                "residual_high": float(chigh[i]),
                "verdict": "better than the average card"
                if clow[i] > 0
                else "worse than the average card"
                if chigh[i] < 0
                else "not told from the average card",
            }
        )
    return rows


# --- the command ----------------------------------------------------------------------------------------


@dataclass
class ValueResult:
    """Everything `clix value` reports."""

    rows: list[dict[str, Any]]
    settings: dict[str, Any]
    model: dict[str, Any]
    games: pd.DataFrame
    styles: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Per player style (when several were played): the rows of a fit to that style's games alone."""
    played: Played | None = None
    fit: Fit | None = None


def measure_values(
    roster: Roster,
    library: Path | tuple[Path, ...],
    design: Design,
    *,
    jobs: int | None,
    store: Store | None,
    resamples: int = RESAMPLES,
    progress: Any = None,
    stop_on_error: bool = False,
) -> ValueResult:
    """Play the design and fit the value model (pooled over maps and styles; per style too when several)."""
    armies = random_armies(roster, design)
    cells, labels = design_cells(library, armies, design)
    view = with_armies(roster, armies)
    played = play_cells(view, cells, design.seed, jobs, store, progress=progress, stop_on_error=stop_on_error)
    rows = [{"cell": n, **labels[n], **row} for n, cell_rows in enumerate(played.games) for row in cell_rows]
    if not rows:
        raise ClixError("no game finished before the run was interrupted; nothing to report")
    games = pd.DataFrame(rows)
    features = army_features(roster, armies)
    fit = fit_values(features, game_table(games, features), resamples, design.seed)
    result_rows = value_rows(roster, fit, design.budget, design.pool)
    per_style: dict[str, list[dict[str, Any]]] = {}
    if len(design.styles) > 1:
        for style in design.styles:
            sub = games[games["style"] == style].reset_index(drop=True)
            try:
                style_fit = fit_values(features, game_table(sub, features), resamples, design.seed)
            except ClixError:  # too few games of this style to tie points to winning: no values for it
                per_style[style] = [{**row, "value": None} for row in result_rows]
                continue
            per_style[style] = value_rows(roster, style_fit, design.budget, design.pool)
        for row in result_rows:
            found = [next(r for r in per_style[s] if r["name"] == row["name"])["value"] for s in design.styles]
            values = [v for v in found if v is not None]
            row["by_style"] = dict(zip(design.styles, found, strict=True))
            row["style_range"] = [min(values), max(values)] if values else None
    lam_low, lam_high = _interval(fit.lam_draws[:, None])
    seat = float(fit.weights[-1])
    model = {
        "logits_per_point": fit.lam,
        "logits_per_point_low": float(lam_low[0]),
        "logits_per_point_high": float(lam_high[0]),
        "ten_points_edge": float(1 / (1 + np.exp(-10 * fit.lam))),
        "seat_1_logit": seat,
        "games": fit.games,
        "pairs": fit.pairs,
        "resamples": resamples,
        "figure_prior": FIGURE_PRIOR,
        "card_prior": CARD_PRIOR,
        "armies_spent": _spent(roster, armies),
    }
    settings = {
        **asdict(design),
        "armies_played": len(armies),
        "engine": compiled.status,
        "matchups": len(cells) // (len(design.maps) * len(design.styles)),
    }
    return ValueResult(result_rows, settings, model, games, per_style, played, fit)


def _spent(roster: Roster, armies: dict[str, Army]) -> dict[str, float]:
    spent = np.array([sum(roster.figures[e.figure].points for e in a.figures) for a in armies.values()], dtype=float)
    return {"mean": float(spent.mean()), "min": float(spent.min()), "max": float(spent.max())}


def run_value(
    roster: Roster,
    library: Path | tuple[Path, ...],
    design: Design,
    *,
    jobs: int | None,
    out: Any,
    store: Path | None,
    as_json: bool,
    console: Console,
    resamples: int = RESAMPLES,
    pdf: bool = False,
    stop_on_error: bool = False,
) -> int:
    """`clix value`: play the design, fit, print the table (or JSON), write value.csv, value.json, games.csv and
    value.html (value.pdf with `pdf`) to `out`; return the exit code."""
    from clix.analyzer.outputs import claim_output
    from clix.analyzer.progress import progress_bar

    for style in design.styles:
        if style not in PLAYER_STYLES:
            raise ClixError("--players: " + did_you_mean("player style", style, PLAYER_STYLES))
    if pdf:
        from clix.analyzer.report import check_pdf

        check_pdf()
    opened = Store.open(store) if store is not None else None
    total = design.armies * ((design.opponents + 1) // 2) * len(design.maps) * len(design.styles) * design.games
    with claim_output(out) as folder:
        with progress_bar(console, f"value at {design.budget} points", total, as_json) as advance:
            result = measure_values(
                roster,
                library,
                design,
                jobs=jobs,
                store=opened,
                resamples=resamples,
                progress=advance,
                stop_on_error=stop_on_error,
            )
        played = result.played
        assert played is not None
        ended_early(len(result.games), "games", played.interrupted, played.stopped, len(played.failed))
        result.settings |= _run_settings(played, jobs, store)
        result.settings["command"] = value_command(design)
        with folder.staged() as staging:
            written = write_value(staging, result, pdf)
        written = {k: folder.final(p) for k, p in written.items()}
    if as_json:
        payload = {
            "settings": result.settings,
            "model": result.model,
            "values": result.rows,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        sys.stdout.write(json.dumps(payload, default=str) + "\n")
    else:
        for line in value_lines(result):
            console.print(line, markup=False)
        console.print(f"wrote {', '.join(str(p) for p in written.values())}", markup=False)
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def _run_settings(played: Played, jobs: int | None, store: Path | None) -> dict[str, Any]:
    return {
        "ruleset": RULESET_VERSION,
        "engine": compiled.status,
        "jobs": jobs or os.cpu_count(),
        "seconds": round(played.seconds, 2),
        "played": played.played,
        "from_store": played.from_store,
        "games_per_second": round(played.played / max(played.seconds, 1e-9), 1) if played.played else None,
        "store": None if store is None else str(store),
        "interrupted": played.interrupted,
        "failed_games": played.failed,
    }


def value_command(design: Design) -> str:
    """The command line that plays this design again."""
    text = (
        f"clix value --budget {design.budget} --armies {design.armies} --opponents {design.opponents} "
        f"--games {design.games} --maps {','.join(design.maps)} --players {','.join(design.styles)} "
        f"--seed {design.seed} --turns {design.turns}"
    )
    return text + (f" --pool {','.join(design.pool)}" if design.pool else "")


def _num(x: float | None, form: str = "{:+.0f}") -> str:
    return "–" if x is None or not np.isfinite(x) else form.format(x)


def value_lines(result: ValueResult) -> list[str]:
    """The console report: heading, the figures' table, the cards' table, a legend."""
    s, m = result.settings, result.model
    lines = [
        f"value of figures at {s['budget']} points: {s['armies_played']} random armies, {s['matchups']} matchups x "
        f"{s['games']} games on {','.join(s['maps'])}, players {','.join(s['styles'])} ({m['games']} games, "
        f"seed {s['seed']}, engine {s['engine']})",
        f"  one point of cost = {m['logits_per_point']:.4f} logits [{m['logits_per_point_low']:.4f}, "
        f"{m['logits_per_point_high']:.4f}]: a 10-point edge wins {100 * m['ten_points_edge']:.0f}% of games",
    ]
    styles = s["styles"] if len(s["styles"]) > 1 else []
    head = ["figure", "cost", "fielded", "value [95%]", "residual [95%]", "verdict"] + (
        ["styles range"] if styles else []
    )
    body = []
    for r in result.rows:
        if r["kind"] != "figure":
            continue
        cells = [r["name"], str(r["cost"]), str(r["fielded"])]
        if r["value"] is None:
            cells += ["–", "–", r["verdict"]]
        else:
            cells += [
                f"{r['value']:.0f} [{_num(r['low'], '{:.0f}')}, {_num(r['high'], '{:.0f}')}]",
                f"{r['residual']:+.0f} [{_num(r['residual_low'])}, {_num(r['residual_high'])}]",
                r["verdict"],
            ]
        if styles:
            rng = r.get("style_range")
            cells.append("–" if not rng else f"{rng[0]:.0f}–{rng[1]:.0f}")
        body.append(cells)
    lines += ["  " + line for line in _table([head, *body])]
    cards = [r for r in result.rows if r["kind"] == "plot twist"]
    if cards:
        cards = sorted(cards, key=lambda r: -r["value"])
        lines.append("  plot twists (points-equivalent of holding the card instead of an average card):")
        table = [["card", "held", "value [95%]", "verdict"]] + [
            [r["name"], str(r["fielded"]), f"{r['value']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}]", r["verdict"]]
            for r in cards
        ]
        lines += ["  " + line for line in _table(table)]
    lines += [
        "  value: a figure's worth in points (one point of cost is worth one point on average); residual: value -",
        "  cost (over 0: under-costed); 95% intervals from a bootstrap over seat-swapped pairs",
    ]
    return lines


def _table(rows: list[list[str]]) -> list[str]:
    from clix.analyzer.ladder import text_table

    return text_table(rows)


def write_value(out: Path, result: ValueResult, pdf: bool = False) -> dict[str, Path]:
    """value.csv (one row per figure and card), value.json, games.csv, the plots and value.html (value.pdf)."""
    from clix.analyzer.outputs import writing

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "value_csv": out / "value.csv",
        "value_json": out / "value.json",
        "games_csv": out / "games.csv",
        "report": out / "value.html",
    }
    table = pd.DataFrame(result.rows)
    if "by_style" in table:
        for style in result.settings["styles"]:
            table[f"value_{style}"] = [(r.get("by_style") or {}).get(style) for r in result.rows]
        table = table.drop(columns=["by_style", "style_range"])
    with writing(written["value_csv"]):
        table.to_csv(written["value_csv"], index=False)
    with writing(written["value_json"]):
        written["value_json"].write_text(
            json.dumps(
                {"settings": result.settings, "model": result.model, "values": result.rows}, indent=1, default=str
            )
        )
    with writing(written["games_csv"]):
        result.games.to_csv(written["games_csv"], index=False)
    plots = {
        "scatter": value_plot(result.rows, out / "value-vs-cost.png"),
        "residuals": residual_plot(result.rows, out / "residuals.png"),
    }
    html = _render(
        "value.html.j2", result=result, plots={k: _data_uri(p) for k, p in plots.items()}, lines=value_lines(result)
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    written |= {f"{k}_png": p for k, p in plots.items()}
    if pdf:
        from clix.analyzer.report import write_pdf

        written["pdf"] = write_pdf(html, out / "value.pdf")
    return written


def _render(template: str, **context: Any) -> str:
    from clix.analyzer.report import TEMPLATES
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template(template).render(**context)


def _data_uri(path: Path) -> str:
    import base64

    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def value_plot(rows: list[dict[str, Any]], path: Path) -> Path:
    """Value against cost per figure with 95% intervals, and the line value = cost."""
    from matplotlib.figure import Figure as Plot

    shown = [r for r in rows if r["kind"] == "figure" and r["value"] is not None]
    fig = Plot(figsize=(7, 5), dpi=100)
    ax = fig.add_subplot()
    if shown:
        cost = np.array([r["cost"] for r in shown], dtype=float)
        value = np.array([r["value"] for r in shown])
        low = np.array([r["low"] for r in shown])
        high = np.array([r["high"] for r in shown])
        colour = [
            "#2f6690" if r["verdict"] == "under-costed" else "#b23a48" if r["verdict"] == "over-costed" else "#777777"
            for r in shown
        ]
        ax.errorbar(
            cost,
            value,
            yerr=[np.maximum(value - low, 0), np.maximum(high - value, 0)],
            fmt="none",
            ecolor="#bbbbbb",
            zorder=1,
        )
        ax.scatter(cost, value, c=colour, zorder=2, s=18)
        for r, x, y in zip(shown, cost, value, strict=True):
            ax.annotate(r["name"], (x, y), fontsize=6, xytext=(3, 2), textcoords="offset points")
        top = float(max(cost.max(), np.nanmax(high)))
        ax.plot([0, top], [0, top], color="#555555", lw=1, ls="--", label="value = cost")
        ax.legend(loc="upper left", fontsize=8)
    ax.set_xlabel("cost (points)")
    ax.set_ylabel("value (points-equivalent, 95% interval)")
    ax.set_title("Value against cost (blue: under-costed, red: over-costed)")
    fig.tight_layout()
    fig.savefig(path)
    return path


def residual_plot(rows: list[dict[str, Any]], path: Path) -> Path:
    """Each figure's residual (value - cost) with its 95% interval, sorted."""
    from matplotlib.figure import Figure as Plot

    shown = sorted((r for r in rows if r["kind"] == "figure" and r["value"] is not None), key=lambda r: r["residual"])
    fig = Plot(figsize=(7, max(3, 0.22 * len(shown) + 1)), dpi=100)
    ax = fig.add_subplot()
    if shown:
        y = np.arange(len(shown))
        res = np.array([r["residual"] for r in shown])
        low = np.array([r["residual_low"] for r in shown])
        high = np.array([r["residual_high"] for r in shown])
        colour = ["#2f6690" if lo > 0 else "#b23a48" if hi < 0 else "#999999" for lo, hi in zip(low, high, strict=True)]
        ax.barh(y, res, color=colour)
        ax.errorbar(
            res, y, xerr=[np.maximum(res - low, 0), np.maximum(high - res, 0)], fmt="none", ecolor="black", lw=0.8
        )
        ax.set_yticks(y, [r["name"] for r in shown], fontsize=7)
    ax.axvline(0, color="#555555", lw=1)
    ax.set_xlabel("residual: value - cost (points, 95% interval)")
    ax.set_title("Cost-curve residuals")
    fig.tight_layout()
    fig.savefig(path)
    return path


# --- the swap test --------------------------------------------------------------------------------------


def alternatives(
    roster: Roster, army: Army, figure_id: str, limit: int, pool: Sequence[str] = ()
) -> list[list[Figure]]:
    """Replacements of one copy of `figure_id` in `army` by equal points of other figures: single figures and
    pairs that fit the points it frees (its cost plus the army's unspent points), closest to its cost first."""
    cost = roster.figures[figure_id].points
    spent = sum(roster.figures[e.figure].points for e in army.figures)
    free = cost + army.build_total - spent
    rest = [e.figure for e in army.figures]
    rest.remove(figure_id)
    taken_uniques = {f for f in rest if roster.figures[f].unique}
    legal = [
        f
        for k, f in sorted(roster.figures.items())
        if k != figure_id
        and f.rank != "demo"
        and k not in taken_uniques
        and (not pool or k in pool)
        and f.points <= free
    ]
    options: list[list[Figure]] = [[f] for f in legal]
    for f, g in itertools.combinations_with_replacement(legal, 2):
        if f.points + g.points <= free and not (f.id == g.id and f.unique):
            options.append([f, g])
    options.sort(key=lambda fs: (abs(sum(f.points for f in fs) - cost), len(fs), [f.id for f in fs]))
    return options[:limit]


def run_swap(
    roster: Roster,
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
    interval (army minus variant: above 0, the figure is worth more than what replaces it)."""
    army = roster.armies[army_id]
    if figure_id not in roster.figures:
        raise ClixError(
            "--swap: " + did_you_mean("figure", figure_id, roster.figures, "`clix roster list` shows every figure")
        )
    if figure_id not in [e.figure for e in army.figures]:
        fielded = ", ".join(e.figure for e in army.figures)
        raise ClixError(f"--swap {figure_id}: {army_id} does not field it (it fields {fielded})")
    options = alternatives(roster, army, figure_id, limit)
    if not options:
        raise ClixError(
            f"--swap {figure_id}: no other figure fits the {roster.figures[figure_id].points} points it frees"
        )
    rest = [roster.figures[e.figure] for e in army.figures]
    rest.remove(roster.figures[figure_id])
    variants = {}
    for option in options:
        name = f"{army_id}-without-{figure_id}-with-" + "-".join(f.id for f in option)
        variants[name] = legal_army(
            roster,
            name,
            army.build_total,
            rest + option,
            army.crypt,
            army.victims,
            army.objects,
            "swap test (clix value)",
        )
    armies = {army_id: army, **variants}
    cells = []
    for name in armies:
        for opponent in opponents:
            for map_name in maps:
                matchup = given_matchup(library, (name, opponent), variants, map_name, (style, style), turns)
                cells.append(Cell(matchup, 0, games + games % 2))
    view = with_armies(roster, variants)
    opened = Store.open(store) if store is not None else None
    played = play_cells(view, cells, seed, jobs, opened)
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
        "cost": roster.figures[figure_id].points,
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
        sys.stdout.write(json.dumps(summary, default=str) + "\n")
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
