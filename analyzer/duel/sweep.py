"""`clix duel A B --players sweep`: the duel under every pairing of the heuristic styles.

Each pairing (A's style, B's style) plays the same games' seeds (common random numbers), so the pairings
differ only in how the armies are played. The verdict says whether the duel's answer survives a change of
play style among styles of comparable strength: "robust" when every pairing of styles within COMPARABLE_ELO of
the default's rating (STYLE_RATINGS, measured by `clix ladder`) has its interval on the same side of 50%. The
pairings where a side plays a weaker style are shown apart, as "against weaker play": a weaker player losing
more is not a different plan.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.names import settings_names, side_names
from clix.analyzer.common.progress import progress_bar
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.ladder.command import run_cells, text_table
from clix.analyzer.play.result import ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import DEFAULT_STYLE, SWEPT_STYLES, Matchup, kit
from clix.analyzer.report.folder import Interrupted, Target, claim_output, writing
from clix.analyzer.stats.duel import pair_score
from clix.analyzer.stats.scoring import percent
from clix.engine import compiled
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

ROBUST = "robust"
DEPENDS = "depends on play style"

STYLE_RATINGS: dict[str, float] = {"tuned": 0.0, "rusher": -41.0, "hunter": -65.0, "balanced": -63.0}
"""Each heuristic style's rating in Elo points against `tuned`: -400 log10(s / (1 - s)) of tuned's score s against
it in RATINGS_SOURCE (tuned scored 55.8% [53.1-58.6] against rusher, 59.3% [56.5-62.0] against hunter, 59.0%
[56.2-61.8] against balanced, 540 seat-swapped pairs each; Bradley-Terry over the whole ladder: -46, -52, -71). A
style missing here is taken as comparable (its strength is unknown)."""
RATINGS_SOURCE = (
    "clix ladder --players tuned,balanced,rusher,hunter --games 60 --seed 32 --jobs 1, every sample army's mirror "
    "on both maps, 6,480 games, compiled engine, 2026-11-26"
)
COMPARABLE_ELO = 50.0
"""A style is of comparable strength when its rating is within this many Elo points of the default style's
(50 Elo: a 57% score between the two); a style further below is "weaker play"."""


def pairing(cell: dict[str, Any]) -> str:
    """A pairing's name: "A's style vs B's style"."""
    return f"{cell['style_a']} vs {cell['style_b']}"


def _side(cell: dict[str, Any]) -> str | None:
    """ "above" or "below" when the whole interval lies on that side of 50%, else None."""
    if cell["low"] > 0.5:
        return "above"
    if cell["high"] < 0.5:
        return "below"
    return None


def weaker_styles(
    styles: list[str],
    default: str = DEFAULT_STYLE,
    ratings: dict[str, float] | None = None,
    distance: float = COMPARABLE_ELO,
) -> list[str]:
    """The styles rated more than `distance` Elo below `default` (from `ratings`, STYLE_RATINGS by default);
    styles without a rating, or when the default has none, are never weaker."""
    rated = STYLE_RATINGS if ratings is None else ratings
    if default not in rated:
        return []
    return [s for s in styles if s in rated and rated[s] < rated[default] - distance]


def _verdict(cells: list[dict[str, Any]], army_a: str, army_b: str, default: str) -> dict[str, Any]:
    """{label, favoured, disagreeing} over `cells` (see `sweep_verdict`)."""
    favoured_by = {"above": army_a, "below": army_b}
    sides = [_side(c) for c in cells]
    if sides and sides[0] is not None and all(s == sides[0] for s in sides):
        return {"label": ROBUST, "favoured": favoured_by[sides[0]], "disagreeing": []}
    reference_cell = next((c for c in cells if c["style_a"] == default and c["style_b"] == default), None)
    reference = _side(reference_cell) if reference_cell is not None else None
    disagreeing = [pairing(c) for c, s in zip(cells, sides, strict=True) if s is None or s != reference]
    return {
        "label": DEPENDS,
        "favoured": favoured_by.get(reference) if reference else None,
        "disagreeing": disagreeing,
    }


