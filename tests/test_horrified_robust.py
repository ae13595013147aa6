"""Which verdicts of a Horrified difficulty or hero table survive the assumed components (issue 40, part 4:
"a sensitivity analysis over every assumed component ... printed beside each verdict"): the assumed worlds, the
staged re-measuring of difficulty cells, the hero swaps' flips, and the marks in the text, JSON and report."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape

import pytest
from clix.analyzer.cli import app
from clix.analyzer.horrified import robust
from clix.analyzer.horrified.command import lines
from clix.analyzer.horrified.games import Cell
from clix.analyzer.stats.duel import proportion
from typer.testing import CliRunner

BASE = Cell(("dracula", "invisible-man"), ("mayor", "archaeologist"))
WORLDS = {("terror-skull", 5), ("terror-skull", 9), ("hit-faces", 2), ("items-per-colour", 16),
          ("items-per-colour", 23), ("frenzy-symbols", 8), ("frenzy-symbols", 16), ("sign-events", 2)}  # fmt: skip


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_the_worlds_are_the_ends_of_each_plausible_range():
    """rosters/horrified/game.yaml's sensitivity table: the lowest value below each baseline and the highest above
    (sign-events 1 lies between its baseline 0 and 2, so only 2 is a world)."""
    assert {(w["assumption"], w["value"]) for w in robust.worlds(BASE)} == WORLDS
    assert robust.stages(100) == (10, 30) and robust.stages(12) == (10, 12) and robust.stages(3) == (3,)


def _rows(won: list[int], indexes: range) -> list[dict]:
    return [{"game": k, "won": won[k % len(won)]} for k in indexes]


def test_a_difficulty_cell_plays_more_only_while_unclear_and_is_marked_by_what_the_worlds_say():
    """Cell A stays below half in every world (10 games each: survives); B is clearly above half with the
    skull at 9 (flips); C, above half, is a coin toss with two Hit faces (not clear at 30 games: not settled)."""
    cells = [replace(BASE, monsters=(m, "dracula")) for m in ("a", "b", "c")]
    summary = {"cells": [{"win_rate": proportion(0, 100)}, {"win_rate": proportion(5, 100)},
                         {"win_rate": proportion(95, 100)}]}  # fmt: skip
    calls: list[tuple[list[str], range]] = []

    def outcome(cell: Cell) -> list[int]:
        if cell.monsters[0] == "b" and (cell.knob, cell.value) == ("terror-skull", 9):
            return [1]
        if cell.monsters[0] == "c":
            return [1, 0] if (cell.knob, cell.value) == ("hit-faces", 2) else [1]
        return [0]

    def play(chosen, indexes):
        calls.append(([c.monsters[0] for c in chosen], indexes))
        return [_rows(outcome(c), indexes) for c in chosen]

    skipped: list[int] = []
    check = robust.check_difficulty(summary, cells, BASE, 100, play, skipped.append)
    marks = [row["mark"] for row in summary["cells"]]
    assert marks[0] == "survives" and marks[1] == "flips under terror-skull 9"
    assert marks[2] == "not settled under hit-faces 2 (not clear at 30 games)"
    assert [row["verdict"] for row in summary["cells"]] == ["below half", "below half", "above half"]
    later = [(names, indexes) for names, indexes in calls if indexes.start == 10]
    assert later == [(["c"], range(10, 30))]  # only the unclear cell plays on, in the one world it is unclear
    assert check["games"] == 8 * 3 * 10 + 20 and sum(skipped) == 8 * 3 * 20 - 20
    assert (check["survive"], check["flip"], check["unsettled"]) == (1, 1, 1)
    assert "of the 3 cells' verdicts" in robust.sentence(check, "difficulty")


def test_a_hero_swap_flips_only_when_a_world_contradicts_it():
    """Explorer, better (paired, 100 games), turns worse with 16 item tokens a colour: it flips. Scientist, better,
    is no better with 8 Frenzy symbols: the check cannot confirm it there (not settled). Courier, no clear change,
    gains 6 games in 100 with two Hit faces: clear at 95% but not at the family-wise level over the 8 worlds, so
    it survives (eight worlds would otherwise make a third of such verdicts flip by chance)."""
    explorer, scientist, courier = (replace(BASE, heroes=("mayor", h)) for h in ("explorer", "scientist", "courier"))
    better, unclear = {"difference": 0.4, "low": 0.3, "high": 0.5}, {"difference": 0.0, "low": -0.1, "high": 0.1}
    summary = {"swaps": [{"heroes": list(c.heroes), "change": ch}
                         for c, ch in ((explorer, better), (scientist, better), (courier, unclear))]}  # fmt: skip
    six = [1 if k % 16 == 0 and k < 96 else 0 for k in range(100)]  # 6 wins in 100
    assert robust.change_of(_rows(six, range(100)), _rows([0], range(100))) == "better"
    assert robust.change_of(_rows(six, range(100)), _rows([0], range(100)), robust.family_confidence(8)) == (
        "no clear change"
    )

    def won(cell: Cell) -> list[int]:
        world = (cell.knob, cell.value)
        if cell.heroes == BASE.heroes:
            return [1, 0] if world == ("items-per-colour", 16) else [0]
        if cell.heroes == explorer.heroes:
            return [0] if world == ("items-per-colour", 16) else [1]
        if cell.heroes == scientist.heroes:
            return [0] if world == ("frenzy-symbols", 8) else [1]
        return six if world == ("hit-faces", 2) else [1, 0] if world == ("items-per-colour", 16) else [0]

    def play(chosen, indexes):
        return [_rows(won(c), indexes) for c in chosen]

    check = robust.check_heroes(summary, [courier, explorer, scientist], BASE, 100, play)
    assert [row["verdict"] for row in summary["swaps"]] == ["better", "better", "no clear change"]
    assert [row["mark"] for row in summary["swaps"]] == [
        "flips under items-per-colour 16",
        "not settled under frenzy-symbols 8 (not clear at 100 games)",
        "survives",
    ]
    assert check["games"] == 8 * 4 * 100 and (check["survive"], check["flip"], check["unsettled"]) == (1, 1, 1)
    assert robust.sentence(check, "heroes").startswith(
        "Sensitivity: of the 3 swaps' verdicts (the change's sign), 1 survives"
    )


def test_the_difficulty_text_with_its_checks_fits_80_columns():
    longest = ["invisible-man", "creature", "frankenstein", "wolf-man"]
    cell = {"difficulty": "challenging", "monsters": longest, "players": 4, "heroes": [],
            "win_rate": proportion(100, 100), "verdict": "above half", "mark": "not settled under hit-faces 2 (...)"}  # fmt: skip
    check = {"worlds": robust.worlds(BASE), "stages": [10, 30], "games": 9, "survive": 150, "flip": 30, "unsettled": 20}
    summary = {"table": "difficulty", "monsters": ["dracula"], "difficulty": "novice", "games": 100, "seed": 0,
               "style": "team", "cells": [cell], "lacking": [], "sensitivity": check, "headline": "h", "note": "n",
               "ends_by_turn": {"win": [1]}}  # fmt: skip
    text = lines(summary)
    assert max(len(line) for line in text) <= 80
    assert any(line.split()[-3:] == ["100%", "[96-100]", "unsettled"] for line in text)
    assert any("of the 200 cells' verdicts" in line for line in text)


def test_a_hero_table_is_checked_by_default_and_not_with_no_sensitivity(tmp_path):
    solo = ["horrified", "--table", "heroes", "--heroes", "mayor", "-n", "2", "--jobs", "1", "--json"]  # 6 cells
    done = CliRunner().invoke(app, [*solo, "-o", "a"])
    assert done.exit_code == 0, done.output
    out = json.loads(done.stdout)
    assert {(w["assumption"], w["value"]) for w in out["sensitivity"]["worlds"]} == WORLDS
    assert out["sensitivity"]["games"] == len(WORLDS) * (1 + len(out["swaps"])) * 2
    assert all(row["mark"] == "survives" or row["mark"].startswith("flips under ") for row in out["swaps"])
    assert all(row["verdict"] in {"better", "worse", "no clear change"} for row in out["swaps"])
    html = (tmp_path / "a" / "horrified.html").read_text(encoding="utf-8")
    assert "Which verdicts survive the assumptions." in html and '<th class="text">sensitivity</th>' in html
    off = CliRunner().invoke(app, [*solo, "-o", "b", "--no-sensitivity"])
    assert off.exit_code == 0, off.output
    quiet = json.loads(off.stdout)
    assert "sensitivity" not in quiet and all("mark" not in row for row in quiet["swaps"])
    assert quiet["command"].endswith(" --no-sensitivity") and quiet["swaps"] == [
        {k: v for k, v in row.items() if k not in ("mark", "verdict")} for row in out["swaps"]
    ]


def test_the_difficulty_report_shows_each_cells_check(tmp_path):
    """The report's difficulty table gains a sensitivity column and the paragraph saying what a world is."""
    from clix.analyzer.horrified.report import write_report

    ends = {"win": 1, "terror": 0, "deck out": 1}
    cells = [{"difficulty": "novice", "monsters": ["dracula", m], "players": 2, "heroes": ["mayor", "courier"],
              "win_rate": proportion(1, 2), "ends": ends, "verdict": "below half", "mark": mark}
             for m, mark in (("mummy", "survives"), ("creature", "flips under terror-skull 9"),
                             ("wolf-man", "not settled under hit-faces 2 (not clear at 30 games)"))]  # fmt: skip
    check = {"worlds": robust.worlds(BASE), "stages": [10, 30], "games": 240, "survive": 1, "flip": 1, "unsettled": 1}
    summary = {"table": "difficulty", "monsters": ["dracula", "mummy"], "heroes": ["mayor", "courier"], "seed": 0,
               "difficulty": "novice", "games": 2, "style": "team", "data": [], "cells": cells, "lacking": [],
               "sensitivity": check, "headline": "h", "note": "n", "command": "c",
               "ends_by_turn": {"turn": [20, 21], "win": [1, 0], "terror": [0, 0], "deck out": [0, 1]}}  # fmt: skip
    html = write_report(tmp_path, summary, (), "focus")["report"].read_text(encoding="utf-8")
    text = unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)))
    assert "Which verdicts survive the assumptions." in text and "of the 3 cells' verdicts" in text
    assert "below half: survives" in text and "below half: flips under terror-skull 9" in text
    assert "below half: not settled under hit-faces 2" in text
