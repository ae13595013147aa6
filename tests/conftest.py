"""Shared fixtures: a small valid roster, copied to a temporary directory so each test can break one thing.

The mini roster lives in tests/fixtures/mini_roster (four figures: one unique, one demo, one crossroads with a
transformed side, one that grants an extra plot twist; nine plot twists incl. two subplots and a ticking
clock; three victim archetypes; one 8x6 map; one legal army). It does not depend on rosters/.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# pytest-xdist's workers start with COLUMNS=80 in their environment, which fixes the width of consoles made at
# import time; without it they follow the terminal (or a test's COLUMNS), as in a run without workers.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
# A developer's own configuration files must not change what the tests see (analyzer/cli/config.py): no user file
# (an empty config folder of the test run's own) and none named by $CLIX_CONFIG; tests that want one write it.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="clix-test-config-")
os.environ.pop("CLIX_CONFIG", None)
from clix.engine.core.files.problems import Problem
from clix.engine.horrorclix.legality import reference_problems
from clix.engine.horrorclix.roster.loader import Roster, load_roster

PLUMBING = frozenset(
    {
        "test_api.py",
        "test_api_horrified.py",
        "test_api_notebook.py",
        "test_bench_against.py",
        "test_cli_arguments.py",
        "test_cli_config.py",
        "test_cli_conventions.py",
        "test_coverage.py",
        "test_faults.py",
        "test_fuzz_files.py",
        "test_horrified_cli.py",
        "test_horrified_files.py",
        "test_horrified_report.py",
        "test_horrified_store.py",
        "test_imports.py",
        "test_memory.py",
        "test_meta_dask.py",
        "test_meta_stats.py",
        "test_nash.py",
        "test_packaging.py",
        "test_plots.py",
        "test_readme.py",
        "test_report_parts.py",
        "test_report_pages.py",
        "test_report_pdf.py",
        "test_roster_cli.py",
        "test_roster_views.py",
        "test_sample_data.py",
        "test_serve.py",
        "test_serve_browser.py",
        "test_serve_heroclix.py",
        "test_serve_runs.py",
        "test_stats.py",
        "test_store.py",
        "test_tune_errors.py",
        "test_user_data.py",
        "test_validation.py",
        "test_validation_armies.py",
        "test_validation_cards.py",
        "test_validation_files.py",
        "test_validation_maps.py",
        "test_value_plumbing.py",
    }
)
"""Test files that check files, outputs, processes, packaging and statistics: what they test does not depend on
which engine plays, so CI runs them once: the quick ones on the pure engine (`-m "not plumbing"` on the compiled
one), the slow ones after that (`--slow -m plumbing`)."""


SLOW_FILES = frozenset(
    {
        "test_bench_against.py",  # builds side by side, under valgrind too
        "test_coverage.py",  # interval coverage over hundreds of seeded duels
        "test_faults.py",  # real processes killed, interrupted and starved
        "test_meta_dask.py",  # a Dask cluster in process
        "test_memory.py",  # a run's rows packed, compacted and written in batches: plumbing, on the compiled engine
        "test_store_as_played.py",  # a meta killed with -9 and run again
    }
)
SLOW_TESTS = frozenset(
    {
        "test_packaging.py::test_a_duel_runs_from_the_installed_wheel",
        "test_melee_calibration.py::test_real_mirrors_cover_the_equal_share_about_95_percent",
        "test_melee_field_calibration.py::test_rating_intervals_cover_the_common_value_about_95_percent",
        "test_readme.py::test_the_main_command_runs",
        "test_sequential.py::test_the_interval_where_the_run_stops_covers_the_true_score_95_percent_of_the_time",
        "test_sequential.py::test_duel_reports_precision_and_equivalence",
        "test_stats.py::test_interval_coverage_on_a_simulated_coin_is_near_95_percent",
        "test_store.py::test_a_changed_setting_misses_the_store",
        "test_store.py::test_fresh_plays_every_game_again",
        "test_store.py::test_an_interrupted_run_resumes_to_the_same_tables",
        "test_user_data.py::test_a_homebrew_army_file_plays_with_a_broken_unrelated_file_as_one_warning",
        "test_value.py::test_a_strictly_better_figure_at_the_same_cost_is_under_costed",
    }
)
"""The slow statistical, fault and packaging tests (`slow`): `python -m pytest` leaves them out, `--slow` runs
only them and `--all` runs everything; CI runs the slow ones on the compiled engine (README, "Tests"). Files or tests named on the command
line run whether slow or not."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("clix")
    group.addoption("--all", action="store_true", help="run every test, the slow ones (marked slow) included")
    group.addoption("--slow", action="store_true", help="run only the slow tests, which plain `pytest` leaves out")


def is_slow(item: pytest.Item) -> bool:
    name = item.path.name
    return name in SLOW_FILES or f"{name}::{getattr(item, 'originalname', item.name)}" in SLOW_TESTS


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in PLUMBING:
            item.add_marker(pytest.mark.plumbing)
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
    if not (shutil.which("chromium") or shutil.which("chromium-browser") or os.environ.get("CI")):
        browserless = [item for item in items if item.get_closest_marker("browser")]
        if browserless:  # no browser here (CI installs one and fails without it): reported as deselected
            config.hook.pytest_deselected(items=browserless)
            items[:] = [item for item in items if not item.get_closest_marker("browser")]
    unseen = [item for item in items if item.get_closest_marker("pure_engine")]
    if unseen:  # marked only on the compiled engine (tests/heroclix_checks.py `mutation`): the pure run plays them
        config.hook.pytest_deselected(items=unseen)
        items[:] = [item for item in items if not item.get_closest_marker("pure_engine")]
    wanted = config.getoption("--slow")
    named = config.args_source == pytest.Config.ArgsSource.ARGS  # files or tests named on the command line
    if config.getoption("--all") or (named and not wanted):
        return
    kept = [item for item in items if is_slow(item) == wanted]
    left_out = [item for item in items if is_slow(item) != wanted]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


PROJECT_STORE = Path("clix-out", "clix.duckdb").resolve()
"""The store every command uses by default, in the folder the tests run from (analyzer/cli/common.py `store_for`)."""


def _stamp(path: Path) -> tuple[int, int] | None:
    return (path.stat().st_mtime_ns, path.stat().st_size) if path.exists() else None


@pytest.fixture(autouse=True)
def _leaves_the_project_store_alone() -> Any:
    """A test that plays must keep its games to itself: `--store` (or a chdir to its tmp_path), never the store of
    the folder the tests run from, which every command writes by default whatever its `--out` (issue 37)."""
    before = _stamp(PROJECT_STORE)
    yield
    assert _stamp(PROJECT_STORE) == before, f"the test wrote {PROJECT_STORE}: give it --store or chdir to tmp_path"


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


SAMPLE_ROSTERS = Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"


@pytest.fixture(scope="module")
def roster() -> Roster:
    """The sample roster library (rosters/), loaded once per test module; it loads without problems."""
    loaded, problems = load_roster([SAMPLE_ROSTERS])
    assert problems == []
    return loaded
