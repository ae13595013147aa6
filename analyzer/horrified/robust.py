"""Which verdicts of a difficulty or hero table survive the assumed components (issue 40, part 4): each assumed
number of the data's sensitivity table set to an end of its plausible range (a *world*: its lowest value below the
baseline, its highest above), the table's cells re-measured in every world on the run's own seeds, and each verdict
marked `survives`, `flips under ...` or `not settled under ...`.

A difficulty cell's verdict is its win rate against one half (above, below, not clear); a hero swap's is the sign of
its paired change (better, worse, no clear change). A clear verdict *flips* in a world whose 95% interval lies on
the other side, and is *not settled* in a world whose interval straddles the line (the check cannot confirm it
there). A verdict that is not clear flips only where a world's interval is clear at the family-wise level over all
the worlds (Bonferroni, 95% for the set), since eight worlds would otherwise make one in three such verdicts "flip"
by chance alone. In each world a difficulty cell plays its first 10 seeds, then up to 30 while it is not settled
(STAGES): most cells are far from half, so a few games settle them and the games go where a verdict is close. The
hero swaps are re-measured in each world at the table's full games, base and swap on the same seeds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from clix.analyzer.horrified.games import Cell, kit
from clix.analyzer.horrified.summary import verdict
from clix.analyzer.stats.duel import CONFIDENCE, paired_difference_interval
from scipy import stats as st

STAGES = (10, 30)
"""A difficulty cell's games in each world: its first 10 seeds, then up to 30 while its verdict is not clear."""

PlaySeeds = Callable[[Sequence[Cell], range], list[list[dict[str, Any]]]]
"""Plays cells on the run's seeds of `range` (the result store's games taken first), rows in game order per cell."""


def worlds(base: Cell) -> list[dict[str, Any]]:
    """Each assumed number at the ends of its plausible range: {assumption, value, baseline, provenance}."""
    found = []
    for a in kit().assumptions(base.layers):
        below = [v for v in a["values"] if v < a["baseline"]]
        above = [v for v in a["values"] if v > a["baseline"]]
        ends = ([min(below)] if below else []) + ([max(above)] if above else [])
        found += [
            {"assumption": a["id"], "value": v, "baseline": a["baseline"], "provenance": a["provenance"]} for v in ends
        ]
    return found


def stages(games: int) -> tuple[int, ...]:
    """STAGES within the run's games (a run of 12 games checks at 10 and 12)."""
    return tuple(sorted({min(stage, games) for stage in STAGES}))


def planned_games(table: str, cells: int, base: Cell, games: int) -> int:
    """The most games the check of a `table` of `cells` cells can play (a difficulty cell settled early plays
    fewer; the progress bar counts the rest as done)."""
    count = len(worlds(base))
    return count * cells * (stages(games)[-1] if table == "difficulty" else games)


def family_confidence(count: int) -> float:
    """The confidence of each world's interval that keeps the set of `count` worlds at 95% (Bonferroni)."""
    return 1 - (1 - CONFIDENCE) / max(count, 1)


def rate_verdict(rows: Sequence[dict[str, Any]], confidence: float = CONFIDENCE) -> str:
    """The win rate's verdict against half at `confidence` (Wilson interval)."""
    if not rows:
        return "undecided"
    won = sum(int(row["won"]) for row in rows)
    ci = st.binomtest(won, len(rows)).proportion_ci(confidence_level=confidence, method="wilson")
    return verdict({"low": float(ci.low), "high": float(ci.high)})


def change_of(rows: Sequence[dict[str, Any]], base: Sequence[dict[str, Any]], confidence: float = CONFIDENCE) -> str:
    """A swap's verdict in a world: its paired change against the base's games at `confidence`."""
    d = np.array([a["won"] - b["won"] for a, b in zip(rows, base, strict=True)], dtype=float)
    return change_verdict(paired_difference_interval(d, confidence))


def judged(baseline: str, plain: str, strict: str, unclear: str) -> str:
    """What a world says of a verdict: 'same', 'flip' or 'unsettled'. `plain` is the world's verdict at 95%,
    `strict` at the family-wise level; `unclear` is how a verdict that is not clear is named."""
    if baseline == unclear:
        return "same" if strict == unclear else "flip"
    if plain == baseline:
        return "same"
    return "unsettled" if plain == unclear else "flip"


def _in(world: dict[str, Any], cell: Cell) -> Cell:
    return replace(cell, knob=world["assumption"], value=world["value"])


def _name(world: dict[str, Any]) -> str:
    return f"{world['assumption']} {world['value']}"


def _mark(flips: list[str], unsettled: list[str], last: int) -> str:
    if flips:
        return "flips under " + ", ".join(flips)
    if unsettled:
        return f"not settled under {', '.join(unsettled)} (not clear at {last} games)"
    return "survives"


