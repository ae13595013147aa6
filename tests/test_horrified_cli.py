"""`clix horrified` (issue 40, parts 1-3): a line-up's win rate with its interval, the same numbers for any --jobs,
one-line errors, the JSON fields, the difficulty, hero and sensitivity tables (seeds common to every cell)."""

from __future__ import annotations

import csv
import json
from dataclasses import replace

import pytest
from clix.analyzer.cli import app
from clix.analyzer.horrified import games, tables
from clix.analyzer.horrified.games import Cell, kit, play_cells, seeds
from clix.analyzer.horrified.summary import paired_change, summarize, verdict
from helpers import run_main
from typer.testing import CliRunner

BASE = Cell(("dracula", "invisible-man"), ("mayor", "archaeologist"))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """`clix horrified` keeps its games in the result store (./clix-out/clix.duckdb): a store of the test's own."""
    monkeypatch.chdir(tmp_path)


def _run(*words: str):
    return CliRunner().invoke(app, ["horrified", *words], catch_exceptions=False)


def test_a_lineup_reports_its_win_rate_with_an_interval_ends_and_turns_as_json(tmp_path):
    """HF-GOAL-01..03: every game ends in a win, at the skull or with an empty deck; the counts add up."""
    done = _run("-n", "30", "--jobs", "1", "--json", "-o", str(tmp_path))
    assert done.exit_code == 0, done.output
    out = json.loads(done.stdout)
    assert out["monsters"] == ["dracula", "invisible-man"] and out["players"] == 2 and out["games"] == 30
    rate = out["win_rate"]
    assert rate["n"] == 30 and rate["low"] <= rate["rate"] <= rate["high"]
    assert sum(out["ends"].values()) == 30 and set(out["ends"]) == {"win", "terror", "deck out"}
    assert out["ends"]["win"] == round(rate["rate"] * 30)
    assert out["turns"]["min"] <= out["turns"]["mean"] <= out["turns"]["max"]
    with open(tmp_path / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["game"]) for r in rows] == list(range(30))
    assert sum(int(r["won"]) for r in rows) == out["ends"]["win"]


def test_any_jobs_gives_the_same_games(tmp_path):
    one = _run("--table", "heroes", "-n", "6", "--jobs", "1", "--json", "-o", str(tmp_path / "a"))
    two = _run("--table", "heroes", "-n", "6", "--jobs", "2", "--json", "-o", str(tmp_path / "b"), "--fresh")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert (tmp_path / "a" / "games.csv").read_text() == (tmp_path / "b" / "games.csv").read_text()
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("games_csv", "store")}  # noqa: E731
    assert strip(one.stdout) == strip(two.stdout)


def test_the_same_seed_plays_the_same_game_in_every_cell():
    """Common random numbers: a seed used twice (another cell, another worker) plays the same game again."""
    shared = seeds(3, 8)
    first, again = play_cells([BASE, BASE], shared, jobs=1)
    assert first == again
    assert play_cells([BASE], shared, jobs=1)[0] == first


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--monsters", "dracula,bride"], "the bride comes with frankenstein (one mat, HF-M-FRB); choose frankenstein"),
        (["--heroes", "mayor,nobody"], "no hero is called 'nobody'"),
        (["--heroes", "mayor,scientist,explorer,inspector,professor"], "1 to 4 players (one hero each), not 5"),
        (["--heroes", "courier"], "cannot play solo (HF-SOLO-01)"),
        (["--monsters", "dracula,werewolf"], "the monster 'werewolf' is not played yet"),
        (["--difficulty", "hard"], "no difficulty is called 'hard'"),
        (["--seats", "3", "--heroes", "mayor"], "--seats 3 but 1 heroes"),
        (["--table", "foo"], "--table: choose one of"),
        (["-p", "tuned"], "--players: Horrified has the players team and random"),
    ],
)
def test_a_mistake_is_one_line(words, said, tmp_path, capsys):
    code, out, err = run_main(["horrified", "-n", "2", "--jobs", "1", "-o", str(tmp_path), *words], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].startswith("clix: error: "), err
    assert not (tmp_path / "games.csv").exists()


