"""Every command checks its numbers, its library and its --out before the first game: a mistake is one line on
stderr and exit code 2, never a traceback, and nothing is played or written. Values at the edges that are
valid (a seed of 2**70, --jobs above the machine's cores) are accepted and survive the outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.common import checks
from clix.analyzer.common.checks import MAX_GAMES, MAX_TURNS
from clix.analyzer.duel import replay
from clix.analyzer.ladder import command as ladder
from clix.analyzer.meta import play as meta_play
from clix.analyzer.play import experiment, runner
from clix.analyzer.play.runner import Matchup, play_one, play_state
from clix.analyzer.tools import selfcheck
from clix.engine.horrorclix.game import MAX_DECISIONS
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = str(ROOT / "rosters" / "horrorclix")
DUEL = ["duel", "butcher-shop", "firing-line"]
LADDER = ["ladder", "--players", "random,tuned,rusher", "--armies", "butcher-shop", "--maps", "graveyard"]
SWEEP = [*DUEL, "--players", "sweep"]
REPLAY = ["replay", "butcher-shop", "firing-line"]
HERO_DUEL = ["duel", "dawn-patrol", "night-shift"]


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: a refused command must return before the first one."""

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    for module in (runner, ladder, selfcheck, meta_play, experiment):
        monkeypatch.setattr(module, "run_items", played)
    monkeypatch.setattr(replay, "play_state", played)


