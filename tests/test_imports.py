"""The import contracts (issue 16, part 4), checked with import-linter on the package as it is installed:
the API over the analyzer over the engine; inside the analyzer, the CLI over the commands by question over the shared
machinery (issue 33); inside the engine, the rulesets over the core (the core imports no ruleset, issue 33), and
within each the layers from the players down to the data notation; every part of the analyzer (the CLI, the
commands and the shared machinery) reaching a ruleset only through the core's registry; and no circles among the modules of any package
(pyproject.toml, [tool.importlinter])."""

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


def _said(result: subprocess.CompletedProcess[str]) -> str:
    """What import-linter printed, its wrapped lines joined (a long module path may wrap)."""
    return " ".join(result.stdout.split())


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
    assert "9 kept, 0 broken" in _said(result)


def test_a_circle_breaks_the_contract(tmp_path):
    """The check can fail: HorrorClix's state importing its rules (a circle, and a lower layer importing a higher one)."""
    tree = _installed_layout(tmp_path)
    state = tree / "clix" / "engine" / "horrorclix" / "state.py"
    state.write_text(
        state.read_text(encoding="utf-8") + "\nfrom clix.engine.horrorclix import rules  # noqa\n", encoding="utf-8"
    )
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.engine.horrorclix.state is not allowed to import clix.engine.horrorclix.rules" in _said(result)
    assert "No cycles are allowed in clix.engine.horrorclix" in _said(result)


def test_the_core_importing_a_ruleset_breaks_the_contract(tmp_path):
    """The core imports no ruleset: the driver importing HorrorClix's rules is refused, and so is a core module
    importing a ruleset's data format at run time (a type-only import under TYPE_CHECKING is not counted)."""
    tree = _installed_layout(tmp_path)
    driver = tree / "clix" / "engine" / "core" / "driver.py"
    driver.write_text(driver.read_text(encoding="utf-8") + "\nfrom clix.engine.horrorclix import rules  # noqa\n")
    dice = tree / "clix" / "engine" / "core" / "dice.py"
    dice.write_text(dice.read_text(encoding="utf-8") + "\nfrom clix.engine.horrorclix.roster import models  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.engine.core is not allowed to import clix.engine.horrorclix" in _said(result)
    assert "clix.engine.core.driver -> clix.engine.horrorclix.rules" in _said(result)
    assert "clix.engine.core.dice -> clix.engine.horrorclix.roster.models" in _said(result)


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
    assert "clix.analyzer.play is not allowed to import clix.analyzer.duel" in _said(result)
    assert "clix.analyzer.play.runner -> clix.analyzer.duel.command" in _said(result)
    assert "clix.analyzer.value is not allowed to import clix.analyzer.meta" in _said(result)


def test_shared_machinery_importing_a_ruleset_breaks_the_contract(tmp_path):
    """The scenario runner and the result store reach a ruleset only through the core's registry: importing
    HorrorClix's harness or HeroClix's data directly is refused (a type-only import under TYPE_CHECKING is not
    counted)."""
    tree = _installed_layout(tmp_path)
    runner = tree / "clix" / "analyzer" / "tools" / "scenarios.py"
    runner.write_text(runner.read_text(encoding="utf-8") + "\nfrom clix.engine.horrorclix import scenario  # noqa\n")
    store = tree / "clix" / "analyzer" / "play" / "store.py"
    store.write_text(store.read_text(encoding="utf-8") + "\nfrom clix.engine.heroclix import library  # noqa\n")
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.analyzer is not allowed to import clix.engine.horrorclix" in _said(result)
    assert "clix.analyzer.tools.scenarios -> clix.engine.horrorclix.scenario" in _said(result)
    assert "clix.analyzer is not allowed to import clix.engine.heroclix" in _said(result)
    assert "clix.analyzer.play.store -> clix.engine.heroclix.library" in _said(result)


def _first_module(package: Path) -> Path:
    """The package's first module by name (not its __init__), or its __init__ when it has no other."""
    modules = sorted(p for p in package.glob("*.py") if p.name != "__init__.py")
    return modules[0] if modules else package / "__init__.py"


def test_every_part_of_the_analyzer_importing_a_ruleset_breaks_the_contract(tmp_path):
    """Issue 33: the CLI and every command reach a ruleset only through the core's registry too. One module of
    each subpackage of the analyzer (the CLI, bench, build, library, value, meta, duel, ladder...) is made to
    import a ruleset's module directly, HorrorClix's or HeroClix's in turn: the contract names every one of
    them."""
    tree = _installed_layout(tmp_path)
    analyzer = tree / "clix" / "analyzer"
    packages = sorted(p for p in analyzer.iterdir() if (p / "__init__.py").is_file())
    assert {"cli", "bench", "build", "library", "value", "meta", "duel", "ladder"} <= {p.name for p in packages}
    targets = ("clix.engine.horrorclix.armybuilder", "clix.engine.heroclix.library")
    expected = []
    for number, package in enumerate(packages):
        module = _first_module(package)
        target = targets[number % 2]
        module.write_text(module.read_text(encoding="utf-8") + f"\nimport {target}  # noqa\n", encoding="utf-8")
        name = ".".join(module.relative_to(tree).with_suffix("").parts).removesuffix(".__init__")
        expected.append(f"{name} -> {target}")
    result = _lint(tree)
    assert result.returncode != 0
    said = _said(result)
    assert [line for line in expected if line not in said] == []
    assert "analyzer: every part of it reaches a ruleset only through the core's registry (issue 33) BROKEN" in said


def test_the_core_names_no_ruleset_even_in_type_hints():
    """The contract leaves out imports under TYPE_CHECKING; the core has none of a ruleset either (issue 33: a map
    is any `board.Layout`, a player an `Agent` of any state)."""
    core = ROOT / "engine" / "core"
    naming = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted(core.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.lstrip().startswith(("from clix.engine.horrorclix", "import clix.engine.horrorclix"))
    ]
    assert naming == []


def test_horrified_importing_another_ruleset_breaks_the_contract(tmp_path):
    """Horrified (issue 40) imports the core and no other ruleset: its rules importing HorrorClix's or its state
    importing HeroClix's is refused, and so is its state importing its rules (a lower layer importing a higher)."""
    tree = _installed_layout(tmp_path)
    rules = tree / "clix" / "engine" / "horrified" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nfrom clix.engine.horrorclix import combat  # noqa\n")
    state = tree / "clix" / "engine" / "horrified" / "state.py"
    state.write_text(
        state.read_text(encoding="utf-8")
        + "\nfrom clix.engine.heroclix import maps  # noqa\nfrom clix.engine.horrified import rules  # noqa\n"
    )
    result = _lint(tree)
    assert result.returncode != 0
    assert "clix.engine.horrified is not allowed to import clix.engine.horrorclix" in _said(result)
    assert "clix.engine.horrified.rules -> clix.engine.horrorclix.combat" in _said(result)
    assert "clix.engine.horrified.state -> clix.engine.heroclix.maps" in _said(result)
    assert "clix.engine.horrified.state is not allowed to import clix.engine.horrified.rules" in _said(result)
