"""`clix meta` (issue 18) without the engine: the adaptive looks settle cells as they should (a stand-in plays
the games), the summaries say what made-up games say, and mistakes are one-line errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.library.load import REPO_ROSTERS, load_library
from clix.analyzer.meta.field import field_styles
from clix.analyzer.meta.play import CellState, FieldRun, play_field, settle
from clix.analyzer.meta.summary import meta_summary
from clix.analyzer.play.pool import Outcome
from clix.analyzer.play.runner import Matchup
from helpers import run_main

LAYERS = (REPO_ROSTERS,)


@pytest.fixture(scope="module")
def roster():
    return load_library(LAYERS, everything=True).roster


# --- adaptive looks, with a stand-in for the engine ---------------------------------------------------


def _fake_row(matchup: Matchup, index: int) -> dict:
    """A game whose winner depends on the cell: A nearly always wins (clear), the pair is split (precise at once), or
    a pseudo-random coin (neither, until the cap)."""
    kind = matchup.army_b
    if kind == "clear":
        winner = "B" if index % 20 == 0 else "A"
    elif kind == "split":
        winner = "A" if index % 2 == 0 else "B"
    else:
        winner = "A" if (index * 2654435761) % 97 < 48 else "B"
    return {"game": index, "pair": index // 2, "winner": winner}


class FakeRunner:
    def __init__(self):
        self.asked: list[list[tuple[str, int]]] = []

    def __call__(self, items, progress):
        self.asked.append([(m.army_b, i) for m, i in items])
        if progress is not None:
            progress(len(items))
        return Outcome(results={p: (_fake_row(m, i), []) for p, (m, i) in enumerate(items)})


def _cells(*kinds: str) -> list[Matchup]:
    return [Matchup(LAYERS, "x", kind, "graveyard") for kind in kinds]


def test_cells_settle_when_precise_or_clear_and_the_rest_play_to_the_cap():
    runner = FakeRunner()
    run = play_field(_cells("clear", "split", "coin"), 400, runner, target=0.05, first_pairs=10)
    assert run.looks == [20, 40, 80, 160, 320, 400]
    assert [c.settled for c in run.cells] == ["clear", "precise", "cap"]
    # the split cell (every pair one win each) is precise at the second look: its pairs all agree, and an interval
    # over 10 agreeing pairs keeps a width (it settled at the first while that interval had none)
    assert [len(c.games) for c in run.cells] == [20, 40, 400]
    # after the first look the clear cell is no longer played, after the second the split one neither
    assert {kind for kind, _ in runner.asked[1]} == {"split", "coin"}
    assert {kind for kind, _ in runner.asked[2]} == {"coin"}
    assert run.played == 460


def test_without_a_target_every_cell_plays_every_game():
    run = play_field(_cells("clear", "coin"), 7, FakeRunner())
    assert [len(c.games) for c in run.cells] == [8, 8]
    assert {c.settled for c in run.cells} == {"all"}


def test_games_known_from_the_store_are_not_played_again():
    runner = FakeRunner()
    cells = _cells("coin")
    known = [{i: (_fake_row(cells[0], i), []) for i in range(6)}]
    run = play_field(cells, 10, runner, known=known)
    assert runner.asked == [[("coin", i) for i in range(6, 10)]]
    assert (run.played, run.from_store) == (4, 6)


def test_an_interrupted_look_keeps_its_games_and_stops():
    def interrupted(items, progress):
        return Outcome(results={0: (_fake_row(*items[0]), [])}, interrupted=True)

    run = play_field(_cells("coin", "clear"), 100, interrupted, target=0.01, first_pairs=5)
    assert run.interrupted and [len(c.games) for c in run.cells] == [1, 0]
    assert [c.settled for c in run.cells] == ["open", "open"]


def test_a_look_plays_pair_by_pair_across_the_cells():
    runner = FakeRunner()
    play_field(_cells("coin", "clear"), 4, runner)
    assert runner.asked == [
        [("coin", 0), ("coin", 1), ("clear", 0), ("clear", 1), ("coin", 2), ("coin", 3), ("clear", 2), ("clear", 3)]
    ]


def test_settle_rules():
    assert settle({"half_width": 0.02, "low": 0.4, "high": 0.44}, 0.03) == "precise"
    assert settle({"half_width": 0.1, "low": 0.51, "high": 0.71}, 0.03) == "clear"
    assert settle({"half_width": 0.1, "low": 0.41, "high": 0.61}, 0.03) == "open"
    assert settle({"half_width": 0.0, "low": 0.5, "high": 0.5}, None) == "open"


def test_player_styles_of_the_field():
    assert field_styles("default") == ["tuned"]
    assert field_styles("sweep")[0] != "random" and len(field_styles("sweep")) > 1
    assert field_styles("rusher,hunter") == ["rusher", "hunter"]


# --- the summaries, on games made up to give known answers ---------------------------------------------


def _games_for(scores: dict[tuple[str, str], float], pairs: int = 40, maps=("graveyard",)) -> tuple[list, pd.DataFrame]:
    """Game rows where A's score in each cell is exactly the given one (pairs of games: the pair's wins)."""
    rows, matchups = [], []
    for (a, b), share in scores.items():
        for map_name in maps:
            cell = len(matchups)
            matchups.append(Matchup(LAYERS, a, b, map_name))
            wins = round(share * 2 * pairs)
            for index in range(2 * pairs):
                order = index if index % 2 == 0 else 2 * pairs - index  # spread wins over the pairs
                rows.append(
                    {
                        "cell": cell,
                        "game": index,
                        "pair": index // 2,
                        "army_a": a,
                        "army_b": b,
                        "map": map_name,
                        "players_a": "tuned",
                        "players_b": "tuned",
                        "winner": "A" if order < wins else "B",
                        "first": "A" if index % 2 == 0 else "B",
                        "tie_break": False,
                        "area_a": 1,
                        "area_b": 2,
                        "plot_twist_cards_a": "Watch Out!@slaying" if order < wins else "",
                        "plot_twist_cards_b": "",
                    }
                )
    return matchups, pd.DataFrame(rows)


def test_summary_of_a_field_with_a_dominant_army(roster):
    # midnight-rush beats both others clearly; the other two are even
    matchups, games = _games_for(
        {("midnight-rush", "butcher-shop"): 0.9, ("midnight-rush", "haunting"): 0.95, ("butcher-shop", "haunting"): 0.5}
    )
    run = FieldRun([CellState(settled="all") for _ in matchups], [80], 0.95)
    armies = ["midnight-rush", "butcher-shop", "haunting"]
    summary, cells = meta_summary(armies, ["tuned"], matchups, run, games, roster, seed=1, resamples=30)
    assert summary["matrix"]["midnight-rush"]["butcher-shop"]["score"] == pytest.approx(0.9)
    assert summary["matrix"]["butcher-shop"]["midnight-rush"]["score"] == pytest.approx(0.1)
    field = {r["army"]: r for r in summary["field"]}
    assert field["midnight-rush"]["score"] == pytest.approx(0.925)
    assert field["butcher-shop"]["score"] == pytest.approx(0.3)
    assert [s["army"] for s in summary["nash"]["support"]] == ["midnight-rush"]
    assert field["midnight-rush"]["support_frequency"] == 1.0
    assert field["midnight-rush"]["rating"] > field["butcher-shop"]["rating"]
    assert {o["army"] for o in summary["outliers"]} == {"midnight-rush", "butcher-shop", "haunting"}
    assert {d["army"] for d in summary["dominated"]} == {"butcher-shop", "haunting"}
    assert list(cells["score"]) == pytest.approx([0.9, 0.95, 0.5])
    # the first player won every game A won going first: the first player's score is the split of the pairs
    assert 0 <= summary["first_player"]["overall"]["score"] <= 1
    # Watch Out! is played exactly in midnight-rush's wins (its crypt holds it)
    card = next(
        r for r in summary["plot_twists"]["by_army"] if r["army"] == "midnight-rush" and r["card"] == "Watch Out!"
    )
    assert card["played"]["score"] == 1.0 and card["not_played"]["score"] == 0.0
    # held in only 12 games (fewer than MIN_GROUP): no difference is claimed
    assert card["not_played"]["games"] == 12 and card["effect"]["difference"] is None
    assert card["windows"] == {"slaying": round(0.9 * 80) + round(0.95 * 80)}


def test_equal_weights_over_maps_whatever_the_games_per_cell(roster):
    matchups, games = _games_for({("butcher-shop", "haunting"): 0.8}, maps=("graveyard",))
    more, other = _games_for({("butcher-shop", "haunting"): 0.4}, pairs=200, maps=("mansion",))
    other["cell"] = 1
    games = pd.concat([games, other], ignore_index=True)
    run = FieldRun([CellState(settled="all"), CellState(settled="all")], [80], 0.95)
    summary, _ = meta_summary(
        ["butcher-shop", "haunting"], ["tuned"], [*matchups, *more], run, games, roster, seed=0, resamples=10
    )
    assert summary["matrix"]["butcher-shop"]["haunting"]["score"] == pytest.approx(0.6)
    maps = {m["map"]: m for m in summary["maps"]}
    assert maps["graveyard"]["field"][0]["score"] == pytest.approx(0.8)
    assert maps["mansion"]["field"][0]["score"] == pytest.approx(0.4)


def test_a_cell_whose_pairs_all_agree_keeps_a_width_in_the_cell_matrix_and_field(roster):
    """Issue 32: every pair of a cell won is not certainty; the cell, the matrix and the field scores keep a width."""
    matchups, games = _games_for(
        {("midnight-rush", "butcher-shop"): 1.0, ("midnight-rush", "haunting"): 1.0, ("butcher-shop", "haunting"): 0.5}
    )
    run = FieldRun([CellState(settled="all") for _ in matchups], [80], 0.95)
    armies = ["midnight-rush", "butcher-shop", "haunting"]
    summary, cells = meta_summary(armies, ["tuned"], matchups, run, games, roster, seed=1, resamples=10)
    won = cells.iloc[0]
    assert won["score"] == 1.0 and won["high"] == 1.0 and 0.85 < won["low"] < 0.95  # 40 pairs all won
    assert (cells["se"] > 0).all() and (cells["high"] > cells["low"]).all()
    cell = summary["matrix"]["midnight-rush"]["butcher-shop"]
    assert cell["score"] == 1.0 and cell["low"] < 0.95
    assert summary["matrix"]["butcher-shop"]["midnight-rush"]["high"] > 0.05
    field = {r["army"]: r for r in summary["field"]}
    assert field["midnight-rush"]["low"] < 1.0 and field["midnight-rush"]["se"] > 0


def test_dominated_says_whether_the_intervals_show_it(roster):
    from clix.analyzer.meta.report import meta_lines
    from clix.analyzer.meta.summary import dominated

    armies = ["a", "b", "c"]
    scores = np.array([[0.5, 0.9, 0.9], [0.1, 0.5, 0.52], [0.1, 0.48, 0.5]])
    sure, unsure = np.full((3, 3), 0.02), np.full((3, 3), 0.03)
    # b and c both lose clearly to a; c is behind b on points (48% against it, 10% = 10% against a)
    found = {d["army"]: d for d in dominated(armies, scores, sure)}
    assert found["b"] == {"army": "b", "by": "a", "by_intervals": True}
    assert found["c"]["by"] == "a" and found["c"]["by_intervals"] is True
    # on point estimates c is also behind b; with wide errors a's edge is still shown, b's over c is not
    close = np.array([[0.5, 0.6, 0.6], [0.4, 0.5, 0.52], [0.4, 0.48, 0.5]])
    found = {d["army"]: d for d in dominated(armies, close, unsure)}
    assert found["c"]["by_intervals"] is True and found["c"]["by"] == "a"  # a shown, preferred to b
    found = {d["army"]: d for d in dominated(armies, close, np.full((3, 3), 0.2))}
    assert found["b"]["by_intervals"] is False and found["c"]["by_intervals"] is False
    lines = meta_lines({"armies": armies, "dominated": list(found.values()), **_empty_summary(armies)}, _settings())
    text = "\n".join(lines)
    assert "dominated on point estimates (the intervals do not show it): b (by a), c (by a)" in text
    assert "dominated (another army" not in text


def _empty_summary(armies: list[str]) -> dict:
    """The rest of a meta summary, empty, for the console lines."""
    row = {"score": 0.5, "low": 0.4, "high": 0.6, "rating": 0.0, "rating_low": -1.0, "rating_high": 1.0}
    return {
        "cells_settled": {"all": 3},
        "matrix": {a: {b: {"score": 0.5} for b in armies if b != a} for a in armies},
        "field": [{"army": a, **row, "nash_weight": 1 / 3, "support_frequency": None} for a in armies],
        "first_player": {
            "overall": row,
            "by_army": [{"army": a, "effect": {"difference": None}} for a in armies],
        },
        "nash": {"support": []},
        "outliers": [],
        "draws": {"share": 0.0, "tie_break_share": 0.0},
        "maps": [],
        "plot_twists": {"cards": []},
        "styles_range": [],
    }


def _settings() -> dict:
    return {
        "maps": ["graveyard"],
        "players": ["tuned"],
        "cells": 3,
        "games": 6,
        "played": 6,
        "from_store": 0,
        "seed": 0,
        "seconds": 0,
        "engine": "pure",
        "target_ci": None,
        "resamples": 10,
        "interrupted": False,
    }


# --- the command ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "700"], "--budget 700"),
        (["butcher-shop"], "at least two armies"),
        (["--budget", "100", "--backend", "dask"], "--scheduler"),
        (["--budget", "100", "--scheduler", "tcp://x:1"], "only with --backend dask"),
        (["--budget", "100", "--backend", "slurm"], "--backend takes local or dask"),
        (["--budget", "100", "--players", "sneaky"], "unknown player style"),
        (["--budget", "100", "--target-ci", "0.7"], "--target-ci"),
        (["nobody-army", "haunting"], "nobody-army"),
        (["--budget", "100", "--games", "1"], "--games"),
    ],
)
def test_mistakes_are_one_line_errors(args, message, tmp_path, capsys):
    code, _out, err = run_main(
        ["meta", *args, "--out", str(tmp_path / "o"), "--store", str(tmp_path / "s.duckdb")], capsys
    )
    assert code == 2
    assert err.startswith("clix: error: ") and message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
