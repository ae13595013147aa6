"""`clix ladder`: a round robin of player styles on mirror matchups, rated with a Bradley-Terry model.

Every cell (style pair, army, map) plays army X with style s against army X with style t, so the armies
cancel out and only the players' skill remains. Every cell uses the same master seed (common random
numbers): the cells differ only in what is being compared. All cells' games are planned as one list of
batches over both cores; each game depends only on its matchup, the seed and its index, so the results
are the same for any number of jobs or batch size.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from clix.analyzer.common import checks
from clix.analyzer.common import names as display
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.progress import progress_bar
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.ladder.ratings import PAIR_KEY as PAIR_KEY
from clix.analyzer.ladder.ratings import fit_ratings as fit_ratings
from clix.analyzer.ladder.ratings import ladder_summary
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.result import ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import (
    PLAYER_STYLES,
    SEARCH,
    Matchup,
    batch_size_for,
    game_seed_path,
    kit,
    play_one,
    player_factory,
    search_budget,
)
from clix.analyzer.report.folder import Interrupted, Target, claim_output
from clix.analyzer.stats.scoring import percent
from clix.engine import RULESET_VERSION, compiled
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

WIDTH = 100
"""The console table must fit this many columns."""


# --- playing many small cells -------------------------------------------------------------------------


@dataclass
class CellsResult:
    """Each cell's game rows (in game order), which cells finished, and whether the run was cut short."""

    games: list[list[dict[str, Any]]] = field(default_factory=list)
    complete: list[bool] = field(default_factory=list)
    """Every game of the cell was played or failed (none left out by an interruption)."""
    interrupted: bool = False
    seconds: float = 0.0
    failed: list[dict[str, Any]] = field(default_factory=list)
    """Games not played: {cell, game, seed_path, reason}."""
    stopped: bool = False


def _play_row(master_seed: int, item: tuple[Matchup, int]) -> dict[str, Any]:
    matchup, index = item
    return play_one(matchup, master_seed, index)[0]


def describe_cell_game(matchup: Matchup, index: int) -> str:
    """A failed game of a cell: "game 3 of rusher vs hunter, butcher-shop on graveyard (seed path 1)"."""
    path = ":".join(map(str, game_seed_path(matchup, index)))
    return (
        f"game {index} of {matchup.style_a} vs {matchup.style_b}, {matchup.army_a} on {matchup.map_name} "
        f"(seed path {path})"
    )


def run_cells(
    matchups: Sequence[Matchup],
    games: int,
    master_seed: int,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    batch_size: int | None = None,
    report: Callable[[str], None] | None = None,
    stop_on_error: bool = False,
) -> CellsResult:
    """Play `games` games (rounded up to pairs) of every matchup with the same master seed, in one pool.

    Cell i's games are exactly `run_matchup(matchups[i], games, master_seed)`'s. A KeyboardInterrupt stops
    the run and keeps what finished (`interrupted` is set; `complete` tells which cells have every game).
    Games whose worker died twice, or that raised, are in `failed` and named on `report` (as in `run_matchup`).
    """
    games += games % 2
    cores = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    keys = [(cell, index) for cell in range(len(matchups)) for index in range(games)]
    items = [(matchups[cell], index) for cell, index in keys]
    started = time.perf_counter()
    outcome = run_items(
        partial(_play_row, master_seed),
        items,
        cores,
        batch_size or batch_size_for(len(items), cores),
        describe=lambda position: describe_cell_game(*items[position]),
        report=report or report_line,
        progress=progress,
        stop_on_error=stop_on_error,
    )
    result = CellsResult(games=[[] for _ in matchups], complete=[False] * len(matchups))
    result.interrupted, result.stopped = outcome.interrupted, outcome.stopped
    settled = [0] * len(matchups)
    for position in sorted(outcome.results):
        cell, _ = keys[position]
        result.games[cell].append(outcome.results[position])
        settled[cell] += 1
    for position, why in sorted(outcome.failed.items()):
        cell, index = keys[position]
        path = ":".join(map(str, game_seed_path(matchups[cell], index)))
        result.failed.append({"cell": cell, "game": index, "seed_path": path, "reason": why})
        settled[cell] += 1
    result.complete = [count == games for count in settled]
    result.seconds = time.perf_counter() - started
    return result


# --- the command ----------------------------------------------------------------------------------------


