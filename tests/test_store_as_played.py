"""Issue 31: `clix meta` stores each game as it finishes (as `clix duel` does), so a kill -9 loses only the games
in flight and a rerun plays only the rest, with the outputs of an uninterrupted run; and a game that raises (a
bug or bad data) stops a run at once, named with its seed path, rather than failing a thousand times."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.play import field_games, local_runner, play_field
from clix.analyzer.play import runner
from clix.analyzer.play.experiment import Cell, play_cells
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.engine.horrorclix.matchups import roster_at
from helpers import run_main, stored_games, until

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
META = ["meta", "butcher-shop", "firing-line", "--turns", "12", "--jobs", "1", "--json", "--rosters", str(ROSTERS)]
META_GAMES = 400
"""Games per cell of the killed meta (two cells, one per map): several seconds of play even on the compiled
engine (whose 400 games of 3 turns were all stored before the kill landed), the first stored after a second."""
VOLATILE = {"seconds", "games_per_second", "played", "from_store", "store", "jobs", "interrupted"}
"""Settings that say how a run went rather than what it found."""


def meta(tmp_path: Path, name: str, store: Path, games: int = META_GAMES) -> subprocess.Popen:
    """`clix meta` of two sample armies in a subprocess, writing to tmp_path/name."""
    args = [*META, "--games", str(games), "--store", str(store), "--out", str(tmp_path / name)]
    return subprocess.Popen(
        [sys.executable, "-m", "clix.analyzer.cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / f"{name}.err").open("w"),
        text=True,
    )


def finished(run: subprocess.Popen, timeout: float = 300) -> dict:
    """The JSON a run printed, once it ended with exit 0."""
    out, _ = run.communicate(timeout=timeout)
    assert run.returncode == 0, f"exit {run.returncode}"
    return json.loads(out)


def results(folder: Path) -> dict:
    """A meta run's summary.json without what says how the run went (times, counts read or played, the store)."""
    summary = json.loads((folder / "summary.json").read_text())
    summary["settings"] = {k: v for k, v in summary["settings"].items() if k not in VOLATILE}
    return summary


def test_a_killed_meta_keeps_its_games_and_a_rerun_plays_only_the_rest(tmp_path):
    reference = finished(meta(tmp_path, "reference", tmp_path / "reference.duckdb"))
    total = reference["settings"]["games"]
    assert total == 2 * META_GAMES and reference["settings"]["played"] == total

    store = tmp_path / "clix.duckdb"
    killed = meta(tmp_path, "killed", store)
    try:
        until(lambda: stored_games(store) > 0 or killed.poll() is not None, timeout=120)
        assert killed.poll() is None, "the run ended before any game was stored; give it more games"
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            killed.kill()
    kept = stored_games(store)
    assert 0 < kept < total  # stored as they finished, not when the look ended
    assert not (tmp_path / "killed").exists()

    again = finished(meta(tmp_path, "again", store))
    assert again["settings"]["from_store"] == kept
    assert again["settings"]["played"] == total - kept
    assert stored_games(store) == total
    for name in ("cells.csv", "games.csv"):
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "reference" / name).read_bytes(), name
    assert results(tmp_path / "again") == results(tmp_path / "reference")


# --- a game that raises stops the run ----------------------------------------------------------------------


def _raises_from(first_bad: int, index: int) -> int:
    if index >= first_bad:
        raise KeyError("no-such-figure")
    return index * index


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_pool_stops_at_the_first_game_that_raises(jobs):
    lines: list[str] = []
    outcome = run_items(
        partial(_raises_from, 10),
        range(200),
        jobs,
        4,
        describe=lambda i: f"game {i}",
        report=lines.append,
        stop_on_raise=True,
    )
    assert outcome.stopped and outcome.crashed and not outcome.interrupted
    crashed = [line for line in lines if "crashed" in line]
    assert len(crashed) == 1  # not one line per game: the batches under way finish without naming theirs
    # one worker meets game 10 first; with two, the batch after it may finish first and name its own game
    first = int(crashed[0].split(":")[0].removeprefix("game "))
    assert crashed[0] == f"game {first}: crashed: KeyError: 'no-such-figure'" and first >= 10
    assert first == 10 or jobs > 1
    assert sorted(outcome.results) == list(range(10))  # every game before it finished and is kept


