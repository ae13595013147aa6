"""`clix meta` (issue 18) with the engine: a field's cells are the duel's games (the same seeds), a rerun takes
its games from the result store, and the command writes every output."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.library.load import REPO_ROSTERS
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.play import field_games, local_runner, play_field
from clix.analyzer.play.runner import run_matchup
from helpers import run_main

LAYERS = (REPO_ROSTERS,)


def test_cells_are_the_duels_games_with_the_same_seeds():
    armies = ["butcher-shop", "firing-line", "midnight-rush"]
    matchups = field_cells(LAYERS, armies, ["graveyard"], ["tuned"], turns=15)
    assert [(m.army_a, m.army_b) for m in matchups] == [
        ("butcher-shop", "firing-line"),
        ("butcher-shop", "midnight-rush"),
        ("firing-line", "midnight-rush"),
    ]
    run = play_field(matchups, 4, local_runner(11, 1))
    games = field_games(matchups, run)
    for c, matchup in enumerate(matchups):
        duel = pd.DataFrame(run_matchup(matchup, 4, 11, jobs=1).games)
        cell = games[games["cell"] == c].drop(columns="cell").reset_index(drop=True)
        pd.testing.assert_frame_equal(cell, duel)
    # common random numbers: every cell's game i has the same seed path
    assert games.groupby("game")["seed_path"].nunique().eq(1).all()


def test_a_cell_equals_clix_duel_through_the_cli(tmp_path, capsys):
    code, _, err = run_main(
        [
            "duel",
            "butcher-shop",
            "haunting",
            "--games",
            "4",
            "--seed",
            "5",
            "--map",
            "mansion",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / "duel"),
            "--store",
            str(tmp_path / "duel.duckdb"),
            "--json",
        ],
        capsys,
    )
    assert code == 0, err
    code, out, err = run_main(
        [
            "meta",
            "butcher-shop",
            "haunting",
            "--maps",
            "mansion",
            "--games",
            "4",
            "--seed",
            "5",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / "meta"),
            "--store",
            str(tmp_path / "meta.duckdb"),
            "--json",
            "--resamples",
            "20",
        ],
        capsys,
    )
    assert code == 0, err
    duel = pd.read_csv(tmp_path / "duel" / "games.csv")
    meta = pd.read_csv(tmp_path / "meta" / "games.csv").drop(columns="cell")
    pd.testing.assert_frame_equal(meta, duel)
    payload = json.loads(out)
    assert payload["settings"]["games"] == 4 and payload["armies"] == ["butcher-shop", "haunting"]


def test_a_rerun_takes_every_game_from_the_store(tmp_path, capsys):
    args = [
        "meta",
        "butcher-shop",
        "firing-line",
        "--maps",
        "graveyard",
        "--games",
        "4",
        "--jobs",
        "1",
        "--store",
        str(tmp_path / "s.duckdb"),
        "--json",
        "--resamples",
        "10",
    ]
    code, out, err = run_main([*args, "--out", str(tmp_path / "one")], capsys)
    assert code == 0, err
    first = json.loads(out)["settings"]
    code, out, err = run_main([*args, "--out", str(tmp_path / "two"), "--games", "6"], capsys)
    assert code == 0, err
    second = json.loads(out)["settings"]
    assert (first["played"], first["from_store"]) == (4, 0)
    assert (second["played"], second["from_store"]) == (2, 4)
    one = pd.read_csv(tmp_path / "one" / "games.csv")
    two = pd.read_csv(tmp_path / "two" / "games.csv")
    pd.testing.assert_frame_equal(two.iloc[:4].reset_index(drop=True), one)


# --- the command ----------------------------------------------------------------------------------------


def test_outputs_and_field_json(tmp_path, capsys):
    code, out, err = run_main(
        [
            "meta",
            "--budget",
            "100",
            "--maps",
            "graveyard",
            "--games",
            "2",
            "--jobs",
            "1",
            "--resamples",
            "10",
            "--out",
            str(tmp_path / "o"),
            "--store",
            str(tmp_path / "s.duckdb"),
            "--pdf",
        ],
        capsys,
    )
    assert code == 0, err
    folder = tmp_path / "o"
    names = {
        "summary.json",
        "field.json",
        "cells.csv",
        "cells.parquet",
        "games.csv",
        "games.parquet",
        "heatmap.png",
        "nash.png",
        "meta.html",
        "meta.pdf",
    }
    assert names <= {p.name for p in folder.iterdir()}
    field = json.loads((folder / "field.json").read_text())
    assert field["budget"] == 100 and field["source"].startswith("clix meta ")
    assert field["field"] and all(f["weight"] > 0 for f in field["field"])
    assert sum(f["weight"] for f in field["field"]) == pytest.approx(1.0, abs=1e-4)
    summary = json.loads((folder / "summary.json").read_text())
    assert {f["army"] for f in field["field"]} == {s["army"] for s in summary["nash"]["support"]}
    cells = pd.read_parquet(folder / "cells.parquet")
    assert len(cells) == 6 and cells["games"].eq(2).all()
    html = (folder / "meta.html").read_text()
    assert "Nash" in html and "data:image/png;base64," in html
    assert "Plot twists: score when played vs held (association" in html
    assert "Nash mixture of the matchup game" in out and "outliers" in out
    assert np.isclose(sum(s["weight"] for s in summary["nash"]["support"]), 1.0)
