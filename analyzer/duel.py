"""`clix duel`: one army against another over many seeded games, summarized and reported."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from analyzer.errors import ClixError
from analyzer.report import provenance_line, write_outputs
from analyzer.runner import Matchup, RunResult, player_factory, run_matchup
from analyzer.stats import summarize
from engine import RULESET_VERSION, compiled
from engine.roster.loader import Roster
from engine.roster.problems import did_you_mean


def parse_players(spec: str) -> tuple[str, str]:
    """ "A_STYLE,B_STYLE" (or one style for both)."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise ClixError(f"--players takes two styles separated by a comma, like balanced,rusher (got {spec!r})")
    for name in names:
        player_factory(name)
    return names[0], names[1]


def run_duel(
    roster: Roster,
    library: Path,
    army_a: str,
    army_b: str,
    *,
    games: int,
    map_name: str,
    players: str,
    seed: int,
    jobs: int | None,
    turns: int,
    out: Path,
    as_json: bool,
    console: Console,
    ties: str = "break",
) -> int:
    """Play the duel, print its summary and write its outputs; return the exit code."""
    if ties not in ("break", "draw"):
        raise ClixError(f"--ties takes 'break' (the cheaper army wins, HC-END-09) or 'draw' (got {ties!r})")
    if players.strip() == "sweep":
        from analyzer.sweep import run_sweep

        return run_sweep(
            roster,
            library,
            army_a,
            army_b,
            games=games,
            map_name=map_name,
            players=players,
            seed=seed,
            jobs=jobs,
            turns=turns,
            out=out,
            as_json=as_json,
            console=console,
            ties=ties,
        )
    for army in (army_a, army_b):
        if army not in roster.armies:
            raise ClixError(did_you_mean("army", army, roster.armies, "`clix roster list armies` shows every army"))
    if map_name not in roster.maps:
        raise ClixError("--map: " + did_you_mean("map", map_name, roster.maps))
    if roster.armies[army_a].build_total != roster.armies[army_b].build_total:
        console.print(
            f"note: the armies have different build totals ({roster.armies[army_a].build_total} and "
            f"{roster.armies[army_b].build_total}); the game uses the larger",
            markup=False,
        )
    style_a, style_b = parse_players(players)
    matchup = Matchup(library, army_a, army_b, map_name, style_a, style_b, turns, ties)
    result = _play(matchup, games, seed, jobs, quiet=as_json, console=console)
    if not result.games:
        raise ClixError("no game finished before the run was interrupted; nothing to report")
    games_df = pd.DataFrame(result.games)
    figures_df = pd.DataFrame(result.figures)
    summary = summarize(games_df, figures_df)
    names = {"a": army_a, "b": army_b}
    command = (
        f"clix duel {army_a} {army_b} --games {games} --map {map_name} --players {style_a},{style_b} "
        f"--seed {seed} --turns {turns}" + (" --ties draw" if ties == "draw" else "")
    )
    settings = {
        "army_a": army_a,
        "army_b": army_b,
        "map": map_name,
        "players": f"{style_a},{style_b}",
        "games": len(games_df),
        "seed": seed,
        "turns": turns,
        "ties": ties,
        "ruleset": RULESET_VERSION,
        "version": _version(),
        "jobs": jobs or os.cpu_count(),
        "seconds": round(result.seconds, 2),
        "games_per_second": round(len(games_df) / max(result.seconds, 1e-9), 2),
        "engine": compiled.status,
        "interrupted": result.interrupted,
        "command": command,
    }
    provenance = provenance_line(roster, [army_a, army_b])
    written = write_outputs(out, games_df, figures_df, summary, settings, names, provenance)
    if as_json:
        sys.stdout.write(json.dumps({"settings": settings, "provenance": provenance, **summary}, default=str) + "\n")
    else:
        _print_summary(console, summary, settings, names, provenance, written["report"])
    return 130 if result.interrupted else 0


