"""Every scenario file in tests/scenarios is a rules test (the format: shared/scenario-format.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scenario import run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = scenario_files([ROOT / "tests" / "scenarios"])


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 2


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT / "tests" / "scenarios")) for p in SCENARIOS])
def test_scenario(path: Path, roster) -> None:
    result = run_scenario(path, roster)
    assert result.failures == [], f"{path.name} ({', '.join(result.rules)}): {result.name}"
