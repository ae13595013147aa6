"""Every game of a duel replays (issue 13): `clix replay --run DIR --game N` plays exactly the game in the row,
and the old form `clix replay ARMY_A ARMY_B --seed S --game N` is game N of `clix duel ARMY_A ARMY_B --seed S`."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clix.analyzer.common.errors import ClixError
from clix.analyzer.duel.replay import replay_run, replay_seed
from clix.analyzer.play.runner import Matchup, game_rows, play_one, play_state

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"
TURNS = "5"


def clix(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def duel(out: Path, army_a: str, army_b: str, *extra: str) -> list[dict[str, str]]:
    """Run a 10-game duel into `out`; return its games.csv rows."""
    done = clix(
        "duel",
        army_a,
        army_b,
        "--games",
        "10",
        "--turns",
        TURNS,
        "--jobs",
        "1",
        "--out",
        str(out),
        "--rosters",
        str(LIBRARY),
        *extra,
        cwd=out.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    with (out / "games.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[dict[str, str]]]]:
    """Two small duels: two armies with the default player, and a mirror with a named heuristic style (whose
    pairs' second games have seeds of their own, seed path "k:1")."""
    base = tmp_path_factory.mktemp("replay")
    return {
        "duel": (base / "duel", duel(base / "duel", "butcher-shop", "firing-line", "--seed", "7")),
        "mirror": (base / "mirror", duel(base / "mirror", "butcher-shop", "butcher-shop", "--players", "hunter")),
    }


def label(row: dict[str, str], side: str) -> str:
    army = row[f"army_{side.lower()}"]
    return f"{army} ({side})" if row["army_a"] == row["army_b"] else army


def expected_vp_line(row: dict[str, str]) -> str:
    return f"final VP {label(row, 'A')} {row['vp_a']}, {label(row, 'B')} {row['vp_b']}"


@pytest.mark.parametrize(("run", "game"), [("duel", 0), ("duel", 3), ("duel", 6), ("mirror", 5), ("mirror", 8)])
def test_replayed_game_matches_its_row(runs, run: str, game: int) -> None:
    """Odd games have the seats swapped; mirror game 5 is the second game of pair 2 (seed path 2:1)."""
    out, rows = runs[run]
    row = rows[game]
    assert int(row["game"]) == game
    if run == "mirror" and game % 2:
        assert row["seed_path"] == f"{game // 2}:1"
    done = clix("replay", "--run", str(out), "--game", str(game), "--rosters", str(LIBRARY), cwd=out.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[-1] == f"{expected_vp_line(row)}: matches games.csv"
    first_seat = int(row["seat_a"]) if row["first"] == "A" else 3 - int(row["seat_a"])
    assert f"-- turn 1 (round 1): player {first_seat}, {label(row, row['first'])}" in lines
    assert f"-- turn 2 (round 1): player {3 - first_seat}, " in "\n".join(lines)
    style = "hunter" if run == "mirror" else "tuned"
    assert f"A butcher-shop ({style}) as player {row['seat_a']}" in lines[0]


def test_game_out_of_range_is_one_line(runs) -> None:
    out, rows = runs["duel"]
    done = clix("replay", "--run", str(out), "--game", str(len(rows)), "--rosters", str(LIBRARY), cwd=out.parent)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert f"0 to {len(rows) - 1}" in done.stderr and "Traceback" not in done.stderr


def test_old_form_is_the_duels_game(runs) -> None:
    """`clix replay A B --seed S` is game 0 of `clix duel A B --seed S`; --game N picks game N."""
    out, rows = runs["duel"]
    base = ("replay", "butcher-shop", "firing-line", "--seed", "7", "--turns", TURNS, "--rosters", str(LIBRARY))
    done = clix(*base, cwd=out.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == expected_vp_line(rows[0])
    for game in (3, 4):
        replayed = replay_seed(LIBRARY, "butcher-shop", "firing-line", seed=7, turns=int(TURNS), game=game)
        assert replayed.lines[-1] == expected_vp_line(rows[game])


def test_old_form_takes_every_style() -> None:
    for players in ("random,random", "rusher,hunter", "balanced"):
        replayed = replay_seed(LIBRARY, "butcher-shop", "firing-line", players=players, turns=2, game=1)
        assert replayed.exit_code == 0 and replayed.lines[-1].startswith("final VP butcher-shop ")
    with pytest.raises(ClixError, match="hunter"):
        replay_seed(LIBRARY, "butcher-shop", "firing-line", players="tuned,hunte")


def test_a_replay_shows_the_armies_by_their_names() -> None:
    """Issue 37, part 6: the replay names each side as every command does, by its `name:` ("The Haunting" for
    haunting), and tells a mirror's sides apart by A and B."""
    replayed = replay_seed(LIBRARY, "haunting", "butcher-shop", turns=2, game=0)
    assert replayed.lines[0].startswith("A The Haunting (tuned) as player ")
    assert replayed.lines[-1].startswith("final VP The Haunting ") and ", butcher-shop " in replayed.lines[-1]
    mirror = replay_seed(LIBRARY, "haunting", "haunting", turns=2, game=0)
    assert mirror.lines[-1].startswith("final VP The Haunting (A) ") and ", The Haunting (B) " in mirror.lines[-1]


def test_play_state_is_the_duels_game() -> None:
    """The replay plays a game the way the runner does: the same row for every kind of game."""
    for matchup in (
        Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "random", "random", turn_limit=3),
        Matchup(LIBRARY, "butcher-shop", "firing-line", "graveyard", "rusher", "balanced", turn_limit=3, ties="draw"),
    ):
        for index in (0, 1, 2, 3):
            state, swapped = play_state(matchup, 11, index)
            assert game_rows(state, matchup, 11, index, swapped) == play_one(matchup, 11, index)


def _copy_run(src: Path, dst: Path, **changes: str) -> Path:
    """A copy of a run whose game rows have `changes` applied."""
    shutil.copytree(src, dst)
    with (dst / "games.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row.update(changes)
    with (dst / "games.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return dst


def test_other_ruleset_warns_and_replays(runs, tmp_path) -> None:
    out = _copy_run(runs["duel"][0], tmp_path / "old", ruleset="horrorclix-000")
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    summary["settings"]["ruleset"] = "horrorclix-000"
    (out / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    replayed = replay_run(LIBRARY, out, 1)
    assert len(replayed.warnings) == 1 and "horrorclix-000" in replayed.warnings[0]
    assert replayed.exit_code == 0 and replayed.lines[-1].endswith(": matches games.csv")


def test_a_row_that_differs_is_a_mismatch(runs, tmp_path) -> None:
    out = _copy_run(runs["duel"][0], tmp_path / "edited", vp_a="99")
    replayed = replay_run(LIBRARY, out, 2)
    assert replayed.exit_code == 1
    assert replayed.lines[-1].startswith("mismatch with games.csv:") and "vp_a 99" in replayed.lines[-1]


def test_run_folder_errors(runs, tmp_path) -> None:
    with pytest.raises(ClixError, match="no such directory"):
        replay_run(LIBRARY, tmp_path / "missing", 0)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ClixError, match=r"no summary\.json"):
        replay_run(LIBRARY, empty, 0)
    shutil.copy(runs["duel"][0] / "summary.json", empty / "summary.json")
    with pytest.raises(ClixError, match=r"no games\.csv"):
        replay_run(LIBRARY, empty, 0)
    shutil.copy(runs["duel"][0] / "games.parquet", empty / "games.parquet")
    assert replay_run(LIBRARY, empty, 1).lines[-1].endswith(": matches games.parquet")
    out = runs["duel"][0]
    done = clix("replay", "butcher-shop", "firing-line", "--run", str(out), cwd=out.parent)
    assert done.returncode == 2 and "not both" in done.stderr and done.stderr.strip().count("\n") == 0
