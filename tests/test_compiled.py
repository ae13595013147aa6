"""The optional compiled engine (engine/compiled.py): used only while its manifest matches the sources
and the interpreter, never when CLIX_PURE is set. The compiled modules themselves are tested by running the
whole suite again after `clix compile` (.ci/run does)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from clix.engine import compiled

ROOT = Path(__file__).resolve().parent.parent


def _engine_status(**env: str) -> list[str]:
    """In a fresh process: the engine's status and where two compiled modules were loaded from."""
    code = (
        "import clix.engine.horrorclix.rules as r, clix.engine.horrorclix.players.heuristic as h, clix.engine.compiled as c; "
        "print(c.status); print(r.__file__); print(h.__file__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_a_build_is_usable_only_when_its_manifest_matches_the_sources(tmp_path):
    assert compiled.build_problem(tmp_path) == "no compiled engine (run `clix compile`)"
    manifest = compiled.manifest_for(compiled.build_fingerprint())
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert compiled.build_problem(tmp_path) is None
    for field, stale in (("fingerprint", "0" * 64), ("interpreter", "cpython-310-linux")):
        (tmp_path / compiled.MANIFEST).write_text(json.dumps({**manifest, field: stale}))
        assert "out of date" in str(compiled.build_problem(tmp_path))
    (tmp_path / compiled.MANIFEST).write_text("{not json")
    assert compiled.build_problem(tmp_path) == "no compiled engine (run `clix compile`)"


def test_any_edit_of_an_engine_source_changes_the_fingerprint(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(compiled.ENGINE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = compiled.source_fingerprint(copy)
    assert before == compiled.source_fingerprint()
    rules = copy / "horrorclix" / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edit\n")
    assert compiled.source_fingerprint(copy) != before
    (copy / "core" / "players" / "new_player.py").write_text("")
    rules.write_text((compiled.ENGINE_DIR / "horrorclix" / "rules.py").read_text())
    assert compiled.source_fingerprint(copy) != before  # a new file counts too


def test_clix_pure_runs_the_python_sources():
    status, rules_file, heuristic_file = _engine_status(CLIX_PURE="1")
    assert status.startswith(compiled.PURE) and "CLIX_PURE" in status
    assert rules_file.endswith("engine/horrorclix/rules.py") and heuristic_file.endswith(
        "engine/horrorclix/players/heuristic.py"
    )


def test_the_engine_in_use_is_the_build_when_it_is_fresh_and_the_sources_otherwise():
    status, rules_file, heuristic_file = _engine_status(CLIX_PURE="")
    if compiled.build_problem() is None:
        assert status == compiled.COMPILED
        assert Path(rules_file).parent == compiled.BUILD_DIR / compiled.PACKAGE_PATH / "horrorclix"
        assert Path(heuristic_file).parent == compiled.BUILD_DIR / compiled.PACKAGE_PATH / "horrorclix" / "players"
    else:
        assert status.startswith(compiled.PURE)
        assert rules_file.endswith("engine/horrorclix/rules.py") and heuristic_file.endswith(
            "engine/horrorclix/players/heuristic.py"
        )


def test_the_build_depends_on_the_compiled_modules_and_what_they_import_only(tmp_path):
    """Issue 16, part 6: editing an engine file no compiled module imports (the scenario harness) keeps the
    build in use; editing a compiled module, or a module one of them imports, makes it stale."""
    copy = tmp_path / "engine"
    shutil.copytree(compiled.ENGINE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    names = {p.relative_to(copy).as_posix() for p in compiled.build_sources(copy)}
    assert {
        "horrorclix/rules.py",
        "horrorclix/state.py",
        "core/state.py",
        "horrorclix/players/heuristic.py",
        "horrorclix/players/__init__.py",
        "horrorclix/__init__.py",
        "core/__init__.py",
        "__init__.py",
    } <= names
    assert "horrorclix/roster/models.py" in names  # imported, not compiled: its types shape the compiled code
    assert "horrorclix/scenario.py" not in names and "horrorclix/invariants.py" not in names
    before = compiled.build_fingerprint(copy)
    assert before == compiled.build_fingerprint()
    harness = copy / "horrorclix" / "scenario.py"
    harness.write_text(harness.read_text() + "\n# an edit\n")
    assert compiled.build_fingerprint(copy) == before
    models = copy / "horrorclix" / "roster" / "models.py"
    models.write_text(models.read_text() + "\n# an edit\n")
    assert compiled.build_fingerprint(copy) != before


def test_a_stale_build_is_one_warning_line(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "status", f"{compiled.PURE}: the compiled engine is out of date with the sources")
    assert compiled.stale_warning() == (
        "clix: warning: the compiled engine is out of date with the sources; running the pure-Python engine, "
        "about 3x slower"
    )
    monkeypatch.setattr(compiled, "status", compiled.PURE)
    assert compiled.stale_warning() is None


def test_each_game_row_says_which_engine_played_it():
    """Issue 16, part 6: a run reports the engine its workers used (a worker could differ from the parent)."""
    from clix.analyzer.play.runner import engine_name

    import clix

    result = clix.duel("butcher-shop", "firing-line", games=2, turns=2, jobs=2, rosters=ROOT / "rosters" / "horrorclix")
    expected = "compiled" if compiled.status == compiled.COMPILED else "pure"
    assert engine_name() == expected
    assert list(result.games["engine"]) == [expected, expected]


def test_the_summary_names_games_played_on_another_engine():
    from clix.analyzer.duel.console import engine_note

    assert engine_note({"compiled": 4}, "compiled") is None
    assert engine_note({"compiled": 3, "pure": 1}, "compiled") == (
        "  note: the games were played on the engines 3 compiled, 1 pure; this process runs compiled"
    )
    assert "4 compiled; this process runs pure" in str(engine_note({"compiled": 4}, "pure"))


def test_importing_the_engine_leaves_the_search_path_alone():
    """Issue 16, part 4: no sys.path changes at import, with the compiled engine (whose shared runtime is
    loaded from its file) or without it."""
    code = (
        "import sys; before = list(sys.path); import clix.engine.horrorclix.rules, clix.engine.horrorclix.players.heuristic; "
        "from clix.engine import compiled; print(compiled.status); print(sys.path == before)"
    )
    for env in ({}, {"CLIX_PURE": "1"}):
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.splitlines()[-1] == "True", (env, done.stdout)