def refused(tmp: Path) -> list[tuple[str, list[str], str]]:
    """(case, arguments, what the one line must say) for every command."""
    afile = tmp / "afile"
    under_file = str(afile / "out")
    missing = str(tmp / "MISSING")
    out = ["--out", str(tmp / "out")]
    cases = []
    for name, base in (("duel", DUEL), ("sweep", SWEEP), ("ladder", LADDER)):
        cases += [
            (f"{name} games 0", [*base, "--games", "0", *out], "--games takes 2 to"),
            (f"{name} games -1", [*base, "--games", "-1", *out], "--games takes 2 to"),
            (f"{name} games 10**12", [*base, "--games", str(10**12), *out], "--games takes 2 to"),
            (f"{name} turns 0", [*base, "--turns", "0", *out], "--turns takes"),
            (f"{name} turns 100000", [*base, "--turns", "100000", *out], f"from 1 to {MAX_TURNS}"),
            (f"{name} seed -1", [*base, "--seed", "-1", *out], "--seed takes a non-negative integer"),
            (f"{name} jobs -1", [*base, "--jobs", "-1", *out], "--jobs takes"),
            (f"{name} out under a file", [*base, "--games", "2", "--out", under_file], f"{afile} is a file"),
            (f"{name} out is a file", [*base, "--games", "2", "--out", str(afile)], "is a file, not a folder"),
            (f"{name} out holds other files", [*base, "--out", str(tmp / "mine")], "files clix did not write (notes)"),
            (f"{name} out holds a run", [*base, "--out", str(tmp / "earlier")], "holds an earlier run (games.csv)"),
            (f"{name} rosters missing", [*base, *out, "--rosters", missing], "roster library not found"),
        ]
    cases += [
        ("duel target-ci games 10**12", [*DUEL, "--target-ci", "0.03", "--games", str(10**12), *out], "--games"),
        ("sweep games over all pairings", [*SWEEP, "--games", "100000", *out], "a run plays at most"),
        ("ladder games over all cells", [*LADDER, "--games", str(MAX_GAMES), *out], "a run plays at most"),
        ("duel store not a database", [*DUEL, *out, "--store", str(afile)], "cannot open the result store"),
        ("duel store under a file", [*DUEL, *out, "--store", str(afile / "s.duckdb")], "cannot create its folder"),
        ("sweep with the store", [*SWEEP, *out, "--fresh"], "--players sweep run does not use the result store"),
        ("results list store missing", ["results", "list", "--store", missing], "no result store there"),
        ("results show store missing", ["results", "show", "1", "--store", missing], "no result store there"),
        ("replay seed -1", [*REPLAY, "--seed", "-1"], "--seed takes a non-negative integer"),
        ("replay turns 0", [*REPLAY, "--turns", "0"], "--turns takes"),
        ("replay turns 100000", [*REPLAY, "--turns", "100000"], "--turns takes"),
        ("replay game -1", [*REPLAY, "--game", "-1"], "--game takes"),
        ("replay game 10**12", [*REPLAY, "--game", str(10**12)], "--game takes"),
        ("replay rosters missing", [*REPLAY, "--rosters", missing], "roster library not found"),
        ("replay run missing", ["replay", "--run", str(tmp / "nothing")], "no such directory"),
        ("selfcheck games 0", ["selfcheck", "--games", "0"], "--games takes 1 to"),
        ("selfcheck games 10**12", ["selfcheck", "--games", str(10**12)], "--games takes 1 to"),
        ("selfcheck turns 100000", ["selfcheck", "--turns", "100000"], "--turns takes"),
        ("selfcheck seed -1", ["selfcheck", "--seed", "-1"], "--seed takes"),
        ("selfcheck jobs -1", ["selfcheck", "--jobs", "-1"], "--jobs takes"),
        ("selfcheck rosters missing", ["selfcheck", "--rosters", missing], "roster library not found"),
        ("bench games 0", ["bench", "--games", "0"], "--games takes 2 to"),
        ("bench games 10**12", ["bench", "--games", str(10**12)], "--games takes 2 to"),
        ("bench rounds 0", ["bench", "--rounds", "0"], "--rounds takes"),
        ("bench jobs -1", ["bench", "--jobs", "-1"], "--jobs takes"),
        ("bench rosters missing", ["bench", "--rosters", missing], "roster library not found"),
        ("bench library without the reference duel", ["bench", "--rosters", str(tmp / "empty")], "reference duel"),
        ("bench against missing", ["bench", "--against", missing], "no such folder"),
        (
            "bench against a folder that is no checkout",
            ["bench", "--against", str(tmp / "empty")],
            "not a clix checkout",
        ),
        ("bench instructions alone", ["bench", "--instructions"], "give --against CHECKOUT too"),
        ("bench against rounds 0", ["bench", "--against", str(ROOT), "--rounds", "0"], "--rounds takes"),
        ("bench against games 1", ["bench", "--against", str(ROOT), "--games", "1"], "--games takes 2 to"),
        ("a word for a number", [*DUEL, "--games", "many"], "Invalid value for '--games'"),
    ]
    both = ["--rosters", str(ROOT / "rosters")]  # HorrorClix's and HeroClix's sample libraries
    force_file = str(ROOT / "rosters" / "heroclix" / "forces" / "night-shift.yaml")
    cases += [
        ("heroclix duel games 0", [*HERO_DUEL, "--games", "0", *out, *both], "--games takes 2 to"),
        ("heroclix duel an army and a force", [*DUEL[:2], force_file, *out, *both], "a command plays the armies"),
        ("heroclix duel a force and an army", [*HERO_DUEL[:2], "firing-line", *out, *both], "firing-line a horrorclix"),
        ("heroclix duel a horrorclix map", [*HERO_DUEL, "--map", "graveyard", *out, *both], "--map graveyard a horror"),
        ("heroclix duel force unknown", [*HERO_DUEL[:2], "night-shif", *out, *both], "did you mean 'night-shift'?"),
        ("heroclix duel map unknown", [*HERO_DUEL, "--map", "harbour", *out, *both], "no heroclix-2005 map named"),
        ("heroclix duel style unknown", [*HERO_DUEL, "--players", "genius", *out, *both], "no HeroClix player style"),
        (
            "heroclix duel check-with",  # HeroClix has a search player: a budget that is no number is the mistake
            [*HERO_DUEL, "--check-with", "search:many", *out, *both],
            "--check-with: 'search:many': a search budget is a number",
        ),
        ("heroclix duel store not a database", [*HERO_DUEL, *out, "--store", str(afile), *both], "cannot open the"),
        ("heroclix replay an army and a force", ["replay", "butcher-shop", force_file, *both], "a command plays the"),
        ("heroclix replay seed -1", ["replay", *HERO_DUEL[1:], "--seed", "-1", *both], "--seed takes a non-negative"),
    ]
    meta = ["meta", "butcher-shop", "firing-line", "--maps", "graveyard", "--games", "2", *out]
    dask = [*meta, "--backend", "dask", "--scheduler"]
    swap = ["value", "--swap", "night-stalker", "--in", "butcher-shop", *out]
    cases += [
        ("meta budget 0", [*meta, "--budget", "0"], "--budget takes a build total of 100, 200, ... up to 1000"),
        ("meta budget -1", [*meta, "--budget", "-1"], "--budget takes a build total"),
        ("meta budget 10**30", [*meta, "--budget", str(10**30)], "--budget takes a build total"),
        ("meta resamples 10**30", [*meta, "--resamples", str(10**30)], "Invalid value for '--resamples'"),
        ("meta jobs with dask", [*dask, "tcp://127.0.0.1:9", "--jobs", "1"], "--jobs 1: with --backend dask"),
        ("meta jobs 0 with dask", [*dask, "tcp://127.0.0.1:9", "--jobs", "0"], "leave out --jobs"),
        ("meta scheduler malformed", [*dask, "tcp://nope:notaport"], "not a scheduler address"),
        ("meta scheduler blank", [*dask, " "], "not a scheduler address (it is empty)"),
        ("meta scheduler missing", [*dask, ""], "give the cluster's scheduler"),
        ("value resamples 10**30", ["value", "--resamples", str(10**30), *out], "--resamples takes 10 to 10,000"),
        ("value resamples 9", ["value", "--resamples", "9", *out], "--resamples takes 10 to 10,000"),
        ("value alternatives 0", [*swap, "--alternatives", "0"], "--alternatives takes 1 to 50"),
        ("value alternatives -1", [*swap, "--alternatives", "-1"], "--alternatives takes 1 to 50"),
        ("value alternatives 51", [*swap, "--alternatives", "51"], "--alternatives takes 1 to 50"),
        ("build candidates 0", ["build", "--candidates", "0", *out], "--candidates takes 1 to 5,000"),
        ("build candidates 10**12", ["build", "--candidates", str(10**12), *out], "--candidates takes 1 to 5,000"),
        ("build eta 1", ["build", "--eta", "1", *out], "--eta takes 2 to 10"),
        ("build eta 100", ["build", "--eta", "100", *out], "--eta takes 2 to 10"),
        ("build finalists 0", ["build", "--finalists", "0", *out], "--finalists takes 1 to 50"),
        ("build finalists 51", ["build", "--finalists", "51", *out], "--finalists takes 1 to 50"),
        (
            "build race over a run's games",
            ["build", "--candidates", "5000", "--first-games", "1000", *out],
            f"a run plays at most {MAX_GAMES:,}",
        ),
    ]
    return cases