def test_the_difficulty_table_covers_every_supported_lineup_and_names_the_lacking(monkeypatch):
    """HF-DIFF-01: the data supports every line-up of the six monsters (Frankenstein and the Bride one of them):
    the First Game's, then every other 2, 3 and 4 of them, each once, at 1-4 players; a kit lacking a size names
    it (the table code does not assume the sample's line-ups)."""
    cells, lacking = tables.difficulty_cells(BASE)
    line_ups = [c.monsters for c in cells[::4]]
    assert line_ups[0] == ("creature", "dracula") and line_ups[1] == ("dracula", "invisible-man")
    assert [len(lu) for lu in line_ups] == [2] * 15 + [3] * 20 + [4] * 15  # C(6,2), C(6,3), C(6,4)
    assert len({frozenset(lu) for lu in line_ups}) == 50 and not {"bride"} & {m for lu in line_ups for m in lu}
    assert [len(c.heroes) for c in cells[:4]] == [1, 2, 3, 4]
    assert lacking == []
    real = kit()

    class Richer:
        def __getattr__(self, name):
            return getattr(real, name)

        def lineups(self, layers):
            return [{"difficulty": "novice", "monsters": 2, "line_ups": [("a", "b"), ("a", "c")]},
                    {"difficulty": "standard", "monsters": 3, "line_ups": [("a", "b", "c")]}]  # fmt: skip

    monkeypatch.setattr(tables, "kit", lambda: Richer())
    cells, lacking = tables.difficulty_cells(BASE, counts=(1, 2))
    assert [(c.monsters, len(c.heroes)) for c in cells] == [
        (("a", "b"), 1), (("a", "b"), 2), (("a", "c"), 1), (("a", "c"), 2), (("a", "b", "c"), 1), (("a", "b", "c"), 2)
    ]  # fmt: skip
    assert lacking == []


def test_the_hero_table_swaps_one_hero_at_a_time_and_keeps_solo_rules():
    swaps = tables.hero_cells(replace(BASE, heroes=("mayor",)))
    assert "courier" not in {hero for _, hero, _ in swaps}  # HF-SOLO-01: the Courier cannot play alone
    assert len(tables.hero_cells(BASE)) == 2 * 5


def test_a_paired_change_is_zero_on_the_same_games_and_a_verdict_needs_its_interval():
    rows = [{"won": k % 2, "turns": 20, "terror": 1, "end": "win" if k % 2 else "deck out"} for k in range(40)]
    assert paired_change(rows, rows)["difference"] == 0
    assert verdict(summarize(rows)["win_rate"]) == "undecided"
    assert verdict({"rate": 0.9, "low": 0.8, "high": 0.95}) == "above half"
    assert verdict({"rate": 0.1, "low": 0.05, "high": 0.2}) == "below half"


def test_the_sensitivity_table_varies_every_assumption_on_the_baselines_seeds(tmp_path):
    done = _run("--table", "sensitivity", "-n", "8", "--jobs", "1", "--json", "-o", str(tmp_path))
    assert done.exit_code == 0, done.output
    out = json.loads(done.stdout)
    varied = {(row["assumption"], row["value"]) for row in out["variants"]}
    ranges = {(a["id"], v) for a in kit().assumptions(()) for v in a["values"]}
    assert varied == ranges and {a for a, _ in varied} >= {"terror-skull", "hit-faces", "items-per-colour"}
    for row in out["variants"]:
        assert row["provenance"] and row["why"]
        assert row["flips"] == sorted(k for k in row["verdicts"] if row["verdicts"][k] != out["verdicts"][k])
    assert set(out["survives"]) == {"win rate", "commoner loss"}


