"""`clix horrified` in the result store (issue 40): a run again plays nothing and says the same, a data edit or
another cell is another key, an interrupted run resumes where it stopped, `clix results` lists, shows and exports
a Horrified run, and an unusable store is one line."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pandas as pd
from clix.analyzer.horrified import games
from clix.analyzer.horrified.games import Cell, kit
from clix.analyzer.horrified.keep import horrified_key
from clix.analyzer.play.store import Store
from clix.analyzer.results.command import record_names, run_label
from helpers import run_main

import clix

BASE = Cell(("dracula", "invisible-man"), ("mayor", "archaeologist"))
LINEUP = ["horrified", "-n", "12", "--jobs", "1", "--json"]


def _horrified(capsys, store: Path, out: Path, *extra: str) -> tuple[int, dict, str]:
    code, printed, err = run_main([*LINEUP, "--store", str(store), "-o", str(out), *extra], capsys)
    return code, (json.loads(printed) if code == 0 else {}), err


def _summary(printed: dict) -> dict:
    """The run's numbers, without where they were written or read."""
    return {k: v for k, v in printed.items() if k not in ("games_csv", "store")}


def test_the_same_command_again_plays_no_game_and_says_the_same(tmp_path, capsys):
    store = tmp_path / "s.duckdb"
    code, first, err = _horrified(capsys, store, tmp_path / "a")
    assert code == 0, err
    assert first["store"] | {"run": 0} == {"path": str(store), "run": 0, "from_store": 0, "played": 12, "fresh": False}
    code, again, err = _horrified(capsys, store, tmp_path / "b")
    assert code == 0, err
    assert (again["store"]["from_store"], again["store"]["played"]) == (12, 0)
    assert _summary(again) == _summary(first)
    assert (tmp_path / "a" / "games.csv").read_text() == (tmp_path / "b" / "games.csv").read_text()
    code, fresh, err = _horrified(capsys, store, tmp_path / "c", "--fresh")
    assert code == 0, err
    assert (fresh["store"]["from_store"], fresh["store"]["played"]) == (0, 12) and _summary(fresh) == _summary(first)
    code, more, err = _horrified(capsys, store, tmp_path / "d", "-n", "15")  # the first 12 kept, 3 more played
    assert code == 0, err
    assert (more["store"]["from_store"], more["store"]["played"]) == (12, 3)


def test_a_tables_cells_find_the_games_of_a_lineup_run_with_the_same_cell(tmp_path, capsys):
    store = tmp_path / "s.duckdb"
    assert _horrified(capsys, store, tmp_path / "a", "-n", "3")[0] == 0
    code, table, err = _horrified(capsys, store, tmp_path / "b", "-n", "3", "--table", "heroes", "--no-sensitivity")
    assert code == 0, err
    cells = 1 + len(table["swaps"])
    assert (table["store"]["from_store"], table["store"]["played"]) == (3, 3 * (cells - 1))  # the baseline's 3 kept


