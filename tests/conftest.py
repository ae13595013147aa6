"""Shared fixtures: a small valid roster, copied to a temporary directory so each test can break one thing.

The mini roster lives in tests/fixtures/mini_roster (four figures: one unique, one demo, one crossroads with a
transformed side, one that grants an extra plot twist; nine plot twists incl. two subplots and a ticking
clock; three victim archetypes; one 8x6 map; one legal army). It does not depend on rosters/.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from clix.engine.legality import reference_problems
from clix.engine.roster.loader import Roster, load_roster
from clix.engine.roster.problems import Problem

PLUMBING = frozenset(
    {
        "test_bench_against.py",
        "test_cli_arguments.py",
        "test_coverage.py",
        "test_faults.py",
        "test_fuzz_files.py",
        "test_imports.py",
        "test_meta_dask.py",
        "test_meta_stats.py",
        "test_nash.py",
        "test_packaging.py",
        "test_plots.py",
        "test_readme.py",
        "test_report_parts.py",
        "test_report_pdf.py",
        "test_roster_cli.py",
        "test_roster_views.py",
        "test_sample_data.py",
        "test_stats.py",
        "test_store.py",
        "test_user_data.py",
        "test_validation.py",
        "test_value_plumbing.py",
    }
)
"""Test files that check files, outputs, processes, packaging and statistics: what they test does not depend on
which engine plays, so CI runs them once, on the pure engine (`-m "not plumbing"` on the compiled one)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in PLUMBING:
            item.add_marker(pytest.mark.plumbing)


FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI_ROSTER = FIXTURES / "mini_roster"


@dataclass
class MiniRoster:
    """A writable copy of the mini roster with helpers to break it and check it."""

    root: Path

    def path(self, name: str) -> Path:
        return self.root / name

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")

    def write(self, name: str, text: str) -> Path:
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def edit(self, name: str, old: str, new: str) -> None:
        """Replace the one occurrence of `old` in file `name` by `new` (fails if `old` is not there exactly once)."""
        text = self.text(name)
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {name}"
        self.write(name, text.replace(old, new))

    def line(self, name: str, needle: str) -> int:
        """The 1-based line of the one line of file `name` containing `needle`."""
        hits = [n for n, line in enumerate(self.text(name).splitlines(), start=1) if needle in line]
        assert len(hits) == 1, f"{needle!r} is on lines {hits} of {name}"
        return hits[0]

    def load(self) -> tuple[Roster, list[Problem]]:
        """Load every file, and run the cross-file army checks (what `clix roster check` does)."""
        roster, problems = load_roster([self.root])
        return roster, problems + reference_problems(roster)

    def problems(self) -> list[Problem]:
        return self.load()[1]

    def problems_in(self, name: str) -> list[Problem]:
        """The problems reported against file `name` (the whole roster is loaded and checked)."""
        target = self.path(name).resolve()
        return [p for p in self.problems() if Path(p.file).resolve() == target]

    def only_problem(self, name: str) -> Problem:
        """The single problem reported against file `name`; fails listing them all when there is not exactly one."""
        problems = self.problems_in(name)
        assert len(problems) == 1, f"expected exactly one problem in {name}, got:\n" + "\n".join(map(str, problems))
        return problems[0]


@pytest.fixture
def mini(tmp_path: Path) -> MiniRoster:
    """A fresh copy of the valid mini roster in a temporary directory."""
    root = tmp_path / "mini"
    shutil.copytree(MINI_ROSTER, root)
    return MiniRoster(root)


SAMPLE_ROSTERS = Path(__file__).resolve().parent.parent / "rosters"


@pytest.fixture(scope="module")
def roster() -> Roster:
    """The sample roster library (rosters/), loaded once per test module; it loads without problems."""
    loaded, problems = load_roster([SAMPLE_ROSTERS])
    assert problems == []
    return loaded