def test_the_text_summary_fits_80_columns(tmp_path):
    for table in ("lineup", "heroes", "sensitivity", "difficulty"):
        cheap = ["--no-sensitivity"] if table == "difficulty" else []  # 1,600 cell-worlds (test_horrified_robust)
        done = _run("--table", table, "-n", "2", "--jobs", "1", "-o", str(tmp_path / table), *cheap)
        assert done.exit_code == 0, done.output
        long = [line for line in done.output.splitlines() if len(line) > 80 and not line.startswith("wrote ")]
        assert long == [], table


def test_the_command_reaches_horrified_only_through_the_registry():
    assert games.kit() is kit() and type(kit()).__name__ == "HorrifiedMatchups"


def test_an_assumed_number_varies_only_that_component():
    """The sensitivity knobs: the skull (HF-GOAL-02), the dice's Hit faces (HF-MON-05), item tokens per colour
    (HF-ITEM-01), Frenzy symbols in the monster deck (HF-MON-02); everything else as the files say."""
    base = kit().components(())
    skull = kit().components((), "terror-skull", 5)
    assert skull.skull == 5 and base.skull == 7 and skull.cards == base.cards and skull.items == base.items
    hits = kit().components((), "hit-faces", 2)
    assert hits.faces.count("hit") == 2 and hits.faces.count("power") == 1 and len(hits.faces) == 6
    items = kit().components((), "items-per-colour", 16)
    assert len(items.items) == 48 and {t.colour for t in items.items} == {"red", "blue", "yellow"}
    frenzy = kit().components((), "frenzy-symbols", 16)
    assert sum("frenzy" in c.symbols for c in frenzy.cards) == 16
    assert sum("frenzy" in c.symbols for c in base.cards) == 12


def test_a_lower_skull_ends_games_in_terror_at_that_level():
    """HF-GOAL-02 with the skull moved: on the same seeds, terror losses come at the new skull and no later."""
    shared = seeds(11, 20)
    low = play_cells([replace(BASE, knob="terror-skull", value=2)], shared, jobs=1)[0]
    high = play_cells([BASE], shared, jobs=1)[0]
    assert all(row["terror"] == 2 for row in low if row["end"] == "terror")
    assert sum(row["end"] == "terror" for row in low) > sum(row["end"] == "terror" for row in high)


def test_a_sensitivity_table_names_known_assumptions_only(tmp_path):
    bad = tmp_path / "game.yaml"
    bad.write_text(
        "ruleset: horrified\nsensitivity:\n  - {id: moon-phase, baseline: 1, values: [2], provenance: assumed}\n"
    )
    from clix.engine.core.ruleset import ruleset_named

    _, problems = ruleset_named("horrified").load_library([bad])
    assert any("moon-phase" in p.message or "sensitivity" in p.field for p in problems), problems


def test_data_files_replace_a_sample_table_and_a_broken_one_is_one_line(tmp_path, capsys):
    """--data layers Horrified files over the sample: a skull at 4 (HF-GOAL-02) ends games in terror at 4."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "terror.yaml").write_text("ruleset: horrified\nterror: {skull: 4, solo_start: 3, provenance: assumed}\n")
    code, out, err = run_main(["horrified", "-n", "20", "--jobs", "1", "--json", "--data", str(folder),
                               "-o", str(tmp_path / "run")], capsys)  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["data"] == [str(folder)] and summary["ends"]["terror"] > 0
    with open(tmp_path / "run" / "games.csv", newline="") as handle:
        assert {int(r["terror"]) for r in csv.DictReader(handle) if r["end"] == "terror"} == {4}
    broken = tmp_path / "broken.yaml"  # another path: components are cached per process by their layers
    broken.write_text("ruleset: horrified\nterror: {skull: 99, solo_start: 3, provenance: assumed}\n")
    code, out, err = run_main(["horrified", "-n", "2", "--jobs", "1", "--data", str(broken)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "terror.skull" in err, err
