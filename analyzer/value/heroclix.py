"""`clix value --ruleset heroclix-2005`: what each HeroClix character is worth in points, by `clix value`'s model.

Random near-full legal forces of one build total (engine/heroclix/armybuilder.py `random_force`) each meet
`opponents` others around a shuffled ring (`design.pairings`) and themselves a character short, in seat-swapped
pairs on every map and style; the additive logistic model of `analyzer.value.model` (a character's worth = the cost
line plus its own departure, a normal prior on each; no cards: HeroClix has no crypt) is fitted to the games and
bootstrapped over the forces. Each character's value, its 95% interval and its cost-curve residual (value - cost,
with `model.verdict`'s tiers). Not yet for HeroClix: the holdout check, --predict, --pool, the swap test and the
HTML report (value.csv, value.json and games.csv are written). Games nobody is defeated in are draws (`TIES`)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.play.experiment import Cell, army_data, play_cells
from clix.analyzer.play.result import ended_early, run_exit_code
from clix.analyzer.play.runner import Matchup
from clix.analyzer.value.design import pairings
from clix.analyzer.value.model import Features, _interval, fit_values, game_table, verdict
from clix.engine import compiled
from clix.engine.core.ruleset import ruleset_named
from clix.engine.heroclix.armybuilder import IllegalForce, random_force
from clix.engine.heroclix.library import Force, Library
from rich.console import Console

TIES = "draw"
"""How the design's games end on equal VP or with nobody defeated: as draws. HX-END-11 gives such a game to the
force built with fewer points, a rule against points by construction: in games with few knockouts (the random
player's) it, not the characters, would decide most games and turn the cost line upside down."""


@dataclass(frozen=True)
class HeroDesign:
    """What a HeroClix value run plays: `forces` random forces of `budget`, each against `opponents` others and
    itself a character short, `games` games (whole seat-swapped pairs) per matchup on every map and style."""

    ruleset: str
    budget: int
    forces: int
    opponents: int
    games: int
    maps: tuple[str, ...]
    styles: tuple[str, ...]
    turns: int = 15
    seed: int = 0


def design_forces(library: Library, design: HeroDesign) -> tuple[dict[str, Force], dict[str, str]]:
    """The random forces (random-001 ...), from a generator seeded by the master seed, and each one's variant a
    character short (NAME-less, the character drawn at random; a force of one character has none); with, for
    each variant, the force it was made from (the bootstrap draws them together)."""
    rng = np.random.default_rng([design.seed, design.budget, 1])
    width = len(str(design.forces))
    forces = {}
    for i in range(design.forces):
        name = f"random-{i + 1:0{width}d}"
        try:
            made = random_force(library, design.budget, rng, name)
        except IllegalForce as exc:
            raise ClixError(f"--budget {design.budget}: {exc}") from None
        forces[name] = made.model_copy(update={"provenance": "random force (clix value)"})
    short, parents = {}, {}
    drop_rng = np.random.default_rng([design.seed, design.budget, 6])
    for name, force in forces.items():
        if len(force.characters) < 2:
            continue
        drop = int(drop_rng.integers(len(force.characters)))
        kept = [c for k, c in enumerate(force.characters) if k != drop]
        short[f"{name}-less"] = force.model_copy(update={"name": f"{name}-less", "characters": kept})
        parents[f"{name}-less"] = name
    return forces | short, parents


def design_cells(layers: tuple[Path, ...], forces: Mapping[str, Force], design: HeroDesign) -> list[Cell]:
    """Every pairing of the ring and every force against itself a character short, on every map and style."""
    names = [n for n in forces if not n.endswith("-less")]
    matches = [(names[i], names[j]) for i, j in pairings(len(names), design.opponents, design.seed)]
    matches += [(n, f"{n}-less") for n in names if f"{n}-less" in forces]
    cells = []
    for a, b in matches:
        given = ((a, army_data(forces[a])), (b, army_data(forces[b])))
        for map_name in design.maps:
            for style in design.styles:
                matchup = Matchup(layers, a, b, map_name, style, style, design.turns, TIES, given, design.ruleset)
                cells.append(Cell(matchup, 0, design.games))
    return cells


def force_features(library: Library, forces: Mapping[str, Force], parents: Mapping[str, str]) -> Features:
    """`model.Features` of the forces: each character's copies per force (no cards), the variants grouped with
    their forces."""
    characters = sorted(
        {c for f in forces.values() for c in f.characters}, key=lambda c: (library.characters[c].points, c)
    )
    index = {c: i for i, c in enumerate(characters)}
    counts = np.zeros((len(forces), len(characters)))
    for row, force in enumerate(forces.values()):
        for c in force.characters:
            counts[row, index[c]] += 1
    costs = np.array([library.characters[c].points for c in characters], dtype=float)
    names = list(forces)
    groups = pd.factorize(pd.Series([parents.get(n, n) for n in names], dtype=object))[0]
    return Features(names, characters, [], costs, counts, np.zeros((len(forces), 0)), np.asarray(groups))


def run_hero_value(
    library: Library,
    layers: tuple[Path, ...],
    design: HeroDesign,
    *,
    jobs: int | None,
    out: Any,
    as_json: bool,
    console: Console,
    resamples: int,
    stop_on_error: bool = False,
) -> int:
    """Play the design, fit, print each character's value (or JSON) and write value.csv, value.json and games.csv
    to `out`; return the exit code."""
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.report.folder import claim_output, writing

    forces, parents = design_forces(library, design)
    cells = design_cells(layers, forces, design)
    with claim_output(out) as folder:
        with progress_bar(console, f"value at {design.budget} points", len(cells) * design.games, as_json) as advance:
            played = play_cells(library, cells, design.seed, jobs, progress=advance, stop_on_error=stop_on_error)
        rows = [{**row, "cell": number} for number, found in enumerate(played.games) for row in found]
        ended_early(len(rows), "games", played.interrupted, played.stopped, len(played.failed), played.crashed)
        if not rows:
            raise ClixError("no game of the design finished: nothing to fit")
        games = pd.DataFrame(rows)
        features = force_features(library, forces, parents)
        fit = fit_values(features, game_table(games, features), resamples, design.seed)
        values = character_rows(library, fit)
        settings = _settings(design, played, jobs, resamples)
        model = {"lambda": fit.lam, "games": fit.games, "pairs": fit.pairs, "forces": len(features.names)}
        with folder.staged() as staging:
            written = {"csv": staging / "value.csv", "json": staging / "value.json", "games": staging / "games.csv"}
            with writing(written["csv"]):
                pd.DataFrame(values).to_csv(written["csv"], index=False)
            with writing(written["json"]):
                document = {"settings": settings, "model": model, "values": values}
                written["json"].write_text(json.dumps(document, indent=1, default=str), encoding="utf-8")
            with writing(written["games"]):
                games.to_csv(written["games"], index=False)
        written = {k: folder.final(p) for k, p in written.items()}
    if as_json:
        payload = {"settings": settings, "model": model, "values": values}
        sys.stdout.write(
            json.dumps({**payload, "outputs": {k: str(v) for k, v in written.items()}}, default=str) + "\n"
        )
    else:
        print_lines(console, value_lines(values, settings, model))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def character_rows(library: Library, fit: Any) -> list[dict[str, Any]]:
    """Each character the forces fielded, cheapest first: its cost, value with a 95% interval, residual (value -
    cost) with its interval and verdict, and the forces that fielded it."""
    features = fit.features
    low, high = _interval(fit.figure_draws)
    rlow, rhigh = _interval(fit.figure_draws - features.costs)
    rows = []
    for i, cid in enumerate(features.figures):
        cost, value = float(features.costs[i]), float(fit.figure_values[i])
        residual = value - cost
        rows.append(
            {
                "character": cid,
                "name": library.characters[cid].name,
                "cost": cost,
                "value": round(value, 3),
                "low": round(float(low[i]), 3),
                "high": round(float(high[i]), 3),
                "residual": round(residual, 3),
                "residual_low": round(float(rlow[i]), 3),
                "residual_high": round(float(rhigh[i]), 3),
                "verdict": verdict(float(rlow[i]), float(rhigh[i]), residual),
                "forces": int((features.counts[:, i] > 0).sum()),
            }
        )
    return rows


def value_lines(values: list[dict[str, Any]], settings: dict[str, Any], model: dict[str, Any]) -> list[str]:
    """The console table: each character's cost, value [95%], residual and verdict."""
    from clix.analyzer.ladder.command import text_table

    head = ["character", "cost", "value [95%]", "residual", "verdict", "forces"]
    body = [
        [
            r["character"],
            f"{r['cost']:.0f}",
            f"{r['value']:.0f} [{r['low']:.0f}, {r['high']:.0f}]",
            f"{r['residual']:+.0f}",
            r["verdict"],
            str(r["forces"]),
        ]
        for r in values
    ]
    return [
        f"value of {len(values)} HeroClix characters at {settings['budget']} points: {settings['forces']} random forces "
        f"x {settings['opponents']} opponents, {model['games']} games ({model['pairs']} pairs) on "
        f"{', '.join(settings['maps'])}, players {', '.join(settings['players'])}",
        *("  " + line for line in text_table([head, *body])),
        "  value: points of cost the games say the character is worth (one point of cost is worth one point on "
        'average); residual: value - cost, a verdict at 3.5 bootstrap standard errors ("leans" at the 95% interval)',
    ]


def _settings(design: HeroDesign, played: Any, jobs: int | None, resamples: int) -> dict[str, Any]:
    return {
        "budget": design.budget,
        "forces": design.forces,
        "opponents": design.opponents,
        "games_per_matchup": design.games,
        "maps": list(design.maps),
        "players": list(design.styles),
        "turns": design.turns,
        "ties": TIES,
        "seed": design.seed,
        "resamples": resamples,
        "ruleset": ruleset_named(design.ruleset).version,
        "engine": compiled.status,
        "jobs": jobs or os.cpu_count(),
        "seconds": round(played.seconds, 2),
        "played": played.played,
        "interrupted": played.interrupted,
        "failed_games": played.failed,
        "command": (
            f"clix value --ruleset {design.ruleset} --budget {design.budget} --armies {design.forces} --opponents "
            f"{design.opponents} --games {design.games} --maps {','.join(design.maps)} --players "
            f"{','.join(design.styles)} --seed {design.seed} --turns {design.turns}"
        ),
    }
