"""The result store (analyzer.play.store): a run reads the games it already has and plays only the others, an
interrupted run resumes to the very tables of an uninterrupted one, anything that decides a game changes the
key, runs get their own folders, and `clix results` lists, shows and exports the runs.

Small duels run in this process (`run_main`, as in test_cli_arguments: 3 turns, 1 job); the interrupted run
is a real process given SIGINT (as in test_faults).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import asdict, replace
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from clix.analyzer.common.text import unwrapped
from clix.analyzer.library.load import load_checked
from clix.analyzer.play import rowtable, store
from clix.analyzer.play import writer as store_writer
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.result import RunResult
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.play.store import GameKey, Store, game_key, index_ranges
from clix.analyzer.play.writer import GameWriter
from clix.engine.horrorclix.players import heuristic
from helpers import run_main
from test_faults import none_left, playing, start, until

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
DUEL = ["duel", "butcher-shop", "firing-line", "--turns", "3", "--jobs", "1"]


def duel(capsys: pytest.CaptureFixture[str], *args: str, rosters: Path = ROSTERS) -> dict:
    """A small duel (JSON output) that must succeed; returns its JSON."""
    code, out, err = run_main([*DUEL, *args, "--json", "--rosters", str(rosters)], capsys)
    assert code == 0, err
    return json.loads(out)


def counts(result: dict) -> tuple[int, int]:
    """(games from the store, games played) of a duel's JSON."""
    return result["settings"]["from_store"], result["settings"]["played"]


def run_folder(store_path: Path, run: int) -> Path:
    return Path(next(r.out for r in Store.existing(store_path).runs() if r.id == run))


def statistics(text: str) -> list[str]:
    """A duel's text summary without what differs between two runs of it: the speed, the store's line (run id,
    counts) and the report's folder."""
    lines = [line for line in unwrapped(text) if line.strip()]
    return [
        line.split(" (")[0] if i == 0 else line
        for i, line in enumerate(lines)
        if not line.startswith(("  store:", "report:"))
    ]