CASES = [case for case, _, _ in refused(Path("/x"))]


@pytest.mark.parametrize("case", CASES)
def test_a_mistake_is_one_line_and_plays_nothing(case, tmp_path, capsys, no_games, monkeypatch):
    (tmp_path / "afile").write_text("not a folder", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes").write_text("mine", encoding="utf-8")
    (tmp_path / "earlier").mkdir()
    (tmp_path / "earlier" / "games.csv").write_text("game\n0\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args, says = next((a, s) for c, a, s in refused(tmp_path) if c == case)
    if "--rosters" not in args and args[0] != "results":
        args = [*args, "--rosters", ROSTERS]
    started = time.process_time()
    code, _, err = run_main(args, capsys)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clix: error: "), err
    assert says in lines[0], lines[0]
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()
    assert time.process_time() - started < 15  # the check comes before the games (and the roster loads once)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # no lock file, no staging folder


def test_a_mistake_in_a_real_process_has_no_traceback(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *DUEL, "--games", str(10**12), "--rosters", ROSTERS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    expected = f"clix: error: --games takes 2 to {MAX_GAMES:,} games (got {10**12:,})"
    assert done.stderr.strip().splitlines() == [expected]
    assert "Traceback" not in done.stderr and not (tmp_path / "clix-out").exists()


def test_jobs_above_the_cores_are_capped_with_a_note(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # its games go to the project's store, tmp_path/clix-out/clix.duckdb
    monkeypatch.setattr(checks, "cores", lambda: 1)  # one core: the run stays in this process
    out = tmp_path / "out"
    args = [*DUEL, "--games", "2", "--turns", "3", "--jobs", "1000", "--out", str(out), "--json", "--rosters", ROSTERS]
    code, stdout, err = run_main(args, capsys)
    assert code == 0, err
    assert err.strip().splitlines() == ["note: --jobs 1,000 capped at this machine's 1 cores"]
    assert json.loads(stdout)["settings"]["jobs"] == 1
    assert checks.jobs(0) == checks.jobs(10**6) == 1


def test_jobs_are_capped_at_the_machines_cores():
    assert checks.jobs(1000) == (os.cpu_count() or 1)
    assert checks.jobs(0) == (os.cpu_count() or 1)
    assert checks.jobs(1) == 1


def test_a_seed_beyond_int64_survives_the_outputs_and_the_replay(tmp_path):
    seed = 2**70 + 3
    out = tmp_path / "big"
    args = [*DUEL, "--games", "4", "--turns", "3", "--jobs", "1", "--seed", str(seed), "--out", str(out), "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *args, "--rosters", ROSTERS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["settings"]["seed"] == seed
    for name in ("games.csv", "games.parquet", "figures.parquet", "summary.json", "report.html"):
        assert (out / name).stat().st_size > 0, name
    parquet = pd.read_parquet(out / "games.parquet")
    assert [int(s) for s in parquet["master_seed"]] == [seed] * 4  # exact: stored as text, not a rounded float
    matchup = Matchup(Path(ROSTERS), "butcher-shop", "firing-line", "graveyard", turn_limit=3)
    row, _ = play_one(matchup, seed, 3)
    assert row["vp_a"] == parquet.loc[3, "vp_a"] and row["winner"] == parquet.loc[3, "winner"]
    again = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", "replay", "--run", str(out), "--game", "3", "--rosters", ROSTERS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert f"master seed {seed}" in again.stdout and "matches games.csv" in again.stdout
    (out / "games.csv").unlink()  # the Parquet table alone is read back exactly too
    rows = replay.load_run(out)[1]
    assert {r["master_seed"] for r in rows} == {seed}


def test_selfcheck_takes_a_seed_beyond_int64(capsys):
    code, out, err = run_main(
        ["selfcheck", "--games", "2", "--turns", "2", "--jobs", "1", "--seed", str(2**70), "--rosters", ROSTERS], capsys
    )
    assert code == 0, err
    assert out.startswith("2 games, 0 with problems")


def test_the_longest_game_allowed_stays_below_the_engines_safety_net():
    """MAX_TURNS per player with random players (the longest games) ends far from MAX_DECISIONS (GameStuck)."""
    matchup = Matchup(Path(ROSTERS), "butcher-shop", "firing-line", "graveyard", "random", "random", MAX_TURNS)
    state, _ = play_state(matchup, 0, 0)
    assert state.over and state.turn <= 2 * MAX_TURNS + 1
    # every decision logs at least one event (measured: 1,559 decisions, 2,390 events in this game)
    assert len(state.log) * 10 < MAX_DECISIONS
