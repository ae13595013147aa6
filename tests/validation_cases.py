"""The broken-roster cases of the validation tests (tests/test_validation*.py): every rule in engine/horrorclix/roster (models,
dial, loader, legality, yaml_lines) has a test.

Each test starts from the valid mini roster (tests/fixtures/mini_roster, copied to a temporary directory), breaks
exactly one thing (`case`), and asserts the one problem reported against that file (`check_case`): its field, its
line and the words of its message. Removing a rule therefore makes its test fail. Rule IDs are from
docs/horrorclix_rules.md and appear in the test ids.
"""

from __future__ import annotations

import pytest

FIGURE = "figures/grave-knight-u.yaml"  # unique, range 0, red attack + orange defense powers, 5 clicks
DEMO = "figures/demo-ghoul-d.yaml"
CROSSROADS = "figures/crossroads-witch-e.yaml"  # start_a/start_b, transformed side, red_start 2, 6 clicks
KEEPER = "figures/crypt-keeper-r.yaml"  # grants one extra plot twist
PLOT_TWISTS = "plot_twists.yaml"
VICTIMS = "victims.yaml"
MAP = "maps/graveyard-mini.yaml"
ARMY = "armies/legal-army.yaml"

Edit = tuple[str, str, str]
TWIST = {
    "name": "Not So Fast",
    "windows": ["slaying"],
    "effect": {"name": "prevent_slaying"},
    "text": "Stop a slaying.",
    "provenance": "test",
}
VICTIM = {"name": "Jock", "speed": 6, "gender": "male", "provenance": "test"}


def case(case_id: str, edits: Edit | list[Edit], file: str, field: str, at: str | int, *message: str) -> object:
    """One broken-roster case: apply `edits` (file, old, new); expect one problem in `file`.

    The problem must name `field`, sit on the line of the edited `file` containing `at` (or on line `at` when
    it is a number), and its message must contain every string of `message`.
    """
    return pytest.param(edits if isinstance(edits, list) else [edits], file, field, at, message, id=case_id)


def check_case(mini, edits: list[Edit], file: str, field: str, at: str | int, message: tuple[str, ...]) -> None:
    for name, old, new in edits:
        mini.edit(name, old, new)
    problem = mini.only_problem(file)
    assert problem.field == field, str(problem)
    assert problem.line == (at if isinstance(at, int) else mini.line(file, at)), str(problem)
    for part in message:
        assert part in problem.message, f"{part!r} not in {problem.message!r}"
    assert str(problem) == f"{problem.file}:{problem.line}: {field}: {problem.message}"