def check_difficulty(
    summary: dict[str, Any], cells: Sequence[Cell], base: Cell, games: int, play: PlaySeeds,
    skipped: Callable[[int], None] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Mark each difficulty cell's verdict (`verdict`, `mark` on each of `summary["cells"]`, in `cells`' order);
    `skipped(n)` is told the games a settled cell did not need. The check's numbers: its worlds, stages, games
    played and how many verdicts survive, flip or are not settled."""
    rows = summary["cells"]
    baseline = [verdict(row["win_rate"]) for row in rows]
    steps = stages(games)
    every = worlds(base)
    strict = family_confidence(len(every))
    flips: list[list[str]] = [[] for _ in rows]
    unsettled: list[list[str]] = [[] for _ in rows]
    played = 0
    for world in every:
        found: list[list[dict[str, Any]]] = [[] for _ in rows]
        said = ["same"] * len(rows)
        open_cells, start = list(range(len(rows))), 0
        for stop in steps:
            if not open_cells:
                break
            more = play([_in(world, cells[i]) for i in open_cells], range(start, stop))
            for i, new in zip(open_cells, more, strict=True):
                found[i] += new
                played += len(new)
                said[i] = judged(baseline[i], rate_verdict(found[i]), rate_verdict(found[i], strict), "undecided")
            # a clear verdict is settled once the world is clear either way; one not clear, once the world is clear
            # at the family-wise level (a flip) or its games are all played
            open_cells = [
                i for i in open_cells if said[i] == "unsettled" or (said[i] == "same" and baseline[i] == "undecided")
            ]
            start = stop
        if skipped is not None:
            skipped(sum(steps[-1] - len(f) for f in found))
        for i, outcome in enumerate(said):
            if outcome != "same":
                (unsettled if outcome == "unsettled" else flips)[i].append(_name(world))
    for i, row in enumerate(rows):
        row["verdict"] = baseline[i]
        row["mark"] = _mark(flips[i], unsettled[i], steps[-1])
    return _numbers(rows, every, played, list(steps))


def check_heroes(
    summary: dict[str, Any], swaps: Sequence[Cell], base: Cell, games: int, play: PlaySeeds
) -> dict[str, Any]:
    """Mark each hero swap's verdict (`verdict`, `mark` on each of `summary["swaps"]`, matched to `swaps` by its
    heroes): the paired change in every world, base and swap on the same seeds at the table's games."""
    rows = {tuple(row["heroes"]): row for row in summary["swaps"]}
    ordered = [rows[cell.heroes] for cell in swaps]
    baseline = [change_verdict(row["change"]) for row in ordered]
    every = worlds(base)
    strict = family_confidence(len(every))
    flips: list[list[str]] = [[] for _ in ordered]
    unsettled: list[list[str]] = [[] for _ in ordered]
    played = 0
    for world in every:
        found = play([_in(world, base), *(_in(world, cell) for cell in swaps)], range(games))
        played += sum(len(rows) for rows in found)
        for i, rows_of_swap in enumerate(found[1:]):
            plain, sure = change_of(rows_of_swap, found[0]), change_of(rows_of_swap, found[0], strict)
            outcome = judged(baseline[i], plain, sure, "no clear change")
            if outcome != "same":
                (unsettled if outcome == "unsettled" else flips)[i].append(_name(world))
    for i, row in enumerate(ordered):
        row["verdict"] = baseline[i]
        row["mark"] = _mark(flips[i], unsettled[i], games)
    return _numbers(ordered, every, played, [games])


def change_verdict(change: dict[str, Any]) -> str:
    """A paired change's verdict: 'better' (its interval above 0), 'worse' (below) or 'no clear change'."""
    return {"above half": "better", "below half": "worse"}.get(verdict(change, 0.0), "no clear change")


def _numbers(
    rows: Sequence[dict[str, Any]], found: list[dict[str, Any]], played: int, steps: list[int]
) -> dict[str, Any]:
    marks = [row["mark"] for row in rows]
    return {
        "worlds": found,
        "stages": steps,
        "games": played,
        "survive": sum(mark == "survives" for mark in marks),
        "flip": sum(mark.startswith("flips") for mark in marks),
        "unsettled": sum(mark.startswith("not settled") for mark in marks),
    }


def sentence(check: dict[str, Any], table: str) -> str:
    """The check in one sentence, e.g. "Sensitivity: of the 200 cells' verdicts (win rate against half), 150 survive
    all 8 assumed worlds (...; 10-30 games a cell and world), 20 flip under one or more, 30 are not settled (...)."."""
    what = "cells' verdicts (win rate against half)" if table == "difficulty" else "swaps' verdicts (the change's sign)"
    unit = "cell" if table == "difficulty" else "swap"
    count = check["survive"] + check["flip"] + check["unsettled"]
    games = "-".join(str(stage) for stage in check["stages"])

    def verb(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    said = (
        f"Sensitivity: of the {count} {what}, {verb(check['survive'], 'survives', 'survive')} all "
        f"{len(check['worlds'])} assumed worlds (each assumed number at an end of its plausible range; {games} games "
        f"a {unit} and world), {verb(check['flip'], 'flips', 'flip')} under one or more"
    )
    if check["unsettled"]:
        said += (
            f", {verb(check['unsettled'], 'is', 'are')} not settled (a clear verdict that a world's "
            f"{check['stages'][-1]} games leave not clear)"
        )
    return said + "."
