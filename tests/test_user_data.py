"""The user's own data (issue 14, part 4): armies, figures and maps by id or by file path, layered roster
folders (`--rosters` repeated, later ones replacing items of the same name), broken files that block only
the commands that use them, JSON Schemas of every format (`clix schema`), and the Python API."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pandas as pd
import pytest
import yaml
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import load_library
from clix.analyzer.library.schema import KINDS, schema_for
from clix.engine.horrorclix.roster.loader import KINDS as FILE_KINDS
from clix.engine.horrorclix.roster.models import Army
from helpers import horrorclix_files, run_main

import clix

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
SCENARIOS = ROOT / "tests" / "scenarios"
NIGHT_SHIFT = """\
name: Night Shift
build_total: 100
figures: [night-butcher-v, crimson-thrall-e]
crypt: [Trip, Bad Luck, Tricky Tricky Monster, Look Left Dodge Right, Bitter Hatred, Broad Daylight]
victims: [Jock, Cheerleader, Pizza Guy, Boyfriend, Counselor, Survivor]
objects: [tombstone, tombstone]
provenance: homebrew army for a test
"""


def clix_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clix", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "100"},
    )


@pytest.fixture
def homebrew(tmp_path: Path) -> Path:
    """mine/: a homebrew figure (the sample butcher renamed, 2 points cheaper), an army fielding it, and a
    half-written file nothing uses."""
    mine = tmp_path / "mine"
    mine.mkdir()
    figure = yaml.safe_load((ROSTERS / "figures" / "meatlocker-butcher-v.yaml").read_text())
    figure |= {"id": "night-butcher-v", "name": "Night Butcher", "points": figure["points"] - 2}
    (mine / "night-butcher-v.yaml").write_text(yaml.safe_dump(figure, sort_keys=False))
    (mine / "night-shift.yaml").write_text(NIGHT_SHIFT)
    (mine / "half-written.yaml").write_text("id: half-written\nname: [oops\n")
    return tmp_path


def test_a_homebrew_army_file_plays_with_a_broken_unrelated_file_as_one_warning(homebrew):
    done = clix_cli(
        "duel", "mine/night-shift.yaml", "crimson-court", "--rosters", str(ROSTERS), "--rosters", "mine/",
        "--games", "4", "--jobs", "1", "--turns", "3", "--out", "out", cwd=homebrew,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "mine/half-written.yaml:2" in warnings[0], done.stderr
    assert "Traceback" not in done.stderr
    summary = json.loads((homebrew / "out" / "summary.json").read_text())
    assert summary["settings"]["army_a"] == "night-shift"
    assert [str(homebrew / "mine" / "night-shift.yaml")] == summary["settings"]["rosters"][-1:]
    figures = pd.read_csv(homebrew / "out" / "figures.csv")
    assert "night-butcher-v" in set(figures["figure"])
    replayed = clix_cli("replay", "--run", "out", "--game", "1", cwd=homebrew)  # the run's recorded library
    assert replayed.returncode == 0, replayed.stderr
    assert "matches games.csv" in replayed.stdout


def test_a_broken_file_the_command_uses_stops_it_in_one_line(homebrew):
    army = homebrew / "mine" / "night-shift.yaml"
    army.write_text(NIGHT_SHIFT.replace("build_total: 100", "build_total: 150"))
    done = clix_cli(
        "duel", "mine/night-shift.yaml", "crimson-court", "--rosters", str(ROSTERS), "--rosters", "mine",
        "--games", "2", "--jobs", "1", "--out", "out", cwd=homebrew,
    )  # fmt: skip
    assert done.returncode == 2
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("clix: error: mine/night-shift.yaml:2: build_total"), errors
    assert not (homebrew / "out").exists()


def test_a_later_layer_replaces_an_item_of_the_same_name(homebrew):
    mine = homebrew / "mine"
    figure = yaml.safe_load((ROSTERS / "figures" / "meatlocker-butcher-v.yaml").read_text())
    (mine / "cheap-butcher.yaml").write_text(yaml.safe_dump(figure | {"points": 41}, sort_keys=False))
    shown = clix_cli("roster", "show", "meatlocker-butcher-v", "--rosters", "sample", "--rosters", "mine", cwd=homebrew)
    assert shown.returncode == 0, shown.stderr
    assert "41 points" in shown.stdout
    alone = clix_cli("roster", "show", "meatlocker-butcher-v", "--rosters", "sample", cwd=homebrew)
    assert f"{figure['points']} points" in alone.stdout
    # the army that fields it counts the homebrew cost
    army = clix_cli("roster", "show", "butcher-shop", "--rosters", "sample", "--rosters", "mine", cwd=homebrew)
    used = 41 + yaml.safe_load((ROSTERS / "figures" / "crimson-thrall-e.yaml").read_text())["points"]
    assert f"{used} points used" in army.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["roster", "show", "mine/night-butcher-v.yaml", "--rosters", "sample"], "Night Butcher  [night-butcher-v]"),
        (
            ["roster", "show", "mine/night-shift.yaml", "--rosters", "sample", "--rosters", "mine"],
            "Night Shift  [night-shift]",
        ),
        (["map", "show", str(ROSTERS / "maps" / "graveyard.yaml"), "--rosters", "sample"], "[graveyard]"),
    ],
)
def test_views_take_files(homebrew, args, expected):
    done = clix_cli(*args, cwd=homebrew)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout


def test_replay_takes_army_files(homebrew):
    done = clix_cli(
        "replay", "mine/night-shift.yaml", "butcher-shop", "--rosters", "sample", "--rosters", "mine",
        "--turns", "2", cwd=homebrew,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "A night-shift" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["duel", "mine/nothing.yaml", "butcher-shop"], "mine/nothing.yaml: no such file"),
        (["duel", "mine/half-written.yaml", "butcher-shop"], "mine/half-written.yaml:2: not valid YAML"),
        (["duel", "mine/night-butcher-v.yaml", "butcher-shop"], "this file defines no army"),
        # mine/night-shift.yaml is not in the library unless passed; the sample has a HeroClix force of that name
        (["duel", "night-shift", "butcher-shop"], "ARMY_A night-shift is a heroclix-2005 force, ARMY_B butcher-shop"),
        (["duel", "night-shifts", "butcher-shop"], "no army named 'night-shifts'"),
        (["roster", "show", "nobody-at-all"], "no figure or army named 'nobody-at-all'"),
        (
            ["duel", "butcher-shop", "firing-line", "--rosters", "nowhere"],
            "--rosters nowhere: roster library not found",
        ),
    ],
)
def test_mistakes_with_files_are_one_line(homebrew, args, message):
    done = clix_cli(*args, "--games", "2", "--out", "out", cwd=homebrew) if args[0] == "duel" else None
    if done is None:
        done = clix_cli(*args, cwd=homebrew)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("clix: error: ") and message in lines[-1], lines
    assert "Traceback" not in done.stderr


def _file_kind(data: dict) -> str:
    model = next(m for key, m in FILE_KINDS if key in data)
    return next(kind for kind, schema_model in KINDS.items() if schema_model is model)


def test_every_sample_file_and_scenario_satisfies_its_schema():
    checked = 0
    validators = {kind: jsonschema.Draft202012Validator(schema_for(kind)) for kind in KINDS}
    for kind in KINDS:
        jsonschema.Draft202012Validator.check_schema(schema_for(kind))
    for path in sorted(ROSTERS.rglob("*.yaml")) + horrorclix_files([SCENARIOS]):
        data = yaml.safe_load(path.read_text())
        kind = "scenario" if SCENARIOS in path.parents else _file_kind(data)
        errors = [e.message for e in validators[kind].iter_errors(data)]
        assert not errors, f"{path}: {errors[:3]}"
        checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("kind", "source", "change"),
    [
        ("army", "armies/butcher-shop.yaml", {"bulid_total": 100}),  # a misspelt field
        ("army", "armies/butcher-shop.yaml", {"build_total": "a hundred"}),
        ("figure", "figures/meatlocker-butcher-v.yaml", {"dial": [7, 10]}),  # clicks are strings
        ("figure", "figures/meatlocker-butcher-v.yaml", {"points": None}),
        ("map", "maps/graveyard.yaml", {"rows": "not a list"}),
    ],
)
def test_the_schema_rejects_what_the_loader_rejects(kind, source, change):
    data = yaml.safe_load((ROSTERS / source).read_text()) | change
    assert list(jsonschema.Draft202012Validator(schema_for(kind)).iter_errors(data))


def test_schema_command_prints_and_writes(tmp_path):
    printed = clix_cli("schema", "army", cwd=tmp_path)
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout)["$id"] == "clix-army.schema.json"
    written = clix_cli("schema", "--out", "schemas", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert sorted(p.name for p in (tmp_path / "schemas").iterdir()) == sorted(f"clix-{k}.schema.json" for k in KINDS)
    wrong = clix_cli("schema", "armee", cwd=tmp_path)
    assert wrong.returncode == 2 and "no format named 'armee'" in wrong.stderr


def test_the_python_api_takes_ids_files_and_army_objects(homebrew, monkeypatch):
    monkeypatch.chdir(homebrew)
    by_id = clix.duel("butcher-shop", "firing-line", games=4, turns=3, rosters=ROSTERS)
    by_file = clix.duel(ROSTERS / "armies" / "butcher-shop.yaml", "firing-line", games=4, turns=3, rosters=ROSTERS)
    pd.testing.assert_frame_equal(by_id.games, by_file.games)
    low, high = by_id.score[1], by_id.score[2]
    assert 0 <= low <= by_id.score[0] <= high <= 1
    edited = Army.model_validate(yaml.safe_load(NIGHT_SHIFT))
    homebrew_duel = clix.duel(edited, "firing-line", games=4, turns=3, rosters=[ROSTERS, homebrew / "mine"])
    assert homebrew_duel.settings["army_a"] == "night-shift"
    assert set(homebrew_duel.figures["figure"]) >= {"night-butcher-v"}
    with pytest.raises(ClixError, match="no army named 'nobody'"):
        clix.duel("nobody", "firing-line", games=2, rosters=ROSTERS)
    library = clix.load_library([ROSTERS, homebrew / "mine" / "night-butcher-v.yaml"])
    assert "night-butcher-v" in library.figures


def test_sample_names_the_shipped_library_wherever_clix_runs(tmp_path):
    shutil.copytree(ROSTERS / "maps", tmp_path / "maps")
    done = clix_cli("roster", "list", "armies", "--rosters", "sample", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "butcher-shop" in done.stdout


# --- issue 31: what a command needs is resolved before it plays -------------------------------------------


@pytest.fixture
def sample_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """lib/: a copy of the sample library; the working directory is its folder."""
    shutil.copytree(ROSTERS, tmp_path / "lib")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


DUEL_NEEDS = {"armies": ["butcher-shop", "firing-line"], "maps": ["graveyard"]}


def test_a_broken_army_file_is_named_with_its_problem_not_called_missing(sample_copy, capsys):
    _edit(sample_copy / "lib" / "armies" / "butcher-shop.yaml", "build_total: 100", "build_total: lots")
    with pytest.raises(ClixError, match=r"^lib/armies/butcher-shop.yaml:3: build_total: ") as caught:
        load_library([Path("lib")], **DUEL_NEEDS)
    assert "no army named" not in str(caught.value)
    code, out, err = run_main(["roster", "show", "butcher-shop", "--rosters", "lib"], capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"clix: error: {caught.value}"]


def test_roster_show_names_a_broken_figure_file_and_its_problem(sample_copy, capsys):
    figure = sample_copy / "lib" / "figures" / "meatlocker-butcher-v.yaml"
    figure.write_bytes(figure.read_bytes() + b"# caf\xe9\n")
    code, out, err = run_main(["roster", "show", "meatlocker-butcher-v", "--rosters", "lib"], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clix: error: lib/figures/meatlocker-butcher-v.yaml:"), lines
    assert "not UTF-8" in lines[0]


def test_a_broken_override_in_a_later_layer_is_an_error_and_a_whole_one_hides_a_broken_lower_file(sample_copy):
    mine = sample_copy / "mine"
    mine.mkdir()
    shutil.copy(ROSTERS / "figures" / "meatlocker-butcher-v.yaml", mine / "butcher.yaml")
    _edit(mine / "butcher.yaml", "points: 60", "points: lots")
    with pytest.raises(ClixError, match=r"^mine/butcher.yaml:\d+: points: "):
        load_library([Path("lib"), mine], **DUEL_NEEDS)
    # the lower layer's file broken, the later one whole: the later one is played, the lower one is not used
    shutil.copy(ROSTERS / "figures" / "meatlocker-butcher-v.yaml", mine / "butcher.yaml")
    _edit(sample_copy / "lib" / "figures" / "meatlocker-butcher-v.yaml", "points: 60", "points: lots")
    library = load_library([Path("lib"), mine], **DUEL_NEEDS)
    assert library.roster.sources[("figures", "meatlocker-butcher-v")].file == "mine/butcher.yaml"
    assert len(library.warnings) == 1
    assert "this command does not use lib/figures/meatlocker-butcher-v.yaml" in library.warnings[0]


def test_a_broken_file_whose_names_can_be_read_and_are_not_needed_is_a_warning(sample_copy):
    countess = sample_copy / "lib" / "figures" / "countess-vey-v.yaml"  # in crimson-court only
    countess.write_bytes(countess.read_bytes().replace(b"\n", b"\n\tbroken: tab\n", 1))
    library = load_library([Path("lib")], **DUEL_NEEDS)
    assert len(library.warnings) == 1
    assert "this command does not use lib/figures/countess-vey-v.yaml" in library.warnings[0]
    with pytest.raises(ClixError, match=r"^lib/figures/countess-vey-v.yaml:2: not valid YAML"):
        load_library([Path("lib")], armies=["crimson-court"], maps=["graveyard"])


def test_a_failed_file_whose_names_cannot_be_read_may_define_what_the_command_needs(sample_copy):
    (sample_copy / "lib" / "figures" / "lost.yaml").symlink_to("nowhere.yaml")
    # beside the files that define every figure the duel needs, in their layer, it is not used: a second
    # definition there would clash with the one that loaded
    library = load_library([Path("lib")], **DUEL_NEEDS)
    assert len(library.warnings) == 1 and "does not use lib/figures/lost.yaml" in library.warnings[0]
    # but when a needed figure is missing, it may be the file that defines it
    (sample_copy / "lib" / "figures" / "meatlocker-butcher-v.yaml").unlink()
    with pytest.raises(ClixError) as caught:
        load_library([Path("lib")], **DUEL_NEEDS)
    message = str(caught.value)
    assert message.startswith("lib/figures/lost.yaml: broken symbolic link"), message
    assert message.endswith("; it may define figure 'meatlocker-butcher-v' that this command uses"), message
    # in a later layer than the one that supplies every figure the duel needs, it may override one of them
    mine = sample_copy / "mine"
    mine.mkdir()
    (mine / "lost.yaml").symlink_to("nowhere.yaml")
    with pytest.raises(ClixError, match=r"^mine/lost.yaml: broken symbolic link"):
        load_library([Path("lib"), ROSTERS / "figures", mine], **DUEL_NEEDS)
    # in an earlier layer than the one that supplies them, it is not used
    library = load_library([Path("lib"), ROSTERS / "figures"], **DUEL_NEEDS)
    assert len(library.warnings) == 1 and "does not use lib/figures/lost.yaml" in library.warnings[0]
