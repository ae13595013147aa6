"""The candidates of `clix build`: the figures the constraints allow, the maximal legal builds (listed when few
enough, else random fills, half by `clix value`'s estimates with --values) and the crypt they take."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.value.pieces import HorrorPieces, pieces_of
from clix.engine.core.files.problems import did_you_mean

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

ENUMERATE_LIMIT = 200_000
"""Maximal builds listed at most; beyond this the candidates are random fills."""


@dataclass(frozen=True)
class Constraints:
    """What a build may hold."""

    budget: int
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    cabals: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    crypt: tuple[str, ...] = ()
    """The crypt every candidate plays (empty: chosen, see `choose_crypt`)."""


def eligible(roster: Any, constraints: Constraints) -> list[Any]:
    """The figures a build may add beyond its --include ones (a ClixError names an unknown id or filter).
    `roster`: a ruleset's library data or its pieces (analyzer/value/pieces.py; HeroClix: characters)."""
    pieces = pieces_of(roster)
    for option, names in (("--include", constraints.include), ("--exclude", constraints.exclude)):
        for name in names:
            if name not in pieces.figures:
                hint = "`clix roster list` shows every figure" if pieces.figure_word == "figure" else ""
                raise ClixError(f"{option}: " + did_you_mean(pieces.figure_word, name, pieces.figures, hint))
    if not pieces.has_cards:  # HeroClix: no cabals, classes or crypt (the command refuses them)
        return [
            c
            for cid, c in sorted(pieces.figures.items())
            if cid not in constraints.exclude and c.points <= constraints.budget
        ]
    roster = pieces.data
    cabals = {f.cabal.name for f in roster.figures.values() if f.cabal}
    for cabal in constraints.cabals:
        if cabal not in cabals:
            raise ClixError("--cabal: " + did_you_mean("cabal", cabal, sorted(cabals)))
    classes = {c for f in roster.figures.values() for c in f.classes}
    for name in constraints.classes:
        if name not in classes:
            raise ClixError("--class: " + did_you_mean("class", name, sorted(classes)))
    found = []
    for fid, figure in sorted(roster.figures.items()):
        if figure.rank == "demo" or fid in constraints.exclude or figure.points > constraints.budget:
            continue
        if constraints.cabals and (figure.cabal is None or figure.cabal.name not in constraints.cabals):
            continue
        if constraints.classes and not set(figure.classes) & set(constraints.classes):
            continue
        found.append(figure)
    return found


def _required(roster: Any, constraints: Constraints) -> list[Any]:
    pieces = pieces_of(roster)
    eligible(pieces, constraints)  # names checked first
    required = [pieces.figures[f] for f in constraints.include]
    cost = sum(f.points for f in required)
    if cost > constraints.budget:
        raise ClixError(
            f"--include: those {pieces.figure_word}s cost {cost} points, over --budget {constraints.budget}"
        )
    for n, figure in enumerate(required):
        if not pieces.playable(figure.id):
            raise ClixError(f"--include {figure.id}: a demo figure is not legal in an army (HC-SETUP-01)")
        if figure.unique and constraints.include.count(figure.id) > 1:
            raise ClixError(f"--include {figure.id}: {figure.rank.replace('_', ' ')}, at most one copy per army")
        if pieces.exclusive and not pieces.fits(figure, [f.id for f in required[:n]]):
            raise ClixError(f"--include {figure.id}: an archenemy of another --include character (HX-BUILD-04)")
    return required


Build = tuple[str, ...]
"""A build's figures: sorted ids, a figure once per copy."""


def enumerate_builds(roster: Any, constraints: Constraints, limit: int = ENUMERATE_LIMIT) -> list[Build] | None:
    """Every maximal legal build (no eligible figure fits the points left), or None beyond `limit`."""
    pieces = pieces_of(roster)
    required = _required(pieces, constraints)
    options = sorted(eligible(pieces, constraints), key=lambda f: f.id)
    taken_uniques = {f.id for f in required if f.unique}
    options = [f for f in options if f.id not in taken_uniques]
    start = constraints.budget - sum(f.points for f in required)
    builds: list[Build] = []
    base = [f.id for f in required]

    def grow(first: int, left: int, chosen: list[str]) -> bool:
        extended = False
        for i in range(first, len(options)):
            figure = options[i]
            if figure.points > left or (pieces.exclusive and not pieces.fits(figure, base + chosen)):
                continue
            extended = True
            if not grow(i + (1 if figure.unique else 0), left - figure.points, [*chosen, figure.id]):
                return False
        # a leaf is maximal only when no eligible figure (before `first` too) still fits
        if not extended and not any(f.points <= left and _fits(pieces, f, chosen, base) for f in options):
            builds.append(tuple(sorted(base + chosen)))
            if len(builds) > limit:
                return False
        return True

    if not grow(0, start, []):
        return None
    unique = sorted(set(builds))
    return [b for b in unique if b] or None


