"""Horrified as one core `Ruleset` (engine/core/ruleset.py), found by the name its files give (`ruleset: horrified`).
Loading it builds nothing global; importing a module registers nothing."""

from __future__ import annotations

from functools import cache

from clix.engine.core.ruleset import Ruleset
from clix.engine.horrified import rules
from clix.engine.horrified.state import PHASES

NAME = "horrified"
VERSION = "horrified/monsters-1"
"""Bumped whenever a change of these rules or of the sample components can change a seeded game."""


@cache
def load() -> Ruleset:
    """Horrified, loaded once per process (all six monsters, HF-M-*)."""
    return Ruleset(
        name=NAME,
        version=VERSION,
        loader=f"{__name__}:load",
        phases=PHASES,
        powers={},
        handlers={},
        legal_actions=rules.legal_actions,
        apply=rules.apply,
        begin_turn=rules.begin_turn,
        end_turn=rules.end_turn,
        score=rules.score,
        load_library="clix.engine.horrified.library:load_library",
        run_scenario="clix.engine.horrified.scenario:run_scenario",
        check_game="clix.engine.horrified.invariants:check_game",
        matchups="clix.engine.horrified.matchups:matchups",
    )