def _names(
    spec: str | None, known: Sequence[str], what: str, option: str, listing: str = "", styles: bool = False
) -> list[str]:
    if spec is None:
        return list(known)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ClixError(f"{option}: name at least one {what}")
    for name in names:
        if styles and (name == SEARCH or name.startswith(SEARCH + ":")):
            search_budget(name)  # a budget of the search player: checked, and any may be named
        elif name not in known:
            raise ClixError(f"{option}: " + did_you_mean(what, name, (*known, SEARCH) if styles else known, listing))
        if names.count(name) > 1:
            raise ClixError(f"{option}: {name} is named twice")
    return names


def ladder_matchups(
    library: Path | tuple[Path, ...],
    styles: Sequence[str],
    armies: Sequence[str],
    maps: Sequence[str],
    turns: int,
    ruleset: str = DEFAULT_RULESET,
) -> list[Matchup]:
    """Every cell of the ladder: army X (style s) vs army X (style t) for every unordered style pair, army
    and map. Ordered army, map, style pair, so that an interrupted run still covers every style pair."""
    return [
        Matchup(library, army, army, map_name, s, t, turns, ruleset=ruleset)
        for army in armies
        for map_name in maps
        for s, t in itertools.combinations(styles, 2)
    ]


def run_ladder(
    roster: Roster | Any,
    library: Path | tuple[Path, ...],
    *,
    players: str | None,
    armies: str | None,
    maps: str | None,
    games: int,
    seed: int,
    jobs: int | None,
    turns: int,
    out: Path | Target,
    as_json: bool,
    console: Console,
    resamples: int = 200,
    stop_on_error: bool = False,
    pdf: bool = False,
    ruleset: str = DEFAULT_RULESET,
) -> int:
    """Play the ladder, print its table (or JSON) and write its outputs; return the exit code (as
    `run_duel`'s). `out` is claimed before the first game and replaced atomically after the last; `pdf` also
    writes ladder.pdf. `roster` is the library's data in `ruleset` (a HorrorClix `Roster`, a HeroClix `Library`),
    read through the ruleset's matchup kit."""
    styles, army_names, map_names, matchups = ladder_plan(roster, library, players, armies, maps, games, turns, ruleset)
    if pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    games += games % 2
    total = len(matchups) * games
    with claim_output(out) as folder:
        with progress_bar(console, f"ladder of {len(styles)} styles", total, as_json) as advance:
            played = run_cells(matchups, games, seed, jobs, progress=advance, stop_on_error=stop_on_error)
        finished = [m for m, done in zip(matchups, played.complete, strict=True) if done]
        ended_early(len(finished), f"of {len(matchups)} cells", played.interrupted, played.stopped, len(played.failed))
        if not finished:
            if played.interrupted:
                raise Interrupted("interrupted before any cell finished")
            report_line("no cell finished: each had a failed game (named above); nothing to report")
            return run_exit_code(False, True, played.stopped)
        games_df, summary, settings = ladder_outcome(
            matchups,
            played,
            styles,
            army_names,
            map_names,
            games=games,
            seed=seed,
            turns=turns,
            jobs=jobs,
            resamples=resamples,
            ruleset=ruleset,
            data=roster,
        )
        with folder.staged() as staging:
            written = write_ladder(staging, summary, games_df, settings, pdf=pdf, kind=kit(ruleset).army_kind)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        verdict = ladder_headline(summary, settings)
        payload = {
            "settings": settings,
            "verdict": verdict,
            **summary,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        print_json(payload)
    else:
        # the heading and the headline wrap to the terminal; the indented table and legend are printed whole
        print_lines(console, ladder_lines(summary, settings, kit(ruleset).army_kind), keep=("  ",))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def ladder_plan(
    roster: Roster | Any,
    library: Path | tuple[Path, ...],
    players: str | None,
    armies: str | None,
    maps: str | None,
    games: int,
    turns: int,
    ruleset: str = DEFAULT_RULESET,
) -> tuple[list[str], list[str], list[str], list[Matchup]]:
    """The ladder's styles, armies and maps (each named one checked; none named: every one) and its cells, all
    its games within a run's limit (a ClixError naming the option if not). The styles, armies and maps are those
    of `ruleset`'s matchup kit (`roster` its data)."""
    if ruleset == DEFAULT_RULESET:
        styles = _names(players, PLAYER_STYLES, "player style", "--players", styles=True)
        if len(styles) < 2:
            raise ClixError("--players: a ladder needs at least two styles")
        known_armies, known_maps, kind = sorted(roster.armies), sorted(roster.maps), "army"
    else:
        styles, known_armies, known_maps, kind = _ruleset_names(roster, players, ruleset)
    listing = f"`clix roster list {_plural(kind)}` shows every {kind}"
    army_names = _names(armies, known_armies, kind, "--armies", listing)
    map_names = _names(maps, known_maps, "map", "--maps")
    matchups = ladder_matchups(library, styles, army_names, map_names, turns, ruleset)
    checks.cells_games(games, len(matchups))
    return styles, army_names, map_names, matchups


def _ruleset_names(data: Any, players: str | None, ruleset: str) -> tuple[list[str], list[str], list[str], str]:
    """A ladder of `ruleset` (not HorrorClix): its styles (the kit's, each named one checked; at least two), its
    armies and maps (the kit's, by id) and what it calls an army."""
    rules = kit(ruleset)
    styles = _names(players, list(rules.styles), f"{ruleset} player style", "--players")
    for style in styles:
        player_factory(style, ruleset)
    if len(styles) < 2:
        has = ", ".join(rules.styles)
        raise ClixError(f"--players: a ladder needs at least two styles (the {ruleset} players are {has})")
    return styles, sorted(rules.armies(data)), sorted(rules.maps(data)), str(rules.army_kind)


def ladder_outcome(
    matchups: Sequence[Matchup],
    played: CellsResult,
    styles: list[str],
    army_names: list[str],
    map_names: list[str],
    *,
    games: int,
    seed: int,
    turns: int,
    jobs: int | None,
    resamples: int,
    ruleset: str = DEFAULT_RULESET,
    data: Any = None,
) -> tuple[pd.DataFrame, dict[str, Any], dict[str, Any]]:
    """The games of the finished cells, the ladder's summary (ratings, scores) and its settings; `games` per cell,
    in whole pairs. `data` (the ruleset's library data) names the armies as shown (`analyzer.common.names`)."""
    games_df = ladder_games(matchups, played)
    summary = ladder_summary(games_df, styles, seed, resamples)
    played_games = len(games_df)
    finished = sum(played.complete)
    settings = {
        "players": styles,
        "armies": army_names,
        "shown_armies": display.army_names(data, army_names),
        "maps": map_names,
        "games_per_cell": games,
        "cells": finished,
        "games": played_games,
        "seed": seed,
        "turns": turns,
        "resamples": resamples,
        "ruleset": RULESET_VERSION if ruleset == DEFAULT_RULESET else ruleset_named(ruleset).version,
        "jobs": jobs or os.cpu_count(),
        "seconds": round(played.seconds, 2),
        "games_per_second": round(played_games / max(played.seconds, 1e-9), 2),
        "engine": compiled.status,
        "interrupted": played.interrupted,
        "failed_games": [_failed_row(matchups, f) for f in played.failed],
        "stopped_on_error": played.stopped,
        "command": (
            f"clix ladder --players {','.join(styles)} --armies {','.join(army_names)} --maps {','.join(map_names)} "
            f"--games {games} --seed {seed} --turns {turns}"
        ),
    }
    return games_df, summary, settings


def _failed_row(matchups: Sequence[Matchup], failed: dict[str, Any]) -> dict[str, Any]:
    """A failed game of a cell as the outputs list it: its cell named by styles, army and map."""
    m = matchups[failed["cell"]]
    return {"style_a": m.style_a, "style_b": m.style_b, "army": m.army_a, "map": m.map_name, **failed}


def ladder_games(matchups: Sequence[Matchup], played: CellsResult) -> pd.DataFrame:
    """Every game of the finished cells, with columns style_a, style_b, army and map first."""
    rows = [
        {"style_a": m.style_a, "style_b": m.style_b, "army": m.army_a, **row}
        for m, rows, done in zip(matchups, played.games, played.complete, strict=True)
        if done
        for row in rows
    ]
    frame = pd.DataFrame(rows)
    first = ["style_a", "style_b", "army", "map"]
    return frame[first + [c for c in frame.columns if c not in first]]


def text_table(rows: list[list[str]], gap: int = 2) -> list[str]:
    """Left-aligned columns, each as wide as its widest cell."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return [(" " * gap).join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _rating(r: dict[str, Any]) -> str:
    return f"{r['rating']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]"


def ladder_headline(summary: dict[str, Any], settings: dict[str, Any]) -> str:
    """The run's answer in one sentence, with its size: the style with the highest rating and whether it beats the
    next one head to head (its pair interval above 50%), with its score against the field."""
    ranked = sorted(summary["ratings"], key=lambda r: r["rating"], reverse=True)
    top, size = ranked[0], f"{settings['games']} games on {settings['cells']} cells"
    field = _field(top)
    against = f"{percent(field)} against the field"
    if len(ranked) < 2:
        return f"{top['style']} scores {against} ({size})."
    second = ranked[1]["style"]
    head = summary["matrix"].get(top["style"], {}).get(second)
    if head is not None and head["low"] > 0.5:
        return f"{top['style']} is the strongest style: {percent(head)} against {second}, the next, and {against} ({size})."
    shown = percent(head) if head is not None else "not played"
    return (
        f"No style is shown the strongest: {top['style']} leads on rating but scores {shown} against {second}, the "
        f"next ({against}; {size})."
    )


def ladder_lines(summary: dict[str, Any], settings: dict[str, Any], kind: str = "army") -> list[str]:
    """The console report: a heading, the table of ratings and scores (within 100 columns), a legend; `kind`:
    what the ruleset calls an army ("army", "force")."""
    styles = summary["styles"]
    by_style = {r["style"]: r for r in summary["ratings"]}
    head = ["style", "rating [95%]", "vs field"]
    body = [[s, _rating(by_style[s]), percent(_field(by_style[s]))] for s in styles]
    matrix = [
        [s] + [percent(summary["matrix"][s][t]) if t in summary["matrix"][s] else "–" for t in styles] for s in styles
    ]
    lines = [
        f"ladder of {len(styles)} styles on mirror matchups ({_count(settings['armies'], kind, _plural(kind))} x "
        f"{_count(settings['maps'], 'map', 'maps')}): {settings['cells']} cells x {settings['games_per_cell']} games",
        f"  {settings['games']} games, seed {settings['seed']}, turns {settings['turns']}, "
        f"{settings['games_per_second']} games/s",
        ladder_headline(summary, settings),
    ]
    for gap in (2, 1):
        table = text_table([head + styles] + [b + m[1:] for b, m in zip(body, matrix, strict=True)], gap)
        if max(len(line) for line in table) <= WIDTH:
            lines += ["  " + line for line in table]
            break
    else:  # too many styles for one table: ratings, then the score matrix
        lines += ["  " + line for line in text_table([head, *body])]
        lines += ["  " + line for line in text_table([["score", *styles], *matrix], 1)]
    lines += [
        "  score: the row's style against the column's (wins + ½ draws), 95% interval over seat-swapped",
        "  pairs; rating: Bradley-Terry in Elo points (mean 0), 95% bootstrap interval over pairs",
    ]
    trace = summary.get("skill_trace") or []
    if len(trace) > 1:
        steps = []
        for step in trace[1:]:
            versus = step["versus_smaller"]
            verdict = {True: "stronger", False: "weaker", None: "not shown stronger"}[step["stronger"]]
            shown = percent(versus) if versus else "not played"
            steps.append(f"{step['style']} vs {step['smaller']} {shown} ({verdict})")
        lines.append("  skill trace (search by budget): " + "; ".join(steps))
    if settings["interrupted"]:
        lines.append("  the run was interrupted: these results cover only the cells finished")
    return lines


def _plural(kind: str) -> str:
    return "armies" if kind == "army" else kind + "s"


def _count(names: Sequence[str], one: str, many: str) -> str:
    return f"{len(names)} {one if len(names) == 1 else many}"


def _field(r: dict[str, Any]) -> dict[str, Any]:
    return {"score": r["score"], "low": r["score_low"], "high": r["score_high"]}


def write_ladder(
    out: Path,
    summary: dict[str, Any],
    games_df: pd.DataFrame,
    settings: dict[str, Any],
    pdf: bool = False,
    kind: str = "army",
) -> dict[str, Path]:
    """Write ladder.csv (one row per style pair), games.csv and ladder.html (and with `pdf` ladder.pdf) to `out`;
    return the paths. A failed write names its file. `kind`: what the ruleset calls an army."""
    from clix.analyzer.report.duel import TEMPLATES, write_pdf
    from clix.analyzer.report.folder import writing
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    written = {"ladder_csv": out / "ladder.csv", "games_csv": out / "games.csv", "report": out / "ladder.html"}
    columns = ["style_a", "style_b", "games", "pairs", "score", "low", "high"]
    with writing(written["ladder_csv"]):
        pd.DataFrame(summary["pairs"], columns=columns).to_csv(written["ladder_csv"], index=False)
    with writing(written["games_csv"]):
        games_df.to_csv(written["games_csv"], index=False)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("ladder.html.j2").render(
        headline=ladder_headline(summary, settings),
        summary=summary,
        settings=settings,
        percent=percent,
        kind=kind,
        kinds=_plural(kind),
        some=f"{kind}(ies)" if kind == "army" else f"{kind}(s)",
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "ladder.pdf")
    return written
