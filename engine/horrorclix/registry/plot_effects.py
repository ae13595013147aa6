"""Plot-twist effects by stable name.

The documents give no plot-twist card texts (HC-DATA-10, OPEN); the sample cards use these effects,
designed in the spirit of each card's name. A card names one effect plus its parameters.

Conventions every effect follows (clix design unless a rule is cited):

- "friendly" and "opposing" are judged from the card's player (HC-SPECIAL-02). In the suspense,
  slaying and rescue windows the card's player is an opponent of the active player (HC-PLOT-07).
- A suspense card is played after the active player chose a victim and must touch that victim
  (HC-VICTIM-03). Unless its effect moves or freezes the victim, the active player then moves the
  victim as usual.
- Plot-twist damage is not an attack: an intangible monster can still be damaged (HC-COMBAT-30);
  "deals" damage passes through damage reducers, "takes" damage does not (HC-COMBAT-29).
- Modifiers obey the rule of 3 and never take a value below 0 (HC-VALUE-05).
- A card with `or_reroll: true` may instead be played right after any attack roll to reroll it
  (HC-PLOT-07, HC-PLOT-12); such a card lists `attack_roll` among its windows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clix.engine.horrorclix.registry.params import COMBAT_VALUES, ParamSpec

WINDOWS = ("setup", "preview", "suspense", "slaying", "rescue", "attack_roll", "hunting")

WINDOW_HELP: dict[str, str] = {
    "setup": "revealed face up at setup step 7; subplots only (HC-SETUP-09, HC-PLOT-04)",
    "preview": "the owner's own preview phase, one per phase; ticking clocks only (HC-PLOT-05, HC-PLOT-10)",
    "suspense": "after the active player chooses a victim; the opponent to the active player's left (HC-PLOT-07)",
    "slaying": "an opposing monster is about to slay a victim; one opponent may respond (HC-PLOT-06, HC-PLOT-13)",
    "rescue": "an opposing monster is about to rescue a victim; one opponent may respond (HC-SLAY-06)",
    "attack_roll": "the card's own timing: right after an attack roll, before hit or miss is settled (HC-PLOT-07)",
    "hunting": "the card's own timing: in its player's own hunting phase, before an action is given (HC-PLOT-07)",
}

NORMAL_WINDOWS = ("suspense", "slaying", "rescue", "attack_roll", "hunting")


# The six major classes (HC-DATA-01). Minor classes exist; add them here when a card needs one.
CLASSES = ("Beasts", "Guardians", "Occultists", "Slashers", "Spirits", "Undead")

DURATIONS = ("this_action", "this_turn", "until_your_next_turn", "through_their_next_turn")
DURATION_HELP = (
    "this_action: the action or attack it was played in (HC-VALUE-03); this_turn: to the end of the "
    "current turn; until_your_next_turn: to the start of the card player's next turn (HC-TURN-08); "
    "through_their_next_turn: to the end of the active player's next turn"
)

# Which monster(s) an effect picks. `*_near_victim` means within `reach` spaces of the chosen victim.
TARGETS = (
    "slayer",
    "rescuer",
    "attacker",
    "attack_target",
    "opposing_near_victim",
    "all_opposing_near_victim",
    "friendly_near_victim",
    "one_opposing",
    "all_opposing",
    "one_friendly",
    "all_friendly",
)
TARGET_WINDOWS: dict[str, tuple[str, ...]] = {
    "slayer": ("slaying",),
    "rescuer": ("rescue",),
    "attacker": ("attack_roll",),
    "attack_target": ("attack_roll",),
    "opposing_near_victim": ("suspense",),
    "all_opposing_near_victim": ("suspense",),
    "friendly_near_victim": ("suspense",),
}

SUBPLOT_CONDITIONS: dict[str, str] = {
    "last_army_standing": "once: at game end only your monsters are left on the map",
    "each_victim_not_slain": "per victim not slain: rescued by any player or still on the map (HC-PLOT-09)",
    "each_victim_slain": "per victim slain by any monster",
    "rival_killed": "once: one of your monsters killed your rival, the opposing monster with the most points at setup",
    "each_victim_on_master": "per victim on the card of your master, your monster with the most points, at game end",
    "each_victim_rescued_by_you": "per victim rescued by a monster you controlled",
}


@dataclass(frozen=True)
class PlotEffectSpec:
    """A plot-twist effect the engine knows by name, and the windows it can be played in."""

    name: str
    summary: str
    params: dict[str, ParamSpec] = field(default_factory=dict)
    windows: tuple[str, ...] = NORMAL_WINDOWS


def _opt(kind: type, help_text: str, **kwargs: Any) -> ParamSpec:
    return ParamSpec(kind, required=False, help=help_text, **kwargs)


_AMOUNT = ParamSpec(int, minimum=1, help="how much")
_TARGET = ParamSpec(str, choices=TARGETS, help="which monster(s), seen from the card's player")
_REACH = _opt(int, "spaces from the chosen victim for *_near_victim targets (default 1: adjacent)", minimum=1)
_CLASS = _opt(str, "only a monster of this class may be picked", choices=CLASSES)
_DURATION = ParamSpec(str, choices=DURATIONS, help=DURATION_HELP)
_OR_REROLL = _opt(bool, "the card may instead reroll one attack roll (list attack_roll in windows)")

_STOP_PARAMS = {
    "placement": _opt(
        str,
        "where the victim goes: adjacent (default, chosen by the opponent to the active player's left) "
        "or victim_start (any empty victim start space, chosen by the card's player)",
        choices=("adjacent", "victim_start"),
    ),
    "then_move": _opt(int, "after placement the card's player may move the victim up to this many spaces", minimum=1),
    "tokens": _opt(int, "the stopped monster gets this many more action tokens (at most two in all)", choices=(1, 2)),
    "or_reroll": _OR_REROLL,
}

_EFFECT_LIST: list[PlotEffectSpec] = [
    PlotEffectSpec(
        "prevent_slaying",
        "Stop a slaying; the victim goes to an unoccupied space adjacent to it, and with no such space "
        "nothing can prevent the slaying (HC-PLOT-06).",
        _STOP_PARAMS,
        ("slaying",),
    ),
    PlotEffectSpec(
        "prevent_rescue",
        "Stop a rescue, placing the victim as for a stopped slaying; it cannot stop a slaying (HC-SLAY-06).",
        _STOP_PARAMS,
        ("rescue",),
    ),
    PlotEffectSpec(
        "spoil_victim",
        "The slaying or rescue is not stopped but spoiled: no_vp lets it happen with no VP for anyone; "
        "removed takes the victim out of the game unscored and the monster is not blooded by it.",
        {"mode": ParamSpec(str, choices=("no_vp", "removed"), help="how the attempt is spoiled")},
        ("slaying", "rescue"),
    ),
    PlotEffectSpec(
        "reroll_attack",
        "Reroll one attack roll; the reroll must be used and cannot itself be rerolled (HC-PLOT-12).",
        {"whose": ParamSpec(str, choices=("own", "opposing", "any"), help="whose monster made the roll")},
        ("attack_roll",),
    ),
    PlotEffectSpec(
        "freeze_victim",
        "The chosen victim does not move, and no one may move it for `duration` (HC-VICTIM-03).",
        {"duration": _DURATION, "or_reroll": _OR_REROLL},
        ("suspense",),
    ),
    PlotEffectSpec(
        "opponent_moves_victim",
        "The card's player moves the chosen victim instead of the active player, up to `distance` "
        "spaces or its speed plus `speed_bonus`, by the victim movement rules (HC-VICTIM-04, HC-DATA-28).",
        {
            "distance": _opt(int, "fixed distance instead of the victim's speed", minimum=1),
            "speed_bonus": _opt(int, "added to the victim's speed for this move", minimum=1),
            "or_reroll": _OR_REROLL,
        },
        ("suspense",),
    ),
    PlotEffectSpec(
        "protect_victim",
        "The chosen victim cannot be slain, rescued, or either (`against`) for `duration`; if `frozen`, "
        "it also does not move.",
        {
            "against": ParamSpec(str, choices=("slaying", "rescue", "both")),
            "duration": _DURATION,
            "frozen": _opt(bool, "the victim also does not move this turn"),
        },
        ("suspense",),
    ),
    PlotEffectSpec(
        "damage_monster",
        "Damage the target: `deals` passes through damage reducers, `takes` skips them (HC-COMBAT-29); "
        "unpreventable cannot be reduced or moved (HC-COMBAT-09); intangible does not protect (HC-COMBAT-30).",
        {
            "amount": _AMOUNT,
            "layer": ParamSpec(str, choices=("deals", "takes"), help="damage dealt or damage taken"),
            "unpreventable": _opt(bool, "the damage is unpreventable"),
            "target": _TARGET,
            "reach": _REACH,
            "class": _CLASS,
            "prevents": _opt(bool, "in a slaying or rescue window, also stop the attempt as prevent_slaying does"),
        },
    ),
    PlotEffectSpec(
        "stat_modifier",
        "Modify `stat` of the target(s) by `amount` for `duration`, within the rule of 3 (HC-VALUE-05).",
        {
            "stat": ParamSpec(str, choices=COMBAT_VALUES),
            "amount": ParamSpec(int, help="the modifier, negative to lower the value"),
            "target": _TARGET,
            "reach": _REACH,
            "class": _CLASS,
            "duration": _DURATION,
        },
    ),
    PlotEffectSpec(
        "action_tokens",
        "Give the target(s) `count` action tokens, at most two in all; with two a monster is vulnerable "
        "and cannot be given actions (HC-TURN-03, HC-TURN-04).",
        {"count": ParamSpec(int, choices=(1, 2)), "target": _TARGET, "reach": _REACH, "class": _CLASS},
    ),
    PlotEffectSpec(
        "heal_monster",
        "Heal the target(s) of `amount` damage, never past the starting line (HC-COMBAT-10).",
        {
            "amount": _AMOUNT,
            "target": ParamSpec(str, choices=("one_friendly", "all_friendly")),
            "class": _CLASS,
            "blooded_only": _opt(bool, "only blooded monsters, those with a victim on their card (HC-SLAY-13)"),
        },
    ),
    PlotEffectSpec(
        "free_move",
        "One friendly monster moves up to `distance` spaces as a free action, with no action token "
        "(HC-TURN-05); break-away rules apply and it may not end in a victim's space.",
        {
            "distance": _AMOUNT,
            "target": ParamSpec(str, choices=("friendly_near_victim", "one_friendly")),
            "reach": _REACH,
        },
        ("suspense", "hunting"),
    ),
    PlotEffectSpec(
        "ticking_clock",
        "Ticking clock: while in play, `who`'s monsters (of `class`, if given) get `amount` to `stat`; "
        "it stays in play until another ticking clock replaces it (HC-PLOT-05).",
        {
            "stat": ParamSpec(str, choices=COMBAT_VALUES),
            "amount": ParamSpec(int, help="the modifier, negative to lower the value"),
            "who": ParamSpec(str, choices=("friendly", "opposing", "all")),
            "class": _CLASS,
        },
        ("preview",),
    ),
    PlotEffectSpec(
        "subplot_vp",
        "Subplot: at game end score `vp` victory points (per item for each_* conditions) if `condition` "
        "holds; lost if its player is eliminated (HC-PLOT-04, HC-END-08, HC-END-10).",
        {
            "vp": ParamSpec(int, minimum=1),
            "condition": ParamSpec(str, choices=tuple(SUBPLOT_CONDITIONS), help="a registered subplot condition"),
            "per_100_build": _opt(bool, "multiply vp by build total / 100, as victim VP are (HC-END-07)"),
        },
        ("setup",),
    ),
]

PLOT_EFFECTS: dict[str, PlotEffectSpec] = {e.name: e for e in _EFFECT_LIST}

_KIND_EFFECT = {"ticking_clock": "ticking_clock", "subplot": "subplot_vp"}


def card_problems(kind: str, windows: list[str], effect: str, params: Mapping[str, Any]) -> list[str]:
    """Problems between a card's kind, windows and effect that one parameter check cannot see."""
    spec = PLOT_EFFECTS.get(effect)
    if spec is None:
        return []
    problems: list[str] = []
    wanted = _KIND_EFFECT.get(kind)
    if wanted and effect != wanted:
        problems.append(f"a {kind} card uses the effect '{wanted}', not '{effect}'")
    owner = {e: k for k, e in _KIND_EFFECT.items()}.get(effect)
    if owner and kind != owner:
        problems.append(f"the effect '{effect}' is only for kind: {owner}")
    reroll = bool(params.get("or_reroll"))
    allowed = set(spec.windows) | ({"attack_roll"} if reroll else set())
    for window in windows:
        if window not in allowed:
            problems.append(
                f"effect '{effect}' cannot be played in the {window} window (it fits: {', '.join(spec.windows)})"
            )
    if reroll and "attack_roll" not in windows:
        problems.append("or_reroll is true, so add attack_roll to windows")
    target_windows = TARGET_WINDOWS.get(params.get("target", ""))
    if target_windows:
        for window in windows:
            if window not in target_windows and not (reroll and window == "attack_roll"):
                problems.append(f"target '{params['target']}' only exists in the {', '.join(target_windows)} window")
    if "reach" in params and not str(params.get("target", "")).endswith("near_victim"):
        problems.append("reach only applies to *_near_victim targets")
    if "distance" in params and "speed_bonus" in params:
        problems.append("give either distance or speed_bonus, not both")
    return problems
