"""Horrified scenario files (issue 40; the format: docs/data-formats.md, "Horrified scenario files"): every rule
implemented so far has one under tests/scenarios/horrified/ (tests/test_scenarios.py plays them all), and the harness
fails a wrong expectation and refuses a wrong name in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from clix.engine.core.files.problems import InvalidFile
from clix.engine.horrified.scenario import run_scenario

FOLDER = Path(__file__).resolve().parent / "scenarios" / "horrified"
COVERED = {
    "HF-SETUP-01", "HF-SOLO-01", "HF-TURN-01", "HF-ACT-01", "HF-ACT-02", "HF-ACT-03", "HF-ACT-04", "HF-ACT-05",
    "HF-ACT-06", "HF-ACT-07", "HF-VILL-01", "HF-PERK-01", "HF-ITEM-02", "HF-MON-01", "HF-MON-02", "HF-MON-03",
    "HF-MON-04", "HF-MON-05", "HF-MON-06", "HF-HIT-01", "HF-HIT-02", "HF-FRZ-01", "HF-DEF-01", "HF-GOAL-01",
    "HF-GOAL-02", "HF-GOAL-03", "HF-M-DRA", "HF-M-INV", "HF-M-MUM", "HF-M-WOL", "HF-M-CRE", "HF-M-FRB",
}  # fmt: skip
"""The rules implemented so far with a scenario (HF-SETUP-02..04, HF-PERK-02 and HF-ITEM-03 are tested in
tests/test_horrified.py: their setups are not a scenario's)."""


def test_every_implemented_rule_has_a_passing_scenario():
    named: set[str] = set()
    for path in sorted(FOLDER.glob("*.yaml")):
        result = run_scenario(path)
        assert result.failures == [], f"{path.name}: {result.failures}"
        named |= set(result.rules)
    assert named >= COVERED, sorted(COVERED - named)


def test_a_wrong_expectation_fails(tmp_path):
    data = yaml.safe_load((FOLDER / "hf_m_inv_stalk.yaml").read_text(encoding="utf-8"))
    data["expect"]["at"]["invisible-man"] = "lamp"
    path = tmp_path / "wrong.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert run_scenario(path).failures == ["at.invisible-man: expected 'lamp', got 'shop'"]


def test_an_unanswered_decision_and_an_illegal_step_fail(tmp_path):
    data = yaml.safe_load((FOLDER / "hf_mon_03_tie_chosen.yaml").read_text(encoding="utf-8"))
    data["steps"] = ["end"]
    path = tmp_path / "unanswered.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert "still waits for a closest decision" in run_scenario(path).failures[0]
    data = yaml.safe_load((FOLDER / "hf_act_01_no_water.yaml").read_text(encoding="utf-8"))
    data["expect"] = {}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert run_scenario(path).failures == ["steps[0]: {'move': 'river'} is not a legal action now"]


def test_a_wrong_name_is_one_line(tmp_path):
    data = yaml.safe_load((FOLDER / "hf_act_01_no_water.yaml").read_text(encoding="utf-8"))
    data["setup"]["villagers"] = {"lucie": "inn"}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(InvalidFile) as caught:
        run_scenario(path)
    (problem,) = caught.value.problems
    assert "setup: no villager is called 'lucie'; there are lucy, maleva" in str(problem)