# --- (a) an interrupted run resumes to the tables of an uninterrupted one --------------------------------------


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc (Linux)")
def test_an_interrupted_run_resumes_to_the_same_tables(tmp_path):
    """SIGINT partway through a real 400-game run on two workers: the games finished are in the store; the same
    command again plays only the others, and its games.csv and figures.csv are byte for byte those of a run
    never interrupted (made in another store)."""
    command = ["duel", "butcher-shop", "firing-line", "--games", "400", "--jobs", "2", "--turns", "6", "--json"]
    command += ["--rosters", str(ROSTERS)]
    marker, err = uuid.uuid4().hex, tmp_path / "stderr"
    first = start(command, tmp_path, marker, err)
    # batches of 25 games, at most 3 in flight: a worker on game 100 or later means 50 games or more finished
    until(lambda: any(game >= 100 for game in playing(first.pid).values()))
    first.send_signal(signal.SIGINT)
    stdout, _ = first.communicate(timeout=120)
    assert first.returncode == 130, err.read_text()
    assert "Traceback" not in err.read_text()
    interrupted = json.loads(stdout)
    finished = interrupted["outcome"]["games"]
    assert 50 <= finished < 400 and counts(interrupted) == (0, finished)
    assert "the same command plays only the rest" in err.read_text()
    assert none_left(marker) == []

    again = subprocess.run(
        [sys.executable, "-m", "clix", *command], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert counts(resumed) == (finished, 400 - finished)
    assert resumed["outcome"]["games"] == 400

    reference_dir = tmp_path / "reference"
    reference_dir.mkdir()
    reference = subprocess.run(
        [sys.executable, "-m", "clix", *command, "--store", "other.duckdb", "--out", "ref"],
        cwd=reference_dir,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert reference.returncode == 0, reference.stderr
    assert counts(json.loads(reference.stdout)) == (0, 400)

    kept = tmp_path / "clix-out" / "clix.duckdb"
    runs = Store.existing(kept).runs()
    assert [(r.games, r.from_store, r.played, r.interrupted) for r in runs] == [
        (finished, 0, finished, True),
        (400, finished, 400 - finished, False),
    ]
    folder = Path(runs[1].out)
    assert folder.parent == (tmp_path / "clix-out" / "butcher-shop-vs-firing-line").resolve()
    for table in ("games.csv", "figures.csv"):
        assert (folder / table).read_bytes() == (reference_dir / "ref" / table).read_bytes(), table
    interrupted_rows = pd.read_csv(Path(runs[0].out) / "games.csv")
    assert len(interrupted_rows) == finished and list(interrupted_rows["game"]) == runs[0].game_indexes()


# --- (b) the same duel twice -----------------------------------------------------------------------------------


def test_the_same_duel_twice_plays_nothing_the_second_time(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = [*DUEL, "--games", "12", "--rosters", str(ROSTERS)]
    code, first, err = run_main(args, capsys)
    assert code == 0, err
    code, second, err = run_main(args, capsys)
    assert code == 0, err
    assert "store: run 1 in clix-out/clix.duckdb; 0 games from the store, 12 played" in first
    assert "store: run 2 in clix-out/clix.duckdb; 12 games from the store, 0 played" in second
    heading = next(line for line in unwrapped(second) if line.strip())
    assert (
        heading.startswith("butcher-shop vs firing-line on graveyard: 12 games")
        and "(no game played, engine" in heading
    )
    assert statistics(second) == statistics(first)
    folders = sorted((tmp_path / "clix-out" / "butcher-shop-vs-firing-line").iterdir())
    assert [f.name[:4] for f in folders] == ["run-", "run-"] and folders[0] != folders[1]
    assert (folders[0] / "games.csv").read_bytes() == (folders[1] / "games.csv").read_bytes()
    assert (folders[0] / "games.parquet").read_bytes() != b""
    assert pd.read_parquet(folders[0] / "games.parquet").equals(pd.read_parquet(folders[1] / "games.parquet"))


def test_a_longer_run_and_target_ci_take_the_stored_games(tmp_path, capsys):
    kept = tmp_path / "s.duckdb"
    assert counts(duel(capsys, "--games", "40", "--store", str(kept), "--out", str(tmp_path / "a"))) == (0, 40)
    assert counts(duel(capsys, "--games", "50", "--store", str(kept), "--out", str(tmp_path / "b"))) == (40, 10)
    assert counts(duel(capsys, "--games", "20", "--store", str(kept), "--out", str(tmp_path / "c"))) == (20, 0)
    # --target-ci: the first look (100 games) finds 50 of them stored; the second run finds all its looks stored
    target = ["--games", "104", "--target-ci", "0.01", "--store", str(kept)]
    looked = duel(capsys, *target, "--out", str(tmp_path / "d"))
    assert counts(looked) == (50, 54) and looked["precision"]["games"] == 104
    again = duel(capsys, *target, "--out", str(tmp_path / "e"))
    assert counts(again) == (104, 0) and again["precision"] == looked["precision"]
    assert (tmp_path / "d" / "games.csv").read_bytes() == (tmp_path / "e" / "games.csv").read_bytes()


# --- (c) whatever decides a game changes the key ------------------------------------------------------------


def test_a_changed_setting_misses_the_store(tmp_path, capsys):
    kept = ["--store", str(tmp_path / "s.duckdb")]
    out = iter(tmp_path / f"out{i}" for i in range(20))
    base = ["--games", "4", *kept]
    assert counts(duel(capsys, *base, "--out", str(next(out)))) == (0, 4)
    for change in (["--seed", "1"], ["--turns", "4"], ["--players", "tuned,rusher"], ["--ties", "draw"]):
        assert counts(duel(capsys, *base, *change, "--out", str(next(out)))) == (0, 4), change
    assert counts(duel(capsys, *base, "--seed", "1", "--out", str(next(out)))) == (4, 0)
    assert counts(duel(capsys, *base, "--map", "mansion", "--out", str(next(out)))) == (0, 4)
    # the same data in another folder finds the games (the key holds data, not paths); an edited army does not
    same, edited = tmp_path / "same", tmp_path / "edited"
    shutil.copytree(ROSTERS, same)
    shutil.copytree(ROSTERS, edited)
    army = edited / "armies" / "firing-line.yaml"
    text = army.read_text(encoding="utf-8")
    assert text.count("victims: [Cop, Reporter,") == 1
    army.write_text(text.replace("victims: [Cop, Reporter,", "victims: [Reporter, Cop,"), encoding="utf-8")
    assert load_checked(edited).armies["firing-line"] != load_checked(same).armies["firing-line"]
    assert counts(duel(capsys, *base, "--out", str(next(out)), rosters=same)) == (4, 0)
    assert counts(duel(capsys, *base, "--out", str(next(out)), rosters=edited)) == (0, 4)


def test_the_key_holds_the_weights_the_engine_and_the_data(monkeypatch):
    roster = load_checked(ROSTERS)
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", "tuned", "rusher", 15, "break")
    key = game_key(roster, matchup, 0)
    assert key == game_key(roster, replace(matchup, library=Path("elsewhere")), 0)
    assert key.digest != game_key(roster, matchup, 1).digest
    assert key.digest != game_key(roster, replace(matchup, army_b="haunting"), 0).digest
    assert key.fields["players"][1] == {"style": "rusher", "weights": asdict(heuristic.STYLES["rusher"])}
    assert key.fields["players"][0]["weights"]["kills"] == heuristic.STYLES["tuned"].kills
    changed = {**heuristic.STYLES, "rusher": replace(heuristic.STYLES["rusher"], kills=0.123)}
    monkeypatch.setattr("clix.engine.horrorclix.matchups.STYLES", changed)  # the styles the kit plays
    assert game_key(roster, matchup, 0).digest != key.digest  # same name, other weights: other games
    monkeypatch.undo()
    monkeypatch.setattr("clix.engine.compiled.source_fingerprint", lambda: "an edited engine")
    assert game_key(roster, matchup, 0).digest != key.digest
    monkeypatch.undo()
    figure = next(iter(roster.armies["firing-line"].figures)).figure
    edited = replace(roster)
    edited.figures = {**roster.figures, figure: roster.figures[figure].model_copy(update={"points": 1})}
    assert game_key(edited, matchup, 0).digest != key.digest
    unused = next(f for f in roster.figures if f not in {e.figure for a in roster.armies.values() for e in a.figures})
    edited.figures = {**roster.figures, unused: roster.figures[unused].model_copy(update={"points": 1})}
    assert game_key(edited, matchup, 0).digest == key.digest  # a figure neither army fields does not matter


# --- (d) clix results --------------------------------------------------------------------------------------


def test_results_list_show_and_export(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, first, err = run_main([*DUEL, "--games", "6", "--seed", "3", "--rosters", str(ROSTERS)], capsys)
    assert code == 0, err
    code, _, err = run_main([*DUEL, "--games", "8", "--players", "rusher,hunter", "--rosters", str(ROSTERS)], capsys)
    assert code == 0, err
    code, listing, err = run_main(["results", "list"], capsys)
    assert code == 0, err
    lines = listing.splitlines()
    assert max(len(line) for line in lines) <= 80
    body = [line.split() for line in lines if line[:3].strip().isdigit()]
    assert [row[0] for row in body] == ["1", "2"]
    assert [row[-2] for row in body] == ["6", "8"]
    stored = Store.existing(tmp_path / "clix-out" / "clix.duckdb").runs()
    assert [row[-1] for row in body] == [f"{100 * r.score:.1f}%" for r in stored]
    assert "rusher," in listing and "hunter" in listing and "2 runs in clix-out/clix.duckdb" in listing

    code, shown, err = run_main(["results", "show", "1"], capsys)
    assert code == 0, err
    assert shown.splitlines()[0].startswith("run 1, started ") and "--seed 3" in shown.splitlines()[0]
    assert statistics("\n".join(shown.splitlines()[1:])) == statistics(first)
    folder = run_folder(tmp_path / "clix-out" / "clix.duckdb", 1)
    assert f"report: {folder.relative_to(tmp_path.resolve()) / 'report.html'}" in shown

    for name, extra in (("g.csv", []), ("f.csv", ["--figures"]), ("g.parquet", []), ("g.data", ["--format", "csv"])):
        code, said, err = run_main(["results", "export", "1", "--out", name, *extra], capsys)
        assert code == 0, err
        assert said.strip().startswith("wrote 6 game rows" if not extra else "wrote")
    assert (tmp_path / "g.csv").read_bytes() == (folder / "games.csv").read_bytes()
    assert (tmp_path / "g.data").read_bytes() == (folder / "games.csv").read_bytes()
    assert (tmp_path / "f.csv").read_bytes() == (folder / "figures.csv").read_bytes()
    assert pd.read_parquet(tmp_path / "g.parquet").equals(pd.read_parquet(folder / "games.parquet"))
    code, said, err = run_main(["results", "export", "last", "--out", "last.csv"], capsys)
    assert code == 0 and said.strip() == "wrote 8 game rows to last.csv", err

    for args, says in (
        (["results", "show", "12"], "no run named '12'; did you mean '"),
        (["results", "show", "99"], "no run named '99'; `clix results list` shows every run"),
        (["results", "export", "1", "--out", "x.txt"], "choose --format csv or parquet"),
        (["results", "list", "--store", "none.duckdb"], "--store none.duckdb: no result store there"),
    ):
        code, _, err = run_main(args, capsys)
        assert code == 2 and err.count("\n") == 1 and says in err, (args, err)


def test_an_unusable_store_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.duckdb").write_text("not a database", encoding="utf-8")
    code, _, err = run_main([*DUEL, "--games", "2", "--store", "bad.duckdb", "--rosters", str(ROSTERS)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--store bad.duckdb: cannot open the result store (not a DuckDB database); move the file away" in err
    assert not (tmp_path / "clix-out").exists() or not any((tmp_path / "clix-out").rglob("*.csv"))
    foreign = duckdb.connect(str(tmp_path / "theirs.duckdb"))
    foreign.execute("CREATE TABLE mine (x INTEGER)")
    foreign.close()
    code, _, err = run_main(["results", "list", "--store", "theirs.duckdb"], capsys)
    assert code == 2 and "a DuckDB database that clix did not make" in err
    # held by another process: wait a little, then name its pid
    Store.open(tmp_path / "busy.duckdb")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect('busy.duckdb'); print('ok', flush=True); sys.stdin.read()",
        ],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ok"
        monkeypatch.setattr(store, "LOCK_WAIT", 0.2)
        code, _, err = run_main(["results", "list", "--store", "busy.duckdb"], capsys)
    finally:
        holder.communicate("", timeout=30)
    assert code == 2 and err.count("\n") == 1
    assert f"the result store is in use by another process (pid {holder.pid})" in err


# --- (e) run folders: never overwritten without --force -----------------------------------------------------------


def test_out_holding_a_run_is_refused_without_force(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    duel(capsys, "--games", "4", "--out", str(out))
    assert (tmp_path / "clix-out" / "clix.duckdb").is_file() and not (tmp_path / "clix.duckdb").exists()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = run_main(
        [*DUEL, "--games", "4", "--seed", "9", "--out", str(out), "--rosters", str(ROSTERS)], capsys
    )
    assert code == 2 and err.count("\n") == 1
    assert f"--out {out}: holds an earlier run (" in err and "pass --force to replace it" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    forced = duel(capsys, "--games", "4", "--seed", "9", "--out", str(out), "--force")
    assert forced["settings"]["seed"] == 9
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["settings"]["seed"] == 9
    assert sorted(p.name for p in out.iterdir()) == sorted(before)
    # an empty folder holds no earlier run
    (tmp_path / "empty").mkdir()
    assert counts(duel(capsys, "--games", "2", "--out", str(tmp_path / "empty"))) == (2, 0)


def test_default_out_is_a_new_run_folder_each_time(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(3):
        code, _, err = run_main([*DUEL, "--games", "2", "--rosters", str(ROSTERS), "--json"], capsys)
        assert code == 0, err
    runs = tmp_path / "clix-out" / "butcher-shop-vs-firing-line"
    names = [p.name for p in runs.iterdir()]
    assert len(names) == 3 and all(n.startswith("run-") for n in names)
    recorded = [Path(r.out).name for r in Store.existing(tmp_path / "clix-out" / "clix.duckdb").runs()]
    assert recorded == sorted(names)  # the names sort in the order the runs started
    # a store that cannot be used: the run folder made for the run is removed again
    (tmp_path / "bad.duckdb").write_text("no", encoding="utf-8")
    code, _, _ = run_main([*DUEL, "--games", "2", "--store", "bad.duckdb", "--rosters", str(ROSTERS)], capsys)
    assert code == 2 and len(list(runs.iterdir())) == 3
    code, said, err = run_main(
        ["replay", "--run", str(runs / names[0]), "--game", "1", "--rosters", str(ROSTERS)], capsys
    )
    assert code == 0, err
    assert said.splitlines()[-1].endswith("matches games.csv")


# --- (f) --fresh ---------------------------------------------------------------------------------------------


def test_fresh_plays_every_game_again(tmp_path, capsys):
    kept = ["--store", str(tmp_path / "s.duckdb")]
    first = duel(capsys, "--games", "6", *kept, "--out", str(tmp_path / "a"))
    fresh = duel(capsys, "--games", "6", *kept, "--out", str(tmp_path / "b"), "--fresh")
    assert counts(first) == (0, 6) and counts(fresh) == (0, 6) and fresh["settings"]["fresh"] is True
    assert (tmp_path / "a" / "games.csv").read_bytes() == (tmp_path / "b" / "games.csv").read_bytes()
    assert counts(duel(capsys, "--games", "6", *kept, "--out", str(tmp_path / "c"))) == (6, 0)


# --- the pieces ------------------------------------------------------------------------------------------------


def _square(index: int) -> int:
    return index * index


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_items_tells_each_result_as_it_finishes(jobs):
    told: list[tuple[int, int]] = []
    outcome = run_items(
        _square, list(range(10, 20)), jobs, 3, describe=str, report=print, on_result=lambda p, r: told.append((p, r))
    )
    assert sorted(told) == [(p, (p + 10) ** 2) for p in range(10)]
    assert outcome.results == dict(told)


def test_writer_batches_and_the_store_gives_the_rows_back_exactly(tmp_path, monkeypatch):
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=3)
    key = GameKey("k" * 64, {"test": True})
    kept = Store.open(tmp_path / "s.duckdb")
    saves: list[int] = []
    original = Store.save

    def counting(self: Store, key: GameKey, games: list) -> None:
        saves.append(len(games))
        original(self, key, games)

    monkeypatch.setattr(Store, "save", counting)
    monkeypatch.setattr(store_writer, "FLUSH_GAMES", 4)
    monkeypatch.setattr(store_writer, "FLUSH_SECONDS", 3600.0)
    writer = GameWriter(kept, key, print)
    played = run_matchup(matchup, 10, 2**70, jobs=1, on_result=writer.add)
    assert saves == [4, 4] and writer.close() and saves == [4, 4, 2]
    loaded = kept.load(key)
    assert sorted(loaded) == list(range(10))
    rows = [loaded[i][0] for i in range(10)]
    assert rows == played.games and [type(v) for v in rows[0].values()] == [type(v) for v in played.games[0].values()]
    assert rows[0]["master_seed"] == str(2**70)
    figures = [f for i in range(10) for f in loaded[i][1]]
    assert pd.DataFrame(figures).to_csv(index=False) == pd.DataFrame(played.figures).to_csv(index=False)
    resumed = run_matchup(matchup, 12, 2**70, jobs=1, known=kept.load(key, below=12))
    assert (resumed.from_store, resumed.played) == (10, 2) and resumed.games[:10] == played.games
    assert index_ranges([5, 0, 1, 2, 7, 6]) == [[0, 3], [5, 8]]


def test_stored_games_read_packed_are_the_stored_rows(tmp_path, monkeypatch):
    """A duel resumes from the packed rows (`Store.load_packed`, issue 31: a million stored games in a few hundred
    MB): the games and figure rows `load` gives, read a few at a time; a run takes those of its own range, plays
    the others and makes the tables a run from scratch makes."""
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=3)
    key = GameKey("p" * 64, {"test": True})
    kept = Store.open(tmp_path / "s.duckdb")
    monkeypatch.setattr(store, "LOAD_BATCH", 3)
    monkeypatch.setattr(rowtable, "ROW_CHUNK", 5)
    played = run_matchup(matchup, 16, 9, jobs=1)
    kept.save(
        key, [(i, rows) for i, rows in enumerate(zip(played.games, _figures_by_game(played), strict=True)) if i % 5]
    )
    loaded, packed = kept.load(key, below=14), kept.load_packed(key, below=14)
    assert sorted(packed.indexes) == sorted(loaded) and packed.from_store == packed.count == len(loaded)
    assert list(packed.games) == [loaded[i][0] for i in sorted(loaded)]
    assert list(packed.figures) == [f for i in sorted(loaded) for f in loaded[i][1]]
    resumed = run_matchup(matchup, 16, 9, jobs=1, known=packed)
    assert (resumed.from_store, resumed.played) == (11, 5)  # 1-4, 6-9 and 11-13 stored below 14
    pd.testing.assert_frame_equal(resumed.games_frame(), played.games_frame(), check_exact=True)
    pd.testing.assert_frame_equal(resumed.figures_frame(), played.figures_frame(), check_exact=True)
    later = run_matchup(matchup, 16, 9, jobs=1, first=8, known=packed)  # a later look of --target-ci
    assert sorted(list(later.indexes)[: later.from_store]) == [i for i in sorted(loaded) if i >= 8]
    assert sorted(later.indexes) == list(range(8, 16)) and later.games == played.games[8:]


def _figures_by_game(result: RunResult) -> list[list[dict]]:
    by_game: dict[int, list[dict]] = {row["game"]: [] for row in result.games}
    for row in result.figures:
        by_game[row["game"]].append(row)
    return list(by_game.values())


def test_sweep_refuses_the_store_options(tmp_path, capsys):
    code, _, err = run_main([*DUEL, "--players", "sweep", "--fresh", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and "--players sweep run does not use the result store" in err


def test_a_flush_is_not_split_by_ctrl_c(tmp_path):
    """SIGINT arriving while a batch is written: the batch is committed, then the interrupt is raised."""
    kept = Store.open(tmp_path / "s.duckdb")
    key = GameKey("k" * 64, {})
    writer = GameWriter(kept, key, print)
    original = Store.connect

    def interrupted(self: Store, check: bool = False):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return original(self, check)

    writer.add(0, ({"game": 0}, []))
    Store.connect = interrupted  # type: ignore[method-assign]
    try:
        with pytest.raises(KeyboardInterrupt):
            writer.flush()
    finally:
        Store.connect = original  # type: ignore[method-assign]
    assert kept.load(key) == {0: ({"game": 0}, [])} and writer.pending == []


def test_interrupting_a_one_job_run_keeps_its_games_in_the_store(tmp_path, monkeypatch):
    """In-process (one job): a KeyboardInterrupt after some games ends the run; the writer's last flush stores
    every game finished."""
    matchup = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=3)
    kept = Store.open(tmp_path / "s.duckdb")
    key = GameKey("k" * 64, {})
    writer = GameWriter(kept, key, print)
    seen: list[int] = []

    def add(index: int, rows: tuple) -> None:
        writer.add(index, rows)
        seen.append(index)
        if len(seen) == 5:
            raise KeyboardInterrupt

    result = run_matchup(matchup, 20, 0, jobs=1, batch_size=1, on_result=add)
    assert result.interrupted and len(result.games) == 5
    writer.close()
    assert sorted(kept.load(key)) == seen == list(range(5))


def test_every_connection_bounds_duckdbs_memory(tmp_path):
    """Left to its defaults DuckDB takes up to 80% of the machine's memory when it checkpoints a growing store, in
    the process that plays (a 400,000-game store: 600 MB more for a moment; issue 31). Every connection is bounded."""
    kept = Store.open(tmp_path / "s.duckdb")
    with kept.connect() as connection:
        limit, threads = connection.execute(
            "SELECT current_setting('memory_limit'), current_setting('threads')"
        ).fetchone()
    assert threads == 1 and limit.replace(" ", "").upper() in ("128MB", "122.0MIB", "122MIB")
