"""`clix.horrified` (issue 40): the same summary and games as `clix horrified --json` and its games.csv for the same
arguments, the run's table with intervals, the plot of ends by turn, the report, and mistakes named by parameter."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from clix.analyzer.cli import app
from clix.analyzer.common.jsonout import rounded
from typer.testing import CliRunner

import clix


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """`clix horrified` keeps its games in the result store (./clix-out/clix.duckdb): a store of the test's own."""
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(("table", "games"), [("lineup", 12), ("heroes", 3)])
def test_the_api_gives_what_the_command_prints_and_writes(table, games, tmp_path):
    done = CliRunner().invoke(
        app, ["horrified", "--table", table, "-n", str(games), "--jobs", "1", "--json", "-o", str(tmp_path)]
    )
    assert done.exit_code == 0, done.output
    printed = json.loads(done.stdout)
    printed.pop("games_csv")
    checked = printed.get("sensitivity", {}).get("games", 0)  # the hero table's check in the assumed worlds
    assert printed.pop("store")["played"] == games * (1 if table == "lineup" else len(printed["swaps"]) + 1) + checked
    result = clix.horrified(table=table, games=games, jobs=1)
    assert json.loads(json.dumps(rounded(result.summary))) == printed  # --json prints 6 significant digits
    written = pd.read_csv(tmp_path / "games.csv", keep_default_na=False)
    assert result.games.astype(str).values.tolist() == written.astype(str).values.tolist()
    assert result.headline == printed["headline"] and repr(result) == f"<HorrifiedResult: {printed['headline']}>"


def test_a_table_holds_each_cell_with_its_interval_and_the_plot_counts_every_game(tmp_path):
    result = clix.horrified(table="sensitivity", games=3, jobs=1, progress=lambda done, planned: None)
    table = result.table()
    assert len(table) == len(result.summary["variants"])
    assert (table["low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["high"]).all()
    assert set(table["flips"]) <= {"survives", "win rate", "commoner loss", "commoner loss, win rate"}
    ends = result.ends_by_turn
    assert int(ends[["win", "terror", "deck out"]].to_numpy().sum()) == 3
    assert result.plot().axes[0].get_ylabel() == "share of games over"
    assert result.report(tmp_path / "run") == tmp_path / "run" / "horrified.html"
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["ends.png", "games.csv", "horrified.html"]


def test_progress_is_told_every_game():
    told = []
    clix.horrified(games=5, jobs=1, progress=lambda done, planned: told.append((done, planned)))
    assert told[-1] == (5, 5)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"table": "ladder"}, "table: choose one of lineup"),
        ({"seats": 5}, "seats: Horrified is for 1 to 4 players"),
        ({"monsters": ["dracula", "werewolf"]}, "monsters/heroes: the monster 'werewolf'"),
        ({"games": 0}, "games must be 1 to"),
        ({"difficulty": "nightmare"}, "difficulty: no difficulty is called 'nightmare'"),
    ],
)
def test_a_mistake_names_the_parameter(arguments, said):
    with pytest.raises(clix.ClixError, match="^" + said.replace("(", r"\(")):
        clix.horrified(jobs=1, **arguments)
