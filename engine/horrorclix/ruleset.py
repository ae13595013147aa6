"""The HorrorClix ruleset (000/001 with the FAQ and errata): the rules of engine/horrorclix/rules.py and what they use, as
one `Ruleset` object (engine/core/ruleset.py). Loading it builds its registries; importing a module registers nothing.
"""

from __future__ import annotations

from functools import cache

from clix.engine import RULESET_VERSION
from clix.engine.core.ruleset import Ruleset
from clix.engine.horrorclix import plots, powers, rules
from clix.engine.horrorclix.registry import ABILITIES, PLOT_EFFECTS, POWERS
from clix.engine.horrorclix.roster.common import RULESET_NAME
from clix.engine.horrorclix.roster.loader import load_layers, load_roster
from clix.engine.horrorclix.state import PHASES

NAME = RULESET_NAME
ABILITIES_REGISTRY = "abilities"
PLOT_EFFECTS_REGISTRY = "plot_effects"
PLOT_EFFECT_HANDLERS = "plot_effect_handlers"
"""The registries a HorrorClix ruleset holds beside its powers: card abilities, plot-twist effects by name (what a
card may say), and the functions playing them (engine/horrorclix/card_effects.py)."""

PARTS = {
    "armies": "clix.engine.horrorclix.armybuilder",
    "models": "clix.engine.horrorclix.roster.models",
    "loader": "clix.engine.horrorclix.roster.loader",
    "registry": "clix.engine.horrorclix.registry",
    "legality": "clix.engine.horrorclix.legality",
    "scenario": "clix.engine.horrorclix.scenario",
    "players": "clix.engine.horrorclix.players.heuristic",
    "weights": "clix.engine.horrorclix.players.weights",
    "matchups": "clix.engine.horrorclix.matchups",
    "game": "clix.engine.horrorclix.game",
}
"""The modules the analyzer's tools reach by part (`Ruleset.part`, engine/core/ruleset.py `PARTS`)."""


@cache
def load() -> Ruleset:
    """HorrorClix, loaded once per process (every state of a process shares it)."""
    return Ruleset(
        name=NAME,
        version=RULESET_VERSION,
        loader=f"{__name__}:load",
        phases=tuple(str(phase) for phase in PHASES),
        powers=POWERS,
        handlers=powers.handlers(),
        legal_actions=rules.legal_actions,
        apply=rules.apply,
        begin_turn=rules.begin_turn,
        end_turn=rules.end_turn,
        score=rules.team_vp,
        roll_responders=(plots.after_attack_roll,),
        registries={
            ABILITIES_REGISTRY: ABILITIES,
            PLOT_EFFECTS_REGISTRY: PLOT_EFFECTS,
            PLOT_EFFECT_HANDLERS: plots.EFFECTS,
        },
        load_roster=load_roster,
        load_library=load_layers,
        run_scenario="clix.engine.horrorclix.scenario:run_scenario",
        check_game="clix.engine.horrorclix.selfcheck:check_game",
        matchups="clix.engine.horrorclix.matchups:matchups",
        parts=PARTS,
    )
