"""The names the engine knows: powers, card abilities and plot-twist effects.

Roster files refer to powers and plot-twist effects by these stable names; the validator rejects
any other name, so a figure can never silently rely on something the engine does not play.
Each entry also declares the parameters it takes, so a typo in a parameter is caught at load.
"""

from clix.engine.horrorclix.registry.params import ParamSpec, check_params
from clix.engine.horrorclix.registry.plot_effects import PLOT_EFFECTS, PlotEffectSpec
from clix.engine.horrorclix.registry.powers import ABILITIES, POWERS, AbilitySpec, PowerSpec

__all__ = [
    "ABILITIES",
    "PLOT_EFFECTS",
    "POWERS",
    "AbilitySpec",
    "ParamSpec",
    "PlotEffectSpec",
    "PowerSpec",
    "check_params",
]
