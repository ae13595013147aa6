"""`clix build`: the best legal army for a budget against a field, by racing candidates.

Candidates are maximal legal builds (nothing more fits) drawn from the legal space under the constraints
(--include, --exclude, --cabal, --class): every one when the space is small enough to list, else random
fills. With `clix value`'s estimates (--values value.json) half of them are the builds of highest predicted
value (a knapsack over the figures' values) and half are drawn at random, so the search both trusts and
checks the model.

Racing is successive halving with common random numbers: every candidate plays the same seeded games (a few
seat-swapped pairs against each field army on each map), the best third go on and play three times as many
(continuing the same games), until a few finalists are left. The finalists, and the field's own armies for
comparison, are then measured on fresh seeds (so the winner's estimate is not inflated by its selection) at
the precision asked; builds whose paired difference from the best includes 0 are shown as sidegrades.

A field is a list of armies with weights: army ids, files or folders (weight 1 each), or a field.json
{"source": ..., "budget": ..., "field": [{"army": id or file, "weight": w}, ...]} such as `clix meta` writes
for its Nash mixture. A candidate's score is the weighted mean of its scores against the field's armies.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml
from clix.analyzer.errors import ClixError
from clix.analyzer.experiment import Cell, Played, given_matchup, legal_army, play_cells, with_armies
from clix.analyzer.library import is_file_argument
from clix.analyzer.runner import PLAYER_STYLES, ended_early, run_exit_code
from clix.analyzer.scoring import game_scores, mean_interval
from clix.analyzer.store import Store
from clix.engine import RULESET_VERSION, compiled
from clix.engine.roster.loader import ROSTER_SUFFIXES, Roster
from clix.engine.roster.models import Army, Figure
from clix.engine.roster.problems import did_you_mean
from rich.console import Console

ENUMERATE_LIMIT = 200_000
"""Maximal builds listed at most; beyond this the candidates are random fills."""
FINAL_SEED_KEY = 4
"""The final measurement's master seed is derived from the master seed with this key (fresh games)."""


# --- the field ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldEntry:
    """One army of the field as the user named it (an id or a file path), with its weight."""

    army: str
    weight: float


def field_entries(specs: Sequence[str]) -> tuple[list[FieldEntry], str]:
    """The field `--field` names: army ids, army files, folders of army files, or a field.json; with a
    one-line description of where it came from."""
    entries: list[FieldEntry] = []
    sources = []
    for spec in specs:
        for part in [p.strip() for p in spec.split(",") if p.strip()]:
            path = Path(part)
            if part.endswith(".json"):
                found, source = read_field_json(path)
                entries += found
                sources.append(source)
            elif path.is_dir():
                files = sorted(p for p in path.rglob("*") if p.suffix in ROSTER_SUFFIXES and p.is_file())
                if not files:
                    raise ClixError(f"--field {part}: the folder holds no army file (*.yaml)")
                entries += [FieldEntry(str(f), 1.0) for f in files]
                sources.append(part)
            else:
                entries.append(FieldEntry(part, 1.0))
                sources.append(part)
    if not entries:
        raise ClixError("--field: name at least one army (ids, files, a folder, or a field.json)")
    return entries, ", ".join(sources)


