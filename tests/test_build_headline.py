"""`clix build` names its builds by rank and says in its headline whether the best build beats the field's own
armies: the three headline forms on small made-up result tables (no games), then one small real run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.build.report import why_heading
from clix.analyzer.build.summary import (
    DOMINANT_ABOVE,
    _mark_sidegrades,
    _units,
    choose_objective,
    compare_with_field,
    dominant_army,
    name_by_rank,
    objective_score,
    rank_names,
    rest_scores,
    worst_case,
)
from clix.analyzer.stats.scoring import game_scores, mean_interval
from clix.engine.horrorclix.roster.models import Army
from helpers import run_main
from pdf_checks import html_opening
from value_library import ROSTERS, planted_library

MAPS = ("graveyard", "mansion")
PAIRS = 40


def made_up_games(scores: dict[str, dict[str, float]], seed: int = 7) -> pd.DataFrame:
    """Seat-swapped pairs of games of each army (the `build` column) against each field army on each map, won
    by the army with the share of games `scores[army][opponent]` (in a shuffled order, so pairs differ)."""
    rng = np.random.default_rng(seed)
    rows = []
    for name, versus in scores.items():
        for opponent, share in versus.items():
            for map_name in MAPS:
                wins = round(share * 2 * PAIRS)
                results = rng.permutation(["A"] * wins + ["B"] * (2 * PAIRS - wins))
                for game, winner in enumerate(results):
                    rows.append(
                        {
                            "build": name,
                            "opponent": opponent,
                            "map_played": map_name,
                            "pair": game // 2,
                            "army_a": name,
                            "army_b": opponent,
                            "winner": winner,
                        }
                    )
    return pd.DataFrame(rows)


def made_up_rows(games: pd.DataFrame, names: list[str], field: list[tuple[str, float]]) -> list[dict]:
    """The rows `summarize_builds` makes, as far as the headline reads them: score against the field and each
    field army, best first."""
    rows = []
    for name in names:
        sub = games[games["build"] == name]
        versus = []
        for opponent, weight in field:
            part = sub[sub["opponent"] == opponent]
            pairs = game_scores(part, "A").groupby([part["map_played"], part["pair"]]).mean().to_numpy()
            versus.append({"opponent": opponent, "weight": weight, **mean_interval(pairs)})
        rows.append({"name": name, "score": mean_interval(_units(games, name, field).to_numpy()), "versus": versus})
    return sorted(rows, key=lambda r: -r["score"]["score"])


def headline_of(scores: dict[str, dict[str, float]]) -> dict:
    field = [("red", 0.5), ("blue", 0.5)]
    games = made_up_games(scores)
    builds = made_up_rows(games, [n for n in scores if n.startswith("build")], field)
    refs = made_up_rows(games, [n for n in scores if not n.startswith("build")], field)
    return compare_with_field(builds, refs, games, field, MAPS)


# the field's own armies: blue is the best field army (55% against the field), red 45%
FIELD = {"red": {"red": 0.5, "blue": 0.4}, "blue": {"red": 0.6, "blue": 0.5}}


def test_the_headline_says_when_the_best_build_beats_every_field_army() -> None:
    found = headline_of({"build-01": {"red": 0.9, "blue": 0.85}, **FIELD})
    assert found["form"] == "beats every"
    assert found["headline"].startswith("build-01 beats every field army head to head (each interval above 50%)")
    assert found["headline"].endswith("on graveyard and mansion")
    assert found["unbeaten"] == []
    assert found["best_field_army"] == "blue"
    assert found["difference"]["low"] > 0


def test_the_headline_compares_with_the_best_field_army_and_names_one_not_beaten() -> None:
    # 70% against the field, 15 points above blue (55%), but blue is not beaten head to head (45%)
    found = headline_of({"build-01": {"red": 0.95, "blue": 0.45}, **FIELD})
    assert found["form"] == "beats the best"
    d = found["difference"]
    assert d["low"] > 0 and d["low"] < d["difference"] < d["high"]
    assert d["difference"] == pytest.approx(found["score"]["score"] - 0.55, abs=1e-9)
    text = found["headline"]
    assert text.startswith("build-01 scores 70.0% [")
    assert "above the best field army blue on graveyard and mansion" in text
    assert "it does not beat blue head to head: blue scores 55.0% [" in text
    assert found["unbeaten"] == ["blue"]


def test_the_headline_says_plainly_which_army_no_build_was_found_to_beat() -> None:
    # 50% against the field, below blue (55%); blue beats it 70% head to head
    found = headline_of({"build-01": {"red": 0.7, "blue": 0.3}, "build-02": {"red": 0.6, "blue": 0.3}, **FIELD})
    assert found["form"] == "none beats"
    assert found["best"] == "build-01"
    assert found["headline"].startswith("no build found beats blue: it scores 70.0% [")
    assert "against build-01 head to head on graveyard and mansion" in found["headline"]
    assert "from the best field army blue" in found["headline"]
    assert found["difference"]["difference"] < 0


def test_the_headline_shows_field_armies_by_their_names_and_keeps_their_ids_in_the_fields() -> None:
    """Issue 37, part 6: an army is shown by its `name:` (common/names.py); the machine fields keep its id."""
    field = [("red", 0.5), ("blue", 0.5)]
    scores = {"build-01": {"red": 0.95, "blue": 0.45}, **FIELD}
    games = made_up_games(scores)
    builds = made_up_rows(games, ["build-01"], field)
    refs = made_up_rows(games, ["red", "blue"], field)
    shown = {"red": "Red Hand", "blue": "The Blue Court"}
    found = compare_with_field(builds, refs, games, field, MAPS, shown=shown)
    assert "above the best field army The Blue Court on" in found["headline"]
    assert "it does not beat The Blue Court head to head: The Blue Court scores" in found["headline"]
    assert found["best_field_army"] == "blue" and found["unbeaten"] == ["blue"]
    red = {"army": "red", "score": 0.8, "low": 0.7, "high": 0.9, "pairs": 80}
    assert "as Red Hand dominates it" in choose_objective("auto", [("the final games", red)], 3, shown)["why"]
    worse = {"build-01": {"red": 0.7, "blue": 0.3}, **FIELD}
    games = made_up_games(worse)
    found = compare_with_field(
        made_up_rows(games, ["build-01"], field), made_up_rows(games, ["red", "blue"], field), games, field, MAPS,
        shown=shown,
    )  # fmt: skip
    assert found["headline"].startswith("no build found beats The Blue Court: it scores")


def test_a_headline_without_builds_or_field_armies_says_so() -> None:
    assert compare_with_field([], [], pd.DataFrame(), [("red", 1.0)], MAPS)["form"] == "none measured"
    games = made_up_games({"build-01": {"red": 0.5}})
    builds = made_up_rows(games, ["build-01"], [("red", 1.0)])
    found = compare_with_field(builds, [], games, [("red", 1.0)], ["graveyard"])
    assert found["form"] == "none beats" and "no field army" not in found["headline"]
    assert found["headline"].startswith("no build found beats red:")


def test_rank_names_start_at_build_01_and_avoid_the_field_armies_names() -> None:
    assert rank_names([], 3) == ["build-01", "build-02", "build-03"]
    assert rank_names(["midnight-rush"], 120)[:2] == ["build-001", "build-002"]
    assert rank_names(["build-02"], 2) == ["new-build-01", "new-build-02"]
    assert rank_names(["build-01", "new-build-01"], 1) == ["build-2-01"]


def test_builds_are_renamed_by_rank_in_rows_games_and_armies() -> None:
    field = [("red", 1.0)]
    games = made_up_games({"candidate-3": {"red": 0.8}, "candidate-1": {"red": 0.6}, "red": {"red": 0.5}})
    builds = made_up_rows(games, ["candidate-1", "candidate-3"], field)
    assert [b["name"] for b in builds] == ["candidate-3", "candidate-1"]  # best first
    armies = {n: Army.model_construct(name=n, build_total=100) for n in ("candidate-1", "candidate-3")}
    renamed_games, renamed = name_by_rank(builds, games, armies, ["red"])
    assert [(b["name"], b["candidate"]) for b in builds] == [("build-01", "candidate-3"), ("build-02", "candidate-1")]
    assert {n: a.name for n, a in renamed.items()} == {"build-01": "build-01", "build-02": "build-02"}
    assert set(renamed_games["build"]) == {"build-01", "build-02", "red"}
    assert set(renamed_games["army_a"]) == {"build-01", "build-02", "red"}
    assert set(games["build"]) == {"candidate-1", "candidate-3", "red"}  # the input is not changed
    # the scores follow the names: build-01 is the one that won 80%
    assert _units(renamed_games, "build-01", field).mean() == pytest.approx(0.8)


def test_why_it_wins_only_for_a_build_whose_interval_is_above_half() -> None:
    assert why_heading({"wins": True}) == "why it wins"
    assert why_heading({"wins": False}) == "why it falls short"


@pytest.fixture(scope="module")
def two_map_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    library = planted_library(tmp_path_factory.mktemp("headline") / "library")
    shutil.copy(ROSTERS / "maps" / "mansion.yaml", library / "maps" / "mansion.yaml")
    return library


def test_a_small_build_run_names_builds_by_rank_and_writes_its_headline(
    two_map_library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # its games go to the project's store, tmp_path/clix-out/clix.duckdb
    out = tmp_path / "out"
    args = ["build", "--rosters", str(two_map_library), "--budget", "100", "--candidates", "3"]
    args += ["--first-games", "2", "--final-games", "2", "--turns", "2", "--jobs", "1", "--out", str(out)]
    code, stdout, stderr = run_main(args, capsys)
    assert code == 0, stderr
    document = json.loads((out / "build.json").read_text())
    # both maps by default
    assert document["settings"]["maps"] == ["graveyard", "mansion"]
    assert document["headline"] == document["comparison"]["headline"]
    printed = stdout.splitlines()  # the headline first, wrapped to the terminal, continuations indented
    end = next((i for i in range(1, len(printed)) if not printed[i].startswith("    ")), len(printed))
    assert " ".join(line.strip() for line in printed[:end]) == document["headline"]
    assert "graveyard and mansion" in document["headline"]
    builds = document["builds"]
    names = [b["name"] for b in builds]
    assert names == [f"build-{k:02d}" for k in range(1, len(builds) + 1)]
    objective = document["settings"]["objective_used"]
    assert document["settings"]["objective"] == "auto" and objective in ("field", "maximin")
    assert document["comparison"]["objective"]["objective"] == objective
    assert f". Objective {objective}: ranked by " in document["headline"]
    ranked = [objective_score(b, objective) for b in builds]
    assert ranked == sorted(ranked, reverse=True)
    assert all(b["candidate"].startswith("candidate-") for b in builds)
    assert sorted(p.stem for p in (out / "armies").glob("*.yaml")) == names
    table = pd.read_csv(out / "builds.csv")
    assert table["name"].iloc[0] == "build-01"
    assert table["score"].iloc[0] == pytest.approx(builds[0]["score"]["score"])
    assert set(pd.read_csv(out / "games.csv")["build"]) == set(names) | {r["name"] for r in document["references"]}
    html = (out / "build.html").read_text()
    assert document["headline"].split(":")[0] in html_opening(html)[1]
    winners = sum(b["wins"] for b in builds)
    assert all(b["wins"] == (b["score"]["low"] > 0.5) for b in builds)
    assert html.count("Why it wins") == winners
    assert html.count("Why it falls short") == len(builds) - winners
    assert stdout.count("why it wins:") == winners


def test_an_unknown_objective_is_one_line_before_any_game(two_map_library: Path, tmp_path: Path, capsys) -> None:
    args = ["build", "--rosters", str(two_map_library), "--objective", "worst", "--out", str(tmp_path / "out")]
    code, _, stderr = run_main(args, capsys)
    assert code == 2 and stderr.startswith("clix: error: --objective takes field, maximin, auto")
    assert stderr.strip().count("\n") == 0 and not (tmp_path / "out").exists()


# --- the objective: field, maximin, or auto (maximin when a field army dominates) -------------------------

# red dominates the field (80-85% against the others); blue and green are even
DOMINATED = {
    "red": {"blue": 0.8, "green": 0.85},
    "blue": {"red": 0.2, "green": 0.5},
    "green": {"red": 0.15, "blue": 0.5},
}
THREE = [("red", 1 / 3), ("blue", 1 / 3), ("green", 1 / 3)]


def test_a_dominant_field_army_is_found_from_its_score_against_the_rest() -> None:
    games = made_up_games(DOMINATED)
    scores = rest_scores(games, THREE)
    assert scores["red"]["score"] == pytest.approx(0.825) and scores["red"]["low"] > DOMINANT_ABOVE
    assert scores["blue"]["score"] == pytest.approx(0.35)
    found = dominant_army(games, THREE)
    assert found is not None and found["army"] == "red"
    even = {name: {o: 0.5 for o in DOMINATED if o != name} for name in DOMINATED}
    assert dominant_army(made_up_games(even), THREE) is None
    assert dominant_army(pd.DataFrame(), THREE) is None


def test_auto_takes_maximin_when_a_source_saw_a_dominant_army_and_says_why() -> None:
    red = {"army": "red", "score": 0.8, "low": 0.7, "high": 0.9, "pairs": 80}
    chosen = choose_objective("auto", [("the final games", None), ("the first stage's reference games", red)], 3)
    assert chosen["objective"] == "maximin" and chosen["source"] == "the first stage's reference games"
    assert "red dominates it: 80.0% [70.0–90.0] against the rest of the field" in chosen["why"]
    assert "above 60%" in chosen["why"]
    plain = choose_objective("auto", [("the final games", None)], 3)
    assert plain["objective"] == "field" and "no field army's score against the rest" in plain["why"]
    assert "(the final games)" in plain["why"]
    assert "a field of one army" in choose_objective("auto", [], 1)["why"]
    asked = choose_objective("field", [("the final games", red)], 3)
    assert asked["objective"] == "field" and "--objective field" in asked["why"]
    assert choose_objective("maximin", [], 3)["objective"] == "maximin"


def test_maximin_ranks_by_the_worst_head_to_head_score_and_the_headline_says_so() -> None:
    # build-a farms the weak armies (higher field score) but loses to red; build-b holds everyone
    scores = {
        "build-a": {"red": 0.35, "blue": 0.95, "green": 0.95},
        "build-b": {"red": 0.6, "blue": 0.65, "green": 0.65},
        **DOMINATED,
    }
    games = made_up_games(scores)
    rows = made_up_rows(games, ["build-a", "build-b"], THREE)
    assert rows[0]["name"] == "build-a"  # best against the field
    by_worst = [dict(r) for r in rows]
    _mark_sidegrades(by_worst, games, THREE, "maximin")
    assert [r["name"] for r in by_worst] == ["build-b", "build-a"]
    assert worst_case(by_worst[0])["opponent"] == "red" and objective_score(by_worst[1], "maximin") == 0.35
    assert by_worst[1]["behind_best"]["against"] == "red" and by_worst[1]["role"] == "worse"
    by_field = [dict(r) for r in rows]
    _mark_sidegrades(by_field, games, THREE, "field")
    assert [r["name"] for r in by_field] == ["build-a", "build-b"] and "against" not in by_field[1]["behind_best"]
    refs = made_up_rows(games, list(DOMINATED), THREE)
    objective = choose_objective("auto", [("the final games", dominant_army(games, THREE))], 3)
    found = compare_with_field(by_worst, refs, games, THREE, MAPS, objective)
    assert found["objective"]["objective"] == "maximin" and found["worst"]["opponent"] == "red"
    assert found["form"] == "beats every"
    assert (
        ". Objective maximin: ranked by the worst head-to-head score over the field, as red dominates it"
        in (found["headline"])
    )
    assert found["headline"].endswith("; build-b's worst: 60.0% [" + found["headline"].split("worst: 60.0% [")[1])
    assert "against red" in found["headline"]
    objective["race"] = "field"
    raced = compare_with_field(by_worst, refs, games, THREE, MAPS, objective)
    assert "(the race before the final games ranked by field)" in raced["headline"]


def test_under_maximin_a_build_better_against_the_best_ones_worst_opponent_is_no_sidegrade_when_its_own_worst_is_lower():
    """The default run against the four sample armies labelled a build 'sidegrade', 9.9 points [6.8, 12.9] better
    than the best against midnight-rush (the best's worst opponent), though its own worst (46.5% against
    firing-line) lay wholly below the best's (55.6%)."""
    scores = {
        "build-a": {"red": 0.6, "blue": 0.65, "green": 0.65},  # the best worst case: 60% against red
        "build-b": {"red": 0.75, "blue": 0.4, "green": 0.9},  # better against red, but 40% against blue
        "build-c": {"red": 0.6, "blue": 0.62, "green": 0.7},  # the same worst case as build-a
        **DOMINATED,
    }
    games = made_up_games(scores)
    rows = made_up_rows(games, ["build-a", "build-b", "build-c"], THREE)
    _mark_sidegrades(rows, games, THREE, "maximin")
    roles = {r["name"]: r.get("role") for r in rows}
    assert rows[0]["name"] in ("build-a", "build-c") and roles["build-b"] == "worse"
    assert next(r for r in rows if r["name"] == "build-b")["behind_best"]["high"] < 0  # better against red
    assert sorted(roles.values()) == ["best", "sidegrade", "worse"]
