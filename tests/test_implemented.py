"""`clix roster check` fails on a power or plot-twist effect the engine does not implement (issue 4)."""

from __future__ import annotations

from pathlib import Path

from clix.engine.horrorclix import plots
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.legality import implementation_problems
from clix.engine.horrorclix.roster.loader import load_roster

ROOT = Path(__file__).resolve().parent.parent


def test_every_sample_power_and_effect_is_implemented():
    roster, problems = load_roster([ROOT / "rosters" / "horrorclix"])
    assert problems == []
    assert implementation_problems(roster) == []


def test_a_power_without_a_handler_is_a_problem(monkeypatch):
    roster, _ = load_roster([ROOT / "rosters" / "horrorclix"])
    monkeypatch.delitem(horrorclix.load().handlers, "Slash")
    problems = implementation_problems(roster)
    assert problems and all("'Slash'" in p.message for p in problems)
    assert {p.field.rsplit(".", 1)[-1] for p in problems} == {"name"}
    assert all(p.line > 0 and p.file.endswith(".yaml") for p in problems)


def test_an_effect_without_an_implementation_is_a_problem(monkeypatch):
    roster, _ = load_roster([ROOT / "rosters" / "horrorclix"])
    monkeypatch.delitem(plots.EFFECTS, "reroll_attack")
    problems = implementation_problems(roster)
    expected = sum(card.effect.name == "reroll_attack" for card in roster.plot_twists.values())
    assert expected > 0 and len(problems) == expected
    assert all("reroll_attack" in p.message and p.field.endswith("effect.name") for p in problems)
