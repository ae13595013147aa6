"""`clix build` and the rest of `clix value` on HeroClix forces (issue 36 part 2): the HorrorClix race and value model
run unchanged over the ruleset's pieces (analyzer/value/pieces.py). Candidates are legal forces (HX-BUILD-01/03/04),
builds are named by rank, the headline and the run's size open build.html, why a build wins is told in HeroClix's
knockouts and survivors, and nothing HorrorClix-only (crypt, victims, plot twists, cabals) is printed. Tiny runs:
a few games of six turns each, one job."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml
from clix.analyzer.build.summary import WINS_ABOVE
from clix.analyzer.value.pieces import HeroPieces, pieces_of
from clix.engine.core.ruleset import ruleset_named
from clix.engine.heroclix.armybuilder import force_breaches
from clix.engine.heroclix.library import Force
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
HERO = ROOT / "rosters" / "heroclix"
HEROCLIX = "heroclix-2005"
BUILD = ["build", "--ruleset", HEROCLIX, "--budget", "100", "--field", "dawn-patrol,night-shift", "--candidates", "3",
         "--first-games", "2", "--finalists", "2", "--games", "2", "--turns", "6", "--maps", "chemical-plant",
         "--objective", "field", "--seed", "2", "--jobs", "1"]  # fmt: skip


def _no_horror_words(text: str) -> None:
    lower = text.lower()
    assert not any(word in lower for word in ("victim", "plot twist", "plot_twist", "crypt", "cabal", "slay"))


def _library():
    return ruleset_named(HEROCLIX).load_library([HERO])[0]


def test_a_heroclix_build_races_legal_forces_and_names_them_by_rank(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main([*BUILD, "--json", "--out", "b"], capsys)
    assert code == 0, err
    payload = json.loads(out)
    folder = tmp_path / "b"
    assert {"build_json", "builds_csv", "games_csv", "report"} <= set(payload["outputs"])
    builds = payload["builds"]
    assert [b["name"] for b in builds] == ["build-01", "build-02"]  # by rank on the final seeds
    assert [b["score"]["score"] for b in builds] == sorted((b["score"]["score"] for b in builds), reverse=True)
    assert {r["name"] for r in payload["references"]} == {"dawn-patrol", "night-shift"}
    assert payload["settings"]["ruleset"] == ruleset_named(HEROCLIX).version
    assert "crypt" not in payload["settings"] and "victims" not in payload["settings"]
    library = _library()
    for build in builds:
        force = Force.model_validate(yaml.safe_load((folder / "armies" / f"{build['name']}.yaml").read_text()))
        assert force_breaches(library, force) == []  # HX-BUILD-01/03/04
        assert sorted(force.characters) == sorted(build["figures"]) and build["points"] <= 100
        assert (
            set(build["why"]) >= {"vp_kos", "vp_survivors", "kos", "first_ko_round", "tie_break"}
            and "crypt" not in build
        )
    games = pd.read_csv(folder / "games.csv")
    assert set(games["build"]) == {"build-01", "build-02", "dawn-patrol", "night-shift"}
    assert payload["headline"].startswith(("build-01 ", "no build found beats"))
    html = (folder / "build.html").read_text()
    size = f"{payload['settings']['played']:,} games played"
    assert html.index('class="headline"') < html.index(size) < html.index("<h2>")
    assert "The field's own forces" in html
    _no_horror_words(html)
    code, text, err = run_main([*BUILD, "--out", "again"], capsys)  # the same run again, from the store
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == payload["headline"].split(". Objective")[0] + "." or lines[0].startswith(
        payload["headline"][:40]
    )
    for build in builds:  # "why it wins" only for a build whose interval is above 50%
        heading = "why it wins" if build["score"]["low"] > WINS_ABOVE else "why it falls short"
        start = next(n for n, line in enumerate(lines) if line.startswith(f"  {build['name']} ("))
        assert any(line.strip().startswith(heading + ": VP from knockouts") for line in lines[start : start + 6])
    _no_horror_words(text)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--cabal", "Guardians"], f"--cabal: {HEROCLIX} forces have no cabals; leave out --cabal"),
        (["--class", "Beasts"], f"--class: {HEROCLIX} forces have no figure classes"),
        (["--crypt", "Trip"], f"--crypt: {HEROCLIX} forces have no crypt of plot twists"),
        (["--players", "genius"], "--players: no player style named 'genius'"),
        (["--include", "kestrel-q"], "--include: no character named 'kestrel-q'; did you mean"),
        (
            ["--field", "butcher-shop"],
            f"--field dawn-patrol is a {HEROCLIX} force, --field butcher-shop a horrorclix army",
        ),
    ],
)
def test_heroclix_build_mistakes_are_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main([*BUILD, *args, "--out", "b"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and line in lines[0], err


def test_heroclix_candidates_respect_archenemies_and_uniques():
    """Every listed candidate is a maximal legal force: no Unique twice (HX-BUILD-03), no two archenemies
    (HX-BUILD-04), nothing more fits (HX-BUILD-01)."""
    import numpy as np
    from clix.analyzer.build.candidates import Constraints, candidate_builds, enumerate_builds, random_builds
    from clix.engine.heroclix.library import archenemies

    pieces = pieces_of(_library())
    assert isinstance(pieces, HeroPieces)
    listed = enumerate_builds(pieces, Constraints(budget=100))
    assert listed
    drawn = random_builds(pieces, Constraints(budget=200, include=("vigil-v",)), 20, np.random.default_rng(1))
    for build in [*listed, *drawn]:
        chars = [pieces.figures[c] for c in build]
        assert len({c.id for c in chars if c.unique}) == sum(c.unique for c in chars)
        assert not any(archenemies(a, b) for i, a in enumerate(chars) for b in chars[i + 1 :])
        left = (100 if build in listed else 200) - sum(c.points for c in chars)
        assert left >= 0 and not any(c.points <= left and pieces.fits(c, list(build)) for c in pieces.figures.values())
    assert all("vigil-v" in b for b in drawn)
    builds, space = candidate_builds(pieces, Constraints(budget=100), 5, 0)
    assert space == len(listed) and len(builds) == 5 and set(builds) <= set(listed)


def test_the_heroclix_swap_test_replaces_a_character_by_legal_alternatives(tmp_path, capsys, monkeypatch):
    from clix.analyzer.value.swap import alternatives

    monkeypatch.chdir(tmp_path)
    library = _library()
    options = alternatives(library, library.forces["dawn-patrol"], "kestrel-r", 3)
    assert options and all(sum(c.points for c in o) <= 26 + 100 - 91 for o in options)
    args = ["value", "--swap", "kestrel-r", "--in", "dawn-patrol", "--against", "night-shift", "--games", "2",
            "--alternatives", "2", "--turns", "6", "--maps", "chemical-plant", "--jobs", "1"]  # fmt: skip
    code, out, err = run_main([*args, "--json"], capsys)
    assert code == 0, err
    summary = json.loads(out)
    assert summary["army"] == "dawn-patrol" and summary["cost"] == library.characters["kestrel-r"].points
    assert [r["replacement"] for r in summary["alternatives"]] == [[c.id for c in o] for o in options[:2]]
    _no_horror_words(out)


def test_the_api_values_and_builds_heroclix_forces(tmp_path):
    """`clix.value(ruleset=...)` and `clix.build` with a field of forces (guided by those values), as the command
    line runs them."""
    import clix

    store = tmp_path / "clix.duckdb"
    value = clix.value(ruleset=HEROCLIX, armies=7, opponents=2, games=2, turns=6, holdout=3, holdout_games=2, seed=1,
                       resamples=10, jobs=1, store=store, predict=("dawn-patrol", "night-shift"))  # fmt: skip
    assert value.settings["ruleset"] == ruleset_named(HEROCLIX).version and list(value.settings["maps"]) == [
        "chemical-plant"
    ]
    assert "characters measured" in value.headline and value.prediction["army_a"] == "dawn-patrol"
    assert set(value.values["name"]) == set(_library().characters)
    built = clix.build(field=["dawn-patrol", "night-shift"], candidates=3, first_games=2, finalists=2, final_games=2,
                       turns=6, objective="field", maps="chemical-plant", seed=2, jobs=1, values=value, store=store)  # fmt: skip
    assert list(built.armies) == ["build-01", "build-02"] and isinstance(built.best, Force)
    assert built.settings["guided"] and built.settings["ruleset"] == ruleset_named(HEROCLIX).version
    report = built.report(tmp_path / "out")
    assert report == tmp_path / "out" / "build.html" and "The field's own forces" in report.read_text()
    page = value.report(tmp_path / "value.html").read_text()
    assert '<p class="headline"><b>' in page and "What each character is worth" in page
    with pytest.raises(clix.ClixError, match="cabal: heroclix-2005 forces have no cabal"):
        clix.build(field=["dawn-patrol"], cabal="Guardians", seed=2)


def test_a_force_file_and_an_army_file_in_one_run_are_one_line_naming_both(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    force, army = HERO / "forces" / "night-shift.yaml", ROOT / "rosters" / "horrorclix" / "armies" / "butcher-shop.yaml"
    runs = {
        "build": ["build", "--field", f"{force},{army}", "--jobs", "1"],
        "value": ["value", "--predict", str(force), str(army), "--jobs", "1"],
    }
    for command, args in runs.items():
        code, out, err = run_main(args, capsys)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1, (command, err)
        assert "night-shift.yaml" in lines[0] and "butcher-shop.yaml" in lines[0] and HEROCLIX in lines[0], err
