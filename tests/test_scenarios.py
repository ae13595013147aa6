"""Every scenario file in tests/scenarios is a rules test, played by the ruleset it names (the formats:
docs/scenario-format.md; ../shared/scenario-format-heroclix.md for `ruleset: heroclix-2005` under heroclix/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clix.engine.core.files.folders import yaml_files
from clix.engine.core.ruleset import DEFAULT_RULESET, file_ruleset, ruleset_named

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = yaml_files([ROOT / "tests" / "scenarios"])


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 2


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT / "tests" / "scenarios")) for p in SCENARIOS])
def test_scenario(path: Path, roster) -> None:
    ruleset = ruleset_named(file_ruleset(path))
    result = ruleset.run_scenario(path, roster if ruleset.name == DEFAULT_RULESET else None)
    assert result.failures == [], f"{path.name} ({', '.join(result.rules)}): {result.name}"


def test_scenario_format_copy_matches_shared() -> None:
    """docs/ carries a copy of the scenario format; where shared/ sits beside the clone they must agree (the
    copy adds one note under its title)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    ours = (root / "docs" / "scenario-format.md").read_text(encoding="utf-8").splitlines()
    assert ours[0].startswith("# Scenario files")
    shared = root.parent / "shared" / "scenario-format.md"
    if shared.exists():
        theirs = shared.read_text(encoding="utf-8").splitlines()
        kept = [line for line in ours if not line.startswith("> Copied from")]
        assert [line for line in kept if line.strip()] == [line for line in theirs if line.strip()]
