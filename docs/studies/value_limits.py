"""How far can a model of army composition predict HorrorClix pairings? The study behind docs/statistics.md,
"What the additive model cannot see, measured" (issue 32). Run from a checkout with clix installed:

    python docs/studies/value_limits.py twins 4401 30 6 200   # 30 armies, each with a one-figure twin, 6 opponents, 200 games
    python docs/studies/value_limits.py design 4402 5000        # a value-style design: 5,000 armies, 6 opponents, 2 games
    python docs/studies/value_limits.py fit 4402 4401           # models fitted to the design, judged on the twins' pairings

Files go to the working folder (twins_SEED.json, design_SEED.json). Armies are random near-full 100-point armies
(`clix value`'s own draw) on graveyard with `tuned` on both sides, 15 turns, as `clix value`'s defaults."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from clix.analyzer.library.load import load_library
from clix.analyzer.play.experiment import Cell, play_cells
from clix.analyzer.value.design import Design, pairings, random_armies
from clix.analyzer.value.pieces import pieces_of
from scipy.optimize import minimize

ROSTERS = Path(__file__).resolve().parents[2] / "rosters"


def _play(
    pieces: Any, layers: Any, armies: dict[str, Any], pairs: list[tuple[str, str]], games: int, seed: int
) -> list:
    cells = [Cell(pieces.matchup(layers, p, armies, "graveyard", ("tuned", "tuned"), 15), 0, games) for p in pairs]
    played = play_cells(pieces.view(armies), cells, seed, 0, None)
    return [
        {
            "a": a,
            "b": b,
            "pair": [r["pair"] for r in rows],
            "seat_a": [r["seat_a"] for r in rows],
            "win": [1.0 if r["winner"] == "A" else 0.0 if r["winner"] == "B" else 0.5 for r in rows],
        }
        for (a, b), rows in zip(pairs, played.games, strict=True)
    ]


def _contents(pieces: Any, armies: dict[str, Any]) -> dict[str, Any]:
    return {n: {"figures": pieces.contents(a), "crypt": pieces.cards(a)} for n, a in armies.items()}


def twins(seed: int, count: int, opponents: int, games: int) -> None:
    """Each army A and its twin A' (one figure swapped for another within 2 points, same crypt) play the same
    `opponents` armies around a ring."""
    library = load_library(ROSTERS, maps=["graveyard"])
    pieces = pieces_of(library.roster)
    rng = np.random.default_rng([seed, 1])
    legal = sorted(f for f in pieces.figures if pieces.playable(f))
    armies: dict[str, Any] = {}
    for i in range(count):
        while True:
            army = pieces.random_army(100, rng)
            figures = pieces.contents(army)
            spent = sum(pieces.points(f) for f in figures)
            options = [
                (k, new)
                for k in pieces.removable(army)
                for new in legal
                if new != figures[k]
                and not pieces.figures[new].grants_plot_twists
                and abs(pieces.points(new) - pieces.points(figures[k])) <= 2
                and spent - pieces.points(figures[k]) + pieces.points(new) <= 100
                and pieces.fits(pieces.figures[new], figures[:k] + figures[k + 1 :])
            ]
            if options:
                break
        k, new = options[int(rng.integers(len(options)))]
        entries = list(army.figures)
        entries[k] = entries[k].model_copy(update={"figure": new})
        armies[f"a{i:02d}"] = army.model_copy(update={"name": f"a{i:02d}"})
        armies[f"a{i:02d}t"] = army.model_copy(update={"name": f"a{i:02d}t", "figures": entries})
    pairs = [
        (f"a{i:02d}{t}", f"a{(i + d) % count:02d}")
        for i in range(count)
        for d in range(1, opponents + 1)
        for t in ("", "t")
    ]
    rows = _play(pieces, library.layers, armies, pairs, games, seed)
    Path(f"twins_{seed}.json").write_text(json.dumps({"armies": _contents(pieces, armies), "games": rows}))


def design(seed: int, count: int) -> None:
    """`clix value`'s draw of `count` armies and its ring of 6 opponents, 2 games a pairing (no handicap armies)."""
    library = load_library(ROSTERS, maps=["graveyard"])
    pieces = pieces_of(library.roster)
    armies = random_armies(pieces, Design(budget=100, armies=count, seed=seed))
    names = list(armies)
    pairs = [(names[i], names[j]) for i, j in pairings(len(names), 6, seed)]
    rows = _play(pieces, library.layers, armies, pairs, 2, seed)
    Path(f"design_{seed}.json").write_text(json.dumps({"armies": _contents(pieces, armies), "games": rows}))


# --- models ---------------------------------------------------------------------------------------------------


