"""The Python API (issue 37, part 4): it plays the command line's games, its results show their headline, plot and
write their report, its errors name parameters, and `dir(clix)` lists it. Small runs: the notebook page
(docs/api.md, tests/test_api_notebook.py) runs every function end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import clix
from clix.api import _common

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
SMALL = {"turns": 3, "jobs": 1, "rosters": ROSTERS}


@pytest.fixture(scope="module")
def small_duel() -> clix.DuelResult:
    return clix.duel("butcher-shop", "firing-line", games=6, seed=3, **SMALL)


def test_dir_and_all_list_every_api_name_and_import_clix_stays_light():
    names = {"duel", "ladder", "meta", "value", "build", "results", "load_library", "Army", "ClixError"}
    names |= {"DuelResult", "LadderResult", "MetaResult", "ValueResult", "BuildResult", "Results"}
    assert names <= set(dir(clix))
    assert names <= set(clix.__all__)
    assert set(clix.__all__) - {"__version__"} == set(clix.api.__all__)
    assert all(getattr(clix, name) is getattr(clix.api, name) for name in clix.api.__all__)
    assert clix.ClixError is __import__("clix.analyzer.common.errors", fromlist=["ClixError"]).ClixError
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, clix; dir(clix); clix.ClixError; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('pandas', 'typer', 'matplotlib') or m.startswith(('clix.api', 'clix.analyzer.'))))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "['clix.analyzer.common', 'clix.analyzer.common.errors']"


def test_the_api_duel_plays_the_command_lines_games(small_duel, tmp_path, capsys):
    from helpers import run_main

    out = tmp_path / "duel"
    code, _, err = run_main(
        [
            "duel",
            "butcher-shop",
            "firing-line",
            "--games",
            "6",
            "--seed",
            "3",
            "--turns",
            "3",
            "--jobs",
            "1",
            "--rosters",
            str(ROSTERS),
            "--out",
            str(out),
            "--store",
            str(tmp_path / "store.duckdb"),
        ],
        capsys,
    )
    assert code == 0, err
    pd.testing.assert_frame_equal(small_duel.games, pd.read_parquet(out / "games.parquet"))
    pd.testing.assert_frame_equal(small_duel.figures, pd.read_parquet(out / "figures.parquet"))
    assert small_duel.summary["score"]["score"] == pytest.approx(
        __import__("json").loads((out / "summary.json").read_text())["score"]["score"]
    )
    assert small_duel.settings["command"].startswith("clix duel butcher-shop firing-line --games 6")


def test_a_duel_shows_its_headline_plots_and_writes_its_report(small_duel, tmp_path):
    from matplotlib.figure import Figure

    headline = small_duel.headline
    assert "butcher-shop" in headline and "firing-line" in headline and "95% CI" in headline
    shown = repr(small_duel)
    assert headline in shown and len(shown) < 300 and "\n" not in shown
    page = small_duel._repr_html_()
    assert page.startswith("<div>") and "<table" in page and "butcher-shop" in page
    assert list(small_duel.table()["army"]) == ["A: butcher-shop", "B: firing-line"]
    assert isinstance(small_duel.plot(), Figure)
    written = small_duel.report(tmp_path / "out")
    assert written == tmp_path / "out" / "report.html"
    assert "butcher-shop" in written.read_text(encoding="utf-8")
    assert {"games.csv", "score.png", "summary.json"} <= {p.name for p in (tmp_path / "out").iterdir()}
    single = small_duel.report(tmp_path / "one" / "duel.html")
    assert single.read_text(encoding="utf-8") == written.read_text(encoding="utf-8")
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["duel.html"]
    assert small_duel.report(tmp_path / "out") == written  # an earlier report is replaced


def test_a_meta_cell_is_the_duel_of_its_two_armies():
    field = ["butcher-shop", "firing-line", "haunting"]
    meta = clix.meta(field, maps="graveyard", games=4, seed=5, resamples=10, **SMALL)
    assert list(meta.matrix.index) == field and len(meta.cells) == 3
    duel = clix.duel("firing-line", "haunting", games=4, seed=5, **SMALL)
    cell = meta.games[(meta.games["army_a"] == "firing-line") & (meta.games["army_b"] == "haunting")]
    columns = ["game", "seed_path", "winner", "vp_a", "vp_b", "rounds"]
    pd.testing.assert_frame_equal(
        cell[columns].reset_index(drop=True), duel.games[columns].reset_index(drop=True), check_dtype=False
    )
    assert meta.matrix.loc["firing-line", "haunting"] == pytest.approx(duel.score[0])
    assert meta.nash.sum() == pytest.approx(1)
    assert "meta of 3 armies" in repr(meta)


def test_the_progress_callback_counts_up_to_the_games_planned():
    told: list[tuple[int, int]] = []
    clix.duel(
        "butcher-shop", "firing-line", games=6, progress=lambda done, planned: told.append((done, planned)), **SMALL
    )
    done = [d for d, _ in told]
    assert done == sorted(done) and len(set(done)) == len(done) and told[-1] == (6, 6)
    told.clear()
    clix.ladder(
        ["tuned", "rusher"],
        armies="butcher-shop",
        maps=["graveyard"],
        games=2,
        progress=lambda d, p: told.append((d, p)),
        **SMALL,
    )
    assert told[-1] == (2, 2)


def test_errors_name_the_parameter_not_the_flag():
    cases = [
        (lambda: clix.duel("nobody", "firing-line", **SMALL), r"^army_a: no army named 'nobody'"),
        (lambda: clix.duel("butcher-shop", "firing-lin", **SMALL), r"^army_b: .*did you mean 'firing-line'"),
        (lambda: clix.duel("butcher-shop", "firing-line", map="moon", **SMALL), r"^map: no map named 'moon'"),
        (lambda: clix.duel("butcher-shop", "firing-line", games=1, **SMALL), r"^games must be 2 to 1,000,000"),
        (lambda: clix.duel("butcher-shop", "firing-line", target_ci=0.7, **SMALL), r"^target_ci is a half-width"),
        (lambda: clix.duel("butcher-shop", "firing-line", players="tuned,nobody", **SMALL), r"^players: "),
        (lambda: clix.duel("butcher-shop", "firing-line", turns=1, jobs=-1), r"^jobs must be 0"),
        (lambda: clix.ladder(armies="nobody", **SMALL), r"^armies: no army named 'nobody'"),
        (lambda: clix.meta(["butcher-shop"], **SMALL), r"^a field needs at least two armies"),
        (lambda: clix.value(budget=150, **SMALL), r"^budget must be a build total"),
        (lambda: clix.value(armies=2, **SMALL), r"^armies takes 3 or more"),
        (lambda: clix.build(eta=1, field=["butcher-shop"], maps="graveyard", **SMALL), r"^eta takes 2 to 10"),
        (lambda: clix.Army("Mine", [], build_total=150), r"^Army 'Mine': build_total: .*not a multiple of 100"),
    ]
    for call, message in cases:
        with pytest.raises(clix.ClixError, match=message) as caught:
            call()
        assert "--" not in str(caught.value), str(caught.value)


def test_an_army_from_plain_names_plays_and_changes():
    shop = clix.Army.load("butcher-shop", rosters=ROSTERS)
    assert isinstance(shop, clix.Army) and [e.figure for e in shop.figures] == [
        "meatlocker-butcher-v",
        "crimson-thrall-e",
    ]
    night = clix.Army(
        "Night Shift", ["meatlocker-butcher-v", "crimson-thrall-e"], crypt=shop.crypt, victims=shop.victims
    )
    assert night.id == "night-shift" and repr(night).startswith("Army('Night Shift'")
    played = clix.duel(night, "firing-line", games=2, **SMALL)
    assert played.settings["army_a"] == "night-shift"
    thin = night.replace(name="Thin Shift", crypt=shop.crypt[:1])
    assert thin.name == "Thin Shift" and night.name == "Night Shift"
    with pytest.raises(clix.ClixError, match=r"^army_a: Army 'Thin Shift': .*crypt"):
        clix.duel(thin, "firing-line", games=2, **SMALL)


def test_the_result_store_from_python(tmp_path):
    store = tmp_path / "clix.duckdb"
    first = clix.duel("butcher-shop", "firing-line", games=4, store=store, **SMALL)
    again = clix.duel("butcher-shop", "firing-line", games=6, store=store, **SMALL)
    assert (again.settings["from_store"], again.settings["played"]) == (4, 2)
    pd.testing.assert_frame_equal(first.games, again.games.head(4))
    runs = clix.results(store)
    assert list(runs.runs["games"]) == [4, 6] and "2 runs in" in repr(runs)
    pd.testing.assert_frame_equal(runs.run("last").games, again.games)
    assert runs.run(1).headline == first.headline
    exported = runs.export(2, tmp_path / "games.csv")
    assert len(pd.read_csv(exported)) == 6
    assert runs.report(tmp_path / "runs").name == "results.html"
    with pytest.raises(clix.ClixError, match=r"^run: no run named '9'"):
        runs.run(9)
    with pytest.raises(clix.ClixError, match=r"^store .*: no result store there"):
        clix.results(tmp_path / "nowhere.duckdb")


def test_speak_python_rewrites_flags_and_listings_only():
    text = "--games-per-cell 3 and --games 2: no army named 'x'; `clix roster list plot-twists` shows every plot twist"
    assert _common.speak_python(text, {"--games": "games"}) == (
        "--games-per-cell 3 and games 2: no army named 'x'; clix.load_library().plot_twists lists every plot twist"
    )


def test_the_store_gives_back_each_kind_of_run_as_its_result(tmp_path):
    """`clix.results(store).run(ID)` returns a melee's, a field's and a Horrified run's own result, not only a
    duel's (a Horrified run used to read as "summary damaged")."""
    store = tmp_path / "clix.duckdb"
    melee = clix.melee(["butcher-shop", "firing-line", "haunting"], games=12, jobs=1, store=store)
    field = clix.melee(
        ["butcher-shop", "firing-line", "haunting", "midnight-rush"], pods=3, games=8, jobs=1, store=store
    )
    horrified = clix.horrified(games=4, jobs=1, store=store)
    runs = clix.results(store)
    assert list(runs.runs["kind"]) == ["melee", "field", "horrified"]
    assert runs.table()["played"].iloc[-1] == "horrified: dracula+invisible-man, 2 heroes"
    for ran, stored, kind in zip(
        (melee, field, horrified), (runs.run(i) for i in (1, 2, 3)), ("Melee", "Field", "Horrified"), strict=True
    ):
        assert type(stored).__name__ == f"{kind}Result"
        assert stored.headline == ran.headline and len(stored.games) == len(ran.games)
    assert list(runs.run(3).games["won"]) == list(horrified.games["won"])
    assert runs.run(2).report(tmp_path / "field").name == "report.html"
    with pytest.raises(
        clix.ClixError, match=r"^report: a Horrified run read from the store is written only by its command"
    ):
        runs.run(3).report(tmp_path / "again")
