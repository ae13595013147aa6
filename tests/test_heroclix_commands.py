"""HeroClix forces through the commands that play (issue 36, items 2 and 3): `clix duel`, `clix replay` and `clix
results` take two HeroClix forces (ids or files), tell their ruleset from them, refuse arguments of two rulesets in
one line, load HeroClix's library with the same safety as HorrorClix's, and report HeroClix's own statistics
(knockouts, pushing, knockback, healing) with no word of victims or plot twists."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.library.rulesets import ruleset_of_version
from clix.analyzer.play.runner import Matchup, kit, run_matchup
from clix.analyzer.play.store import Store, game_key
from clix.engine.core.ruleset import ruleset_named
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters"
HERO = ROSTERS / "heroclix"
FORCES = HERO / "forces"
HEROCLIX = "heroclix-2005"
DUEL = ["duel", "dawn-patrol", "night-shift", "--turns", "4", "--jobs", "1"]


def _duel(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    return run_main([*DUEL, "--rosters", str(HERO), *extra], capsys)


# --- duel ------------------------------------------------------------------------------------------------------


def test_a_duel_of_two_forces_gives_a_heroclix_summary_and_report(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _duel(tmp_path, capsys, "--games", "4", "--out", "duel")
    assert code == 0, err
    first, style = out.splitlines()[0], kit(HEROCLIX).default_style
    assert first.startswith(f"dawn-patrol vs night-shift on chemical-plant: 4 games, players {style},{style}")
    for said in ("knockouts scored:", "HX-END-11", "HX-SETUP-01", "pushes/game", "VP per force point"):
        assert said in out, said
    assert "victim" not in out.lower() and "plot twist" not in out.lower()
    folder = tmp_path / "duel"
    for name in ("games.csv", "figures.csv", "summary.json", "report.html", "knockouts.png", "map.png", "score.png"):
        assert (folder / name).stat().st_size > 0, name
    assert not (folder / "victim_rush.png").exists()
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert "knockouts" in summary and "victim_rush" not in summary
    assert summary["settings"]["ruleset"] == ruleset_named(HEROCLIX).version
    assert summary["settings"]["map"] == "chemical-plant" and summary["settings"]["players"] == f"{style},{style}"
    assert {"pushes_per_game", "idle_share", "object_attacks_per_game"} <= set(summary["play"]["a"])
    assert set(summary["victory_points"]["a"]) >= {"kos", "survivors"}
    games = pd.read_csv(folder / "games.csv")
    assert len(games) == 4 and set(games["winner"]) <= {"A", "B", "draw"}
    assert games["rounds"].max() <= 4 and {"ko_timeline", "first_ko_a", "pushes_a", "area_a"} <= set(games.columns)
    figures = pd.read_csv(folder / "figures.csv")
    assert {"kos", "ko_vp", "survivor_vp", "ko_round", "damage_dealt"} <= set(figures.columns)
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert "Knockouts: who is KO&#39;d when" in html or "Knockouts: who is KO'd when" in html
    assert "The forces" in html and "Stormwarden" in html and "data:image/png;base64," in html
    assert "victim" not in html.lower() and "plot twist" not in html.lower()


def test_a_force_file_names_its_ruleset_and_the_map_defaults_to_the_kits(tmp_path, capsys, monkeypatch):
    """Forces given as files outside the library: their `ruleset:` key says HeroClix; the map is the kit's default."""
    monkeypatch.chdir(tmp_path)
    for name in ("dawn-patrol", "night-shift"):
        shutil.copy(FORCES / f"{name}.yaml", tmp_path / f"{name}-copy.yaml")
    code, out, err = run_main(
        ["duel", "dawn-patrol-copy.yaml", "night-shift-copy.yaml", "--games", "2", "--turns", "2", "--jobs", "1",
         "--rosters", str(HERO), "--out", "files", "--json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert (settings["army_a"], settings["army_b"], settings["map"]) == (
        "dawn-patrol-copy",
        "night-shift-copy",
        "chemical-plant",
    )


def test_seeds_reproduce_the_same_rows_for_one_job_or_two(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tables = []
    for jobs in ("1", "2"):
        code, _, err = run_main(
            ["duel", "dawn-patrol", "night-shift", "--games", "6", "--turns", "4", "--seed", "11", "--jobs", jobs,
             "--rosters", str(HERO), "--out", f"jobs{jobs}", "--store", f"jobs{jobs}.duckdb", "--json"],
            capsys,
        )  # fmt: skip
        assert code == 0, err
        tables.append(pd.read_csv(tmp_path / f"jobs{jobs}" / "games.csv"))
    pd.testing.assert_frame_equal(tables[0], tables[1])
    assert tables[0]["seed_path"].astype(str).tolist() == ["0", "0", "1", "1", "2", "2"]


def test_a_heroclix_game_reads_the_log_it_played():
    """The rows count what the log shows: KOs credited to the character dealing the last damage, pushes and their
    clicks, each KO in the timeline; random players over a few games attack and knock out at least once."""
    matchup = Matchup((HERO,), "heavy-hitters", "titan-march", "harbor-district", "random", "random", 15, "break",
                      ruleset=HEROCLIX)  # fmt: skip
    played = run_matchup(matchup, 16, 3, jobs=1)
    games, figures = played.games_frame(), played.figure_table.compact().frame
    assert (games["pushes_a"] >= 0).all() and (games["pushing_damage_a"] >= games["pushes_a"]).all()
    for _, row in games.iterrows():
        timeline = str(row["ko_timeline"]).split() if isinstance(row["ko_timeline"], str) else []
        assert len(timeline) == row["kos_a"] + row["kos_b"]
        assert sum(1 for item in timeline if item.split(":")[1] == "B") == row["kos_a"]
        assert row["vp_a"] == pytest.approx(row["vp_a_kos"] + row["vp_a_survivors"])
    knocked = figures[figures["survived"] == False]  # noqa: E712
    assert knocked["ko_round"].notna().all() and figures[figures["survived"] == True]["ko_round"].isna().all()  # noqa: E712
    per_game = figures.groupby(["game", "side"])["damage_dealt"].sum().unstack()
    assert per_game["A"].tolist() == games["damage_dealt_a"].tolist()
    assert per_game["B"].tolist() == games["damage_dealt_b"].tolist()
    credited = figures.groupby(["game", "side"])["kos"].sum().unstack()
    assert (credited["A"].to_numpy() <= games["kos_a"].to_numpy()).all()
    assert (games["kos_a"] + games["kos_b"]).sum() > 0 and games["damage_dealt_b"].sum() > 0  # not vacuous
    assert figures["kos"].sum() > 0 and (figures.loc[figures["kos"] > 0, "ko_vp"] > 0).all()


# --- rulesets from the arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["butcher-shop", str(FORCES / "night-shift.yaml")], ["ARMY_A butcher-shop is a horrorclix army",
                                                                f"night-shift.yaml a {HEROCLIX} force"]),
        (["dawn-patrol", "firing-line"], [f"ARMY_A dawn-patrol is a {HEROCLIX} force",
                                          "ARMY_B firing-line a horrorclix army"]),
        (["dawn-patrol", "night-shift", "--map", "graveyard"], [f"ARMY_A dawn-patrol is a {HEROCLIX} force",
                                                                 "--map graveyard a horrorclix map"]),
    ],
)  # fmt: skip
def test_arguments_of_two_rulesets_are_one_line_naming_both(args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["duel", *args, "--games", "2", "--out", "mixed"], ["replay", *args]):
        code, out, err = run_main([*command, "--rosters", str(ROSTERS)], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1, err
        assert lines[0].startswith("clix: error: ") and "one ruleset" in lines[0]
        for name in names:
            assert name in lines[0], (name, lines[0])
    assert not (tmp_path / "mixed").exists()


def test_a_wrong_force_id_is_a_did_you_mean_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(["duel", "dawn-patrol", "night-shif", "--games", "2", "--rosters", str(ROSTERS)], capsys)
    assert (
        code == 2 and err.strip() == f"clix: error: no {HEROCLIX} force named 'night-shif'; did you mean 'night-shift'?"
    )
    code, _, err = run_main(["duel", "dawn-patrol", "qqq", "--games", "2", "--rosters", str(ROSTERS)], capsys)
    assert code == 2 and "no heroclix-2005 force named 'qqq'; known: dawn-patrol, " in err
    code, _, err = run_main(["duel", "dawn-patrol", "night-shift", "--map", "harbour", "--rosters", str(HERO)], capsys)
    assert code == 2 and f"--map: no {HEROCLIX} map named 'harbour'" in err
    # an id of neither ruleset with a HorrorClix one: HorrorClix's own line, as before
    code, _, err = run_main(["duel", "butcher-shop", "nosuch", "--games", "2", "--rosters", str(ROSTERS)], capsys)
    assert code == 2 and err.strip().startswith("clix: error: no army named 'nosuch'")
    code, _, err = run_main(["duel", "dawn-patrol", "night-shift", "--players", "random,genius", "--rosters", str(HERO)],
                            capsys)  # fmt: skip
    assert code == 2 and err.startswith("clix: error: --players: no HeroClix player style named 'genius'; ")
    code, _, err = run_main(["duel", "dawn-patrol", "night-shift", "--check-with", "search:many", "--rosters", str(HERO)],
                            capsys)  # fmt: skip  # HeroClix has a search player now (issue 36): a bad budget is the error
    assert code == 2 and err.strip().startswith("clix: error: --check-with: 'search:many': a search budget")
    assert len(err.strip().splitlines()) == 1


def test_the_sample_forces_are_found_without_rosters(tmp_path, capsys, monkeypatch):
    """Where no ./rosters folder is, the default library (HorrorClix's sample) stands for HeroClix's sample."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLIX_ROSTERS", raising=False)
    code, out, err = run_main(["replay", "dawn-patrol", "night-shift", "--turns", "2"], capsys)
    assert code == 0, err
    assert "on chemical-plant: game 0 of `clix duel dawn-patrol night-shift --map chemical-plant" in out


# --- the library's safety -------------------------------------------------------------------------------------


def _library(tmp_path: Path) -> Path:
    shutil.copytree(HERO, tmp_path / "lib")
    return tmp_path / "lib"


@pytest.mark.parametrize(
    ("target", "old", "new"),
    [
        ("characters/kestrel-r.yaml", "points: 26", "points: lots"),  # a character dawn-patrol fields
        ("forces/night-shift.yaml", "build_total: 100", "build_total: lots"),
        ("maps/chemical-plant.yaml", "ruleset: heroclix-2005", "ruleset: heroclix-2005\nfuzz:\n\tindented: tab"),
        ("characters/vigil-v.yaml", "ruleset: heroclix-2005", "ruleset: heroclix-2005\n# caf\udce9"),
    ],
)
@pytest.mark.parametrize("command", ["duel", "replay"])
def test_a_broken_file_the_command_uses_stops_it_in_one_line(target, old, new, command, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _library(tmp_path) / target
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_bytes(text.replace(old, new, 1).encode("utf-8", "surrogateescape"))
    args = ["duel", "dawn-patrol", "night-shift", "--games", "2", "--out", "out"] if command == "duel" else [
        "replay", "dawn-patrol", "night-shift"]  # fmt: skip
    code, out, err = run_main([*args, "--rosters", "lib"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert len(lines) == 1 and lines[0].startswith(f"clix: error: lib/{target}:"), err
    assert not (tmp_path / "out").exists() and not (tmp_path / "clix-out").exists()


def test_without_the_kits_default_map_the_first_map_by_name_is_played(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (_library(tmp_path) / "maps" / "chemical-plant.yaml").unlink()
    code, out, err = run_main(["replay", "dawn-patrol", "night-shift", "--turns", "1", "--rosters", "lib"], capsys)
    assert code == 0, err
    assert " on harbor-district: game 0 of `clix duel dawn-patrol night-shift --map harbor-district " in out


def test_a_broken_file_the_command_does_not_use_is_a_warning(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _library(tmp_path) / "characters" / "titan-warden-v.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("points: ", "points: x", 1), encoding="utf-8")
    code, _, err = run_main(["replay", "dawn-patrol", "night-shift", "--turns", "1", "--rosters", "lib"], capsys)
    assert code == 0, err
    warnings = err.strip().splitlines()
    assert warnings and all(line.startswith("clix: warning: ") for line in warnings)
    assert any("lib/characters/titan-warden-v.yaml" in line and "does not use" in line for line in warnings)


# --- replay and results ---------------------------------------------------------------------------------------


def test_replay_reproduces_a_duel_game_from_its_seed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _duel(tmp_path, capsys, "--games", "4", "--seed", "5", "--out", "duel")
    assert code == 0, err
    code, by_run, err = run_main(["replay", "--run", "duel", "--game", "3"], capsys)
    assert code == 0, err
    lines = by_run.splitlines()
    assert lines[-1].endswith(": matches games.csv") and "-- turn 1 (round 1): player " in by_run
    style = kit(HEROCLIX).default_style
    assert lines[0].startswith(f"A dawn-patrol ({style}) as player 2 vs B night-shift ({style}) as player 1")
    code, by_seed, err = run_main(
        ["replay", "dawn-patrol", "night-shift", "--seed", "5", "--game", "3", "--turns", "4", "--rosters", str(HERO)],
        capsys,
    )
    assert code == 0, err
    assert by_seed.splitlines()[1:-1] == lines[1:-1]  # the same game, turn by turn (the first line names the source)
    games = pd.read_csv(tmp_path / "duel" / "games.csv")
    games.loc[games["game"] == 3, "winner"] = "A" if games.loc[games["game"] == 3, "winner"].item() != "A" else "B"
    games.to_csv(tmp_path / "duel" / "games.csv", index=False)
    code, changed, _ = run_main(["replay", "--run", "duel", "--game", "3"], capsys)
    assert code == 1 and "mismatch with games.csv" in changed.splitlines()[-1]


def test_results_list_a_heroclix_run_and_a_rerun_plays_only_the_missing_games(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, first, err = _duel(tmp_path, capsys, "--games", "4", "--out", "first")
    assert code == 0, err
    assert "store: run 1 in clix-out/clix.duckdb; 0 games from the store, 4 played" in first
    code, again, err = _duel(tmp_path, capsys, "--games", "6", "--out", "again")
    assert code == 0, err
    assert "store: run 2 in clix-out/clix.duckdb; 4 games from the store, 2 played" in again
    old, new = pd.read_csv(tmp_path / "first" / "games.csv"), pd.read_csv(tmp_path / "again" / "games.csv")
    pd.testing.assert_frame_equal(old, new.head(4))
    code, listing, err = run_main(["results", "list"], capsys)  # the store every command uses
    assert code == 0, err
    assert "2 runs in clix-out/clix.duckdb" in listing and listing.count(f"({HEROCLIX})") == 2
    code, shown, err = run_main(["results", "show", "last"], capsys)
    assert code == 0, err
    assert "knockouts scored:" in shown and "victim" not in shown.lower()
    code, said, err = run_main(["results", "export", "2", "--out", "g.csv"], capsys)
    assert code == 0 and said.strip() == "wrote 6 game rows to g.csv", err
    assert (tmp_path / "g.csv").read_bytes() == (tmp_path / "again" / "games.csv").read_bytes()


def test_a_horrorclix_army_and_a_heroclix_force_of_one_name_never_share_games(tmp_path, capsys, monkeypatch):
    """HorrorClix armies named dawn-patrol and night-shift beside the HeroClix forces: the ids are HorrorClix's (it
    comes first), the force files HeroClix's; the store keeps their games apart (the key names the ruleset)."""
    monkeypatch.chdir(tmp_path)
    horror = tmp_path / "horror"
    shutil.copytree(ROSTERS / "horrorclix", horror)
    for name, army in (("dawn-patrol", "butcher-shop"), ("night-shift", "firing-line")):
        shutil.copy(horror / "armies" / f"{army}.yaml", horror / "armies" / f"{name}.yaml")
    layers = ["--rosters", "horror", "--rosters", str(HERO), "--games", "2", "--turns", "2", "--jobs", "1"]
    code, out, err = run_main(["duel", "dawn-patrol", "night-shift", *layers, "--out", "h", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["settings"]["ruleset"] == ruleset_named("horrorclix").version
    forces = [str(FORCES / "dawn-patrol.yaml"), str(FORCES / "night-shift.yaml")]
    code, out, err = run_main(["duel", *forces, *layers, "--out", "x", "--json"], capsys)
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert settings["ruleset"] == ruleset_named(HEROCLIX).version and settings["from_store"] == 0
    assert (settings["army_a"], settings["army_b"]) == ("dawn-patrol", "night-shift")
    runs = Store.existing(tmp_path / "clix-out" / "clix.duckdb").runs()
    assert len({run.key for run in runs}) == 2
    assert [ruleset_of_version(json.loads(r.document)["settings"]["ruleset"]) for r in runs] == ["horrorclix", HEROCLIX]


def test_the_store_key_names_the_ruleset():
    library, _ = ruleset_named(HEROCLIX).load_library([HERO])
    matchup = Matchup((HERO,), "dawn-patrol", "night-shift", "chemical-plant", "random", "random", ruleset=HEROCLIX)
    key = game_key(library, matchup, 0)
    assert key.fields["ruleset"] == ruleset_named(HEROCLIX).version
    assert ruleset_of_version(key.fields["ruleset"]) == HEROCLIX