def sweep_verdict(
    cells: list[dict[str, Any]],
    army_a: str,
    army_b: str,
    default: str = DEFAULT_STYLE,
    ratings: dict[str, float] | None = None,
    distance: float = COMPARABLE_ELO,
) -> dict[str, Any]:
    """The verdict over the pairings of comparable styles (neither side more than `distance` Elo below the
    `default` style in `ratings`, STYLE_RATINGS by default), with the other pairings apart as "against weaker
    play".

    {label, favoured, disagreeing} are over the comparable pairings: "robust" when every one's interval lies on
    the same side of 50%; otherwise "depends on play style", naming the pairings whose interval contains 50% or
    lies on the other side from the default pairing (`default` vs `default`), `favoured` being the army the
    default pairing clearly favours, if any. `rule` says which pairings the verdict covers (every pairing when
    none of comparable styles finished); `comparable` and `weaker` list the styles; `weaker_play` gives the
    weaker pairings' count, score range and those on another side than the verdict's (None when there are
    none).
    """
    styles = list(dict.fromkeys([c["style_a"] for c in cells] + [c["style_b"] for c in cells]))
    weaker = weaker_styles(styles, default, ratings, distance)
    comparable = [s for s in styles if s not in weaker]
    even = [c for c in cells if c["style_a"] not in weaker and c["style_b"] not in weaker]
    others = [c for c in cells if c not in even]
    if weaker and even:
        rule = f"over the {len(even)} pairing{'s' * (len(even) != 1)} of styles within {distance:g} Elo of {default} ({', '.join(comparable)})"
    elif weaker:
        rule = f"over every pairing (none of styles within {distance:g} Elo of {default} finished)"
        even, others = cells, []
    else:
        rule = f"over every pairing (no style rated more than {distance:g} Elo below {default})"
    verdict = _verdict(even, army_a, army_b, default)
    verdict["range"] = score_range(even) if even else None
    weaker_play = None
    if others:
        wanted = {army_a: "above", army_b: "below"}.get(verdict["favoured"] or "")
        weaker_play = {
            "pairings": len(others),
            "range": score_range(others),
            "other_side": [pairing(c) for c in others if _side(c) != wanted] if wanted else [],
        }
    return {
        **verdict,
        "rule": rule,
        "distance": distance,
        "comparable": comparable,
        "weaker": weaker,
        "weaker_play": weaker_play,
    }


def score_range(cells: list[dict[str, Any]]) -> dict[str, Any]:
    """The lowest and highest of A's scores over the pairings, with the pairings' names."""
    low = min(cells, key=lambda c: c["score"])
    high = max(cells, key=lambda c: c["score"])
    return {"low": low["score"], "high": high["score"], "low_pairing": pairing(low), "high_pairing": pairing(high)}


def sweep_styles(ruleset: str) -> tuple[list[str], str, dict[str, float]]:
    """The styles a sweep pairs in `ruleset` (its kit's styles but `random`), its default style and their ratings
    (HorrorClix's `STYLE_RATINGS`; another ruleset's styles are unrated, so all comparable); a ClixError when the
    ruleset has no style to sweep."""
    if ruleset == DEFAULT_RULESET:
        return list(SWEPT_STYLES), DEFAULT_STYLE, STYLE_RATINGS
    rules = kit(ruleset)
    styles = [style for style in rules.styles if style != "random"]
    if not styles:
        raise ClixError(
            f"--players sweep: {ruleset} has no player style to sweep yet (only {', '.join(rules.styles)}); "
            f"play a duel with --players {rules.default_style}"
        )
    return styles, str(rules.default_style), {}


