"""The race of `clix build`: successive halving with common random numbers over the candidates, then the
finalists and the field's own armies measured on fresh seeds."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.build.candidates import (
    Constraints,
    _common,
    candidate_builds,
    choose_crypt,
)
from clix.analyzer.build.summary import (
    _mark_sidegrades,
    choose_objective,
    compare_with_field,
    dominant_army,
    name_by_rank,
    summarize_builds,
)
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.names import army_names
from clix.analyzer.play.experiment import Cell, Played, play_cells
from clix.analyzer.play.store import Store
from clix.analyzer.stats.scoring import game_scores
from clix.analyzer.value.pieces import HorrorPieces, builder, pieces_of

FINAL_SEED_KEY = 4
"""The final measurement's master seed is derived from the master seed with this key (fresh games)."""
REFERENCE_SEED_KEY = 5
"""The first stage's reference games (the field's armies against each other, for `--objective auto`) are seeded
from the master seed with this key."""
TIES = "break"
"""How a build's games end on equal VP: by the rules (HC-END-09; HeroClix HX-END-11, the force of fewer points),
as in `clix duel` and `clix meta`: a build is measured as it would play."""
DEFAULT_OBJECTS = ("light", "light", "heavy")
"""A HeroClix candidate's object tokens when no field force brings any (HX-SETUP-05)."""
REFERENCE_GAMES = 20
"""Games per pair of field armies and map in the first stage's reference games (at least --first-games): enough
to see an army that dominates the field (a 75% score has its interval above 60% over 3 opponents and 2 maps)."""


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
    objective: str = "auto"
    """`field`, `maximin` or `auto` (build_summary.OBJECTIVES)."""


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


def _worst(cells: list[list[dict[str, Any]]], weights: np.ndarray, maps: int) -> float:
    """A candidate's worst head-to-head score (mean over the maps) over the field's armies of positive weight."""
    means = [float(game_scores(pd.DataFrame(rows), "A").mean()) if rows else 0.0 for rows in cells]
    per_army = np.array(means).reshape(len(weights), maps).mean(axis=1)
    return float(per_army[weights > 0].min()) if (weights > 0).any() else float(per_army.min())


def _frames(
    played: Played, names: Sequence[str], opponents: Sequence[str], maps: Sequence[str], skip_mirrors: bool = False
) -> pd.DataFrame:
    """The games of `play_cells` over names x opponents x maps (in that order) as one frame with the build,
    opponent and map_played columns (mirrors left out with `skip_mirrors`, as in `_pairings`)."""
    frames = []
    pairs = _pairings(names, opponents, skip_mirrors)
    for n, (name, opponent) in enumerate(pairs):
        for m, map_name in enumerate(maps):
            rows = played.games[n * len(maps) + m]
            if rows:
                frames.append(pd.DataFrame(rows).assign(build=name, opponent=opponent, map_played=map_name))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _pairings(names: Sequence[str], opponents: Sequence[str], skip_mirrors: bool = False) -> list[tuple[str, str]]:
    return [(n, o) for n in names for o in opponents if not (skip_mirrors and n == o)]


def reference_games(
    view: Any,
    library: Path | tuple[Path, ...],
    field_armies: Sequence[tuple[str, float]],
    search: Search,
    jobs: int | None,
    store: Store | None,
    progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
) -> tuple[pd.DataFrame, Played]:
    """The first stage's reference games: each field army against each other one on each map (REFERENCE_GAMES, or
    --first-games if more, on their own seeds), as one frame (`build` the army measured)."""
    names = [a for a, _ in field_armies]
    games = max(REFERENCE_GAMES, search.first)
    games += games % 2
    pieces = pieces_of(view)
    cells = [
        Cell(pieces.matchup(library, (a, b), {}, m, (search.style, search.style), search.turns, ties=TIES), 0, games)
        for a, b in _pairings(names, names, skip_mirrors=True)
        for m in search.maps
    ]
    tick = (
        progress(f"reference: {len(names)} field armies against each other", len(cells) * games) if progress else None
    )
    seed = int(np.random.SeedSequence([search.seed, REFERENCE_SEED_KEY]).generate_state(1)[0])
    played = play_cells(pieces.view({}), cells, seed, jobs, store, progress=tick)
    return _frames(played, names, names, search.maps, skip_mirrors=True), played


