"""The console summary of `clix melee`: the headline, then per army, per seat and turn position, attack spread and
king-making."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _span(low: float | None, high: float | None, fmt: str = "{:.0%}") -> str:
    return "–" if low is None or high is None else f"[{fmt.format(low)}-{fmt.format(high)}]"


def print_summary(summary: dict[str, Any], console: Console) -> None:
    """Print what `stats.summarize` found, for people."""
    console.print(summary["headline"], markup=False)
    teams = f", teams {summary['teams']}" if summary["teams"] else ""
    console.print(
        f"{summary['games']} games in {summary['blocks']} blocks on {summary['map']}, seed {summary['seed']}{teams}; "
        f"{summary['rounds']:.1f} rounds a game, {_pct(summary['timeouts'])} at the turn limit, "
        f"{_pct(summary['draws'])} drawn",
        markup=False,
    )
    table = Table(title="Armies (95% intervals over blocks)", title_justify="left")
    for column in ("", "army", "win share", "equal", "mean place", "VP", "victims", "eliminated", "idle turns"):
        table.add_column(column)
    for a in summary["armies"]:
        table.add_row(
            a["slot"],
            a["army"],
            f"{_pct(a['win_share'])} {_span(a['win_low'], a['win_high'])}",
            _pct(a["expected"]),
            f"{a['mean_place']:.2f} {_span(a['place_low'], a['place_high'], '{:.2f}')}",
            f"{a['vp']:.1f}",
            f"{a['victims']:.2f}",
            _pct(a["eliminated"]),
            _pct(a["idle_turns"]),
        )
    console.print(table)
    seats = Table(title="Win share by seat and by turn position (1: the first player)", title_justify="left")
    for column in ("", "by seat", "by turn position"):
        seats.add_column(column)
    for s, p in zip(summary["seats"], summary["positions"], strict=True):
        seats.add_row(
            str(s["seat"]),
            f"{_pct(s['win_share'])} {_span(s['low'], s['high'])}",
            f"{_pct(p['win_share'])} {_span(p['low'], p['high'])}",
        )
    console.print(seats)
    for spread in summary["attack_spread"]:
        shares = ", ".join(f"{y} {_pct(v)}" for y, v in spread["shares"].items())
        console.print(
            f"attacks by {spread['slot']}: {spread['attacks']} ({shares}; equal share {_pct(spread['equal_share'])})",
            markup=False,
        )
    king = summary["king_making"]
    if king["games"]:
        console.print(
            f"king-making: in {_pct(king['took_sides'])} of {king['games']} games last place killed monsters of one "
            f"leader only; it helped the winner (killed the runner-up's) in {_pct(king['helped_winner'])}",
            markup=False,
        )
    for failed in summary["ended"]["failed"]:
        console.print(f"game {failed['game']} failed: {failed['reason']}", markup=False)