def run_sweep(
    roster: Any,
    library: Path | tuple[Path, ...],
    army_a: str,
    army_b: str,
    *,
    games: int,
    map_name: str,
    players: str,
    seed: int,
    jobs: int | None,
    turns: int,
    out: Path | Target,
    as_json: bool,
    console: Console,
    ties: str = "break",
    stop_on_error: bool = False,
    ruleset: str = DEFAULT_RULESET,
) -> int:
    """Play the duel under every (A style, B style) pairing of the heuristic styles (those of `ruleset`'s kit); print
    A's score per pairing, its range and the verdict (or JSON); write sweep.csv and games.csv (`out` claimed before
    the first game, replaced atomically after the last). Return the exit code (as `run_duel`'s)."""
    rules = kit(ruleset)
    armies, maps, kind = rules.armies(roster), rules.maps(roster), str(rules.army_kind)
    for army in (army_a, army_b):
        if army not in armies:
            listing = "armies" if kind == "army" else f"{kind}s"
            raise ClixError(did_you_mean(kind, army, armies, f"`clix roster list {listing}` shows every {kind}"))
    if map_name not in maps:
        raise ClixError("--map: " + did_you_mean("map", map_name, maps))
    styles, default_style, ratings = sweep_styles(ruleset)
    matchups = [
        Matchup(library, army_a, army_b, map_name, a, b, turns, ties, ruleset=ruleset) for a in styles for b in styles
    ]
    checks.cells_games(games, len(matchups), what="pairings", one="pairing")
    games += games % 2
    names = side_names(roster, army_a, army_b)
    with claim_output(out) as folder:
        with progress_bar(
            console, f"{names['a']} vs {names['b']}, {len(matchups)} pairings", len(matchups) * games, as_json
        ) as advance:
            played = run_cells(matchups, games, seed, jobs, progress=advance, stop_on_error=stop_on_error)
        finished = sum(played.complete)
        ended_early(finished, f"of {len(matchups)} pairings", played.interrupted, played.stopped, len(played.failed))
        if not finished:
            if played.interrupted:
                raise Interrupted("interrupted before any pairing finished")
            report_line("no pairing finished: each had a failed game (named above); nothing to report")
            return run_exit_code(False, True, played.stopped)
        cells: list[dict[str, Any]] = []
        frames = []
        for matchup, rows, done in zip(matchups, played.games, played.complete, strict=True):
            if not done:
                continue
            frame = pd.DataFrame(rows)
            frame.insert(0, "style_b", matchup.style_b)
            frame.insert(0, "style_a", matchup.style_a)
            frames.append(frame)
            score = pair_score(frame, "A")
            cells.append({"style_a": matchup.style_a, "style_b": matchup.style_b, **score})
        games_df = pd.concat(frames, ignore_index=True)
        result = {
            "range": score_range(cells),
            "verdict": sweep_verdict(cells, army_a, army_b, default_style, ratings),
        }
        settings = {
            "army_a": army_a,
            "army_b": army_b,
            "army_a_name": names["a"],
            "army_b_name": names["b"],
            "map": map_name,
            "players": "sweep",
            "styles": styles,
            "default_style": default_style,
            "style_ratings": {s: ratings[s] for s in styles if s in ratings},
            "ratings_source": RATINGS_SOURCE,
            "comparable_elo": COMPARABLE_ELO,
            "games_per_pairing": games,
            "pairings": len(cells),
            "games": len(games_df),
            "seed": seed,
            "turns": turns,
            "ruleset": ruleset_named(ruleset).version,
            "jobs": jobs or os.cpu_count(),
            "seconds": round(played.seconds, 2),
            "engine": compiled.status,
            "interrupted": played.interrupted,
            "failed_games": [
                {"style_a": matchups[f["cell"]].style_a, "style_b": matchups[f["cell"]].style_b, **f}
                for f in played.failed
            ],
            "stopped_on_error": played.stopped,
            "command": f"clix duel {army_a} {army_b} --players sweep --games {games} --map {map_name} --seed {seed} "
            f"--turns {turns}",
        }
        weaker = set(result["verdict"]["weaker"])
        for c in cells:
            c["comparable"] = c["style_a"] not in weaker and c["style_b"] not in weaker
        columns = ["style_a", "style_b", "comparable", "games", "pairs", "score", "low", "high"]
        with folder.staged() as staging:
            written = {"sweep_csv": staging / "sweep.csv", "games_csv": staging / "games.csv"}
            with writing(written["sweep_csv"]):
                pd.DataFrame(cells, columns=columns).to_csv(written["sweep_csv"], index=False)
            with writing(written["games_csv"]):
                games_df.to_csv(written["games_csv"], index=False)
        written = {key: folder.final(path) for key, path in written.items()}
    if as_json:
        payload = {
            "settings": settings,
            "cells": [
                {k: c[k] for k in ("style_a", "style_b", "comparable", "score", "low", "high", "games")} for c in cells
            ],
            **result,
            "outputs": {k: str(v) for k, v in written.items()},
        }
        print_json(payload)
    else:
        print_lines(console, sweep_lines(cells, result, settings))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(played.interrupted, bool(played.failed), played.stopped)


