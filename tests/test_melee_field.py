"""`clix melee ... --pods N` and `clix meta --pods N` (issue 39): a field in pods of 3 or 4 drawn so every pair meets
about equally, rated by a Plackett-Luce model on placings with bootstrap intervals over pods."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.common.jsonout import rounded
from clix.analyzer.melee.command import build_melee
from clix.analyzer.melee.field import build_field, draw_pods, play_field, summarize_field
from helpers import run_main

FIELD = ["butcher-shop", "firing-line", "haunting", "midnight-rush", "crimson-court"]


@pytest.mark.parametrize(
    ("armies", "pods", "size"), [(5, 10, 4), (6, 15, 4), (7, 21, 4), (8, 14, 4), (6, 20, 3), (7, 14, 3), (8, 24, 3)]
)
def test_pods_balance_who_meets_whom(armies: int, pods: int, size: int) -> None:
    drawn = draw_pods(armies, pods, 7, size)
    assert len(drawn) == pods and all(len(set(p)) == size for p in drawn)
    played = [sum(a in p for p in drawn) for a in range(armies)]
    meets = [sum(a in p and b in p for p in drawn) for a, b in itertools.combinations(range(armies), 2)]
    assert max(played) - min(played) <= 1
    assert max(meets) - min(meets) <= 2, meets  # a greedy draw: about equal, not a perfect design
    assert draw_pods(armies, pods, 7, size) == drawn and draw_pods(armies, pods, 8, size) != drawn


def test_every_army_sits_in_every_seat_of_its_pods_once() -> None:
    """A pod plays its seat rotations (HC-SETUP-03: the first player rotates with the seats)."""
    melee = build_melee(None, FIELD, None, None, None, 4, "break", field=3)
    field = build_field(melee, 12, 5, size=3)
    for pod in range(len(field.pods)):
        orders = field.pod_melee(pod).orders
        assert len(orders) == 3 and all(sorted(o[s] for o in orders) == [0, 1, 2] for s in range(3))


def test_a_small_field_reports_finite_ratings_with_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "field"
    args = ["melee", *FIELD, "--pods", "4", "--games", "12", "--turns", "6", "--jobs", "1", "--store",
            str(tmp_path / "s.duckdb"), "--json", "-o", str(out)]  # fmt: skip
    code, printed, err = run_main(args, capsys)
    assert code == 0, err
    summary = json.loads(printed)
    assert summary["games"] == 12 and summary["pods"] == 3  # at least two pods an army: ceil(2 * 5 / 4)
    assert sorted(a["army"] for a in summary["armies"]) == sorted(FIELD)
    for a in summary["armies"]:
        assert all(math.isfinite(a[k]) for k in ("rating", "low", "high")) and a["low"] <= a["rating"] <= a["high"]
    assert [a["rating"] for a in summary["armies"]] == sorted((a["rating"] for a in summary["armies"]), reverse=True)
    assert summary["headline"].startswith(summary["armies"][0]["army"])
    games, rated = pd.read_csv(out / "games.csv"), pd.read_csv(out / "ratings.csv")
    assert len(games) == 12 and set(games["pod"]) == {0, 1, 2} and len(rated) == 5
    assert "Ratings" in (out / "report.html").read_text()
    code, printed, err = run_main([*args[:-3], "--seed", "3", "-o", str(tmp_path / "seed3")], capsys)
    assert code == 0, err
    assert printed.splitlines()[0].split()[0] in FIELD and "pod win" in printed


def test_the_field_ranks_a_planted_strong_army_first() -> None:
    """butcher-shop played by the tuned heuristic among four armies playing at random (HC rules as ever): it
    should rate first, its interval above the field's mean (0)."""
    melee = build_melee(None, FIELD, None, "random,random,random,random,random".replace("random", "tuned", 1), None,
                        8, "break", field=True)  # fmt: skip
    field = build_field(melee, 40, 11)
    rows, _ = play_field(field, 11, 1)
    summary = summarize_field(field, pd.DataFrame(rows), 11)
    best = summary["armies"][0]
    assert best["army"] == "butcher-shop" and best["low"] > 0
    assert summary["meetings"]["fewest"] == summary["meetings"]["most"] == 6