def read_field_json(path: Path) -> tuple[list[FieldEntry], str]:
    """A weighted field file: {"source": ..., "budget": ..., "field": [{"army": ..., "weight": ...}, ...]}. A
    relative army path is taken from the file's folder when it exists there."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ClixError(f"--field {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ClixError(f"--field {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ClixError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(document, dict) or not isinstance(document.get("field"), list) or not document["field"]:
        raise ClixError(f"{path}: field: a field file holds a non-empty list 'field' of {{army, weight}} entries")
    entries = []
    for n, item in enumerate(document["field"]):
        if not isinstance(item, dict) or not isinstance(item.get("army"), str) or not item["army"].strip():
            raise ClixError(f"{path}: field.{n}.army: each entry needs 'army', an army id or file path")
        weight = item.get("weight", 1.0)
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ClixError(f"{path}: field.{n}.weight: a weight is a number 0 or more (got {weight!r})")
        army = item["army"].strip()
        if is_file_argument(army) and not Path(army).is_absolute() and (path.parent / army).is_file():
            army = str(path.parent / army)
        if weight > 0:
            entries.append(FieldEntry(army, float(weight)))
    if not entries:
        raise ClixError(f"{path}: field: every weight is 0; give at least one army a weight above 0")
    return entries, f"{path} ({document.get('source', 'field file')})"


def resolve_field(entries: Sequence[FieldEntry], ids: Callable[[str], str]) -> list[tuple[str, float]]:
    """The field as (army id, weight), weights summing to 1; an army named twice adds its weights."""
    total: dict[str, float] = {}
    for entry in entries:
        key = ids(entry.army)
        total[key] = total.get(key, 0.0) + entry.weight
    weight = sum(total.values())
    return [(k, w / weight) for k, w in total.items()]


# --- candidates -----------------------------------------------------------------------------------------


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


def eligible(roster: Roster, constraints: Constraints) -> list[Figure]:
    """The figures a build may add beyond its --include ones (a ClixError names an unknown id or filter)."""
    for option, names in (("--include", constraints.include), ("--exclude", constraints.exclude)):
        for name in names:
            if name not in roster.figures:
                raise ClixError(
                    f"{option}: "
                    + did_you_mean("figure", name, roster.figures, "`clix roster list` shows every figure")
                )
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


def _required(roster: Roster, constraints: Constraints) -> list[Figure]:
    eligible(roster, constraints)  # names checked first
    required = [roster.figures[f] for f in constraints.include]
    cost = sum(f.points for f in required)
    if cost > constraints.budget:
        raise ClixError(f"--include: those figures cost {cost} points, over --budget {constraints.budget}")
    for figure in required:
        if figure.rank == "demo":
            raise ClixError(f"--include {figure.id}: a demo figure is not legal in an army (HC-SETUP-01)")
        if figure.unique and constraints.include.count(figure.id) > 1:
            raise ClixError(f"--include {figure.id}: {figure.rank.replace('_', ' ')}, at most one copy per army")
    return required


Build = tuple[str, ...]
"""A build's figures: sorted ids, a figure once per copy."""


def enumerate_builds(roster: Roster, constraints: Constraints, limit: int = ENUMERATE_LIMIT) -> list[Build] | None:
    """Every maximal legal build (no eligible figure fits the points left), or None beyond `limit`."""
    required = _required(roster, constraints)
    options = sorted(eligible(roster, constraints), key=lambda f: f.id)
    taken_uniques = {f.id for f in required if f.unique}
    options = [f for f in options if f.id not in taken_uniques]
    start = constraints.budget - sum(f.points for f in required)
    builds: list[Build] = []
    base = [f.id for f in required]

    def grow(first: int, left: int, chosen: list[str]) -> bool:
        extended = False
        for i in range(first, len(options)):
            figure = options[i]
            if figure.points > left:
                continue
            extended = True
            if not grow(i + (1 if figure.unique else 0), left - figure.points, [*chosen, figure.id]):
                return False
        # a leaf is maximal only when no eligible figure (before `first` too) still fits
        if not extended and not any(f.points <= left and not (f.unique and f.id in chosen) for f in options):
            builds.append(tuple(sorted(base + chosen)))
            if len(builds) > limit:
                return False
        return True

    if not grow(0, start, []):
        return None
    unique = sorted(set(builds))
    return [b for b in unique if b] or None


