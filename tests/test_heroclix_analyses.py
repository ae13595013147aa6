"""HeroClix forces through the analyses (issue 36, part 2): `clix ladder` and `clix meta` play HeroClix forces
(named, or `--ruleset heroclix-2005`) with the kit's player styles, report HeroClix's columns and never a word of
victims or plot twists; arguments of two rulesets are one line naming both. Written against whatever styles the
HeroClix kit lists (`kit.styles`, `kit.default_style`), never a style name but "random"."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.ladder.command import ladder_games, run_cells
from clix.analyzer.play.runner import Matchup, kit
from clix.engine.core.ruleset import ruleset_named
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters"
HERO = ROSTERS / "heroclix"
FORCES = HERO / "forces"
HEROCLIX = "heroclix-2005"
FAST = ["--turns", "3", "--jobs", "1"]


def _no_horror_words(text: str) -> None:
    assert "victim" not in text.lower() and "plot twist" not in text.lower() and "plot_twist" not in text.lower()


# --- ladder ------------------------------------------------------------------------------------------------------


def test_a_heroclix_ladder_ranks_the_kits_styles_on_forces(tmp_path, capsys, monkeypatch):
    """With two styles or more the ladder plays every pair of them on each force's mirror; with one (the random
    player alone) it says in one line that a ladder needs two and which the HeroClix players are."""
    monkeypatch.chdir(tmp_path)
    styles = kit(HEROCLIX).styles
    args = ["ladder", "--ruleset", HEROCLIX, "--armies", "dawn-patrol", "--maps", "chemical-plant", "--games", "2"]
    code, out, err = run_main([*args, *FAST, "--json", "--out", "ladder"], capsys)
    if len(styles) < 2:
        assert code == 2 and out == ""
        assert err.strip() == (
            f"clix: error: --players: a ladder needs at least two styles (the {HEROCLIX} players are "
            f"{', '.join(styles)})"
        )
        return
    assert code == 0, err
    result = json.loads(out)
    pairs = len(styles) * (len(styles) - 1) // 2
    assert result["settings"]["players"] == list(styles) and result["settings"]["armies"] == ["dawn-patrol"]
    assert result["settings"]["games"] == 2 * pairs and result["settings"]["cells"] == pairs
    assert result["settings"]["ruleset"] == ruleset_named(HEROCLIX).version
    games = pd.read_csv(tmp_path / "ladder" / "games.csv")
    assert len(games) == 2 * pairs and "kos_a" in games.columns and set(games["army"]) == {"dawn-patrol"}
    _no_horror_words((tmp_path / "ladder" / "ladder.html").read_text(encoding="utf-8"))
    assert "the same force on both sides" in (tmp_path / "ladder" / "ladder.html").read_text(encoding="utf-8")


def test_ladder_cells_of_heroclix_forces_play_the_asked_games():
    """The ladder's cells through the HeroClix kit (the random player against itself: one style is enough)."""
    matchups = [
        Matchup((HERO,), force, force, "harbor-district", "random", "random", 3, ruleset=HEROCLIX)
        for force in ("dawn-patrol", "night-shift")
    ]
    played = run_cells(matchups, 2, 7, jobs=1)
    assert played.complete == [True, True] and not played.failed
    games = ladder_games(matchups, played)
    assert list(games["army"]) == ["dawn-patrol"] * 2 + ["night-shift"] * 2
    assert set(games["ruleset"]) == {ruleset_named(HEROCLIX).version} and "kos_b" in games.columns
    again = ladder_games(matchups, run_cells(matchups, 2, 7, jobs=1))
    assert games.drop(columns=["engine"]).equals(again.drop(columns=["engine"]))


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--armies", "dawn-patrol,butcher-shop"],
         f"--armies dawn-patrol is a {HEROCLIX} force, --armies butcher-shop a horrorclix army"),
        (["--armies", "dawn-patrol", "--maps", "graveyard"],
         f"--armies dawn-patrol is a {HEROCLIX} force, --maps graveyard a horrorclix map"),
        (["--armies", "dawn-patrol", "--ruleset", "horrorclix"],
         f"--ruleset horrorclix: --armies dawn-patrol is a {HEROCLIX} force"),
        (["--armies", str(FORCES / "night-shift.yaml"), "--ruleset", "horrorclix"],
         f"night-shift.yaml is a {HEROCLIX} force"),
    ],
)  # fmt: skip
def test_a_ladder_of_two_rulesets_is_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["ladder", *args, "--games", "2", *FAST, "--rosters", str(ROSTERS)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("clix: error: ") and line in lines[0] and "one ruleset" in lines[0]


def test_ladder_mistakes_on_heroclix_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = ["ladder", "--games", "2", *FAST, "--rosters", str(ROSTERS)]
    code, _, err = run_main([*base, "--ruleset", HEROCLIX, "--armies", "dawn-patrl"], capsys)
    assert (
        code == 2 and err.strip() == f"clix: error: no {HEROCLIX} force named 'dawn-patrl'; did you mean 'dawn-patrol'?"
    )
    code, _, err = run_main([*base, "--armies", "dawn-patrol", "--maps", "harbour"], capsys)
    assert code == 2 and err.startswith(f"clix: error: --maps: no {HEROCLIX} map named 'harbour'")
    code, _, err = run_main([*base, "--ruleset", "nope"], capsys)
    assert code == 2 and err.strip().startswith("clix: error: --ruleset: no ruleset is called 'nope'")
    code, _, err = run_main([*base, "--ruleset", HEROCLIX, "--players", "random,genius"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "'genius'" in err


# --- meta --------------------------------------------------------------------------------------------------------


def test_a_heroclix_meta_of_three_forces_gives_a_three_by_three_table(tmp_path, capsys, monkeypatch):
    """Three forces on one map: a 3x3 score matrix (mirror cells 50%, each pair's two cells summing to 1), the
    kit's default style, knockouts and VP per force from the game rows, no plot twists and no victims."""
    monkeypatch.chdir(tmp_path)
    forces = ["dawn-patrol", "night-shift", "sky-lords"]
    code, out, err = run_main(
        ["meta", *forces, "--maps", "chemical-plant", "--games", "2", *FAST, "--json", "--out", "meta"], capsys
    )
    assert code == 0, err
    result = json.loads(out)
    scores = result["scores"]
    assert len(scores) == 3 and all(len(row) == 3 for row in scores)
    assert [scores[i][i] for i in range(3)] == [0.5] * 3
    assert all(abs(scores[i][j] + scores[j][i] - 1) < 1e-9 for i in range(3) for j in range(3))
    assert result["settings"]["players"] == [kit(HEROCLIX).default_style] and result["settings"]["cells"] == 3
    assert result["settings"]["ruleset"] == ruleset_named(HEROCLIX).version and result["settings"]["games"] == 6
    assert [r["army"] for r in result["knockouts"]] == forces and all(r["games"] == 4 for r in result["knockouts"])
    assert all(r["vp"] is not None and r["kos"] is not None for r in result["knockouts"])
    assert "plot_twists" not in result
    folder = tmp_path / "meta"
    html = (folder / "meta.html").read_text(encoding="utf-8")
    assert "Knockouts and victory points" in html and "field of 3 forces" in html
    _no_horror_words(html)
    _no_horror_words(json.dumps(result))
    games = pd.read_csv(folder / "games.csv")
    assert len(games) == 6 and {"kos_a", "vp_b"} <= set(games.columns)
    assert json.loads((folder / "field.json").read_text(encoding="utf-8"))["budget"] == 100
    code, out, err = run_main(
        ["meta", *forces, "--maps", "chemical-plant", "--games", "2", *FAST, "--out", "again"], capsys
    )
    assert code == 0, err
    text = " ".join(out.split())  # the console wraps long lines
    assert text.startswith("meta of 3 forces on chemical-plant") and "KOs" in text
    assert "(0 played, 6 from the store)" in text
    _no_horror_words(out)


def test_a_heroclix_meta_by_budget_plays_the_forces_of_that_total(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["meta", "--ruleset", HEROCLIX, "--budget", "300", "--maps", "harbor-district", "--games", "2", *FAST]
    code, out, err = run_main([*args, "--json", "--out", "meta", "--store", "s.duckdb"], capsys)
    assert code == 0, err
    library, _ = ruleset_named(HEROCLIX).load_library([HERO])
    wanted = sorted(f for f, force in library.forces.items() if force.build_total == 300)
    assert json.loads(out)["armies"] == wanted and len(wanted) >= 2


def test_meta_mistakes_on_heroclix_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = ["--games", "2", "--turns", "3", "--rosters", str(ROSTERS), "--out", "meta"]
    cases = [
        (
            ["dawn-patrol", "butcher-shop"],
            f"ARMIES dawn-patrol is a {HEROCLIX} force, ARMIES butcher-shop a horrorclix army",
        ),
        (["dawn-patrol", "night-shift", "--maps", "graveyard"], "--maps graveyard a horrorclix map"),
        (["dawn-patrol"], "a field needs at least two forces"),
        (["dawn-patrol", "nite-shift"], f"no {HEROCLIX} force named 'nite-shift'; did you mean 'night-shift'?"),
        (["dawn-patrol", "night-shift", "--players", "genius"], f"unknown {HEROCLIX} player style 'genius'"),
        (["dawn-patrol", "night-shift", "--backend", "dask"], "--backend dask: a cluster plays HorrorClix armies only"),
        (["--ruleset", HEROCLIX, "--budget", "1000"], "--budget 1000"),
    ]
    if len(kit(HEROCLIX).styles) == 1:
        cases.append((["dawn-patrol", "night-shift", "--players", "sweep"], "has no player style to sweep yet"))
    for args, line in cases:
        jobs = [] if "dask" in args else ["--jobs", "1"]
        code, out, err = run_main(["meta", *args, *base, *jobs], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1, (args, err)
        assert lines[0].startswith("clix: error: ") and line in lines[0], (args, lines[0])
    assert not (tmp_path / "meta").exists()


# --- bench -------------------------------------------------------------------------------------------------------


def test_bench_times_the_heroclix_reference_duel(tmp_path, capsys, monkeypatch):
    from clix.analyzer.bench import command

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(command, "SEARCH_STYLE", "search:4")
    code, out, err = run_main(["bench", "--ruleset", HEROCLIX, "--games", "2", "--rounds", "1", "--jobs", "1"], capsys)
    assert code == 0, err
    style = kit(HEROCLIX).default_style
    assert out.startswith(f"{HEROCLIX} reference duel: dawn-patrol vs night-shift on chemical-plant, {style} players")
    assert "games/s" in out and "results identical for 1 and 1 jobs: True" in out and "state copy" not in out
    assert "200-point duel (dawnguard-strike vs iron-syndicate on chemical-plant, 2 games a round), 1 core:" in out
    assert f"search game (search:4 vs {style} on the reference duel, 2 games), 1 core:" in out


def test_the_heroclix_reference_duel_goes_to_the_bench_worker():
    from clix.analyzer.bench.against import worker_command
    from clix.analyzer.bench.command import REFERENCE, reference_duel

    reference = reference_duel(HEROCLIX)
    assert reference == ("dawn-patrol", "night-shift", "chemical-plant", HEROCLIX, kit(HEROCLIX).default_style)
    command = worker_command(reference, [HERO], 0, 2)
    assert command[-2:] == [HEROCLIX, kit(HEROCLIX).default_style] and command[3:6] == list(reference[:3])
    assert worker_command(REFERENCE[:3], [HERO], 0, 2)[-1].startswith("[")  # HorrorClix's: as before


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--meta"], "--meta: times a HorrorClix field only so far"),
        (["--ruleset", "nope"], "--ruleset: no ruleset is called 'nope'"),
        (["--rosters", str(ROSTERS / "horrorclix" / "maps")], "heroclix-2005 force named 'dawn-patrol'"),
    ],
)
def test_bench_mistakes_on_heroclix_are_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ruleset = [] if "--ruleset" in args else ["--ruleset", HEROCLIX]
    code, out, err = run_main(["bench", *ruleset, *args, "--games", "2", "--rounds", "1", "--jobs", "1"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and line in lines[0], err


# --- the Python API ----------------------------------------------------------------------------------------------


def test_the_api_plays_heroclix_forces(tmp_path):
    import clix

    duel = clix.duel("dawn-patrol", "night-shift", games=2, turns=3, jobs=1)
    style = kit(HEROCLIX).default_style
    assert duel.settings["ruleset"] == ruleset_named(HEROCLIX).version and duel.settings["map"] == "chemical-plant"
    assert duel.settings["players"] == f"{style},{style}" and len(duel.games) == 2 and "kos_a" in duel.games.columns
    html = duel.report(tmp_path / "duel").read_text(encoding="utf-8")
    assert "Stormwarden" in html
    _no_horror_words(html)
    meta = clix.meta(["dawn-patrol", "night-shift", "sky-lords"], maps="harbor-district", games=2, turns=3, jobs=1)
    assert meta.matrix.shape == (3, 3) and meta.headline.startswith("meta of 3 forces")
    assert [r["army"] for r in meta.summary["knockouts"]] == ["dawn-patrol", "night-shift", "sky-lords"]
    _no_horror_words(meta.report(tmp_path / "meta").read_text(encoding="utf-8"))
    styles = kit(HEROCLIX).styles
    if len(styles) < 2:
        with pytest.raises(clix.ClixError, match="a ladder needs at least two styles"):
            clix.ladder(ruleset=HEROCLIX, armies="dawn-patrol", games=2, turns=3, jobs=1)
    else:
        ladder = clix.ladder(list(styles[:2]), armies="dawn-patrol", maps="chemical-plant", games=2, turns=3, jobs=1)
        assert ladder.settings["players"] == list(styles[:2]) and len(ladder.games) == 2
    with pytest.raises(clix.ClixError, match="army_b butcher-shop a horrorclix army"):
        clix.duel("dawn-patrol", "butcher-shop", games=2, jobs=1)
    with pytest.raises(clix.ClixError, match="armies butcher-shop a horrorclix army"):
        clix.meta(["dawn-patrol", "butcher-shop"], games=2, jobs=1)
    with pytest.raises(clix.ClixError, match="ruleset horrorclix: armies dawn-patrol is a heroclix-2005 force"):
        clix.ladder(["random", "tuned"], armies="dawn-patrol", ruleset="horrorclix", games=2, jobs=1)


# --- the random force builder ------------------------------------------------------------------------------------


def test_random_forces_are_legal_within_budget_near_full_and_reproducible(tmp_path):
    import numpy as np
    import yaml
    from clix.engine.heroclix.armybuilder import fits, force_points, random_force

    library, _ = ruleset_named(HEROCLIX).load_library([HERO])
    folder = tmp_path / "built" / "forces"
    folder.mkdir(parents=True)
    made = {}
    for budget in (100, 200, 300):
        rng = np.random.default_rng(budget)
        for k in range(6):
            force = random_force(library, budget, rng)
            spent = force_points(library, force)
            chosen = [library.characters[c] for c in force.characters]
            assert force.build_total == budget and 0 < spent <= budget
            assert fits(list(library.characters.values()), chosen, budget - spent) == []  # nothing more fits
            assert spent >= budget - min(c.points for c in library.characters.values() if c.points <= budget)
            made[f"random-{budget}-{k}"] = force
            text = yaml.safe_dump(force.model_dump(mode="json", exclude_none=True), sort_keys=False)
            (folder / f"random-{budget}-{k}.yaml").write_text(text, encoding="utf-8")
        again = np.random.default_rng(budget)
        assert [random_force(library, budget, again) for _ in range(6)] == [
            made[f"random-{budget}-{k}"] for k in range(6)
        ]
    loaded, problems = ruleset_named(HEROCLIX).load_library([HERO, tmp_path / "built"])
    assert [p for p in problems if "random-" in p.file] == []  # legal by the loader's own checks (HX-BUILD-08)
    assert set(made) <= set(loaded.forces)


def test_a_force_breaking_a_build_rule_is_refused():
    from clix.engine.heroclix.armybuilder import IllegalForce, legal_force, random_force
    from clix.engine.heroclix.library import archenemies

    library, _ = ruleset_named(HEROCLIX).load_library([HERO])
    characters = sorted(library.characters.values(), key=lambda c: c.id)
    pair = next((a, b) for a in characters for b in characters if archenemies(a, b))
    with pytest.raises(IllegalForce, match="archenemies"):
        legal_force(library, "foes", 1000, list(pair))
    unique = next(c for c in characters if c.unique)
    with pytest.raises(IllegalForce, match="Unique"):
        legal_force(library, "twice", 1000, [unique, unique])
    with pytest.raises(IllegalForce, match="over the build total"):
        legal_force(library, "dear", 100, [max(characters, key=lambda c: c.points)] * 2)
    import numpy as np

    cheapest = min(c.points for c in characters)
    if cheapest > 1:
        with pytest.raises(IllegalForce, match="no character fits"):
            random_force(library, cheapest - 1, np.random.default_rng(0))


# --- value -------------------------------------------------------------------------------------------------------

VALUE = ["value", "--ruleset", HEROCLIX, "--budget", "100", "--armies", "7", "--opponents", "2", "--games", "2",
         "--turns", "6", "--holdout", "3", "--holdout-games", "2", "--seed", "1"]  # fmt: skip


def test_value_on_heroclix_gives_a_value_per_character(tmp_path, capsys, monkeypatch):
    """`clix value --ruleset heroclix-2005` runs HorrorClix's design and model over random forces (HX-BUILD-01/03/04):
    every character the forces fielded gets a value with its interval, the holdout checks the fit, and the same
    seed gives the same values."""
    from clix.analyzer.value.design import Design, handicap_armies, random_armies
    from clix.analyzer.value.pieces import pieces_of

    monkeypatch.chdir(tmp_path)
    code, out, err = run_main([*VALUE, "--resamples", "20", "--jobs", "1", "--json", "--out", "value"], capsys)
    assert code == 0, err
    result = json.loads(out)
    library, _ = ruleset_named(HEROCLIX).load_library([HERO])
    style = kit(HEROCLIX).default_style
    design = Design(100, 7, 2, 2, ("chemical-plant",), (style,), 6, 1, holdout=3, holdout_games=2)
    forces = random_armies(pieces_of(library), design)
    fielded = {c for force in forces.values() for c in force.characters}
    measured = [r for r in result["values"] if r["value"] is not None]
    assert {r["name"] for r in measured} == fielded and all(r["kind"] == "figure" for r in result["values"])
    assert all(r["low"] <= r["value"] <= r["high"] and r["cost"] == library.characters[r["name"]].points
               for r in measured)  # fmt: skip
    assert {r["name"] for r in result["values"]} == set(library.characters)  # the others say why not
    assert result["settings"]["ruleset"] == ruleset_named(HEROCLIX).version and result["settings"]["maps"] == [
        "chemical-plant"
    ]
    short = handicap_armies(pieces_of(library), forces, design)
    assert result["settings"]["handicap_matchups"] == len(short) == sum(len(f.characters) > 1 for f in forces.values())
    assert result["holdout"]["pairings"] == 3 and result["settings"]["ties"] == "draw"
    assert "--ruleset heroclix-2005" in result["settings"]["command"]
    assert pd.read_csv(tmp_path / "value" / "value.csv")["name"].tolist() == [r["name"] for r in result["values"]]
    _no_horror_words(out)
    html = (tmp_path / "value" / "value.html").read_text()
    _no_horror_words(html)
    assert '<p class="headline"><b>' in html and "random forces at 100 points" in html
    code, again, _ = run_main([*VALUE, "--resamples", "20", "--jobs", "1", "--json", "--out", "again"], capsys)
    assert code == 0 and json.loads(again)["values"] == result["values"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--swap", "kestrel-r"], "--swap FIGURE and --in ARMY go together"),
        (["--swap", "kestrel-q", "--in", "dawn-patrol"], "--swap: no character named 'kestrel-q'"),
        (["--pool", "nobody"], "--pool: no character named 'nobody'"),
        (["--predict", "dawn-patrol", "butcher-shop"], "dawn-patrol"),
        (["--maps", "graveyard"], "--ruleset heroclix-2005: --maps graveyard is a horrorclix map"),
        (["--players", "genius"], "unknown heroclix-2005 player style 'genius'"),
        (["--armies", "2"], "--armies takes 3 or more"),
    ],
)
def test_value_mistakes_on_heroclix_are_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main([*VALUE, *args, "--jobs", "1", "--out", "value"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and line in lines[0], err


def test_a_heroclix_library_without_forces_or_characters_is_one_line(tmp_path, capsys, monkeypatch):
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(HERO / "maps", tmp_path / "lib" / "maps")
    base = ["--games", "2", "--jobs", "1", "--rosters", str(tmp_path / "lib")]
    for args, line in [
        (["value", "--ruleset", HEROCLIX, "--armies", "5", "--opponents", "2", "--out", "v"], "no HeroClix character"),
        (["meta", "--ruleset", HEROCLIX, "--budget", "100", "--out", "m"], "it has no force at all"),
    ]:
        code, out, err = run_main([*args, *base], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1 and line in lines[0], err
