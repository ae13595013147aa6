"""The newer surfaces fail safely (issue 31, parts 5 and 6): an interruption at any moment exits 130, `--out`
keeps a folder's permissions (or refuses a read-only one), `results export` writes only regular files, `--force`
replaces any folder clix wrote, and what used to end in a traceback
(a store that cannot be written or is damaged, `--margin` over one pair, a PDF engine failing) is one line.

Small duels run in this process (`run_main`: 3 turns, 1 job); every wait is bounded. The Dask cases:
tests/test_surfaces_dask.py.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import uuid
from pathlib import Path

import duckdb
import pytest
from clix.analyzer.build.command import MAX_CANDIDATES, MAX_ETA, MAX_FINALISTS, Search, check_search, planned_games
from clix.analyzer.build.race import REFERENCE_GAMES
from clix.analyzer.cli import analyses
from clix.analyzer.common.checks import MAX_GAMES
from clix.analyzer.common.errors import ClixError
from clix.analyzer.duel.console import precision_lines
from clix.analyzer.play import runner
from clix.analyzer.play.pool import Outcome
from clix.analyzer.play.store import STORE_NAME, Store
from clix.analyzer.report import duel as report
from clix.analyzer.report.folder import OWN_FILES, Interrupted, Target, claim_output, foreign_files
from helpers import run_main, until
from test_faults import none_left, playing, start

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = str(ROOT / "rosters" / "horrorclix")
DUEL = ["duel", "butcher-shop", "firing-line", "--games", "2", "--turns", "3", "--jobs", "1", "--rosters", ROSTERS]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test in its own folder: a default output folder would land there."""
    monkeypatch.chdir(tmp_path)


def one_error(err: str, says: str) -> str:
    """The one `clix: error:` line of a refused command (and no traceback); returns it."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clix: error: "), err
    assert says in lines[0], lines[0]
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def stored_duel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A result store holding one small duel (2 games, run 1); returns its path."""
    path = tmp_path / "s" / STORE_NAME
    code, _, err = run_main([*DUEL, "--out", str(tmp_path / "d"), "--store", str(path), "--json"], capsys)
    assert code == 0, err
    return path


# --- 1. Ctrl-C or SIGTERM at any moment exits 130 ---------------------------------------------------------------


def test_interrupted_before_any_game_finished_exits_130(tmp_path, capsys, monkeypatch):
    """The run stopped before its first game finished: nothing to report, but an interruption (130), not a
    mistake (2); the --out folder is not made."""

    def nothing_finished(*args: object, **kwargs: object) -> Outcome:
        return Outcome(interrupted=True)

    monkeypatch.setattr(runner, "run_items", nothing_finished)
    out = tmp_path / "out"
    code, _, err = run_main([*DUEL, "--out", str(out), "--store", str(tmp_path / STORE_NAME)], capsys)
    assert code == 130
    assert err.strip().splitlines() == [f"clix: {Interrupted.LINE}"]
    assert not out.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_ctrl_c_anywhere_in_a_command_is_one_line_and_130(tmp_path, capsys, monkeypatch):
    """A Ctrl-C outside the games (here: while the arguments are checked) used to exit 130 silently."""

    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(analyses.checks, "games", interrupted)
    code, _, err = run_main(["meta", "butcher-shop", "firing-line", "--rosters", ROSTERS], capsys)
    assert code == 130 and err.strip().splitlines() == ["clix: interrupted"]


