"""Checks shared by the HeroClix test files (imported as `heroclix_checks`: pytest puts tests/ on the path): the
scenarios that fail now, the mutation check every rule's test makes, and a random game that uses a file's powers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.dice import Dice
from clix.engine.core.files.problems import InvalidFile
from clix.engine.heroclix.scenario import run_scenario

HEROCLIX_SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "heroclix"


def heroclix_failures(under: str = "") -> dict[str, list[str]]:
    """Each HeroClix scenario that fails now, by its path under tests/scenarios/heroclix, with its failures (of the
    scenarios whose path there starts with `under`: all by default)."""
    failed = {}
    for path in sorted(HEROCLIX_SCENARIOS.rglob("*.yaml")):
        if not str(path.relative_to(HEROCLIX_SCENARIOS)).startswith(under):
            continue
        try:
            result = run_scenario(path)
        except (InvalidFile, ValueError) as exc:
            failed[str(path.relative_to(HEROCLIX_SCENARIOS))] = [str(exc)]
            continue
        if result.failures:
            failed[str(path.relative_to(HEROCLIX_SCENARIOS))] = result.failures
    return failed


def compiled_module(module: object) -> bool:
    """Whether `module` was loaded from the compiled engine's build (engine/compiled.py), not from its source."""
    return str(getattr(module, "__file__", "")).endswith((".so", ".pyd"))


def unseen_when_compiled(module: object, value: object) -> bool:
    """Whether setting `module`'s attribute to `value` would go unseen: compiled code calls the functions of the
    compiled modules directly, never through the module's attribute. A changed constant is read through the module by
    compiled code too, so it is seen on both engines."""
    return callable(value) and compiled_module(module)


def mutation(*values: object, module: object, value: object, id: str | None = None) -> object:
    """One row of a mutation test's parametrize: marked `pure_engine` when the compiled engine would never see the
    replacement (`unseen_when_compiled`). tests/conftest.py leaves such rows out of a compiled run, reported as
    deselected; the suite's run on the pure engine (CLIX_PURE=1, CI's other half) plays them."""
    marks = [pytest.mark.pure_engine] if unseen_when_compiled(module, value) else []
    return pytest.param(*values, marks=marks, id=id)


def mutations_by_rule(mutants: dict[str, tuple]) -> list:
    """The rules of a `{rule: (module, name, value, scenario)}` table as parametrize rows (`mutation`)."""
    return [mutation(rule, module=row[0], value=row[2], id=rule) for rule, row in sorted(mutants.items())]


def mutation_rows(rows: Sequence[tuple]) -> list:
    """`(rule, module, name, value, scenario)` rows as parametrize rows (`mutation`), each named by its rule."""
    return [mutation(*row, module=row[1], value=row[3], id=row[0]) for row in rows]


def fails_when_changed(rule: str, module: object, name: str, value: object, scenario: str, monkeypatch) -> None:
    """Set `module.name` to `value` (a rule's constant changed, or its function taken out): a scenario whose path under
    tests/scenarios/heroclix starts with `scenario` must then fail (the mutation tests of every HeroClix test file)."""
    assert not unseen_when_compiled(module, value), (
        f"{rule}: parametrize it with `mutation`: compiled code never sees it"
    )
    monkeypatch.setattr(module, name, value)
    failed = heroclix_failures(under=scenario)  # only the scenarios it names: the rest cannot answer the question
    assert any(path.startswith(scenario) for path in failed), f"{rule}: {name} changed and {scenario} still passes"


def random_power_game(
    arena: dict,
    played: Sequence[str],
    seed: int,
    power_share: float,
    attack_share: float = 0.0,
    tags: Callable[[object, object], set[str]] = lambda state, action: set(),
) -> set[str]:
    """One random game of a test's `arena` scenario, checked as it goes: every listed action is legal (`why_not`), every
    choice put in the middle of an action is answered at random, the invariants hold after each action. A draw below
    `power_share` takes one of the `played` powers (each as likely) when one may be used, then one of its actions; a
    draw below `power_share + attack_share` an attack; otherwise any action. Returns the powers used, the kinds of
    choice put and the `tags` of the actions taken (the shared loop of the HeroClix power test files)."""
    from clix.engine.core import decisions
    from clix.engine.core.pending import Decision
    from clix.engine.heroclix import rules
    from clix.engine.heroclix.invariants import violations
    from clix.engine.heroclix.scenario import build_state
    from clix.engine.heroclix.scenario_format import Scenario
    from clix.engine.heroclix.state import Close, PowerAction, Ranged

    state, _ = build_state(Scenario.model_validate(arena))
    state.dice = Dice(np.random.default_rng([seed, 0]))
    state.turn_limit = 12
    rng = np.random.default_rng([seed, 1])
    used: set[str] = set()
    for _ in range(600):
        if state.over:
            break
        listed = rules.legal_actions(state)
        for action in listed:
            assert rules.why_not(state, action) == "", action
        by_power: dict[str, list] = {}
        for action in listed:
            power = action.power if isinstance(action, PowerAction) else getattr(action, "use", "")
            if power in played:
                by_power.setdefault(power, []).append(action)
        pool = listed
        attacks = [a for a in listed if isinstance(a, Close | Ranged)]
        # without attacks to favour, a draw only when there is a power to pick (the stream the file's seeds were set on)
        draw = rng.random() if by_power or attack_share else 1.0
        if by_power and draw < power_share:
            power = sorted(by_power)[int(rng.integers(len(by_power)))]
            pool = by_power[power]
            used.add(power)
        elif attacks and draw < power_share + attack_share:  # so that the powers used against attacks have their moment
            pool = attacks
        action = pool[int(rng.integers(len(pool)))]
        used |= tags(state, action)
        rules.apply(state, action, listed=True)
        while isinstance(state.waiting, Decision):  # a choice in the middle of the action, by any player
            used.add(state.waiting.kind)
            decisions.answer(state, int(rng.integers(len(state.waiting.options))))
        assert violations(state) == [], (seed, action, violations(state))
    return used


def assert_replays(play: Callable[[], object]) -> None:
    """A game played twice from the same seed is the same game, event for event, with the same result: every
    choice and every die comes from the game's own seeded generators."""
    one, two = play(), play()
    assert [(e.kind, e.turn, e.detail) for e in one.log] == [(e.kind, e.turn, e.detail) for e in two.log]  # type: ignore[attr-defined]
    assert one.points == two.points and one.winner == two.winner  # type: ignore[attr-defined]