def _copy_of_the_sample(tmp_path: Path, name: str = "horrified", old: str = "", new: str = "") -> Path:
    """A copy of the sample components, with `old` replaced by `new` in game.yaml (a folder of its own: the
    library is loaded once per folder in a process)."""
    folder = tmp_path / name
    shutil.copytree(kit().sample, folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert text.count(old) == 1 or not old
    game.write_text(text.replace(old, new) if old else text, encoding="utf-8")
    return folder


def test_an_edit_of_a_data_file_changes_the_key_a_comment_or_its_folder_does_not(tmp_path):
    sample = horrified_key(BASE, 0)
    for name, old, new in (("copy", "", ""), ("comment", "  skull: 7\n", "  skull: 7  # a comment\n")):
        folder = _copy_of_the_sample(tmp_path, name, old, new)
        copied = Cell(BASE.monsters, BASE.heroes, layers=(kit().sample, folder))
        assert horrified_key(copied, 0).digest == sample.digest, name  # the same components
    folder = _copy_of_the_sample(tmp_path, "edited", "  skull: 7\n", "  skull: 6\n")
    edited = horrified_key(Cell(BASE.monsters, BASE.heroes, layers=(kit().sample, folder)), 0)
    assert edited.digest != sample.digest and edited.fields["data"] != sample.fields["data"]
    for other in (
        Cell(BASE.monsters, ("mayor", "courier")),
        Cell(BASE.monsters, BASE.heroes, style="random"),
        Cell(BASE.monsters, BASE.heroes, style="search:4"),
        Cell(BASE.monsters, BASE.heroes, knob="terror-skull", value=6),
        Cell(("dracula", "creature"), BASE.heroes),
    ):
        assert horrified_key(other, 0).digest != sample.digest, other
    assert horrified_key(BASE, 1).digest != sample.digest
    assert horrified_key(Cell(BASE.monsters, BASE.heroes, style="search"), 0).fields["search_budget"] is not None
    assert sample.fields["kind"] == "horrified"


def test_a_run_on_edited_data_plays_its_games_again(tmp_path, capsys):
    store = tmp_path / "s.duckdb"
    folder = _copy_of_the_sample(tmp_path)
    assert _horrified(capsys, store, tmp_path / "a", "-n", "4")[0] == 0
    code, same, err = _horrified(capsys, store, tmp_path / "b", "-n", "4", "--data", str(folder))
    assert code == 0, err
    assert same["store"]["from_store"] == 4
    folder = _copy_of_the_sample(tmp_path, "edited", "  skull: 7\n", "  skull: 5\n")
    code, edited, err = _horrified(capsys, store, tmp_path / "c", "-n", "4", "--data", str(folder))
    assert code == 0, err
    assert (edited["store"]["from_store"], edited["store"]["played"]) == (0, 4)


def test_an_interrupted_run_keeps_its_games_and_the_next_plays_the_rest(tmp_path, capsys, monkeypatch):
    store = tmp_path / "s.duckdb"
    monkeypatch.setattr(games, "CHUNK", 4)
    real = games._play_chunk
    calls = []

    def stopped_at_the_third_chunk(cell, chunk):
        calls.append(len(chunk))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(cell, chunk)

    monkeypatch.setattr(games, "_play_chunk", stopped_at_the_third_chunk)
    code, _, err = _horrified(capsys, store, tmp_path / "a")
    assert code == 130
    assert err.strip().splitlines()[-1].startswith("clix: interrupted: the 8 games finished are kept in the result")
    assert not (tmp_path / "a").exists() and Store(store).runs() == []  # nothing reported, nothing recorded
    monkeypatch.setattr(games, "_play_chunk", real)
    code, resumed, err = _horrified(capsys, store, tmp_path / "b")
    assert code == 0, err
    assert (resumed["store"]["from_store"], resumed["store"]["played"]) == (8, 4)
    code, fresh, err = _horrified(capsys, tmp_path / "other.duckdb", tmp_path / "c")
    assert code == 0, err
    assert _summary(resumed) == _summary(fresh)


def test_clix_results_lists_shows_and_exports_a_horrified_run(tmp_path, capsys):
    store = tmp_path / "s.duckdb"
    code, table, err = _horrified(capsys, store, tmp_path / "a", "-n", "2", "--table", "sensitivity")
    assert code == 0, err
    cells = 1 + len(table["variants"])
    (record,) = Store(store).runs()
    assert run_label(record) == "horrified: dracula+invisible-man, 2 heroes (sensitivity table)"
    assert record_names(record) == {"a": "dracula+invisible-man", "b": "mayor+archaeologist"}
    assert record.score == table["baseline"]["win_rate"]["rate"] and record.games == 2 * cells
    assert (record.players, record.seed, record.map) == ("team", "0", "")
    code, listed, err = run_main(["results", "list", "--store", str(store)], capsys)
    assert code == 0, err
    assert "horrified:" in listed and f"{100 * record.score:.1f}%" in listed
    code, shown, err = run_main(["results", "show", "last", "--store", str(store)], capsys)
    assert code == 0, err
    assert shown.splitlines()[0].startswith(f"run {record.id}, started ") and table["command"] in shown
    assert f"baseline mayor, archaeologist: {_percent(table['baseline']['win_rate'])}" in shown
    assert "ends of the cell the report plots: " in shown and "0 games from the store, " in shown
    written = tmp_path / "games.csv"
    code, said, err = run_main(["results", "export", "last", "--store", str(store), "-o", str(written)], capsys)
    assert code == 0, err
    assert said.strip() == f"wrote {2 * cells} game rows to {written}"
    with open(written, newline="") as exported, open(tmp_path / "a" / "games.csv", newline="") as played:
        assert list(csv.DictReader(exported)) == list(csv.DictReader(played))
    figures = ["results", "export", "last", "--store", str(store), "-o", str(tmp_path / "f.csv"), "--figures"]
    code, _, err = run_main(figures, capsys)
    assert code == 2 and err.strip() == (
        f"clix: error: --figures: run {record.id} is a Horrified run, which has no figure rows; leave it out"
    )
    runs = clix.results(store).runs  # the API's table and the page's filters read the run's columns
    assert runs["army_a_name"].tolist() == ["dracula+invisible-man"] and pd.isna(runs["low"].iloc[0])


def _percent(rate: dict) -> str:
    from clix.analyzer.horrified.summary import percent

    return percent(rate)


def test_a_store_that_cannot_be_made_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = _horrified(capsys, blocker / "clix.duckdb", tmp_path / "a", "-n", "1")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"clix: error: --store {blocker / 'clix.duckdb'}: cannot create")
    assert not (tmp_path / "a").exists()


def test_the_api_takes_a_store_too(tmp_path):
    store = tmp_path / "s.duckdb"
    first = clix.horrified(games=5, jobs=1, store=store)
    again = clix.horrified(games=5, jobs=1, store=store)
    assert again.summary == first.summary and len(Store(store).load(horrified_key(BASE, 0))) == 5


def test_the_store_options_are_in_the_help(capsys):
    code, out, _ = run_main(["horrified", "--help"], capsys)
    assert code == 0 and "--store" in out and "--fresh" in out