@pytest.mark.parametrize(
    ("args", "unit"),
    [
        (["meta", "butcher-shop", "firing-line", "--maps", "graveyard", "--games", "2"], "game"),
        (
            ["value", "--budget", "100", "--armies", "4", "--opponents", "2", "--games", "2", "--maps", "graveyard"],
            "game",
        ),
        (["ladder", "--armies", "butcher-shop", "--maps", "graveyard", "--games", "2"], "cell"),
        (["duel", "butcher-shop", "firing-line", "--players", "sweep", "--games", "2"], "pairing"),
    ],
    ids=["meta", "value", "ladder", "sweep"],
)
def test_every_command_stopped_before_anything_finished_exits_130(args, unit, tmp_path, capsys, monkeypatch):
    """meta, value, ladder and the sweep, stopped before their first game (cell, pairing) finished: one line,
    an interruption (130), not a mistake (2)."""
    from clix.analyzer.ladder import command as ladder
    from clix.analyzer.meta import play as meta_play
    from clix.analyzer.play import experiment

    def nothing_finished(*args: object, **kwargs: object) -> Outcome:
        return Outcome(interrupted=True)

    for module in (runner, ladder, meta_play, experiment):
        monkeypatch.setattr(module, "run_items", nothing_finished)
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main([*args, "--turns", "3", "--jobs", "1", "--rosters", ROSTERS, "--out", "out"], capsys)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == f"clix: interrupted before any {unit} finished"
    assert "Traceback" not in err and not (tmp_path / "out").exists()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc (Linux)")
def test_sigterm_before_the_first_game_finished_exits_130(tmp_path):
    """A real process: SIGTERM once its workers play the first games, which take minutes (a deep search on both
    sides); it used to exit 2 ("no game finished")."""
    out = tmp_path / "out"
    command = [*DUEL[:3], "--games", "2", "--turns", "200", "--players", "search:100000,search:100000", "--jobs", "2"]
    command += ["--rosters", ROSTERS, "--out", str(out), "--store", str(tmp_path / STORE_NAME), "--json"]
    marker, err = uuid.uuid4().hex, tmp_path / "stderr"
    process = start(command, tmp_path, marker, err)
    try:
        until(lambda: playing(process.pid), timeout=120)
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    said = err.read_text(encoding="utf-8")
    assert process.returncode == 130, said
    assert said.strip().splitlines() == [f"clix: {Interrupted.LINE}"]
    assert not out.exists()
    assert none_left(marker) == []


# --- 2. an --out folder's permissions --------------------------------------------------------------------------


