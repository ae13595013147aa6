"""Plot-twist effects by stable name.

The documents give no plot-twist card texts (HC-DATA-10, OPEN); the sample cards use these effects,
designed in the spirit of each card's name. A card names one effect plus its parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.registry.params import ParamSpec

WINDOWS = ("setup", "preview", "suspense", "slaying", "rescue", "attack_roll", "hunting")


@dataclass(frozen=True)
class PlotEffectSpec:
    """A plot-twist effect the engine knows by name."""

    name: str
    summary: str
    params: dict[str, ParamSpec] = field(default_factory=dict)


_EFFECT_LIST: list[PlotEffectSpec] = [
    PlotEffectSpec("prevent_slaying", "Stop a slaying; the victim goes to an adjacent unoccupied space (HC-PLOT-06)."),
    PlotEffectSpec("prevent_rescue", "Stop a rescue; the victim goes to an adjacent unoccupied space."),
    PlotEffectSpec(
        "reroll_attack",
        "Reroll one attack roll; the reroll must be used (HC-PLOT-12).",
        {"whose": ParamSpec(str, choices=("own", "opposing", "any"))},
    ),
    PlotEffectSpec(
        "subplot_vp",
        "Subplot: score `vp` victory points at game end if `condition` holds.",
        {"vp": ParamSpec(int, minimum=1), "condition": ParamSpec(str)},
    ),
]

PLOT_EFFECTS: dict[str, PlotEffectSpec] = {e.name: e for e in _EFFECT_LIST}