def _play(matchup: Matchup, games: int, seed: int, jobs: int | None, quiet: bool, console: Console) -> RunResult:
    if quiet:
        return run_matchup(matchup, games, seed, jobs)
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{matchup.army_a} vs {matchup.army_b}", total=games + games % 2, rate="–")

        def advance(done: int) -> None:
            progress.advance(task, done)
            elapsed = progress.tasks[0].elapsed or 0
            if elapsed:
                progress.update(task, rate=f"{progress.tasks[0].completed / elapsed:.1f}")

        result = run_matchup(matchup, games, seed, jobs, progress=advance)
    if result.interrupted:
        console.print(f"interrupted: reporting the {len(result.games)} games finished", markup=False)
    return result


def _pct(p: dict[str, Any]) -> str:
    return f"{100 * p['rate']:.1f}% [{100 * p['low']:.1f}–{100 * p['high']:.1f}]"


def _print_summary(
    console: Console,
    summary: dict[str, Any],
    settings: dict[str, Any],
    names: dict[str, str],
    provenance: str,
    report: Path,
) -> None:
    o = summary["outcome"]
    vp = summary["victory_points"]
    rush = summary["victim_rush"]
    lines = [
        f"{names['a']} vs {names['b']} on {settings['map']}: {o['games']} games, players {settings['players']}, "
        f"seed {settings['seed']} ({settings['games_per_second']} games/s on {settings['jobs']} jobs, "
        f"engine {settings['engine']})",
        f"  {names['a']} wins {_pct(o['win'])}, draws {_pct(o['draw'])}, loses {_pct(o['loss'])} (95% Wilson)",
        f"  difference {'IS' if o['significant'] else 'is not'} significant (sign test p = {o['p_value']:.3g})",
        f"  victory points: {names['a']} {vp['a']['total']['mean']:.1f} (kills {vp['a']['kills']:.1f}, victims "
        f"{vp['a']['victims']:.1f}, subplots {vp['a']['subplots']:.1f}), {names['b']} {vp['b']['total']['mean']:.1f} "
        f"(kills {vp['b']['kills']:.1f}, victims {vp['b']['victims']:.1f}, subplots {vp['b']['subplots']:.1f})",
        f"  VP per army point: {names['a']} {vp['a']['per_army_point']:.3f}, {names['b']} {vp['b']['per_army_point']:.3f}",
        f"  victim rush: first slay round {rush['a']['first_slay']['mean']:.2f} vs {rush['b']['first_slay']['mean']:.2f}; "
        f"share of victims {100 * rush['a']['share_of_victims']:.0f}% vs {100 * rush['b']['share_of_victims']:.0f}%",
        f"  first player wins {_pct(summary['first_player_wins'])}; mean length "
        f"{summary['game_length']['rounds']['mean']:.1f} rounds",
    ]
    play = summary.get("play")
    if play:
        # idle = a turn with no monster action; a duel won by passive play shows here
        def share(p: dict[str, Any]) -> str:
            return "–" if p["rate"] is None else f"{100 * p['rate']:.0f}%"

        lines.append(f"  how the AI played (games with no attack at all: {100 * play['no_attack_games_share']:.0f}%):")
        for side in ("a", "b"):
            s = play[side]
            lines.append(
                f"    {names[side]}: idle {share(s['idle_share'])} of turns "
                f"({share(s['idle_share_with_victims'])} while victims remain), "
                f"{s['attacks_per_game']['total']:.1f} attacks/game "
                f"({s['attacks_after_victims_per_game']:.1f} after the last victim)"
            )
    lines += [f"  {provenance}", f"report: {report}"]
    if settings["engine"] != compiled.COMPILED:
        lines.append("  (`clix compile` builds the compiled engine: the same games, about 3x faster; see README)")
    for line in lines:
        console.print(line, markup=False)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("clix")
    except PackageNotFoundError:
        return "dev"