def test_a_replaced_folder_keeps_its_permissions(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.csv").write_text("old", encoding="utf-8")
    out.chmod(0o750)
    with claim_output(Target(out, force=True)) as folder, folder.staged() as staging:
        (staging / "games.csv").write_text("new", encoding="utf-8")
    assert (out / "games.csv").read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o750


@pytest.mark.parametrize("force", [False, True])
def test_a_read_only_folder_is_refused(tmp_path, capsys, no_games, force):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        code, _, err = run_main([*DUEL, "--out", str(out), *(["--force"] if force else [])], capsys)
        assert code == 2
        one_error(err, "the folder is read-only (mode 555)")
        assert stat.S_IMODE(out.stat().st_mode) == 0o555 and list(out.iterdir()) == []
    finally:
        out.chmod(0o755)


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test."""

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_items", played)


# --- 3. results export writes regular files only ---------------------------------------------------------------


def test_export_refuses_a_fifo_a_device_and_a_folder(stored_duel, tmp_path, capsys):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    for target, says in ((fifo, "is a FIFO"), (Path(os.devnull), "is a character device"), (folder, "is a folder")):
        args = ["results", "export", "1", "--out", str(target), "--format", "csv", "--store", str(stored_duel)]
        code, _, err = run_main(args, capsys)
        assert code == 2
        one_error(err, says)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and folder.is_dir() and list(folder.iterdir()) == []


def test_export_replaces_a_regular_file_through_a_link_keeping_its_mode(stored_duel, tmp_path, capsys):
    real = tmp_path / "real.csv"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    code, out, err = run_main(["results", "export", "1", "--out", str(link), "--store", str(stored_duel)], capsys)
    assert code == 0, err
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("game,")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert "wrote 2 game rows" in out


# --- 4. --force replaces any folder clix wrote -----------------------------------------------------------------

META_FILES = ["summary.json", "field.json", "cells.csv", "cells.parquet", "games.csv", "games.parquet"]
META_FILES += ["heatmap.png", "nash.png", "meta.html"]
VALUE_FILES = ["value.csv", "value.json", "games.csv", "value.html", "value-vs-cost.png", "residuals.png"]
BUILD_FILES = ["build.json", "builds.csv", "games.csv", "build.html", "armies/build-1.yaml"]


@pytest.mark.parametrize("files", [META_FILES, VALUE_FILES, BUILD_FILES], ids=["meta", "value", "build"])
def test_force_replaces_a_meta_value_or_build_folder(tmp_path, files):
    out = tmp_path / "out"
    for name in files:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text("old", encoding="utf-8")
    assert foreign_files(out) == []
    with pytest.raises(ClixError, match="holds an earlier run"):
        claim_output(Target(out))
    with claim_output(Target(out, force=True)) as folder, folder.staged() as staging:
        (staging / "games.csv").write_text("new", encoding="utf-8")
    assert [p.name for p in out.iterdir()] == ["games.csv"]


def test_a_foreign_file_among_a_builds_armies_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    (out / "armies").mkdir(parents=True)
    (out / "build.json").write_text("{}", encoding="utf-8")
    (out / "armies" / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "drafts").mkdir()
    assert foreign_files(out) == ["armies/notes.txt", "drafts/"]
    with pytest.raises(ClixError, match=r"files clix did not write \(armies/notes\.txt, drafts/\)"):
        claim_output(Target(out, force=True))
    assert (out / "armies" / "notes.txt").exists()


def test_an_interrupted_meta_reruns_into_its_folder_with_force(tmp_path, capsys):
    """A real meta's folder (what it writes, by name) is replaced by the same meta with --force."""
    out = tmp_path / "meta"
    args = ["meta", "butcher-shop", "firing-line", "--maps", "graveyard", "--games", "2", "--turns", "3"]
    args += ["--jobs", "1", "--out", str(out), "--store", str(tmp_path / STORE_NAME), "--rosters", ROSTERS, "--json"]
    code, _, err = run_main(args, capsys)
    assert code == 0, err
    written = sorted(p.name for p in out.iterdir())
    assert set(written) <= OWN_FILES and foreign_files(out) == []
    code, _, err = run_main(args, capsys)
    assert code == 2 and "holds an earlier run" in err
    code, _, err = run_main([*args, "--force"], capsys)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == written


def test_what_a_build_writes_is_its_own(tmp_path, capsys):
    """Every file a real build writes (its finalists' armies/ too) is one clix knows as its own, so --force may
    replace the folder (a value run's names are checked the same way, by name, above)."""
    out = tmp_path / "out"
    args = ["build", "--field", "butcher-shop", "--candidates", "2", "--first-games", "2", "--finalists", "1"]
    args += ["--final-games", "2", "--turns", "3", "--jobs", "1", "--out", str(out), "--rosters", ROSTERS, "--json"]
    code, _, err = run_main([*args, "--store", str(tmp_path / STORE_NAME)], capsys)
    assert code == 0, err
    assert (out / "armies").is_dir() and foreign_files(out) == []
    with claim_output(Target(out, force=True)):
        pass


# --- 6. what ended in tracebacks -------------------------------------------------------------------------------


def test_a_store_that_cannot_be_written_is_one_line(stored_duel, tmp_path, capsys, no_games):
    """An existing store in a folder where its journal cannot be made (a read-only folder does that; here the
    journal's path is a link to nowhere, which does it for root too)."""
    wal = stored_duel.with_name(stored_duel.name + ".wal")
    wal.symlink_to(tmp_path / "nowhere" / "x.wal")
    code, _, err = run_main([*DUEL, "--out", str(tmp_path / "again"), "--store", str(stored_duel)], capsys)
    assert code == 2
    one_error(err, f"--store {stored_duel}: cannot write to the result store")
    assert not (tmp_path / "again").exists()


@pytest.mark.parametrize("damage", ["'not json'", "'{}'"])
def test_a_damaged_game_row_is_played_again(damage, stored_duel, tmp_path, capsys):
    with duckdb.connect(str(stored_duel)) as connection:
        connection.execute(f"UPDATE games SET game_row = {damage} WHERE game = 0")
    args = ["results", "export", "1", "--out", str(tmp_path / "x.csv"), "--store", str(stored_duel)]
    code, _, err = run_main(args, capsys)
    assert code == 2
    one_error(err, "1 of its 2 games are missing or damaged")
    code, out, err = run_main([*DUEL, "--out", str(tmp_path / "again"), "--store", str(stored_duel), "--json"], capsys)
    assert code == 0, err
    assert err.strip().splitlines() == [
        f"clix: warning: 1 stored game in {stored_duel} is damaged (game 0: "
        + ("not JSON (JSONDecodeError)" if damage == "'not json'" else "the row has no game")
        + "); it is played again"
    ]
    settings = json.loads(out)["settings"]
    assert (settings["from_store"], settings["played"]) == (1, 1)
    code, _, err = run_main([*args[:2], "2", *args[3:]], capsys)
    assert code == 0, err  # the new run's games are whole


def test_a_damaged_game_row_is_played_again_by_value_and_build_too(tmp_path, capsys):
    """clix value and clix build read the store in one query (experiment._load_many): a damaged row there is
    the same warning and the game is played again, not a traceback."""
    store = tmp_path / STORE_NAME
    value = ["value", "--budget", "100", "--armies", "6", "--opponents", "2", "--games", "2", "--maps", "graveyard",
             "--turns", "15", "--holdout", "0", "--jobs", "1", "--rosters", ROSTERS, "--store", str(store),
             "--json"]  # fmt: skip
    code, first, err = run_main([*value, "--out", str(tmp_path / "first")], capsys)
    assert code == 0, err
    with duckdb.connect(str(store)) as connection:
        connection.execute("UPDATE games SET game_row = 'not json' WHERE game = 0")
        damaged = connection.execute("SELECT count(*) FROM games WHERE game = 0").fetchone()[0]
    code, again, err = run_main([*value, "--out", str(tmp_path / "again")], capsys)
    assert code == 0, err
    lines = err.strip().splitlines()
    assert lines == [
        f"clix: warning: {damaged} stored games in {store} are damaged (game 0: not JSON (JSONDecodeError)); "
        "they are played again"
    ], err
    assert json.loads(again)["values"] == json.loads(first)["values"]  # the games played again are the same games


def test_a_store_without_its_games_table_is_one_line(stored_duel, tmp_path, capsys):
    with duckdb.connect(str(stored_duel)) as connection:
        connection.execute("DROP TABLE games")
    for args in (["results", "list"], ["results", "show", "last"], [*DUEL, "--out", str(tmp_path / "again")]):
        code, _, err = run_main([*args, "--store", str(stored_duel)], capsys)
        assert code == 2
        one_error(err, "the result store is damaged (its table games is gone)")


def test_margin_over_one_pair_says_it_is_not_tested(tmp_path, capsys):
    args = [*DUEL, "--margin", "0.05", "--out", str(tmp_path / "o"), "--store", str(tmp_path / STORE_NAME)]
    code, out, err = run_main(args, capsys)
    assert code == 0, err
    assert "Traceback" not in err
    assert "equivalence: not tested within ±5.0 points" in out


def test_a_pdf_engine_failing_is_one_line_and_the_run_is_recorded(tmp_path, capsys, monkeypatch):
    pytest.importorskip("weasyprint")

    def failing(html: str, path: Path) -> Path:
        raise ValueError("the layout broke\nsecond line")

    monkeypatch.setattr(report, "write_pdf", failing)
    out, kept = tmp_path / "o", tmp_path / STORE_NAME
    code, _, err = run_main([*DUEL, "--pdf", "--out", str(out), "--store", str(kept)], capsys)
    assert code == 2
    one_error(
        err, "--pdf: the PDF engine (WeasyPrint) failed while rendering report.pdf (ValueError: the layout broke)"
    )
    assert not out.exists()
    assert [run.games for run in Store.existing(kept).runs()] == [2]


def test_every_report_pdf_goes_through_the_one_line_for_an_engine_failure(tmp_path, monkeypatch):
    """meta, value, ladder and build write their PDF with report.write_pdf: the engine failing there is the same
    one line (ClixError), not a traceback."""
    weasyprint = pytest.importorskip("weasyprint")

    class Failing:
        def __init__(self, string: str) -> None:
            pass

        def write_pdf(self, path: Path) -> None:
            raise AssertionError("a layout step broke\nsecond line")

    monkeypatch.setattr(weasyprint, "HTML", Failing)
    with pytest.raises(ClixError) as failed:
        report.write_pdf("<html></html>", tmp_path / "meta.pdf")
    assert str(failed.value) == (
        "--pdf: the PDF engine (WeasyPrint) failed while rendering meta.pdf (AssertionError: a layout step broke); "
        "nothing was written: run again without --pdf"
    )


# --- bounds of the numbers -------------------------------------------------------------------------------------


def test_the_race_counts_its_games():
    search = Search(candidates=9, first=2, eta=3, finalists=1, final=10, maps=("graveyard",), objective="field")
    # 9 x 2 games, then 3 x (6 - 2), then (1 finalist + 2 field armies) x 10; per field army (2)
    assert planned_games(search, 2) == (9 * 2 + 3 * 4 + 3 * 10) * 2
    # --objective auto first plays the field's armies against each other (REFERENCE_GAMES a pair and map)
    auto = Search(candidates=9, first=2, eta=3, finalists=1, final=10, maps=("graveyard",), objective="auto")
    assert planned_games(auto, 2) == (9 * 2 + 3 * 4 + 3 * 10) * 2 + 2 * 1 * REFERENCE_GAMES
    check_search(search, 2)
    with pytest.raises(ClixError, match=f"a run plays at most {MAX_GAMES:,}"):
        check_search(Search(candidates=MAX_CANDIDATES, first=1000, final=1000), 6)
    for wrong, says in (
        (Search(candidates=0), "--candidates takes 1 to"),
        (Search(candidates=MAX_CANDIDATES + 1), "--candidates takes 1 to"),
        (Search(eta=1), "--eta takes 2 to"),
        (Search(eta=MAX_ETA + 1), "--eta takes 2 to"),
        (Search(finalists=0), "--finalists takes 1 to"),
        (Search(finalists=MAX_FINALISTS + 1), "--finalists takes 1 to"),
    ):
        with pytest.raises(ClixError, match=says):
            check_search(wrong, 6)


def test_the_build_help_gives_the_bounds_the_checks_use():
    import inspect
    import typing

    hints = typing.get_type_hints(analyses.build, include_extras=True)
    helps = {name: hint.__metadata__[0].help for name, hint in hints.items() if hasattr(hint, "__metadata__")}
    assert f"1 to {MAX_CANDIDATES:,}" in helps["candidates"]
    assert f"2 to {MAX_ETA}" in helps["eta"]
    assert f"1 to {MAX_FINALISTS}" in helps["finalists"]
    assert inspect.signature(analyses.build).parameters["candidates"].default == Search().candidates


def test_results_show_prints_the_duels_own_precision_lines():
    """`results show` prints through the duel's own summary lines (the margin line among them)."""
    lines = precision_lines({"equivalence": {"margin": 0.05, "band": (0.45, 0.55), "low": None}}, {"a": "A"})
    assert lines == [
        "  equivalence: not tested within ±5.0 points (the two one-sided tests need 2 seat-swapped pairs or more: "
        "--games 4 or more)"
    ]