def test_without_stop_on_raise_the_pool_goes_on():
    outcome = run_items(
        partial(_raises_from, 10), range(20), 1, 4, describe=str, report=lambda line: None, stop_on_raise=False
    )
    assert not outcome.stopped and sorted(outcome.failed) == list(range(10, 20))


def _crashing_rows(real, first_bad: int):
    def game_rows(state, matchup, master_seed, index, swapped):
        if index >= first_bad:
            raise KeyError("no-such-power")
        return real(state, matchup, master_seed, index, swapped)

    return game_rows


def test_run_matchup_stops_at_the_first_crash_keeping_the_games_before(monkeypatch):
    monkeypatch.setattr(runner, "game_rows", _crashing_rows(runner.game_rows, 6))
    lines: list[str] = []
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=2)
    result = run_matchup(matchup, 40, 0, jobs=1, batch_size=4, report=lines.append)
    assert result.stopped and result.crashed
    assert lines == ["game 6 (seed path 3): crashed: KeyError: 'no-such-power'"]
    assert sorted(result.indexes) == list(range(6))
    assert [row["game"] for row in result.games] == list(range(6))
    assert result.failed == [{"game": 6, "seed_path": "3", "reason": "crashed: KeyError: 'no-such-power'"}]


def test_meta_stops_at_the_first_crash_with_exit_1(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "game_rows", _crashing_rows(runner.game_rows, 10))
    code, out, err = run_main(
        [*META, "--games", "40", "--store", str(tmp_path / "s.duckdb"), "--out", str(tmp_path / "out")], capsys
    )
    assert code == 1, err
    assert "Traceback" not in err
    crashes = re.findall(r"^game 10 of .* \(seed path 5\): crashed: KeyError: 'no-such-power'$", err, flags=re.M)
    assert len(crashes) == 1 and err.count("crashed:") == 1
    assert "stopped at the first game that crashed" in err
    settings = json.loads(out)["settings"]
    assert settings["stopped_at_crash"] and settings["games"] == settings["played"] > 0
    assert stored_games(tmp_path / "s.duckdb") == settings["played"]  # the games before it are kept


def test_play_cells_stops_at_the_first_crash(monkeypatch):
    monkeypatch.setattr(runner, "game_rows", _crashing_rows(runner.game_rows, 4))
    roster = roster_at(ROSTERS)
    lines: list[str] = []
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=2)
    played = play_cells(roster, [Cell(matchup, 0, 20)], 0, 1, report=lines.append)
    assert played.stopped and played.crashed
    assert [row["game"] for row in played.games[0]] == [0, 1, 2, 3]
    assert len(played.failed) == 1 and played.failed[0]["game"] == 4 and played.failed[0]["seed_path"] == "2"
    assert len(lines) == 1


def test_play_field_stores_each_game_as_it_finishes():
    """`on_game` hears of every game as its batch comes back, before the look ends."""
    matchups = field_cells((ROSTERS,), ["butcher-shop", "firing-line"], ["graveyard"], ["tuned"], turns=2)
    heard: list[tuple[int, int]] = []
    batches: list[int] = []
    run = play_field(
        matchups,
        12,
        local_runner(0, 1),
        on_game=lambda c, index, rows: heard.append((c, index)),
        on_batch=lambda: batches.append(len(heard)),
    )
    assert sorted(heard) == [(0, i) for i in range(12)]
    assert len(batches) > 1 and batches[-1] == 12  # told batch by batch, not once at the look's end
    assert len(field_games(matchups, run)) == 12
    assert isinstance(field_games(matchups, run), pd.DataFrame)
