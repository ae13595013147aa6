"""`clix build` on a synthetic library: a planted clearly best build is found; a weighted field.json is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from clix.analyzer.build.candidates import Constraints
from clix.analyzer.build.race import Search, search_builds
from clix.analyzer.library.load import load_library
from clix.engine.horrorclix.legality import army_problems
from clix.engine.horrorclix.roster.models import Army
from helpers import run_main
from pdf_checks import html_opening
from value_library import planted_library


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return planted_library(tmp_path_factory.mktemp("build") / "library")


def test_the_search_finds_a_planted_clearly_best_build(library: Path) -> None:
    loaded = load_library([library], everything=True)
    search = Search(candidates=50, first=2, eta=2, finalists=2, final=16, turns=8, seed=1)
    result = search_builds(
        loaded.roster, loaded.layers, Constraints(100), [("dud-rats", 1.0)], search, jobs=1, store=None
    )
    # the legal space: two champions, champion and dud, two duds, and each of those 50s with two rats, four rats
    assert result.settings["legal_space"] == 6
    assert [s.candidates for s in result.stages] == [6, 3]
    best = result.builds[0]
    assert best["role"] == "best"
    assert sorted(best["figures"]) == ["champion", "champion"]
    assert best["score"]["score"] > max(r["score"]["score"] for r in result.references)
    assert [r["name"] for r in result.references] == ["dud-rats"]


def test_constraints_shape_the_candidates(library: Path) -> None:
    loaded = load_library([library], everything=True)
    search = Search(candidates=50, first=2, eta=2, finalists=1, final=4, turns=4, seed=1)
    result = search_builds(
        loaded.roster,
        loaded.layers,
        Constraints(100, include=("rat",), exclude=("champion",)),
        [("dud-rats", 1.0)],
        search,
        jobs=1,
        store=None,
        references=False,
    )
    # with a rat and without champions: dud + 2 rats, or 4 rats
    assert result.settings["legal_space"] == 2
    assert all("rat" in b["figures"] and "champion" not in b["figures"] for b in result.builds)
    assert result.references == []


def test_the_build_command_reads_a_weighted_field_file(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # its games go to the project's store, tmp_path/clix-out/clix.duckdb
    meta = tmp_path / "meta"
    meta.mkdir()
    (meta / "duds.yaml").write_text((library / "armies" / "two-duds.yaml").read_text().replace("Two Duds", "Dud Pair"))
    field = {
        "source": "clix meta (hand-written for the test)",
        "budget": 100,
        "field": [
            {"army": "dud-rats", "weight": 0.6},
            {"army": "duds.yaml", "weight": 0.2},
            {"army": "two-duds", "weight": 0.0},
        ],
    }
    (meta / "field.json").write_text(json.dumps(field))
    out = tmp_path / "out"
    args = [
        "build",
        "--rosters",
        str(library),
        "--field",
        str(meta / "field.json"),
        "--candidates",
        "3",
        "--first-games",
        "2",
        "--finalists",
        "2",
        "--final-games",
        "4",
        "--turns",
        "4",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--json",
    ]
    code, stdout, stderr = run_main(args, capsys)
    assert code == 0, stderr
    payload = json.loads(stdout)
    weights = {f["army"]: f["weight"] for f in payload["settings"]["field"]}
    assert weights == pytest.approx({"dud-rats": 0.75, "duds": 0.25})
    assert "clix meta" in payload["settings"]["field_source"]
    assert {r["name"] for r in payload["references"]} == {"dud-rats", "duds"}
    built = sorted((out / "armies").glob("*.yaml"))
    assert len(built) == len(payload["builds"]) == 2
    roster = load_library([library], everything=True).roster
    for path in built:
        army = Army.model_validate(yaml.safe_load(path.read_text()))
        assert army_problems(army, roster) == []
        assert sum(roster.figures[e.figure].points for e in army.figures) <= 100
    for row in payload["builds"]:
        assert {v["opponent"] for v in row["versus"]} == {"dud-rats", "duds"}
    html = (out / "build.html").read_text()
    assert html.count("<h3>") == 2
    # issue 37 part 5: the report opens with the headline verdict and the run's size, before any section
    size = f"{payload['settings']['played']:,} games played"
    text = html_opening(html)[1]
    assert text.index(payload["headline"].split(".")[0]) < text.index(size) < text.index("The race")