@pytest.mark.parametrize(
    ("armies", "says"),
    [(FIELD[:3], "--pods 4 plays 4 or more different armies"), ([*FIELD[:4], FIELD[0]], "5, 4 different")],
)
def test_a_field_needs_as_many_different_armies_as_a_pod(
    armies: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(["melee", *armies, "--pods", "4", "--games", "4"], capsys)
    assert code == 2 and err.count("\n") == 1 and says in err, err


@pytest.mark.parametrize("command", ["melee", "meta"])
def test_pods_of_other_sizes_are_refused_in_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main([command, *FIELD, "--pods", "5", "--games", "4"], capsys)
    assert code == 2 and err.count("\n") == 1 and "a pod seats 3 or 4 armies (got 5" in err, err


@pytest.mark.parametrize("size", [3, 4])
def test_meta_pods_plays_the_budget_field_as_melee_pods_does(
    size: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`clix meta --pods N --budget 100` (issue 39's done-when) rates the sample field of four with intervals, the
    same numbers `clix melee` gives for those armies."""
    common = ["--pods", str(size), "--games", str(4 * size), "--turns", "5", "--jobs", "1", "--json", "--store",
              str(tmp_path / "s.duckdb"), "--fresh"]  # fmt: skip
    code, printed, err = run_main(["meta", "--budget", "100", *common, "--resamples", "60", "-o", str(tmp_path / "a")],
                                  capsys)  # fmt: skip
    assert code == 0, err
    meta = json.loads(printed)
    assert meta["pod_size"] == size and meta["bootstrap"] == 60 and len(meta["armies"]) == 4
    assert all(a["low"] <= a["rating"] <= a["high"] for a in meta["armies"])
    field = sorted(a["army"] for a in meta["armies"])
    code, printed, err = run_main(["melee", *field, *common, "--map", "graveyard,mansion", "-o", str(tmp_path / "b")],
                                  capsys)  # fmt: skip
    assert code == 0, err
    assert [a["rating"] for a in json.loads(printed)["armies"]] == [a["rating"] for a in meta["armies"]]
    assert meta["maps"] == ["graveyard", "mansion"]  # a meta plays every map, and so does its field in pods
    games = pd.read_csv(tmp_path / "a" / "games.csv")
    assert (games.groupby("pod")["map"].value_counts() == size).all()  # every pod's rotations on each map
    assert games.groupby("pod")["map"].nunique().eq(2).all()


def test_a_field_on_two_maps_keeps_the_one_map_fields_games_and_replays_from_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A field on graveyard alone numbers its games as before; on two maps the same pods are drawn and each plays its
    rotations on each map, under a key of its own, and `clix replay --run` replays any game from the folder; a
    melee at one table takes one map."""
    one = build_field(build_melee(None, FIELD, "graveyard", None, None, 4, "break", field=4), 12, 3, 4)
    two = build_field(build_melee(None, FIELD, "graveyard,mansion", None, None, 4, "break", field=4), 12, 3, 4)
    assert one.maps == () and one.on_maps == ("graveyard",) and one.games == len(one.pods) * 4
    assert two.on_maps == ("graveyard", "mansion") and two.pod_games == 8 and two.pods[:2] == one.pods[:2]
    args = ["melee", *FIELD, "--pods", "4", "--games", "24", "--turns", "4", "--jobs", "1", "--map",
            "graveyard,mansion", "--store", str(tmp_path / "s.duckdb"), "--json"]  # fmt: skip
    code, printed, err = run_main([*args, "-o", str(tmp_path / "a")], capsys)
    assert code == 0, err
    summary = json.loads(printed)
    assert (
        summary["maps"] == ["graveyard", "mansion"] and summary["games"] == 24 and summary["pods"] == 3
    )  # two pods an army
    games = pd.read_csv(tmp_path / "a" / "games.csv")
    assert games["map"].tolist() == (["graveyard"] * 4 + ["mansion"] * 4) * 3
    code, printed, err = run_main([*args, "-o", str(tmp_path / "b")], capsys)
    assert code == 0 and json.loads(printed)["ended"]["from_store"] == 24, err
    code, printed, err = run_main(["melee", *FIELD, "--pods", "4", "--games", "24", "--turns", "4", "--jobs", "1",
                                   "--store", str(tmp_path / "s.duckdb"), "--json", "-o", str(tmp_path / "c")], capsys)  # fmt: skip
    assert code == 0 and json.loads(printed)["ended"]["from_store"] == 0, err  # one map: another field's key
    stored = games[games["game"] == 13].iloc[0]
    code, replayed, err = run_main(["replay", "--run", str(tmp_path / "a"), "--game", "13"], capsys)
    assert code == 0, err
    assert all(f"place {stored[f'place_{x}']:g}: {x} {stored[f'army_{x}']}" in replayed for x in "ABCD"), replayed
    import clix

    result = clix.melee(FIELD, pods=4, games=24, turns=4, jobs=1, seed=0, map="graveyard,mansion")
    assert result.games["game"].tolist() == games["game"].tolist() and result.summary["maps"] == summary["maps"]
    assert rounded([a["rating"] for a in result.summary["armies"]]) == [a["rating"] for a in summary["armies"]]
    code, _, err = run_main(["melee", *FIELD[:3], "--map", "graveyard,mansion", "--games", "6"], capsys)
    assert code == 2 and err.count("\n") == 1 and "a melee at one table plays on one map" in err


@pytest.mark.parametrize(
    ("extra", "says"),
    [(["--row"], "--row: not with --pods"), (["--maps", "graveyard,moon"], "map"),
     (["--players", "sweep"], "one style for every army"), (["--ruleset", "heroclix-2005", "--maps", "graveyard"], "plays the armies and maps of one ruleset")],
)  # fmt: skip
def test_meta_pods_refuses_what_a_field_in_pods_cannot_do(
    extra: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(["meta", "--budget", "100", "--pods", "4", "--games", "8", *extra], capsys)
    assert code == 2 and err.count("\n") == 1 and says in err, err


def test_a_field_rerun_is_served_from_the_store_listed_and_its_games_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 39: a field's games are stored under its own key (its pods included), a rerun takes them all from the
    store, `clix results list` shows the run as a melee, and `--game N` replays game N's placings from the table."""
    store = tmp_path / "s.duckdb"
    args = ["melee", *FIELD, "--pods", "4", "--games", "8", "--turns", "4", "--jobs", "1", "--store", str(store)]
    for run in ("a", "b"):
        code, printed, err = run_main([*args, "--json", "-o", str(tmp_path / run)], capsys)
        assert code == 0, err
    summary = json.loads(printed)
    assert summary["ended"]["from_store"] == summary["games"] == 12  # at least two pods an army
    assert (tmp_path / "b" / "ratings.png").is_file() and "Seat and first-player" in (
        tmp_path / "b" / "report.html"
    ).read_text()
    code, listed, err = run_main(["results", "list", "--store", str(store)], capsys)
    assert code == 0 and listed.count("pods of 4:") == 2, listed
    first = next(a for a in summary["armies"] if a["army"] == FIELD[0])  # the score column: A's win share
    rows = [line.split() for line in listed.splitlines() if line[:3].strip().isdigit()]
    assert [row[-1] for row in rows] == [f"{100 * first['win_share']:.1f}%"] * 2, listed
    games = pd.read_csv(tmp_path / "a" / "games.csv")
    code, printed, err = run_main([*args[:-2], "--game", "9", "--json"], capsys)
    assert code == 0, err
    row, stored = json.loads(printed), games[games["game"] == 9].iloc[0]
    assert row["pod"] == stored["pod"] and all(row[f"place_{x}"] == stored[f"place_{x}"] for x in "ABCD")
    code, replayed, err = run_main(["replay", "--run", str(tmp_path / "a"), "--game", "9"], capsys)
    assert code == 0, err  # from the folder alone, checked against games.csv
    assert all(f"place {stored[f'place_{x}']:g}: {x} {stored[f'army_{x}']}" in replayed for x in "ABCD"), replayed


def test_the_api_plays_a_field_in_pods_as_the_command_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import clix

    result = clix.melee(FIELD, pods=3, games=12, turns=4, jobs=1, seed=2)
    code, printed, err = run_main(["melee", *FIELD, "--pods", "3", "--games", "12", "--turns", "4", "--jobs", "1",
                                   "--seed", "2", "--json", "--store", str(tmp_path / "s.duckdb"), "-o", str(tmp_path / "cli")], capsys)  # fmt: skip
    assert code == 0, err
    assert rounded(result.table()["rating"].tolist()) == [a["rating"] for a in json.loads(printed)["armies"]]
    assert result.headline.startswith(result.table()["army"].iloc[0])
    assert result.report(tmp_path / "api").name == "report.html" and (tmp_path / "api" / "seats.png").is_file()
    with pytest.raises(clix.ClixError, match="a pod seats 3 or 4"):
        clix.melee(FIELD, pods=2, games=4)
