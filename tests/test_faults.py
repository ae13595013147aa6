"""Faults during a run: a worker killed, the parent killed or stopped, two runs into one folder, a second
Ctrl-C or a full disk while writing. Nothing finished is lost, no process is left behind, and --out holds
either the old complete outputs or the new complete ones.

The processes are found through /proc (Linux): a run's workers are the children of its process running
loky's worker module, and every process of a run carries a unique CLIX_TEST_MARKER in its environment.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from clix.analyzer import cli
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.pool import DIED, MARKER_PREFIX, run_items
from clix.analyzer.play.runner import Matchup, play_one
from clix.analyzer.play.store import DEFAULT_STORE, Store
from clix.analyzer.report.folder import OWN_FILES, Interrupted, claim_output
from helpers import stored_games, until

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc (Linux)")

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
DUEL = ["duel", "butcher-shop", "firing-line", "--turns", "4", "--json", "--rosters", str(ROSTERS)]
MATCHUP = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=4)


# --- finding a run's processes ------------------------------------------------------------------------


def _proc(pid: str, name: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/{name}").read_bytes()
    except OSError:
        return b""


def marked(marker: str) -> list[int]:
    """Every live process carrying the marker in its environment (zombies have none)."""
    needle = f"CLIX_TEST_MARKER={marker}".encode()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and needle in _proc(p, "environ").split(b"\0")]


def workers(parent: int) -> list[int]:
    """The loky workers of process `parent`."""
    found = []
    for p in os.listdir("/proc"):
        stat = _proc(p, "stat")
        child = p.isdigit() and stat and int(stat.rsplit(b")", 1)[1].split()[1]) == parent
        if child and b"popen_loky" in _proc(p, "cmdline"):
            found.append(int(p))
    return found


def playing(parent: int) -> dict[int, int]:
    """Worker pid -> the game it is playing, from the notes the pool's workers keep (analyzer.play.pool)."""
    found = {}
    for note in Path(tempfile.gettempdir()).glob(f"{MARKER_PREFIX}{parent}-*/*/*"):
        with contextlib.suppress(OSError, ValueError):
            found[int(note.name)] = int(note.read_text().strip())
    return found


