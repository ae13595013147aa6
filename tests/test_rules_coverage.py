"""Which rules of the engine's sections no scenario covers (issue: TURN, MOVE, SLAY, COMBAT, HOURGLASS,
VALUE, TERRAIN, END must each have a scenario naming every rule ID)."""

from __future__ import annotations

import re
from pathlib import Path

from clix.engine.horrorclix.scenario import load_scenario
from helpers import horrorclix_files

ROOT = Path(__file__).resolve().parent.parent
CHECKLIST = ROOT / "docs" / "horrorclix_rules.md"
SHARED = ROOT.parent / "shared" / "rules" / "horrorclix_rules.md"
ENGINE_SECTIONS = ("TURN", "MOVE", "SLAY", "COMBAT", "HOURGLASS", "VALUE", "TERRAIN", "END")


def rule_ids(sections: tuple[str, ...]) -> set[str]:
    text = CHECKLIST.read_text(encoding="utf-8")
    return {m for m in re.findall(r"\*\*(HC-[A-Z]+-\d+)\*\*", text) if m.split("-")[1] in sections}


def cited_rules() -> set[str]:
    cited: set[str] = set()
    for path in horrorclix_files([ROOT / "tests" / "scenarios"]):
        scenario, problems = load_scenario(path)
        assert scenario is not None, problems
        cited.update(scenario.rules)
    return cited


def test_checklist_copy_matches_shared():
    """docs/ carries a copy of the checklist; where shared/ sits beside the clone they must agree."""
    ours = CHECKLIST.read_text(encoding="utf-8").splitlines()
    assert len(rule_ids(ENGINE_SECTIONS)) == 150
    if SHARED.exists():
        theirs = SHARED.read_text(encoding="utf-8").splitlines()
        assert [line for line in ours if line.startswith("- **HC-")] == [
            line for line in theirs if line.startswith("- **HC-")
        ]


def test_cited_rule_ids_exist():
    unknown = cited_rules() - rule_ids(tuple(s for s in re.findall(r"## HC-([A-Z]+)", CHECKLIST.read_text())))
    assert not unknown, f"scenarios cite rule IDs the checklist does not have: {sorted(unknown)}"


def test_every_engine_rule_has_a_scenario():
    missing = sorted(rule_ids(ENGINE_SECTIONS) - cited_rules(), key=lambda r: (r.split("-")[1], int(r.split("-")[2])))
    assert not missing, f"{len(missing)} rules of {', '.join(ENGINE_SECTIONS)} have no scenario: {', '.join(missing)}"


CARD_SECTIONS = ("CARD", "PLOT", "SPECIAL")
VALIDATION_TESTS = sorted((ROOT / "tests").glob("test_validation*.py"))


def test_every_card_plot_and_special_rule_is_covered():
    """Issue 4: CARD, PLOT and SPECIAL covered like the base rules. Rules about building armies (which a board
    cannot show) count as covered when the validation tests, which check army files, cite them."""
    cited_by_validation = {
        rule for path in VALIDATION_TESTS for rule in re.findall(r"HC-[A-Z]+-\d+", path.read_text(encoding="utf-8"))
    }
    missing = sorted(
        rule_ids(CARD_SECTIONS) - cited_rules() - cited_by_validation,
        key=lambda r: (r.split("-")[1], int(r.split("-")[2])),
    )
    assert not missing, f"{len(missing)} rules of {', '.join(CARD_SECTIONS)} are not covered: {', '.join(missing)}"
