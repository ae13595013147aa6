"""`clix horrified`'s tables: a difficulty table (every line-up the data supports x player counts), a hero table
(each hero swapped for another, paired on seeds) and a sensitivity table (each assumed number over its plausible
range, re-measured on the baseline's seeds, each verdict marked where it flips)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from clix.analyzer.horrified.games import Cell, kit
from clix.analyzer.horrified.lineup import default_heroes
from clix.analyzer.horrified.summary import paired_change, summarize, verdict

Play = Callable[[Sequence[Cell]], list[list[dict[str, Any]]]]
"""Plays cells on the run's seeds (games.play_cells with the seeds, jobs and progress bound)."""


def difficulty_cells(base: Cell, counts: Sequence[int] = (1, 2, 3, 4)) -> tuple[list[Cell], list[dict[str, Any]]]:
    """A cell per (difficulty, line-up, player count) the data supports, and a row per difficulty it lacks."""
    cells, lacking = [], []
    for level in kit().lineups(base.layers):
        if not level["line_ups"]:
            lacking.append({"difficulty": level["difficulty"], "monsters": level["monsters"]})
        for monsters in level["line_ups"]:
            for n in counts:
                cells.append(replace(base, monsters=tuple(monsters), heroes=default_heroes(base.layers, n)))
    return cells, lacking


def difficulty_table(base: Cell, play: Play) -> tuple[dict[str, Any], list[list[dict[str, Any]]], list[Cell]]:
    """Win rate with its interval for every line-up the data supports at each player count (HF-DIFF-01)."""
    cells, lacking = difficulty_cells(base)
    levels = {tuple(lu): lv["difficulty"] for lv in kit().lineups(base.layers) for lu in lv["line_ups"]}
    found = play(cells)
    rows = [
        {
            "difficulty": levels[c.monsters],
            "monsters": list(c.monsters),
            "players": len(c.heroes),
            "heroes": list(c.heroes),
            **summarize(r),
        }
        for c, r in zip(cells, found, strict=True)
    ]
    return {"table": "difficulty", "cells": rows, "lacking": lacking}, found, cells


def hero_cells(base: Cell) -> list[tuple[int, str, Cell]]:
    """(seat, new hero, cell) for every legal swap of one of `base`'s heroes for one not in it."""
    out = []
    for seat, _ in enumerate(base.heroes):
        for hero in kit().heroes(base.layers):
            if hero in base.heroes:
                continue
            heroes = (*base.heroes[:seat], hero, *base.heroes[seat + 1 :])
            if kit().lineup_problem(base.layers, base.monsters, heroes) is None:
                out.append((seat, hero, replace(base, heroes=heroes)))
    return out


def hero_table(base: Cell, play: Play) -> tuple[dict[str, Any], list[list[dict[str, Any]]], list[Cell]]:
    """The baseline's win rate and, for each swap of one hero, the paired change in win rate (same seeds)."""
    swaps = hero_cells(base)
    cells = [base] + [cell for _, _, cell in swaps]
    found = play(cells)
    rows = [
        {
            "seat": seat + 1,
            "out": base.heroes[seat],
            "in": hero,
            "heroes": list(cell.heroes),
            "win_rate": summarize(r)["win_rate"],
            "change": paired_change(r, found[0]),
        }
        for (seat, hero, cell), r in zip(swaps, found[1:], strict=True)
    ]
    rows.sort(key=lambda row: -(row["change"]["difference"] or 0))
    return {"table": "heroes", "baseline": summarize(found[0]), "swaps": rows}, found, cells


def marks(variants: Sequence[dict[str, Any]], keys: Sequence[str]) -> dict[str, str]:
    """Each verdict's mark: 'survives', or 'flips under ASSUMPTION VALUE, ...' (every value that flips it)."""
    found = {}
    for key in keys:
        flips = [f"{row['assumption']} {row['value']}" for row in variants if key in row["flips"]]
        found[key] = f"flips under {', '.join(flips)}" if flips else "survives"
    return found


def loss_cause(summary: dict[str, Any]) -> str:
    """The commoner way to lose: 'terror' or 'deck out' (equal: 'tied')."""
    terror, deck = summary["ends"].get("terror", 0), summary["ends"].get("deck out", 0)
    return "terror" if terror > deck else "deck out" if deck > terror else "tied"


def sensitivity_table(base: Cell, play: Play) -> tuple[dict[str, Any], list[list[dict[str, Any]]], list[Cell]]:
    """Each assumed number at each plausible value (the data's sensitivity table), on the baseline's seeds: the win
    rate, its paired change, and whether the baseline's two verdicts (win rate against half; the commoner way to
    lose) survive."""
    assumptions = kit().assumptions(base.layers)
    variants = [(a, v) for a in assumptions for v in a["values"]]
    cells = [base] + [replace(base, knob=a["id"], value=v) for a, v in variants]
    found = play(cells)
    first = summarize(found[0])
    verdicts = {"win rate": verdict(first["win_rate"]), "commoner loss": loss_cause(first)}
    rows = []
    for (a, v), r in zip(variants, found[1:], strict=True):
        s = summarize(r)
        now = {"win rate": verdict(s["win_rate"]), "commoner loss": loss_cause(s)}
        rows.append(
            {
                "assumption": a["id"],
                "baseline": a["baseline"],
                "value": v,
                "provenance": a["provenance"],
                "why": a["why"],
                "win_rate": s["win_rate"],
                "change": paired_change(r, found[0]),
                "ends": s["ends"],
                "verdicts": now,
                "flips": sorted(k for k in now if now[k] != verdicts[k]),
            }
        )
    survives = {k: all(k not in row["flips"] for row in rows) for k in verdicts}
    found_marks = marks(rows, list(verdicts))
    result = {"table": "sensitivity", "baseline": first, "verdicts": verdicts, "survives": survives}
    return (
        {**result, "marks": found_marks, "variants": rows},
        found,
        cells,
    )
