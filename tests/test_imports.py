"""The import contracts (issue 16, part 4), checked with import-linter on the package as it is installed:
the API over the analyzer over the engine; inside the analyzer, the CLI over the commands by question over the shared
machinery (issue 33); inside the engine, the harness and tools over the driver over the
players over the setup over the rules over the state over the data formats; and no circles among the modules
of any package (pyproject.toml, [tool.importlinter])."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns("__pycache__", "*.so")


def _installed_layout(target: Path) -> Path:
    """The code laid out as the wheel installs it (clix/engine, clix/analyzer), for the import graph."""
    package = target / "clix"
    shutil.copytree(ROOT / "clix", package, ignore=SKIP)
    for part in ("engine", "analyzer"):
        shutil.copytree(ROOT / part, package / part, ignore=SKIP)
    return target


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename=sys.argv[1]))"
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "pyproject.toml")],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_are_kept(tmp_path):
    result = _lint(_installed_layout(tmp_path))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "4 kept, 0 broken" in result.stdout


def test_a_circle_breaks_the_contract(tmp_path):
    """The check can fail: the state importing the rules (a circle, and a lower layer importing a higher one)."""
    tree = _installed_layout(tmp_path)
    state = tree / "clix" / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nfrom clix.engine import rules  # noqa\n", encoding="utf-8")
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.engine.state is not allowed to import clix.engine.rules" in result.stdout
    assert "No cycles are allowed in clix.engine" in result.stdout


def test_shared_machinery_reaching_up_to_a_command_breaks_the_contract(tmp_path):
    """The analyzer's layers can fail: the runner (play/) importing a command (duel/) is refused, and so is one
    command family importing another of its own layer (value/ and meta/ are independent)."""
    tree = _installed_layout(tmp_path)
    runner = tree / "clix" / "analyzer" / "play" / "runner.py"
    runner.write_text(runner.read_text(encoding="utf-8") + "\nfrom clix.analyzer.duel import command  # noqa\n")
    value = tree / "clix" / "analyzer" / "value" / "command.py"
    value.write_text(value.read_text(encoding="utf-8") + "\nfrom clix.analyzer.meta import nash  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.analyzer.play is not allowed to import clix.analyzer.duel" in result.stdout
    assert "clix.analyzer.play.runner -> clix.analyzer.duel.command" in result.stdout
    assert "clix.analyzer.value is not allowed to import clix.analyzer.meta" in result.stdout
