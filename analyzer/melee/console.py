"""The console summary of `clix melee`: the headline, then per army, per seat and turn position, attack spread and
king-making, as plain lines that fit 80 columns (wrapped at word boundaries when the terminal is narrower)."""

from __future__ import annotations

from typing import Any

from clix.analyzer.common.text import print_lines
from clix.analyzer.ladder.command import text_table
from rich.console import Console

TABLE = "\x00"
"""Marks a table's row among the summary lines: printed whole, never wrapped."""


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _span(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f"[{100 * low:.0f}-{100 * high:.0f}]"


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """What `stats.summarize` found, for people (the headline first; table rows start with `TABLE`)."""
    teams = f", teams {summary['teams']}" if summary["teams"] else ""
    lines = [
        summary["headline"],
        f"{summary['games']} games in {summary['blocks']} blocks on {summary['map']}, seed {summary['seed']}{teams}; "
        f"{summary['rounds']:.1f} rounds a game, {_pct(summary['timeouts'])} at the turn limit, "
        f"{_pct(summary['draws'])} drawn",
        "",
    ]
    lines.append(
        f"  Per army, 95% intervals over blocks (an equal {'team' if summary['teams'] else 'army'} wins "
        f"{_pct(summary['armies'][0]['expected'])}):"
    )
    words = summary.get("words") or {"pieces": "monsters", "victims": True}
    victims = bool(words["victims"])
    rows = [["", "army", "win share", "mean place", "VP", *(["slain"] if victims else []), "elim.", "idle"]]
    for a in summary["armies"]:
        rows.append(
            [
                a["slot"],
                a["army"],
                f"{_pct(a['win_share'])} {_span(a['win_low'], a['win_high'])}",
                f"{a['mean_place']:.2f} [{a['place_low']:.2f}-{a['place_high']:.2f}]",
                f"{a['vp']:.1f}",
                *([f"{a['victims']:.2f}"] if victims else []),
                _pct(a["eliminated"]),
                _pct(a["idle_turns"]),
            ]
        )
    lines += [TABLE + "  " + line for line in text_table(rows)]
    lines += ["", "  Win share by seat and by turn position (1: the first player):"]
    seats = [["", "by seat", "by turn position"]]
    for s, p in zip(summary["seats"], summary["positions"], strict=True):
        seats.append(
            [
                str(s["seat"]),
                f"{_pct(s['win_share'])} {_span(s['low'], s['high'])}",
                f"{_pct(p['win_share'])} {_span(p['low'], p['high'])}",
            ]
        )
    lines += [TABLE + "    " + line for line in text_table(seats)]
    lines.append("")
    for spread in summary["attack_spread"]:
        shares = ", ".join(f"{y} {_pct(v)}" for y, v in spread["shares"].items())
        lines.append(
            f"  attacks by {spread['slot']}: {spread['attacks']} ({shares}; equal share {_pct(spread['equal_share'])})"
        )
    for aimed in summary.get("targeted", []):
        lines.append(
            f"  attacks on {aimed['slot']}: {aimed['received']} ({_pct(aimed['share'])} of its opponents' attacks; "
            f"an even spread {_pct(aimed['equal_share'])})"
        )
    king = summary["king_making"]
    if king.get("not_counted"):
        lines.append(f"  king-making: {king['not_counted']}")
    if king["games"]:
        lines.append(
            f"  king-making: in {_pct(king['took_sides'])} of {king['games']} games last place "
            f"{words.get('defeated', 'killed')} {words['pieces']} of one "
            f"leader only; in {_pct(king['helped_winner'])} the runner-up's (it helped the winner)"
        )
    for failed in summary["ended"]["failed"]:
        lines.append(f"  game {failed['game']} failed: {failed['reason']}")
    if summary["ended"].get("from_store"):
        lines.append(f"  {summary['ended']['from_store']} games taken from the result store {summary.get('store', '')}")
    return lines


def print_summary(summary: dict[str, Any], console: Console) -> None:
    """Print `summary_lines` (a field in pods: `field_lines`), wrapped to the console's width (the tables'
    rows whole)."""
    if "pod_size" in summary:
        print_lines(console, field_lines(summary), keep=("  ",))
        return
    for line in summary_lines(summary):
        if line.startswith(TABLE):
            console.print(line[len(TABLE) :], markup=False, soft_wrap=True)
        else:
            print_lines(console, [line])


def field_lines(summary: dict[str, Any]) -> list[str]:
    """The console summary: the headline, the field's size, then one line per army, best first."""
    lines = [
        summary["headline"],
        f"{summary['games']} games in {summary['pods']} pods of {summary['pod_size']} on {', '.join(summary.get('maps') or [summary['map']])}, seed "
        f"{summary['seed']}; each pair met in {summary['meetings']['fewest']}-{summary['meetings']['most']} pods",
        "",
        "Plackett-Luce ratings (log-strength, 0 the field's mean) with 95% bootstrap intervals over pods; pod win:"
        f" the chance to win a pod of {summary['pod_size'] - 1} average armies:",
    ]
    for a in summary["armies"]:
        lines.append(
            f"  {a['army']:<14} {a['rating']:+.2f} [{a['low']:+.2f}, {a['high']:+.2f}] pod win {a['pod_win']:.0%}"
            f"  {a['games']} games  won {a['win_share']:.0%}  place {a['mean_place']:.2f}"
        )
    seats = summary.get("seats", [])
    if seats:
        lines += ["", "Win share by seat, by turn position (1: first player), 95% intervals over pods, equal "
                  f"{1 / summary['pod_size']:.0%}:"]  # fmt: skip
        for s, p in zip(seats, summary["positions"], strict=True):
            lines.append(
                f"  {s['seat']}: seat {s['win_share']:.0%} [{s['low']:.0%}-{s['high']:.0%}]   position "
                f"{p['win_share']:.0%} [{p['low']:.0%}-{p['high']:.0%}]"
            )
    king = summary.get("king_making") or {}
    if king.get("games"):
        lines.append(
            f"king-making: in {king['took_sides']:.0%} of {king['games']} games last place "
            f"{(summary.get('words') or {}).get('defeated', 'killed')} "
            f"{(summary.get('words') or {}).get('pieces', 'monsters')} of one "
            f"leader only; in {king['helped_winner']:.0%} the runner-up's (it helped the winner)"
        )
    if summary.get("ended", {}).get("from_store"):
        lines.append(f"{summary['ended']['from_store']} games taken from the result store {summary.get('store', '')}")
    return lines