def start(args: list[str], cwd: Path, marker: str, err: Path) -> subprocess.Popen:
    env = {**os.environ, "CLIX_TEST_MARKER": marker}
    return subprocess.Popen(
        [sys.executable, "-m", "clix.analyzer.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=err.open("w"),
        text=True,
        preexec_fn=_interruptible,
    )


def _interruptible() -> None:
    """In the child: take SIGINT as Ctrl-C even when the suite runs in the background (where a shell starts it
    with SIGINT ignored, and Python keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def none_left(marker: str, within: float = 60.0) -> list[int]:
    """The run's processes still alive `within` seconds from now (an empty list as soon as there are none: the
    wait is long so that a loaded machine, slow to reap them, does not fail the test)."""
    deadline = time.monotonic() + within
    while (left := marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def beside(folder: Path) -> list[str]:
    """What is in `folder` (the parent of a run's --out, where the run starts), the project's result store aside:
    a duel keeps its games in ./clix-out/clix.duckdb on purpose (and DuckDB's .wal file beside it lasts only while
    a write is under way, or after a kill)."""
    return sorted(p.name for p in folder.iterdir() if p.name != DEFAULT_STORE.parent.name)


def complete(out: Path) -> dict:
    """Check that `out` holds every output of a duel; return its summary."""
    for name in ("games.csv", "games.parquet", "figures.csv", "figures.parquet", "summary.json", "report.html"):
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert len(pd.read_parquet(out / "games.parquet")) == summary["outcome"]["games"]
    return summary


# --- (a) a worker killed --------------------------------------------------------------------------------


def test_a_killed_worker_costs_nothing(tmp_path):
    """kill -9 of a worker in the middle of a game: its games are played again, the run is complete and its
    rows are those of an uninterrupted run. On disk: the complete outputs, nothing else."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    run = start([*DUEL, "--games", "200", "--jobs", "2", "--out", str(out)], tmp_path, marker, err)
    victim, _ = until(lambda: next(iter(playing(run.pid).items()), None))
    os.kill(victim, signal.SIGKILL)
    game = playing(run.pid)[victim]  # its last note: the game it was playing when it died
    stdout, _ = run.communicate(timeout=300)
    stderr = err.read_text()
    assert run.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert f"game {game} (seed path {game // 2})" in stderr and "a worker died while playing" in stderr, stderr
    assert json.loads(stdout)["outcome"]["games"] == 200
    assert complete(out)["settings"]["failed_games"] == []
    assert beside(tmp_path) == ["out", "stderr"]
    assert [(r.played, r.games) for r in Store.existing(tmp_path / DEFAULT_STORE).runs()] == [(200, 200)]
    rows = pd.read_csv(out / "games.csv")
    for index in map(int, re.findall(r"game (\d+) \(seed path", stderr)):  # the games played again
        row, _ = play_one(MATCHUP, 0, index)
        assert rows.loc[index, "vp_a"] == row["vp_a"] and rows.loc[index, "winner"] == row["winner"]
    assert none_left(marker) == []


def test_stop_on_error_keeps_every_finished_game(tmp_path):
    """With --stop-on-error a dead worker stops the run: the games in progress are named, the finished ones
    reported and written (exit 1). On disk: the complete outputs of the games finished."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    run = start([*DUEL, "--games", "2000", "--jobs", "2", "--out", str(out), "--stop-on-error"], tmp_path, marker, err)
    # batches of 64 games (the largest): a worker on game 128 or later has finished a batch
    victim = until(lambda: next((w for w, g in playing(run.pid).items() if g >= 128), None))
    os.kill(victim, signal.SIGKILL)
    game = playing(run.pid)[victim]
    run.communicate(timeout=300)
    stderr = err.read_text()
    assert "Traceback" not in stderr
    assert run.returncode == 1, stderr
    died = re.findall(r"^game (\d+) \(seed path [\d:]+\): worker died$", stderr, flags=re.M)
    assert str(game) in died
    summary = complete(out)
    assert summary["settings"]["stopped_on_error"] is True
    assert {f["game"] for f in summary["settings"]["failed_games"]} == set(map(int, died))
    assert 64 <= summary["outcome"]["games"] < 2000
    assert "stopped at the first failed game (--stop-on-error)" in stderr
    assert none_left(marker) == []


def _dies_on(bad: frozenset[int], index: int) -> int:
    """A game that kills its own worker (as a crash in C or the OOM killer would) when `index` is in `bad`."""
    if index in bad:
        os.kill(os.getpid(), signal.SIGKILL)
    return index * index


def _raises_on(bad: frozenset[int], index: int) -> int:
    if index in bad:
        raise RuntimeError("no end after 100000 decisions")
    return index * index


def test_a_game_whose_worker_always_dies_fails_alone():
    lines: list[str] = []
    outcome = run_items(
        partial(_dies_on, frozenset({7})), range(30), 2, 4, describe=lambda i: f"game {i}", report=lines.append
    )
    assert outcome.failed == {7: DIED}
    assert outcome.results == {i: i * i for i in range(30) if i != 7}
    assert not outcome.interrupted and not outcome.stopped
    assert "game 7: worker died" in lines
    assert any(line.startswith("note: a worker died while playing") and "game 7" in line for line in lines)


def test_a_game_that_raises_fails_alone_in_the_pool_and_in_process():
    for jobs in (1, 2):
        lines: list[str] = []
        outcome = run_items(
            partial(_raises_on, frozenset({3})), range(10), jobs, 4, describe=lambda i: f"game {i}", report=lines.append
        )
        assert outcome.failed == {3: "crashed: RuntimeError: no end after 100000 decisions"}
        assert lines == ["game 3: crashed: RuntimeError: no end after 100000 decisions"]
        assert sorted(outcome.results) == [i for i in range(10) if i != 3]


def test_stop_on_error_in_the_pool_keeps_what_finished():
    lines: list[str] = []
    outcome = run_items(
        partial(_dies_on, frozenset({9})),
        range(40),
        2,
        2,
        describe=lambda i: f"game {i}",
        report=lines.append,
        stop_on_error=True,
    )
    assert outcome.stopped and 9 in outcome.failed
    assert f"game 9: {DIED}" in lines
    assert all(outcome.results[i] == i * i for i in outcome.results) and 9 not in outcome.results


# --- (b) the parent stopped or killed --------------------------------------------------------------------


def test_sigterm_stops_the_run_like_ctrl_c(tmp_path):
    """SIGTERM: the workers end, the games finished are reported and written (exit 130). On disk: the
    complete outputs of the games finished, with interrupted true; no process of the run after 5 s."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    run = start([*DUEL, "--games", "4000", "--jobs", "2", "--out", str(out)], tmp_path, marker, err)
    until(lambda: playing(run.pid))
    time.sleep(2.0)
    run.send_signal(signal.SIGTERM)
    stdout, _ = run.communicate(timeout=60)
    stderr = err.read_text()
    assert "Traceback" not in stderr
    assert none_left(marker) == []
    if Interrupted.LINE in stderr:  # nothing finished yet on a very slow machine: exit 130, nothing written
        assert run.returncode == 130 and not out.exists()
        return
    assert run.returncode == 130, stderr
    summary = complete(out)
    assert summary["settings"]["interrupted"] is True and 0 < summary["outcome"]["games"] < 4000
    assert json.loads(stdout)["outcome"]["games"] == summary["outcome"]["games"]
    assert beside(tmp_path) == ["out", "stderr"]
    kept = Store.existing(tmp_path / DEFAULT_STORE)
    with kept.connect() as connection:  # every game finished is in the store, for the next run to take
        assert connection.execute("SELECT count(*) FROM games").fetchone()[0] == summary["outcome"]["games"]


def test_a_killed_parent_leaves_no_worker(tmp_path):
    """SIGKILL of the run: its workers notice within a second and exit. On disk: no --out folder (nothing was
    written), only the hidden lock file beside it, which the next run into the folder takes over."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    run = start([*DUEL, "--games", "4000", "--jobs", "2", "--out", str(out)], tmp_path, marker, err)
    until(lambda: len(workers(run.pid)) == 2 and playing(run.pid))
    assert len(marked(marker)) >= 3  # the run, its two workers (and loky's resource tracker)
    run.kill()
    run.wait(timeout=30)
    assert none_left(marker) == []
    assert beside(tmp_path) == [".out.clix-lock", "stderr"]
    again = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *DUEL, "--games", "2", "--jobs", "1", "--out", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    complete(out)
    assert beside(tmp_path) == ["out", "stderr"]


# --- (c) two runs into one folder -----------------------------------------------------------------------


def test_a_second_run_into_the_same_folder_is_refused(tmp_path):
    """While a run holds --out, a second one exits 2 with one line naming the folder and the first run's pid.
    The first run (stopped by SIGTERM to keep the test short) writes its complete outputs."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    first = start([*DUEL, "--games", "4000", "--jobs", "1", "--out", str(out)], tmp_path, marker, err)
    until(lambda: (tmp_path / ".out.clix-lock").exists())
    second = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *DUEL, "--games", "2", "--out", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert first.poll() is None  # still playing: the refusal came from its lock
    assert second.returncode == 2
    assert second.stderr.strip().splitlines() == [
        f"clix: error: --out {out}: another clix run (pid {first.pid}) is writing to this folder; wait for it to "
        "end or choose another --out"
    ]
    # a game finished first: stopped before any, a run has nothing to write (exit 130 and no folder, as it should)
    until(lambda: stored_games(tmp_path / DEFAULT_STORE) > 0 or first.poll() is not None, timeout=120)
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=60)
    assert first.returncode in (130, 2), err.read_text()
    if first.returncode == 130:
        complete(out)
    assert beside(tmp_path) == (["out", "stderr"] if first.returncode == 130 else ["stderr"])
    assert none_left(marker) == []


