"""`clix meta --row` (issue 41): one army against each other army of the field, its cells exactly `clix meta`'s
cells holding that army, played to the same games and kept under the same store keys."""

from __future__ import annotations

import json

import pandas as pd
from clix.analyzer.library.load import REPO_ROSTERS
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.row import row_cells, row_summary
from helpers import run_main

FIELD = ["butcher-shop", "firing-line", "crimson-court"]


def test_a_row_is_the_meta_cells_of_its_army():
    whole = field_cells(REPO_ROSTERS, FIELD, ["graveyard", "mansion"], ["tuned"], 15)
    row = row_cells(REPO_ROSTERS, FIELD, ["graveyard", "mansion"], ["tuned"], 15)
    assert row == [m for m in whole if m.army_a == "butcher-shop"]
    assert [(m.army_b, m.map_name) for m in row] == [
        ("firing-line", "graveyard"), ("firing-line", "mansion"),
        ("crimson-court", "graveyard"), ("crimson-court", "mansion"),
    ]  # fmt: skip


def test_the_row_score_is_the_mean_over_opponents():
    cells = pd.DataFrame(
        {
            "army_b": ["firing-line", "firing-line", "crimson-court"],
            "score": [0.8, 0.6, 0.2],
            "se": [0.1, 0.1, 0.2],
            "games": [4, 4, 4],
        }
    )
    summary = row_summary(FIELD, cells, {a: a for a in FIELD})
    assert [r["score"] for r in summary["opponents"]] == [0.7, 0.2]
    assert abs(summary["field"]["score"] - 0.45) < 1e-12
    assert summary["field"]["low"] < 0.45 < summary["field"]["high"]


def test_the_meta_takes_the_row_games_from_the_store(tmp_path, capsys):
    common = ["--maps", "graveyard", "--games", "4", "--jobs", "1", "--store", str(tmp_path / "s.duckdb"), "--json"]
    code, out, err = run_main(["meta", "--row", *FIELD, *common, "--out", str(tmp_path / "row")], capsys)
    assert code == 0, err
    row = json.loads(out)
    assert (row["settings"]["played"], row["settings"]["cells"]) == (8, 2)
    assert row["outputs"]["report"].endswith("row.html") and (tmp_path / "row" / "row.html").is_file()
    assert row["army"] == "butcher-shop" and [r["opponent"] for r in row["opponents"]] == FIELD[1:]
    code, out, err = run_main(["meta", *FIELD, *common, "--out", str(tmp_path / "meta"), "--resamples", "10"], capsys)
    assert code == 0, err
    whole = json.loads(out)["settings"]
    assert (whole["played"], whole["from_store"]) == (4, 8)
    games = pd.read_csv(tmp_path / "meta" / "games.csv")
    mine = games[games["army_a"] == "butcher-shop"].drop(columns="cell").reset_index(drop=True)
    theirs = pd.read_csv(tmp_path / "row" / "games.csv").drop(columns="cell")
    pd.testing.assert_frame_equal(mine, theirs[mine.columns])


def test_a_row_of_one_army_is_one_line(tmp_path, capsys):
    code, _, err = run_main(["meta", "--row", "butcher-shop", "butcher-shop", "--out", str(tmp_path)], capsys)
    assert code == 2 and "clix: error:" in err and len(err.strip().splitlines()) == 1
