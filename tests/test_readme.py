"""The README's quick start must work as written, and CI must run the README's exact test command."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", section, flags=re.S)


def test_quick_start_has_exactly_two_commands():
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)


def test_ci_runs_the_readme_test_command():
    test_command = quick_start_commands()[1]
    assert "pytest" in test_command
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_ci_tests_the_compiled_engine_as_the_readme_says():
    section = README.split("## Speed: the compiled engine", 1)[1].split("\n## ", 1)[0]
    build, test = re.findall(r"```bash\n(.*?)\n```", section, flags=re.S)
    assert "clix compile" in build and "clix compile" in test and "pytest" in test
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_ci_runs_the_slow_plumbing_tests_the_compiled_run_leaves_out():
    """The compiled run (`--all -m "not plumbing"`) plays the slow tests but those marked plumbing; CI runs them
    after it, as the README's "Tests" section says, so every test runs at least once."""
    command = "python -m pytest --slow -m plumbing"
    assert f"`{command}`" in README
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_the_main_command_runs(tmp_path):
    main = quick_start_commands()[0]
    steps = [s.strip() for s in main.split("&&") if s.strip().startswith("clix ")]
    assert steps
    for step in steps:
        args = shlex.split(step)[1:]
        done = subprocess.run(
            [sys.executable, "-m", "clix.analyzer.cli", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{step}: {done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr
    pngs = list(tmp_path.rglob("*.png"))
    assert pngs and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert list(tmp_path.rglob("report.html"))
    # where the quick start says the outputs and the games go
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    folder, store = "clix-out/butcher-shop-vs-firing-line/run-YYYYMMDD-HHMMSS/", "clix-out/clix.duckdb"
    assert f"`{folder}`" in section and f"`{store}`" in section
    assert [p.name for p in tmp_path.glob("clix-out/butcher-shop-vs-firing-line/run-*/report.html")] == ["report.html"]
    assert (tmp_path / store).is_file()


def test_every_relative_link_of_the_readme_and_the_docs_resolves_and_the_index_lists_every_page():
    """Issue 37 (hygiene): docs/index.md names every page of docs/, and no relative link of the README, the
    changelog or a docs page points at a file that is not there (anchors aside)."""
    pages = sorted((ROOT / "docs").glob("*.md"))
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert [p.name for p in pages if p.name != "index.md" and f"]({p.name})" not in index] == []
    broken = []
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", *pages]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert broken == []
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