# --- (d) interrupted or failed while writing ---------------------------------------------------------------


def _old_outputs(out: Path) -> dict[str, str]:
    out.mkdir()
    files = {name: f"old {name}" for name in ("games.csv", "summary.json", "report.html")}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return files


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}


def test_a_second_ctrl_c_while_writing_leaves_the_old_outputs(tmp_path):
    """KeyboardInterrupt in the middle of the writing. On disk: the old folder exactly as it was; no staging
    folder, no lock file."""
    out = tmp_path / "out"
    old = _old_outputs(out)
    with pytest.raises(KeyboardInterrupt), claim_output(out) as folder, folder.staged() as staging:
        (staging / "games.csv").write_text("new", encoding="utf-8")
        raise KeyboardInterrupt
    assert _contents(out) == old
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_two_ctrl_c_leave_the_old_outputs_or_complete_new_ones(tmp_path):
    """A real run given SIGINT twice (the second half a second after the first, while it summarizes or
    writes): whatever the timing, --out holds either the old outputs, untouched, or complete new ones, and
    nothing else is left beside it."""
    marker, out, err = uuid.uuid4().hex, tmp_path / "out", tmp_path / "stderr"
    old = subprocess.run(
        [
            sys.executable,
            "-m",
            "clix.analyzer.cli",
            *DUEL,
            "--games",
            "4",
            "--jobs",
            "1",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert old.returncode == 0, old.stderr
    before = (out / "games.csv").read_bytes()
    run = start([*DUEL, "--games", "4000", "--jobs", "2", "--out", str(out), "--force"], tmp_path, marker, err)
    until(lambda: playing(run.pid))
    time.sleep(1.5)
    run.send_signal(signal.SIGINT)
    time.sleep(0.5)
    run.send_signal(signal.SIGINT)
    run.communicate(timeout=60)
    stderr = err.read_text()
    assert run.returncode in (130, -signal.SIGINT), stderr  # -SIGINT: the second came as Python was exiting
    assert "Traceback" not in stderr
    summary = complete(out)
    if (out / "games.csv").read_bytes() == before:
        assert summary["outcome"]["games"] == 4
    else:
        assert summary["settings"]["interrupted"] is True and summary["outcome"]["games"] > 4
    assert beside(tmp_path) == ["out", "stderr"]
    assert none_left(marker) == []


def test_the_new_outputs_replace_the_old_as_a_whole(tmp_path):
    out = tmp_path / "out"
    _old_outputs(out)
    with claim_output(out) as folder:
        with folder.staged() as staging:
            (staging / "games.csv").write_text("new", encoding="utf-8")
        assert folder.final(staging / "games.csv") == out / "games.csv"
    assert _contents(out) == {"games.csv": "new"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_signal_during_the_renames_is_held_until_they_are_done(tmp_path, monkeypatch):
    """Ctrl-C arriving between the two renames: the new outputs are put in place first, then it is raised."""
    out = tmp_path / "out"
    _old_outputs(out)
    rename = Path.rename

    def interrupted_rename(self: Path, target: Path) -> Path:
        os.kill(os.getpid(), signal.SIGINT)
        return rename(self, target)

    with pytest.raises(KeyboardInterrupt), claim_output(out) as folder, folder.staged() as staging:
        (staging / "games.csv").write_text("new", encoding="utf-8")
        monkeypatch.setattr(Path, "rename", interrupted_rename)
    monkeypatch.undo()
    assert _contents(out) == {"games.csv": "new"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_full_disk_names_the_file_and_keeps_the_old_outputs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # its games go to the project's store, tmp_path/clix-out/clix.duckdb
    out = tmp_path / "out"
    old = _old_outputs(out)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)  # what every Parquet file is written with
    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(sys, "argv", ["clix", *DUEL, "--games", "2", "--jobs", "1", "--out", str(out), "--force"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    signal.signal(signal.SIGTERM, before)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip() == f"clix: error: {out / 'games.parquet'}: No space left on device"
    assert _contents(out) == old
    assert beside(tmp_path) == ["out"]


def test_leftovers_of_a_killed_write_are_cleaned_and_an_old_folder_restored(tmp_path):
    out = tmp_path / "out"
    (tmp_path / ".out.clix-old-99999").mkdir()  # killed between its two renames
    (tmp_path / ".out.clix-old-99999" / "games.csv").write_text("old", encoding="utf-8")
    (tmp_path / ".out.clix-new-99999").mkdir()
    with claim_output(out):
        assert _contents(out) == {"games.csv": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_folder_with_other_files_is_not_replaced(tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep", encoding="utf-8")
    (out / "games.csv").write_text("old", encoding="utf-8")
    with pytest.raises(ClixError, match=r"holds files clix did not write \(mine\.txt\)"):
        claim_output(out)
    assert _contents(out) == {"mine.txt": "keep", "games.csv": "old"}
    assert beside(tmp_path) == ["notes"]
    assert "games.csv" in OWN_FILES


def test_a_ctrl_c_caught_in_a_callback_is_delivered_again(monkeypatch, capsys):
    """A second Ctrl-C that lands in a weak reference's callback is not printed as an ignored traceback: it is
    sent again, to stop the run where it is (the two-Ctrl-C test above hits this now and then)."""
    from types import SimpleNamespace

    from clix.analyzer import cli

    sent = []
    monkeypatch.setattr(cli.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    cli._interrupt_in_a_callback(SimpleNamespace(exc_value=KeyboardInterrupt()))
    until(lambda: sent)
    assert sent == [(os.getpid(), signal.SIGINT)]
    assert "Traceback" not in capsys.readouterr().err
