"""Issue 37: one result store for every command whatever its --out (./clix-out/clix.duckdb unless --store or a
configuration file says otherwise), and an army shown by its file's `name:` (analyzer/common/names.py) in the
summaries, reports and `clix results`, its id kept where machine outputs key on it.

Small runs in this process (`run_main`: 2 games, 2 turns, 1 job) on the sample library, from a tmp_path folder."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from clix.analyzer.common.names import army_names, declared_name, settings_names, shown_name, side_names, slug
from clix.analyzer.common.text import unwrapped
from clix.analyzer.play.store import Store
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "rosters" / "horrorclix"
HERO = ROOT / "rosters" / "heroclix"
QUICK = ["--games", "2", "--turns", "2", "--jobs", "1", "--rosters", str(SAMPLE)]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in tmp_path: the project's store is tmp_path/clix-out/clix.duckdb."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLIX_ROSTERS", raising=False)
    return tmp_path


def renamed(folder: Path, stem: str, name: str, like: str = "butcher-shop") -> Path:
    """A copy of sample army `like` as `folder/stem.yaml`, its `name:` changed to `name`."""
    text = (SAMPLE / "armies" / f"{like}.yaml").read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("name:"))
    path = folder / f"{stem}.yaml"
    path.write_text(text.replace(old, f"name: {name}"), encoding="utf-8")
    return path


def test_a_duel_with_out_keeps_its_games_in_the_project_store_not_beside_out(here, capsys):
    code, out, err = run_main(["duel", "butcher-shop", "firing-line", *QUICK, "--out", "sub/dir", "--json"], capsys)
    assert code == 0, err
    assert sorted(p.name for p in (here / "sub").rglob("*.duckdb")) == []
    assert not (here / "sub" / "clix.duckdb").exists()
    project = here / "clix-out" / "clix.duckdb"
    assert json.loads(out)["settings"]["store"] == str(Path("clix-out", "clix.duckdb"))
    assert [r.out for r in Store.existing(project).runs()] == [str(here / "sub" / "dir")]
    code, listing, err = run_main(["results", "list"], capsys)  # `clix results` sees the run without --store
    assert code == 0, err
    assert "1 run in clix-out/clix.duckdb" in listing


def test_meta_and_a_duel_with_different_outs_share_one_store(here, capsys):
    duel = ["duel", "butcher-shop", "firing-line", *QUICK, "--out", "a/duel"]
    meta = ["meta", "butcher-shop", "firing-line", "--maps", "graveyard", *QUICK, "--out", "b/c/meta"]
    for args in (duel, meta):
        code, _, err = run_main(args, capsys)
        assert code == 0, err
    assert sorted(str(p.relative_to(here)) for p in here.rglob("*.duckdb")) == ["clix-out/clix.duckdb"]
    # the meta's one cell is the duel's games: all of them read from the store, none played again
    code, out, err = run_main([*meta[:-1], "b/again", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["played"] == 0


def test_store_from_a_configuration_file_replaces_the_default(here, capsys):
    (here / "clix.toml").write_text('[defaults]\nstore = "kept/mine.duckdb"\n', encoding="utf-8")
    code, out, err = run_main(["duel", "butcher-shop", "firing-line", *QUICK, "--out", "x", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["store"] == str(Path("kept", "mine.duckdb"))
    assert (here / "kept" / "mine.duckdb").is_file() and not (here / "clix-out").exists()


def test_a_renamed_army_file_is_shown_by_its_name_and_keyed_by_its_id(here, capsys):
    army = renamed(here, "x", "Night Butchers")
    args = ["duel", str(army), "firing-line", *QUICK, "--out", "d"]
    code, out, err = run_main(args, capsys)
    assert code == 0, err
    lines = unwrapped(out)
    assert lines[0].startswith("Night Butchers vs firing-line on graveyard: 2 games")
    assert any(line.startswith("  Night Butchers scores ") for line in lines)
    assert not any(" x " in f" {line} " for line in lines[:8])
    report = (here / "d" / "report.html").read_text(encoding="utf-8")
    assert "<title>clix duel: Night Butchers vs firing-line</title>" in report
    code, out, err = run_main([*args[:-1], "e", "--json"], capsys)
    assert code == 0, err
    payload = json.loads(out)
    settings = payload["settings"]
    assert (settings["army_a"], settings["army_b"]) == ("x", "firing-line")  # ids stay the keys
    assert (settings["army_a_name"], settings["army_b_name"]) == ("Night Butchers", "firing-line")
    summary = json.loads((here / "e" / "summary.json").read_text(encoding="utf-8"))
    assert summary["settings"]["army_a_name"] == "Night Butchers"
    code, listing, err = run_main(["results", "list"], capsys)
    assert code == 0, err
    assert "Night Butchers vs" in listing and "firing-line" in listing and " x " not in listing
    code, shown, err = run_main(["results", "show", "last"], capsys)
    assert code == 0, err
    assert "Night Butchers vs firing-line on graveyard" in " ".join(unwrapped(shown))


def test_a_meta_shows_the_field_by_name(here, capsys):
    army = renamed(here, "x", "Night Butchers")
    args = ["meta", str(army), "firing-line", "--maps", "graveyard", *QUICK, "--out", "m", "--json"]
    code, out, err = run_main(args, capsys)
    assert code == 0, err
    payload = json.loads(out)
    assert payload["armies"] == ["x", "firing-line"]  # the matrix's keys
    assert payload["names"] == {"x": "Night Butchers", "firing-line": "firing-line"}
    report = (here / "m" / "meta.html").read_text(encoding="utf-8")
    assert "Night Butchers" in report and "<td>x</td>" not in report
    code, out, err = run_main([*args[:-2], "m2"], capsys)
    assert code == 0, err
    assert "1 Night Butchers" in out


def test_an_army_whose_name_spells_its_id_is_shown_by_its_id(roster):
    assert slug("Ashfang Pack") == "ashfang-pack" and slug("  Watch Out!  ") == "watch-out"
    assert shown_name("butcher-shop", "Butcher Shop") == "butcher-shop"
    assert shown_name("x", "Butcher Shop") == "Butcher Shop"
    assert shown_name("x", None) == "x"
    shown = army_names(roster, sorted(roster.armies))
    # the sample armies look as before, but for the one whose name is more than its id spelt out
    assert {a: s for a, s in shown.items() if a != s} == {"haunting": "The Haunting"}
    assert declared_name(roster, "butcher-shop") == "Butcher Shop"
    assert declared_name(roster, "no-such-army") is None


def test_armies_shown_alike_are_told_apart_by_their_ids():
    data = SimpleNamespace(
        armies={
            "x": SimpleNamespace(name="Crimson Court"),
            "crimson-court": SimpleNamespace(name="Crimson Court"),
            "a": SimpleNamespace(name="Blood Moon"),
            "b": SimpleNamespace(name="Blood Moon"),
        }
    )
    assert army_names(data, ["x", "crimson-court"]) == {"x": "Crimson Court (x)", "crimson-court": "crimson-court"}
    assert army_names(data, ["a", "b", "x"]) == {"a": "Blood Moon (a)", "b": "Blood Moon (b)", "x": "Crimson Court"}
    assert side_names(data, "x", "x") == {"a": "Crimson Court", "b": "Crimson Court"}  # a mirror: one army
    assert settings_names({"army_a": "x", "army_b": "y"}) == {"a": "x", "b": "y"}  # recorded before names were


def test_a_heroclix_force_is_shown_by_its_name(here, capsys):
    from clix.analyzer.library.rulesets import Argument, matchup_library

    library = matchup_library([HERO], [Argument("A", "dawn-patrol")], Argument("--map", None, "maps"))
    forces = library.data.forces
    assert forces and all(declared_name(library.data, f) == forces[f].name for f in forces)
    force = renamed_force(here, forces["dawn-patrol"].name)
    code, out, err = run_main(
        ["duel", str(force), "night-shift", "--games", "2", "--turns", "2", "--jobs", "1", "--rosters", str(HERO),
         "--out", "h", "--json"], capsys,
    )  # fmt: skip
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert (settings["army_a"], settings["army_a_name"]) == ("mine", "Morning Watch")


def renamed_force(folder: Path, old: str) -> Path:
    """A copy of the sample force dawn-patrol as `folder/mine.yaml`, named Morning Watch."""
    text = (HERO / "forces" / "dawn-patrol.yaml").read_text(encoding="utf-8")
    path = folder / "mine.yaml"
    path.write_text(text.replace(f"name: {old}", "name: Morning Watch", 1), encoding="utf-8")
    return path


def test_a_ladder_report_lists_its_armies_by_name(here, capsys):
    army = renamed(here, "x", "Night Butchers")
    args = ["ladder", "--players", "random,tuned", "--armies", str(army), "--maps", "graveyard", *QUICK]
    code, out, err = run_main([*args, "--out", "l", "--json"], capsys)
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert settings["armies"] == ["x"] and settings["shown_armies"] == {"x": "Night Butchers"}
    report = " ".join((here / "l" / "ladder.html").read_text(encoding="utf-8").split())
    assert "(Night Butchers)" in report and "(x)" not in report