def random_builds(
    roster: Roster,
    constraints: Constraints,
    count: int,
    rng: np.random.Generator,
    weights: dict[str, float] | None = None,
) -> list[Build]:
    """Up to `count` distinct random maximal builds: figures added one at a time (uniformly, or in proportion
    to `weights`) until none fits."""
    required = _required(roster, constraints)
    options = eligible(roster, constraints)
    found: set[Build] = set()
    for _ in range(count * 20):
        if len(found) >= count:
            break
        chosen = [f.id for f in required]
        left = constraints.budget - sum(f.points for f in required)
        while True:
            fits = [f for f in options if f.points <= left and not (f.unique and f.id in chosen)]
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
        rows = document["values"]
        figures = {r["name"]: float(r["value"]) for r in rows if r["kind"] == "figure" and r["value"] is not None}
        cards = {r["name"]: float(r["value"]) for r in rows if r["kind"] == "plot twist" and r["value"] is not None}
    except FileNotFoundError:
        raise ClixError(f"--values {path}: no such file; pass the value.json a `clix value` run wrote") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ClixError(f"--values {path}: not a value.json of `clix value` ({type(exc).__name__}: {exc})") from None
    return {"figures": figures, "cards": cards}


def candidate_builds(
    roster: Roster,
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


# --- racing ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Search:
    """How hard to look: `candidates` builds race, `first` games (whole pairs) per field army and map in the
    first stage, the best 1/`eta` going on with `eta` times the games, until `finalists` are left, measured
    with `final` games per field army and map on fresh seeds."""

    candidates: int = 243
    first: int = 4
    eta: int = 3
    finalists: int = 4
    final: int = 1000
    maps: tuple[str, ...] = ("graveyard",)
    style: str = "tuned"
    turns: int = 15
    seed: int = 0


@dataclass
class Stage:
    """One stage of the race: how many candidates played how many games each per field army and map."""

    candidates: int
    games: int
    played: int
    best: float


def _score(cells: list[list[dict[str, Any]]], weights: np.ndarray, maps: int) -> float:
    """A candidate's weighted score from its cells' game rows (the field's armies x maps, in that order)."""
    means = [float(game_scores(pd.DataFrame(rows), "A").mean()) if rows else 0.0 for rows in cells]
    return float(np.sum(np.repeat(weights, maps) * np.array(means)) / maps)


def _cells(
    library: Path | tuple[Path, ...],
    names: Sequence[str],
    armies: dict[str, Army],
    opponents: Sequence[str],
    search: Search,
    first: int,
    end: int,
) -> list[Cell]:
    return [
        Cell(
            given_matchup(library, (name, opponent), armies, map_name, (search.style, search.style), search.turns),
            first,
            end,
        )
        for name in names
        for opponent in opponents
        for map_name in search.maps
    ]


@dataclass
class BuildResult:
    """What `clix build` found and how."""

    builds: list[dict[str, Any]]
    references: list[dict[str, Any]]
    stages: list[Stage]
    settings: dict[str, Any]
    games: pd.DataFrame
    armies: dict[str, Army] = field(default_factory=dict)
    interrupted: bool = False
    failed: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0
    from_store: int = 0
    seconds: float = 0.0


def search_builds(
    roster: Roster,
    library: Path | tuple[Path, ...],
    constraints: Constraints,
    field_armies: Sequence[tuple[str, float]],
    search: Search,
    *,
    jobs: int | None,
    store: Store | None,
    values: dict[str, dict[str, float]] | None = None,
    progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
    references: bool = True,
) -> BuildResult:
    """Race the candidates against the field and measure the finalists (and the field's armies when
    `references`) on fresh seeds; `progress(label, total)` gives a stage's progress callback."""
    space_builds, space = candidate_builds(
        roster, constraints, search.candidates, search.seed, (values or {}).get("figures")
    )
    if not space_builds:
        raise ClixError("no legal build fits the constraints; loosen --include, --exclude, --cabal or --class")
    crypt = list(constraints.crypt) or choose_crypt(roster, field_armies, (values or {}).get("cards"))
    victims = _common(roster, field_armies, "victims", 6)
    if len(victims) < 6:
        from clix.analyzer.experiment import default_victims

        victims = default_victims(roster)
    objects = _common(roster, field_armies, "objects", 2)
    width = len(str(len(space_builds)))
    armies: dict[str, Army] = {}
    for n, build in enumerate(space_builds):
        name = f"build-{n + 1:0{width}d}"
        armies[name] = legal_army(
            roster,
            name,
            constraints.budget,
            [roster.figures[f] for f in build],
            crypt,
            victims,
            objects,
            "candidate build (clix build)",
        )
    view = with_armies(roster, armies)
    opponents = [a for a, _ in field_armies]
    weights = np.array([w for _, w in field_armies])
    per = len(opponents) * len(search.maps)
    alive = list(armies)
    stages: list[Stage] = []
    games = search.first + search.first % 2
    done = 0
    totals: dict[str, Any] = {"played": 0, "from_store": 0, "seconds": 0.0}
    interrupted = False
    failed: list[dict[str, Any]] = []
    estimates: dict[str, float] = {}
    record: dict[str, list[list[dict[str, Any]]]] = {name: [[] for _ in range(per)] for name in armies}
    while True:
        cells = _cells(library, alive, armies, opponents, search, done, games)
        label = f"stage {len(stages) + 1}: {len(alive)} candidates"
        tick = progress(label, len(cells) * (games - done)) if progress else None
        played = play_cells(view, cells, search.seed, jobs, store, progress=tick)
        _add(totals, played)
        failed += played.failed
        for n, name in enumerate(alive):
            for k in range(per):
                record[name][k] += played.games[n * per + k]
        # a candidate's score over every game it has played: the earlier stages' seeds, and this stage's
        scores = {name: _score(record[name], weights, len(search.maps)) for name in alive}
        estimates.update(scores)
        stages.append(Stage(len(alive), games, played.played + played.from_store, max(scores.values())))
        if played.interrupted:
            interrupted = True
            break
        keep = math.ceil(len(alive) / search.eta)
        if keep <= search.finalists:
            break  # the finalists are measured afresh: one more stage would not change who they are much
        alive = sorted(alive, key=lambda a: (-scores[a], a))[:keep]
        done, games = games, games * search.eta
    finalists = sorted(alive, key=lambda a: (-estimates[a], a))[: search.finalists]
    final_seed = int(np.random.SeedSequence([search.seed, FINAL_SEED_KEY]).generate_state(1)[0])
    measured = finalists + ([a for a in opponents if a not in armies] if references else [])
    result_games = pd.DataFrame()
    rows_out: list[dict[str, Any]] = []
    if not interrupted:
        final_games = search.final + search.final % 2
        cells = _cells(library, measured, armies, opponents, search, 0, final_games)
        tick = (
            progress(
                f"final: {len(finalists)} builds and {len(measured) - len(finalists)} field armies",
                len(cells) * final_games,
            )
            if progress
            else None
        )
        played = play_cells(view, cells, final_seed, jobs, store, progress=tick)
        _add(totals, played)
        failed += played.failed
        interrupted = played.interrupted
        frames = []
        for n, name in enumerate(measured):
            for k, opponent in enumerate(opponents):
                for m, map_name in enumerate(search.maps):
                    rows = played.games[n * per + k * len(search.maps) + m]
                    if rows:
                        frames.append(pd.DataFrame(rows).assign(build=name, opponent=opponent, map_played=map_name))
        result_games = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        rows_out = summarize_builds(result_games, measured, field_armies, view, estimates)
    builds = [r for r in rows_out if r["name"] in armies]
    refs = [r for r in rows_out if r["name"] not in armies]
    _mark_sidegrades(builds, result_games, field_armies)
    settings = {
        "budget": constraints.budget,
        "include": list(constraints.include),
        "exclude": list(constraints.exclude),
        "cabals": list(constraints.cabals),
        "classes": list(constraints.classes),
        "crypt": crypt[:6],
        "victims": victims,
        "objects": objects,
        "field": [{"army": a, "weight": w} for a, w in field_armies],
        "legal_space": space,
        "candidates": len(armies),
        "guided": bool(values),
        "final_seed": final_seed,
        **asdict(search),
    }
    return BuildResult(
        builds,
        refs,
        stages,
        settings,
        result_games,
        {k: armies[k] for k in finalists},
        interrupted,
        failed,
        totals["played"],
        totals["from_store"],
        totals["seconds"],
    )


def _add(totals: dict[str, Any], played: Played) -> None:
    totals["played"] += played.played
    totals["from_store"] += played.from_store
    totals["seconds"] += played.seconds


def _units(games: pd.DataFrame, name: str, field_armies: Sequence[tuple[str, float]]) -> pd.Series:
    """A build's weighted score per (map, pair) unit: the same seeds against every field army."""
    sub = games[games["build"] == name]
    scores = game_scores(sub, "A")
    per = scores.groupby([sub["opponent"], sub["map_played"], sub["pair"]]).mean()
    weight = dict(field_armies)
    weighted = per * per.index.get_level_values(0).map(weight).to_numpy()
    return weighted.groupby(level=[1, 2]).sum()


def summarize_builds(
    games: pd.DataFrame,
    names: Sequence[str],
    field_armies: Sequence[tuple[str, float]],
    roster: Roster,
    estimates: dict[str, float],
) -> list[dict[str, Any]]:
    """Each measured army's score against the field and each field army, and why it wins."""
    rows = []
    for name in names:
        sub = games[games["build"] == name]
        if sub.empty:
            continue
        overall = mean_interval(_units(games, name, field_armies).to_numpy())
        versus = []
        for opponent, weight in field_armies:
            part = sub[sub["opponent"] == opponent]
            pairs = game_scores(part, "A").groupby([part["map_played"], part["pair"]]).mean().to_numpy()
            versus.append({"opponent": opponent, "weight": weight, **mean_interval(pairs)})
        first = sub["first"] == "A"
        won = game_scores(sub, "A")
        army = roster.armies[name]
        rows.append(
            {
                "name": name,
                "figures": [e.figure for e in army.figures],
                "points": sum(roster.figures[e.figure].points for e in army.figures),
                "crypt": list(army.crypt),
                "score": overall,
                "race_estimate": estimates.get(name),
                "versus": versus,
                "why": {
                    "vp_victims": float(sub["vp_a_victims"].mean()),
                    "vp_kills": float(sub["vp_a_kills"].mean()),
                    "vp_subplots": float(sub["vp_a_subplots"].mean()),
                    "vp_against": float(sub["vp_b"].mean()),
                    "first_slay_round": float(pd.to_numeric(sub["first_slay_a"], errors="coerce").mean()),
                    "score_first": float(won[first].mean()) if first.any() else None,
                    "score_second": float(won[~first].mean()) if (~first).any() else None,
                },
            }
        )
    return rows


def _mark_sidegrades(
    builds: list[dict[str, Any]], games: pd.DataFrame, field_armies: Sequence[tuple[str, float]]
) -> None:
    """Sort the builds by score; a build whose paired difference from the best includes 0 is a sidegrade."""
    builds.sort(key=lambda r: -r["score"]["score"])
    if not builds:
        return
    best = _units(games, builds[0]["name"], field_armies)
    builds[0]["role"] = "best"
    for row in builds[1:]:
        other = _units(games, row["name"], field_armies)
        common = best.index.intersection(other.index)
        diff = mean_interval(((best[common] - other[common]) / 2 + 0.5).to_numpy())
        low, high = 2 * diff["low"] - 1, 2 * diff["high"] - 1
        row["behind_best"] = {"difference": 2 * diff["score"] - 1, "low": low, "high": high}
        row["role"] = "sidegrade" if low <= 0 else "worse"


# --- the command ----------------------------------------------------------------------------------------


def run_build(
    roster: Roster,
    library: Path | tuple[Path, ...],
    constraints: Constraints,
    field_armies: list[tuple[str, float]],
    search: Search,
    *,
    field_source: str,
    jobs: int | None,
    out: Any,
    store: Path | None,
    values: Path | None,
    as_json: bool,
    console: Console,
    pdf: bool = False,
) -> int:
    """`clix build`: race, print the top builds (or JSON) and write build.json, builds.csv, games.csv,
    build.html (build.pdf with `pdf`) and each finalist's army file to `out`; return the exit code."""
    from clix.analyzer.outputs import claim_output
    from clix.analyzer.progress import progress_bar

    if search.style not in PLAYER_STYLES:
        raise ClixError("--players: " + did_you_mean("player style", search.style, PLAYER_STYLES))
    if search.eta < 2:
        raise ClixError(
            f"--eta takes 2 or more (got {search.eta}): the share of candidates kept at each stage is 1/eta"
        )
    if search.candidates < 1 or search.finalists < 1:
        raise ClixError("--candidates and --finalists take 1 or more")
    estimates = read_values(values) if values is not None else None
    if pdf:
        from clix.analyzer.report import check_pdf

        check_pdf()
    opened = Store.open(store) if store is not None else None
    bars: list[Any] = []

    def progress(label: str, total: int) -> Callable[[int], None] | None:
        if as_json:
            return None
        while bars:  # one live display at a time: the stage before is done
            bars.pop().__exit__(None, None, None)
        bar = progress_bar(console, label, total, False)
        advance = bar.__enter__()
        bars.append(bar)
        return advance

    with claim_output(out) as folder:
        try:
            result = search_builds(
                roster,
                library,
                constraints,
                field_armies,
                search,
                jobs=jobs,
                store=opened,
                values=estimates,
                progress=progress,
            )
        finally:
            for bar in reversed(bars):
                bar.__exit__(None, None, None)
        ended_early(len(result.games), "games", result.interrupted, False, len(result.failed))
        if result.games.empty:
            raise ClixError("the final measurement did not finish before the run was interrupted; nothing to report")
        result.settings |= {
            "field_source": field_source,
            "ruleset": RULESET_VERSION,
            "engine": compiled.status,
            "jobs": jobs or os.cpu_count(),
            "seconds": round(result.seconds, 1),
            "played": result.played,
            "from_store": result.from_store,
            "store": None if store is None else str(store),
            "values": None if values is None else str(values),
            "interrupted": result.interrupted,
            "failed_games": result.failed,
        }
        with folder.staged() as staging:
            written = write_build(staging, result, pdf)
        written = {k: folder.final(p) for k, p in written.items()}
    if as_json:
        payload = {
            "settings": result.settings,
            "stages": [asdict(s) for s in result.stages],
            "builds": result.builds,
            "references": result.references,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        sys.stdout.write(json.dumps(payload, default=str) + "\n")
    else:
        for line in build_lines(result):
            console.print(line, markup=False)
        console.print(f"wrote {', '.join(str(p) for p in written.values())}", markup=False)
    return run_exit_code(result.interrupted, bool(result.failed))


def _pct(s: dict[str, Any]) -> str:
    return f"{100 * s['score']:.1f}% [{100 * s['low']:.1f}–{100 * s['high']:.1f}]"


def build_lines(result: BuildResult) -> list[str]:
    """The console report: the race, the top builds with their scores, figures and why they win, the field."""
    s = result.settings
    field_text = ", ".join(f"{f['army']} {100 * f['weight']:.0f}%" for f in s["field"])
    space = f"{s['legal_space']:,} maximal legal builds" if s["legal_space"] is not None else "too many builds to list"
    lines = [
        f"build at {s['budget']} points against {field_text} on {','.join(s['maps'])}, players {s['style']}, "
        f"seed {s['seed']} (engine {s['engine']}, {s['played']:,} games played, {s['from_store']:,} from the store, "
        f"{s['seconds']:.0f} s)",
        f"  {space}; {s['candidates']} candidates raced{' (half chosen by --values)' if s['guided'] else ''}; "
        f"crypt {', '.join(s['crypt'])}",
    ]
    for n, stage in enumerate(result.stages, 1):
        lines.append(
            f"  stage {n}: {stage.candidates} candidates x {stage.games} games per field army and map "
            f"(best {100 * stage.best:.1f}%)"
        )
    lines.append(f"  final: {len(result.builds)} builds x {s['final']} games per field army and map on fresh seeds")
    for row in result.builds:
        lines.append(
            f"  {row['role']}: {_pct(row['score'])} against the field, {row['points']} points: {', '.join(row['figures'])}"
        )
        if "behind_best" in row:
            d = row["behind_best"]
            lines.append(
                f"    behind the best by {100 * d['difference']:.1f} points [{100 * d['low']:.1f}, {100 * d['high']:.1f}]"
            )
        lines.append("    " + "; ".join(f"vs {v['opponent']} {_pct(v)}" for v in row["versus"]))
        w = row["why"]
        first = (
            ""
            if w["score_first"] is None or w["score_second"] is None
            else (f", {100 * w['score_first']:.0f}% going first vs {100 * w['score_second']:.0f}% second")
        )
        lines.append(
            f"    VP from victims {w['vp_victims']:.1f}, kills {w['vp_kills']:.1f}, subplots {w['vp_subplots']:.1f} "
            f"(against {w['vp_against']:.1f}); first slay in round {w['first_slay_round']:.1f}{first}"
        )
    if result.references:
        lines.append("  the field's own armies, measured the same way:")
        for row in sorted(result.references, key=lambda r: -r["score"]["score"]):
            lines.append(f"    {row['name']}: {_pct(row['score'])}")
    lines.append(
        "  score: wins + ½ draws against the field (weighted), 95% interval over seat-swapped pairs; sidegrade: its "
        "paired difference from the best includes 0"
    )
    return lines


def write_build(out: Path, result: BuildResult, pdf: bool = False) -> dict[str, Path]:
    """build.json, builds.csv, games.csv (the final games), build.html (build.pdf) and armies/NAME.yaml."""
    from clix.analyzer.outputs import writing
    from clix.analyzer.value_report import _render

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "build_json": out / "build.json",
        "builds_csv": out / "builds.csv",
        "games_csv": out / "games.csv",
        "report": out / "build.html",
    }
    document = {
        "settings": result.settings,
        "stages": [asdict(s) for s in result.stages],
        "builds": result.builds,
        "references": result.references,
    }
    with writing(written["build_json"]):
        written["build_json"].write_text(json.dumps(document, indent=1, default=str))
    table = pd.DataFrame(
        [
            {
                "name": r["name"],
                "role": r.get("role", "field army"),
                "points": r["points"],
                "figures": " ".join(r["figures"]),
                "score": r["score"]["score"],
                "low": r["score"]["low"],
                "high": r["score"]["high"],
                "race_estimate": r.get("race_estimate"),
            }
            for r in result.builds + result.references
        ]
    )
    with writing(written["builds_csv"]):
        table.to_csv(written["builds_csv"], index=False)
    with writing(written["games_csv"]):
        result.games.to_csv(written["games_csv"], index=False)
    folder = out / "armies"
    folder.mkdir(exist_ok=True)
    for name, army in result.armies.items():
        path = folder / f"{name}.yaml"
        with writing(path):
            path.write_text(yaml.safe_dump(army.model_dump(mode="json", exclude_none=True), sort_keys=False))
        written[f"army_{name}"] = path
    html = _render("build.html.j2", result=result, lines=build_lines(result))
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        from clix.analyzer.report import write_pdf

        written["pdf"] = write_pdf(html, out / "build.pdf")
    return written