def _cells(
    library: Path | tuple[Path, ...],
    names: Sequence[str],
    armies: dict[str, Any],
    opponents: Sequence[str],
    search: Search,
    first: int,
    end: int,
    pieces: HorrorPieces,
) -> list[Cell]:
    return [
        Cell(
            pieces.matchup(
                library, (name, opponent), armies, map_name, (search.style, search.style), search.turns, ties=TIES
            ),
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
    armies: dict[str, Any] = field(default_factory=dict)
    """The measured builds' armies, by their names by rank (build-01 the best)."""
    comparison: dict[str, Any] = field(default_factory=dict)
    """The headline: the best build against the field's own armies on the same seeds (`compare_with_field`)."""
    interrupted: bool = False
    failed: list[dict[str, Any]] = field(default_factory=list)
    stopped: bool = False
    """Stopped at a game that raised (a bug or bad data: `crashed`), keeping the games finished."""
    crashed: bool = False
    played: int = 0
    from_store: int = 0
    seconds: float = 0.0


def search_builds(
    roster: Any,
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
    `references`) on fresh seeds; `progress(label, total)` gives a stage's progress callback (the long
    preparations get one too: listing the candidates, checking each one's army). A game that raises stops the
    race (`stopped`, `crashed`), without the final measurement. `roster`: a ruleset's library data or its pieces
    (analyzer/value/pieces.py): HeroClix forces carry no crypt, victims or objects of the field's."""
    pieces = pieces_of(roster)
    listing = progress(f"listing up to {search.candidates} candidate builds", 1) if progress else None
    space_builds, space = candidate_builds(
        pieces, constraints, search.candidates, search.seed, (values or {}).get("figures")
    )
    if listing is not None:
        listing(1)
    if not space_builds:
        raise ClixError("no legal build fits the constraints; loosen --include, --exclude, --cabal or --class")
    extras = build_extras(pieces, constraints, field_armies, values)
    width = len(str(len(space_builds)))
    opponents = [a for a, _ in field_armies]
    # race names; the measured builds are renamed by rank at the end (build-01 the best)
    names = ("candidate", "race-candidate", "clix-candidate")
    prefix = next((p for p in names if not _taken(p, opponents)), "clix-build-candidate")
    armies: dict[str, Any] = {}
    checking = progress(f"checking {len(space_builds)} candidate armies", len(space_builds)) if progress else None
    for n, build in enumerate(space_builds):
        name = f"{prefix}-{n + 1:0{width}d}"
        armies[name] = pieces.legal(name, constraints.budget, build, extras, "candidate build (clix build)")
        if checking is not None:
            checking(1)
    view = pieces.view(armies)
    weights = np.array([w for _, w in field_armies])
    per = len(opponents) * len(search.maps)
    alive = list(armies)
    stages: list[Stage] = []
    games = search.first + search.first % 2
    done = 0
    totals: dict[str, Any] = {"played": 0, "from_store": 0, "seconds": 0.0}
    interrupted = stopped = crashed = False
    failed: list[dict[str, Any]] = []
    estimates: dict[str, float] = {}
    record: dict[str, list[list[dict[str, Any]]]] = {name: [[] for _ in range(per)] for name in armies}
    # auto: the field's armies against each other first, to see whether one dominates (then the race ranks by maximin)
    first_look: list[tuple[str, dict[str, Any] | None]] = []
    if search.objective == "auto" and len([w for w in weights if w > 0]) > 1:
        seen, reference = reference_games(view, library, field_armies, search, jobs, store, progress)
        _add(totals, reference)
        failed += reference.failed
        first_look.append(("the first stage's reference games", dominant_army(seen, field_armies)))
        if reference.interrupted or reference.stopped:
            interrupted, stopped, crashed = reference.interrupted, reference.stopped, reference.crashed
    race_objective = choose_objective(search.objective, first_look, len(field_armies))["objective"]
    rank = _worst if race_objective == "maximin" else _score
    while not (interrupted or stopped):
        cells = _cells(library, alive, armies, opponents, search, done, games, pieces)
        label = f"stage {len(stages) + 1}: {len(alive)} candidates"
        tick = progress(label, len(cells) * (games - done)) if progress else None
        played = play_cells(view, cells, search.seed, jobs, store, progress=tick)
        _add(totals, played)
        failed += played.failed
        for n, name in enumerate(alive):
            for k in range(per):
                record[name][k] += played.games[n * per + k]
        # a candidate's score over every game it has played: the earlier stages' seeds, and this stage's
        scores = {name: rank(record[name], weights, len(search.maps)) for name in alive}
        estimates.update(scores)
        stages.append(Stage(len(alive), games, played.played + played.from_store, max(scores.values())))
        if played.interrupted or played.stopped:
            interrupted, stopped, crashed = played.interrupted, played.stopped, played.crashed
            break
        keep = math.ceil(len(alive) / search.eta)
        if keep <= search.finalists:
            break  # the finalists are measured afresh: one more stage would not change who they are much
        alive = sorted(alive, key=lambda a: (-scores[a], a))[:keep]
        done, games = games, games * search.eta
    finalists = sorted(alive, key=lambda a: (-estimates.get(a, 0.0), a))[: search.finalists]
    final_seed = int(np.random.SeedSequence([search.seed, FINAL_SEED_KEY]).generate_state(1)[0])
    measured = finalists + ([a for a in opponents if a not in armies] if references else [])
    result_games = pd.DataFrame()
    rows_out: list[dict[str, Any]] = []
    if not (interrupted or stopped):
        final_games = search.final + search.final % 2
        cells = _cells(library, measured, armies, opponents, search, 0, final_games, pieces)
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
        interrupted, stopped, crashed = played.interrupted, played.stopped, played.crashed
        result_games = _frames(played, measured, opponents, search.maps)
        rows_out = summarize_builds(result_games, measured, field_armies, pieces.with_armies(armies), estimates)
    builds = [r for r in rows_out if r["name"] in armies]
    refs = [r for r in rows_out if r["name"] not in armies]
    looks = list(first_look)
    if search.objective == "auto" and refs and not result_games.empty and len(field_armies) > 1:
        looks.insert(0, ("the final games", dominant_army(result_games, field_armies)))
    shown = army_names(pieces.data, [a for a, _ in field_armies])
    objective = choose_objective(search.objective, looks, len(field_armies), shown)
    objective["race"] = race_objective
    _mark_sidegrades(builds, result_games, field_armies, objective["objective"])
    result_games, ranked = name_by_rank(builds, result_games, armies, opponents)
    comparison = compare_with_field(builds, refs, result_games, field_armies, search.maps, objective, shown)
    settings = {
        "budget": constraints.budget,
        "include": list(constraints.include),
        "exclude": list(constraints.exclude),
        "cabals": list(constraints.cabals),
        "classes": list(constraints.classes),
        **({"crypt": extras["crypt"][:6], "victims": extras["victims"]} if pieces.has_cards else {}),
        "objects": extras["objects"],
        "field": [{"army": a, "name": shown[a], "weight": w} for a, w in field_armies],
        "legal_space": space,
        "candidates": len(armies),
        "guided": bool(values),
        "final_seed": final_seed,
        **asdict(search),
        "objective_used": objective["objective"],
    }
    return BuildResult(
        builds,
        refs,
        stages,
        settings,
        result_games,
        ranked,
        comparison=comparison,
        interrupted=interrupted,
        failed=failed,
        stopped=stopped,
        crashed=crashed,
        played=totals["played"],
        from_store=totals["from_store"],
        seconds=totals["seconds"],
    )


def build_extras(
    pieces: HorrorPieces,
    constraints: Constraints,
    field_armies: Sequence[tuple[str, float]],
    values: dict[str, dict[str, float]] | None,
) -> dict[str, Any]:
    """What every candidate brings besides its figures: HorrorClix's crypt (--crypt, else `choose_crypt`), the
    victims and objects the field brings most; HeroClix's objects, the field's most common tokens (HX-SETUP-05)."""
    roster = pieces.data
    if not pieces.has_cards:  # the objects of the field's force of most weight that brings any
        brought = [pieces.armies[a].objects for a, _ in sorted(field_armies, key=lambda aw: (-aw[1], aw[0]))]
        return {"crypt": [], "victims": [], "objects": list(next((o for o in brought if o), DEFAULT_OBJECTS))}
    crypt = list(constraints.crypt) or choose_crypt(roster, field_armies, (values or {}).get("cards"))
    victims = _common(roster, field_armies, "victims", 6)
    if len(victims) < 6:
        victims = builder(pieces.ruleset).default_victims(roster)
    return {"crypt": crypt, "victims": victims, "objects": _common(roster, field_armies, "objects", 2)}


def _taken(prefix: str, opponents: Sequence[str]) -> bool:
    """Whether a field army's name could be one of the race names `prefix`-N."""
    return any(o.startswith(prefix + "-") for o in opponents)


def _add(totals: dict[str, Any], played: Played) -> None:
    totals["played"] += played.played
    totals["from_store"] += played.from_store
    totals["seconds"] += played.seconds