def _sig(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def _vectors(armies: dict[str, Any], figures: list[str], cards: list[str]) -> dict[str, np.ndarray]:
    where = {f: k for k, f in enumerate(figures + cards)}
    out = {}
    for name, army in armies.items():
        v = np.zeros(len(where))
        for item in army["figures"] + army["crypt"]:
            if item in where:
                v[where[item]] += 1
        out[name] = v
    return out


def _fit(
    za: np.ndarray,
    zb: np.ndarray,
    seat: np.ndarray,
    y: np.ndarray,
    figures: int,
    kind: str,
    size: float,
    hidden: int = 0,
) -> Any:
    """Logistic fit of one game's score to strength(A) - strength(B) + seat (+ a cross term), ridge priors:
    `additive` (a value per figure and card, prior sd 1 logit; cards 2), `bilinear` (figure against figure, an
    antisymmetric matrix, prior sd `size`), `rank` (a low-rank intransitive term, Balduzzi et al.'s mElo, rank
    `hidden`, prior sd `size`), `mlp` (strength = additive + a one-layer tanh network of `hidden` units)."""
    d = za.shape[1]
    upper = np.triu_indices(figures, 1)
    cross = None
    if kind == "bilinear":
        outer = za[:, :figures, None] * zb[:, None, :figures]
        cross = (outer - outer.transpose(0, 2, 1))[:, upper[0], upper[1]]
    extra = {"additive": 0, "bilinear": len(upper[0]), "rank": 2 * figures * hidden, "mlp": hidden * (d + 2)}[kind]
    prior = np.concatenate(
        [np.r_[np.ones(figures), np.full(d - figures, 4.0)] ** -1, [0.0], np.full(extra, size**-2 if size else 0.0)]
    )
    if kind == "mlp":
        prior[d + 1 + hidden * d : d + 1 + hidden * (d + 1)] = 1.0  # the hidden units' weights in the strength
        prior[d + 1 + hidden * (d + 1) :] = 0.0  # and their offsets

    def logit(
        t: np.ndarray, a: np.ndarray, b: np.ndarray, s: np.ndarray, c: np.ndarray | None
    ) -> tuple[np.ndarray, Any]:
        z = (a - b) @ t[:d] + s * t[d]
        rest = t[d + 1 :]
        if kind == "bilinear":
            return z + c @ rest, None
        if kind == "rank":
            u = rest.reshape(2, figures, hidden)
            parts = (a[:, :figures] @ u[0], a[:, :figures] @ u[1], b[:, :figures] @ u[0], b[:, :figures] @ u[1])
            return z + np.sum(parts[0] * parts[3] - parts[1] * parts[2], axis=1), parts
        if kind == "mlp":
            w = rest[: hidden * d].reshape(hidden, d)
            out, off = rest[hidden * d : hidden * (d + 1)], rest[hidden * (d + 1) :]
            ha, hb = np.tanh(a @ w.T + off), np.tanh(b @ w.T + off)
            return z + (ha - hb) @ out, (ha, hb, w, out)
        return z, None

    def loss(t: np.ndarray) -> tuple[float, np.ndarray]:
        z, parts = logit(t, za, zb, seat, cross)
        p = _sig(z)
        g = p - y
        grad = np.concatenate([(za - zb).T @ g, [seat @ g], np.zeros(extra)])
        if kind == "bilinear":
            grad[d + 1 :] = cross.T @ g
        elif kind == "rank":
            a1, a2, b1, b2 = parts
            ga = g[:, None]
            grad[d + 1 :] = np.concatenate(
                [
                    (za[:, :figures].T @ (ga * b2) - zb[:, :figures].T @ (ga * a2)).ravel(),
                    (zb[:, :figures].T @ (ga * a1) - za[:, :figures].T @ (ga * b1)).ravel(),
                ]
            )
        elif kind == "mlp":
            ha, hb, _, out = parts
            da, db = (1 - ha**2) * out * g[:, None], (1 - hb**2) * out * g[:, None]
            grad[d + 1 :] = np.concatenate([(da.T @ za - db.T @ zb).ravel(), (ha - hb).T @ g, (da - db).sum(0)])
        value = -np.sum(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)) + 0.5 * np.sum(prior * t * t)
        return value, grad + prior * t

    start = np.zeros(d + 1 + extra)
    start[d + 1 :] = np.random.default_rng(0).normal(0, 0.1 if kind == "mlp" else 0.05, extra)
    if kind == "mlp":
        start[d + 1 + hidden * (d + 1) :] = 0.0
    theta = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 400}).x

    def score(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        c = None
        if kind == "bilinear":
            outer = a[:, :figures, None] * b[:, None, :figures]
            c = (outer - outer.transpose(0, 2, 1))[:, upper[0], upper[1]]
        one = np.ones(len(a))
        return 0.5 * (_sig(logit(theta, a, b, one, c)[0]) + _sig(logit(theta, a, b, -one, c)[0]))

    return score


def fit(design_seed: int, twins_seed: int) -> None:
    """Each model fitted to the design, its mean miss on the twins' precise pairings; the one-strength oracle (a
    rating per army fitted to those pairings themselves); how much of what the oracle leaves a one-figure swap keeps."""
    built = json.loads(Path(f"design_{design_seed}.json").read_text())
    held = json.loads(Path(f"twins_{twins_seed}.json").read_text())
    figures = sorted({f for a in built["armies"].values() for f in a["figures"]})
    cards = sorted({c for a in built["armies"].values() for c in a["crypt"]})
    vec = _vectors(built["armies"] | held["armies"], figures, cards)
    rows = [(g["a"], g["b"], s, w) for g in built["games"] for s, w in zip(g["seat_a"], g["win"], strict=True)]
    za, zb = np.array([vec[r[0]] for r in rows]), np.array([vec[r[1]] for r in rows])
    seat, y = np.array([1.0 if r[2] == 1 else -1.0 for r in rows]), np.array([r[3] for r in rows])
    pairs = held["games"]
    measured = np.array([np.mean(g["win"]) for g in pairs])
    noise = np.array(
        [
            np.var([np.mean(np.array(g["win"])[np.array(g["pair"]) == q]) for q in set(g["pair"])], ddof=1)
            / len(set(g["pair"]))
            for g in pairs
        ]
    )
    ha, hb = np.array([vec[g["a"]] for g in pairs]), np.array([vec[g["b"]] for g in pairs])
    print(
        f"design: {len(rows)} games; held-out pairings: {len(pairs)} of {len(pairs[0]['win'])} games, "
        f"their own noise {100 * np.mean(np.sqrt(noise)):.1f} points (sd)"
    )
    print(f"  flat 50%: mean miss {100 * np.mean(np.abs(measured - 0.5)):.1f}")
    for kind, size, hidden in (
        ("additive", 0, 0),
        ("bilinear", 0.1, 0),
        ("rank", 0.3, 1),
        ("rank", 0.6, 2),
        ("mlp", 0.3, 4),
        ("mlp", 0.15, 8),
    ):
        predicted = _fit(za, zb, seat, y, len(figures), kind, size, hidden)(ha, hb)
        print(
            f"  {kind} {size or ''} {hidden or ''}: mean miss {100 * np.mean(np.abs(predicted - measured)):.2f}",
            flush=True,
        )
    names = sorted({g["a"] for g in pairs} | {g["b"] for g in pairs})
    index = {n: k for k, n in enumerate(names)}
    a_, b_ = np.array([index[g["a"]] for g in pairs]), np.array([index[g["b"]] for g in pairs])
    counts = np.array([len(g["win"]) for g in pairs])

    def nll(t: np.ndarray) -> float:
        q = np.clip(_sig(np.append(t, 0.0)[a_] - np.append(t, 0.0)[b_]), 1e-9, 1 - 1e-9)
        return float(-np.sum(counts * (measured * np.log(q) + (1 - measured) * np.log(1 - q))))

    rating = np.append(minimize(nll, np.zeros(len(names) - 1)).x, 0.0)
    left = measured - _sig(rating[a_] - rating[b_])
    spread = np.mean(left**2) * len(pairs) / (len(pairs) - len(names) + 1) - noise.mean()
    print(
        f"  oracle (a rating per army, fitted to these very pairings): mean miss {100 * np.mean(np.abs(left)):.2f}; "
        f"left beyond noise {100 * np.sqrt(max(spread, 0)):.1f} points (rms)"
    )
    at = {(g["a"], g["b"]): k for k, g in enumerate(pairs)}
    both = [(k, at[(a + "t", b)]) for (a, b), k in at.items() if not a.endswith("t") and (a + "t", b) in at]
    one, two = left[[k for k, _ in both]], left[[t for _, t in both]]
    groups: dict[str, list[int]] = {}
    for n, (k, _) in enumerate(both):
        groups.setdefault(pairs[k]["a"], []).append(n)
    draws = [
        np.mean(one[p] * two[p]) / spread
        for p in (
            np.concatenate([list(groups.values())[i] for i in r])
            for r in np.random.default_rng(0).integers(len(groups), size=(2000, len(groups)))
        )
    ]
    print(
        f"  what the oracle leaves, kept by a one-figure swap (correlation of twins): {np.mean(one * two) / spread:.2f} "
        f"[{np.percentile(draws, 2.5):.2f}-{np.percentile(draws, 97.5):.2f}] (army bootstrap)"
    )


if __name__ == "__main__":
    command, numbers = sys.argv[1], [int(a) for a in sys.argv[2:]]
    {"twins": twins, "design": design, "fit": fit}[command](*numbers)
