"""The HeroClix 2005 ruleset as one core `Ruleset` object (engine/core/ruleset.py), found by the name its files
give (`ruleset: heroclix-2005`). Loading it builds its tables; importing a module registers nothing."""

from __future__ import annotations

from functools import cache

from clix.engine.core.ruleset import Ruleset
from clix.engine.heroclix import rules
from clix.engine.heroclix.powers import POWERS
from clix.engine.heroclix.state import PHASES

NAME = "heroclix-2005"
VERSION = "heroclix-2005/part2-2"
"""Bumped whenever a change of these rules can change a seeded game."""


@cache
def load() -> Ruleset:
    """HeroClix, loaded once per process. Its powers so far are those 002 itself gives (the rest come in part 2)."""
    return Ruleset(
        name=NAME,
        version=VERSION,
        loader=f"{__name__}:load",
        phases=PHASES,
        powers=POWERS,
        handlers={},
        legal_actions=rules.legal_actions,
        apply=rules.apply,
        begin_turn=rules.begin_turn,
        end_turn=rules.end_turn,
        score=rules.score,
        load_library="clix.engine.heroclix.library:load_library",
        run_scenario="clix.engine.heroclix.scenario:run_scenario",
        check_game="clix.engine.heroclix.invariants:check_game",
        matchups="clix.engine.heroclix.matchups:matchups",
    )