def _fits(pieces: HorrorPieces, figure: Any, chosen: list[str], base: list[str]) -> bool:
    """Whether `figure` may join `chosen` (beyond the required `base`: HeroClix's archenemies, HX-BUILD-04)."""
    if pieces.exclusive:
        return pieces.fits(figure, base + chosen)
    return not (figure.unique and figure.id in chosen)


def random_builds(
    roster: Any,
    constraints: Constraints,
    count: int,
    rng: np.random.Generator,
    weights: dict[str, float] | None = None,
) -> list[Build]:
    """Up to `count` distinct random maximal builds: figures added one at a time (uniformly, or in proportion
    to `weights`) until none fits."""
    pieces = pieces_of(roster)
    required = _required(pieces, constraints)
    options = eligible(pieces, constraints)
    found: set[Build] = set()
    for _ in range(count * 20):
        if len(found) >= count:
            break
        chosen = [f.id for f in required]
        left = constraints.budget - sum(f.points for f in required)
        while True:
            fits = [f for f in options if f.points <= left and _fits(pieces, f, chosen, [])]
            if not fits:
                break
            p = np.array([weights.get(f.id, 0.0) if weights else 1.0 for f in fits], dtype=float)
            p = p / p.sum() if p.sum() > 0 else np.full(len(fits), 1 / len(fits))
            pick = fits[int(rng.choice(len(fits), p=p))]
            chosen.append(pick.id)
            left -= pick.points
        if chosen:
            found.add(tuple(sorted(chosen)))
    return sorted(found)


def read_values(path: Path) -> dict[str, dict[str, float]]:
    """Figure and card values from a `clix value` run's value.json: {"figures": {id: value}, "cards": {...}}."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return value_estimates(document["values"])
    except FileNotFoundError:
        raise ClixError(f"--values {path}: no such file; pass the value.json a `clix value` run wrote") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ClixError(f"--values {path}: not a value.json of `clix value` ({type(exc).__name__}: {exc})") from None


def value_estimates(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """The figures' and cards' values of `clix value`'s rows (value.json's "values"): {"figures": {id: value},
    "cards": {...}}, those without a value left out."""
    figures = {r["name"]: float(r["value"]) for r in rows if r["kind"] == "figure" and r["value"] is not None}
    cards = {r["name"]: float(r["value"]) for r in rows if r["kind"] == "plot twist" and r["value"] is not None}
    return {"figures": figures, "cards": cards}


def candidate_builds(
    roster: Any,
    constraints: Constraints,
    count: int,
    seed: int,
    values: dict[str, float] | None = None,
) -> tuple[list[Build], int | None]:
    """The builds to race, and how many maximal builds the legal space holds (None: too many to list)."""
    rng = np.random.default_rng([seed, 5])
    space = enumerate_builds(roster, constraints)
    if space is not None and len(space) <= count:
        return space, len(space)
    if values:
        ranked = (
            sorted(space, key=lambda b: (-sum(values.get(f, 0.0) for f in b), b))
            if space is not None
            else sorted(
                random_builds(roster, constraints, count * 4, rng, {k: max(v, 1.0) for k, v in values.items()}),
                key=lambda b: (-sum(values.get(f, 0.0) for f in b), b),
            )
        )
        guided = ranked[: count // 2]
        chosen = set(guided)
        pool = space if space is not None else random_builds(roster, constraints, count * 2, rng)
        rest = [b for b in pool if b not in chosen]
        picks = rng.choice(len(rest), size=min(count - len(guided), len(rest)), replace=False) if rest else ()
        return sorted(chosen | {rest[int(i)] for i in picks}), None if space is None else len(space)
    if space is not None:
        picks = rng.choice(len(space), size=count, replace=False)
        return sorted(space[int(i)] for i in picks), len(space)
    return random_builds(roster, constraints, count, rng), None


def choose_crypt(
    roster: Roster, field_armies: Sequence[tuple[str, float]], card_values: dict[str, float] | None
) -> list[str]:
    """A crypt for every candidate: the cards of highest value from `clix value` when given, else the cards the
    field's armies hold most (by weight); at most one subplot, six cards (`legal_army` fits the size)."""
    score: dict[str, float] = {}
    if card_values:
        score = dict(card_values)
    else:
        for army_id, weight in field_armies:
            for card in roster.armies[army_id].crypt:
                score[card] = score.get(card, 0.0) + weight
    crypt: list[str] = []
    subplot = False
    for card in sorted(score, key=lambda c: (-score[c], c)):
        if card not in roster.plot_twists:
            continue
        if roster.plot_twists[card].kind == "subplot":
            if subplot:
                continue
            subplot = True
        crypt.append(card)
    return crypt[:8]


def _common(roster: Roster, field_armies: Sequence[tuple[str, float]], what: str, size: int) -> list[str]:
    count: dict[str, float] = {}
    for army_id, weight in field_armies:
        for item in getattr(roster.armies[army_id], what):
            count[item] = count.get(item, 0.0) + weight
    return sorted(count, key=lambda k: (-count[k], k))[:size]
