"""The HeroClix 2005 ruleset as one core `Ruleset` object (engine/core/ruleset.py), found by the name its files
give (`ruleset: heroclix-2005`). Loading it builds its tables; importing a module registers nothing."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import cast

from clix.engine.core.ruleset import Ruleset
from clix.engine.heroclix import probability, rules
from clix.engine.heroclix.powers import POWERS
from clix.engine.heroclix.state import PHASES

NAME = "heroclix-2005"
VERSION = "heroclix-2005/part2-2"
"""Bumped whenever a change of these rules can change a seeded game."""
RESPONDER = cast(Callable[..., tuple[int, int]], probability.respond)
"""Probability Control (HX-POWER-42), called after each attack roll as the core's roll responders are, and by
HeroClix after each break-away roll too, with no targets and one die (so it returns the dice it was given, one or
two: the core's type names the attack roll's two)."""


PARTS = {
    "armies": "clix.engine.heroclix.armybuilder",
    "models": "clix.engine.heroclix.library",
    "loader": "clix.engine.heroclix.library",
    "cards": "clix.engine.heroclix.card_files",
    "card_checks": "clix.engine.heroclix.card_checks",
    "scenario": "clix.engine.heroclix.scenario_format",
    "players": "clix.engine.heroclix.players.heuristic",
    "weights": "clix.engine.heroclix.players.weights",
    "matchups": "clix.engine.heroclix.matchups",
}
"""The modules the analyzer's tools reach by part (`Ruleset.part`, engine/core/ruleset.py `PARTS`)."""


@cache
def load() -> Ruleset:
    """HeroClix, loaded once per process. It plays the 48 powers of the 2005 card."""
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
        roll_responders=(RESPONDER,),
        load_library="clix.engine.heroclix.library:load_library",
        run_scenario="clix.engine.heroclix.scenario:run_scenario",
        check_game="clix.engine.heroclix.invariants:check_game",
        matchups="clix.engine.heroclix.matchups:matchups",
        parts=PARTS,
    )
