"""`clix melee ... --pods 4` (issue 39): five or more armies in pods of four drawn so every pair meets about equally,
rated by a Plackett-Luce model on placings with bootstrap intervals over pods."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.melee.command import build_melee
from clix.analyzer.melee.field import POD, build_field, draw_pods, play_field, summarize_field
from helpers import run_main

FIELD = ["butcher-shop", "firing-line", "haunting", "midnight-rush", "crimson-court"]


@pytest.mark.parametrize(("armies", "pods"), [(5, 10), (6, 15), (8, 14)])
def test_pods_balance_who_meets_whom(armies: int, pods: int) -> None:
    drawn = draw_pods(armies, pods, 7)
    assert len(drawn) == pods and all(len(set(p)) == POD for p in drawn)
    played = [sum(a in p for p in drawn) for a in range(armies)]
    meets = [sum(a in p and b in p for p in drawn) for a, b in itertools.combinations(range(armies), 2)]
    assert max(played) - min(played) <= 1
    assert max(meets) - min(meets) <= 2, meets  # a greedy draw: about equal, not a perfect design
    assert draw_pods(armies, pods, 7) == drawn and draw_pods(armies, pods, 8) != drawn


def test_a_small_field_reports_finite_ratings_with_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "field"
    args = ["melee", *FIELD, "--pods", "4", "--games", "12", "--turns", "6", "--jobs", "1", "--json", "-o", str(out)]
    code, printed, err = run_main(args, capsys)
    assert code == 0, err
    summary = json.loads(printed)
    assert summary["games"] == 12 and summary["pods"] == 3  # at least two pods an army: ceil(2 * 5 / 4)
    assert sorted(a["army"] for a in summary["armies"]) == sorted(FIELD)
    for a in summary["armies"]:
        assert all(math.isfinite(a[k]) for k in ("rating", "low", "high")) and a["low"] <= a["rating"] <= a["high"]
    assert [a["rating"] for a in summary["armies"]] == sorted((a["rating"] for a in summary["armies"]), reverse=True)
    assert summary["headline"].startswith(summary["armies"][0]["army"])
    games, rated = pd.read_csv(out / "games.csv"), pd.read_csv(out / "ratings.csv")
    assert len(games) == 12 and set(games["pod"]) == {0, 1, 2} and len(rated) == 5
    assert "Ratings" in (out / "report.html").read_text()
    code, printed, err = run_main([*args[:-3], "--seed", "3"], capsys)
    assert code == 0, err
    assert printed.splitlines()[0].split()[0] in FIELD and "pod win" in printed


def test_the_field_ranks_a_planted_strong_army_first() -> None:
    """butcher-shop played by the tuned heuristic among four armies playing at random (HC rules as ever): it
    should rate first, its interval above the field's mean (0)."""
    melee = build_melee(None, FIELD, None, "random,random,random,random,random".replace("random", "tuned", 1), None,
                        8, "break", field=True)  # fmt: skip
    field = build_field(melee, 40, 11)
    rows, _ = play_field(field, 11, 1)
    summary = summarize_field(field, pd.DataFrame(rows), 11)
    best = summary["armies"][0]
    assert best["army"] == "butcher-shop" and best["low"] > 0
    assert summary["meetings"]["fewest"] == summary["meetings"]["most"] == 6


@pytest.mark.parametrize(
    ("armies", "says"),
    [(FIELD[:4], "--pods plays five or more different armies"), ([*FIELD[:4], FIELD[0]], "5, 4 different")],
)
def test_a_field_needs_five_different_armies(armies: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["melee", *armies, "--pods", "4", "--games", "4"], capsys)
    assert code == 2 and err.count("\n") == 1 and says in err, err


def test_pods_of_other_sizes_are_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["melee", *FIELD, "--pods", "3", "--games", "4"], capsys)
    assert code == 2 and err.count("\n") == 1 and "pods of 3 are not supported yet" in err, err
