"""Power handlers (engine/horrorclix/powers): every registered power has one; healing limits; the action shapes of
Pounce and Lure agree between `legal_actions`, `why_not` and `apply`. The behaviour of each power is
checked by the scenarios in tests/scenarios/powers (one or more per power, failing if its effect goes)."""

from __future__ import annotations

from typing import Any

import pytest
from clix.engine.core import effects
from clix.engine.horrorclix import combat, rules
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.actions import Close, LureVictim, Move
from clix.engine.horrorclix.registry.powers import POWERS
from clix.engine.horrorclix.scenario import Scenario, build_state
from clix.engine.horrorclix.state import GameState

FILLER = ["6 8 15 2"] * 6 + ["x"]
HANDLERS = horrorclix.load().handlers


def test_every_registered_power_has_a_handler():
    """Issue 4: every power is implemented. Needs both power modules (engine/horrorclix/powers/combat.py and the
    special powers' module); fails while either is missing a handler."""
    missing = sorted(set(POWERS) - set(HANDLERS))
    assert not missing, f"powers with no handler in the HorrorClix ruleset: {missing}"


def test_handlers_only_for_registered_powers():
    assert set(HANDLERS) <= set(POWERS)


def state_of(monsters: list[dict[str, Any]], **extra: Any) -> tuple[GameState, dict[str, int], dict[str, int]]:
    scenario = Scenario.model_validate({"name": "unit", "monsters": monsters, "expect": {}, **extra})
    return build_state(scenario, None)


# --- healing limits (HC-COMBAT-10) -------------------------------------------------------------------


def test_red_line_starter_heals_to_the_green_line_not_past_it():
    """A monster started on its red line (click 3) heals back past it up to the green line (click 1),
    never to the click before the green line (issue 4; docs/rulings.md)."""
    state, ids, _ = state_of([{"id": "A", "player": 1, "dial": ["6 9 16 2"] * 5 + ["x"], "start": 1, "at": [1, 1]}])
    monster = state.monsters[ids["A"]]
    monster.start_line = 3  # as a card that starts on its red line sets it (HC-SETUP-07)
    monster.click = 4
    assert combat.heal_floor(monster) == 1
    assert combat.heal(state, monster, 5) == 3
    assert monster.click == 1


def test_healing_never_crosses_skulls():
    """A werewolf-like dial (human clicks, skulls, wolf clicks): healing from the wolf part stops after the
    skulls even though the green line lies before them (HC-COMBAT-10, HC-CARD-09)."""
    dial = ["6 9 16 2", "6 9 16 2", "x", "7 10 17 3", "7 10 17 3", "6 9 16 2", "x"]
    state, ids, _ = state_of([{"id": "W", "player": 1, "dial": dial, "at": [1, 1], "click": 5}])
    wolf = state.monsters[ids["W"]]
    assert combat.heal_floor(wolf) == 3
    assert combat.heal(state, wolf, 4) == 2
    assert wolf.click == 3


def test_heal_floor_of_a_green_line_starter_is_its_starting_line():
    state, ids, _ = state_of([{"id": "A", "player": 1, "dial": ["6 9 16 2"] * 4 + ["x"], "start": 2, "at": [1, 1]}])
    monster = state.monsters[ids["A"]]
    monster.click = 3
    assert combat.heal(state, monster, 3) == 1
    assert monster.click == 2


# --- the action shapes of dependant powers ------------------------------------------------------------


def consistent(state: GameState) -> list[Any]:
    """Every listed action is allowed by `why_not` (the two cannot disagree)."""
    actions = rules.legal_actions(state)
    for action in actions:
        assert rules.why_not(state, action) == "", action
    return actions


def test_pounce_is_listed_with_its_targets_and_each_listed_pounce_applies():
    state, ids, _ = state_of(
        [
            {"id": "A", "player": 1, "dial": ["3 9 16 3", "x"], "powers": ["Pounce"], "at": [2, 2]},
            {"id": "B", "player": 2, "dial": FILLER, "at": [5, 2]},
        ]
    )
    pounces = [a for a in consistent(state) if isinstance(a, Move) and a.power == "Pounce"]
    assert pounces, "a Pounce move with its attack should be listed"
    assert all(a.target == ids["B"] for a in pounces)
    assert not any(isinstance(a, Move) and a.power == "Pounce" and a.target is None for a in rules.legal_actions(state))


def test_lure_is_listed_per_victim_path_and_not_as_a_monster_move():
    state, _, victims = state_of(
        [
            {
                "id": "A",
                "player": 1,
                "dial": ["6 9 16 2", "x"],
                "powers": [{"name": "Lure", "params": {"range": 3}}],
                "at": [2, 2],
            },
            {"id": "B", "player": 2, "dial": FILLER, "at": [11, 11]},
        ],
        victims=[{"id": "V1", "at": [4, 2], "face_up": True}, {"id": "V2", "at": [9, 9], "face_up": True}],
    )
    actions = consistent(state)
    lures = [a for a in actions if isinstance(a, LureVictim)]
    assert {a.victim for a in lures} == {victims["V1"]}  # V2 is beyond range 3
    assert max(len(a.path) for a in lures) == 2
    assert not any(isinstance(a, Move) and a.power == "Lure" for a in actions)
    rules.apply(state, lures[0])
    assert state.victims[victims["V1"]].pos == lures[0].path[-1]


def test_execution_is_listed_only_against_vulnerable_targets():
    state, ids, _ = state_of(
        [
            {
                "id": "A",
                "player": 1,
                "dial": ["6 9 16 1", "x"],
                "powers": [{"name": "Execution", "params": {"damage": 4}}],
                "at": [2, 2],
            },
            {"id": "B", "player": 2, "dial": FILLER, "at": [3, 2], "tokens": 2},
            {"id": "C", "player": 2, "dial": FILLER, "at": [1, 2], "tokens": 1},
        ]
    )
    executions = [a for a in consistent(state) if isinstance(a, Close) and a.power == "Execution"]
    assert [a.target for a in executions] == [ids["B"]]
    assert "vulnerable" in rules.why_not(state, Close(ids["A"], ids["C"], "Execution"))


@pytest.mark.parametrize("power", sorted(n for n, p in POWERS.items() if p.trigger in effects.DEPENDANT))
def test_dependant_powers_only_in_effect_when_declared(power):
    """HC-CARD-08: a dependant power is in effect only while the action it was declared for resolves."""
    state, ids, _ = state_of([{"id": "A", "player": 1, "dial": ["6 9 16 2", "x"], "powers": [power], "at": [1, 1]}])
    monster = state.monsters[ids["A"]]
    assert power not in [name for _, _, name in effects.in_effect(state, monster)]
    state.declared[monster.uid] = power
    assert power in [name for _, _, name in effects.in_effect(state, monster)] or power not in HANDLERS


def test_only_a_victim_moving_power_moves_a_victim():
    state, ids, victims = state_of(
        [
            {"id": "A", "player": 1, "dial": ["6 9 16 2", "x"], "powers": ["Pounce"], "at": [2, 2]},
            {"id": "B", "player": 2, "dial": FILLER, "at": [11, 11]},
        ],
        victims=[{"id": "V1", "at": [4, 2], "face_up": True}],
    )
    for power in ("Pounce", None):
        reason = rules.why_not(state, LureVictim(ids["A"], victims["V1"], (state.geometry.index(3, 2),), power))
        assert "needs a declared move power" in reason