def _rating(settings: dict[str, Any], style: str) -> str:
    rating = settings.get("style_ratings", {}).get(style)
    return f"{style} {rating:+.0f}" if rating is not None else f"{style} unrated"


def sweep_lines(cells: list[dict[str, Any]], result: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    """The console report: heading, A's score matrix (rows A's style, columns B's style), the verdict over the
    styles of comparable strength (naming its rule), the pairings against weaker play apart, and the ratings'
    source."""
    names = settings_names(settings)
    a, b = names["a"], names["b"]
    shown = {settings["army_a"]: a, settings["army_b"]: b}
    by_pairing = {(c["style_a"], c["style_b"]): c for c in cells}
    styles = settings["styles"]
    v = result["verdict"]
    weaker = set(v.get("weaker", []))
    mark = {s: f"{s}*" if s in weaker else s for s in styles}
    rows = [["A \\ B", *(mark[s] for s in styles)]]
    rows += [[mark[s], *(percent(by_pairing[s, t]) if (s, t) in by_pairing else "–" for t in styles)] for s in styles]
    default = settings["default_style"]
    every = f"{default} vs {default}"
    favoured_name = shown.get(v["favoured"], v["favoured"])
    if v["label"] == ROBUST:
        because = f"{favoured_name} favoured in every such pairing"
    else:
        favoured = f"{favoured_name} favoured by {every}" if v["favoured"] else f"no army clearly favoured by {every}"
        because = f"{favoured}; disagreeing: {', '.join(v['disagreeing'])}"
    lines = [
        f"sweep {a} vs {b} on {settings['map']}: {len(cells)} pairings x {settings['games_per_pairing']} games "
        f"(seed {settings['seed']}, turns {settings['turns']})",
        *("  " + line for line in text_table(rows)),
        f"  rows: A's style ({a}), columns: B's style ({b}); A's score: wins + ½ draws, 95% interval over pairs",
    ]
    if weaker:
        lines.append(
            f"  * weaker play: more than {v['distance']:g} Elo below {default} on the ladder "
            f"({', '.join(_rating(settings, s) for s in styles)} Elo against {default})"
        )
    r = v.get("range") or result["range"]
    lines += [
        f"  verdict: {v['label']} {v.get('rule', 'over every pairing')} ({because})",
        f"  A's score there ranges {100 * r['low']:.1f}% ({r['low_pairing']}) to {100 * r['high']:.1f}% "
        f"({r['high_pairing']})",
    ]
    w = v.get("weaker_play")
    if w:
        wr = w["range"]
        line = (
            f"  against weaker play ({', '.join(sorted(weaker, key=styles.index))}, {w['pairings']} pairings, not in the "
            f"verdict): A's score {100 * wr['low']:.1f}% ({wr['low_pairing']}) to {100 * wr['high']:.1f}% "
            f"({wr['high_pairing']})"
        )
        if v["favoured"]:
            line += (
                f"; not favouring {v['favoured']}: {', '.join(w['other_side'])}"
                if w["other_side"]
                else f"; {v['favoured']} favoured in each"
            )
        lines.append(line)
    if weaker:
        lines.append(f"  ratings: {settings.get('ratings_source', 'the ladder')}")
    if settings["interrupted"]:
        lines.append("  the run was interrupted: these results cover only the pairings finished")
    return lines
