"""Roster validation: cards, powers and abilities, plot twists and their effects (how each case works: tests/validation_cases.py)."""

from __future__ import annotations

import pytest
from validation_cases import CROSSROADS, FIGURE, KEEPER, PLOT_TWISTS, case, check_case

# --- cards (HC-CARD-01, HC-CARD-07, HC-CARD-09, HC-CARD-14) -----------------------------------------------------

CARD_CASES = [
    case(
        "HC-CARD-07-crossroads-missing-a-side",
        (FIGURE, "  start:\n", "  start_a:\n"),
        FIGURE,
        "card",
        "card:",
        "a crossroads card needs both 'start_a' and 'start_b'",
    ),
    case(
        "card-unknown-side-name",
        (CROSSROADS, "  start_a:\n", "  start_c:\n"),
        CROSSROADS,
        "card.start_c",
        "start_c:",
        "unknown field 'start_c'",
    ),
    case(
        "HC-CARD-07-start-and-crossroads-pair",
        (FIGURE, "card:\n", "card:\n  start_b: {}\n"),
        FIGURE,
        "card",
        "card:",
        "give either 'start' or the crossroads pair 'start_a' and 'start_b', not both",
    ),
    case(
        "HC-CARD-06-no-start-side",
        (FIGURE, "  start:\n", "  transformed:\n"),
        FIGURE,
        "card",
        "card:",
        "a card needs a 'start' side",
    ),
    case(
        "HC-CARD-09-trigger-without-transformed-side",
        (FIGURE, "  start:\n", "  start:\n    transform: {trigger: kill_monsters, dial_to: stay}\n"),
        FIGURE,
        "card",
        "card:",
        "a side has a 'transform' trigger but the card has no 'transformed' side",
    ),
    case(
        "HC-CARD-09-transformed-side-without-trigger",
        (CROSSROADS, "    transform: {trigger: slay_victims, count: 2}\n", ""),
        CROSSROADS,
        "card",
        "card:",
        "the card has a 'transformed' side but no start side says when to flip ('transform')",
    ),
    case(
        "HC-CARD-01-unknown-transform-trigger",
        (CROSSROADS, "trigger: slay_victims", "trigger: full_moon"),
        CROSSROADS,
        "card.start_a.transform.trigger",
        "trigger: full_moon",
        "'full_moon' is not allowed here",
        "'slay_victims', 'kill_monsters' or 'slay_or_kill'",
    ),
    case(
        "HC-CARD-09-transform-count-at-least-1",
        (CROSSROADS, "count: 2", "count: 0"),
        CROSSROADS,
        "card.start_a.transform.count",
        "count: 0",
        "greater than or equal to 1",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), CARD_CASES)
def test_card_rule(mini, edits, file, field, at, message):
    """Card sides: one start side or a crossroads pair, transformed side iff a trigger."""
    check_case(mini, edits, file, field, at, message)


# --- powers and abilities by registered name (HC-CARD-05, HC-CARD-08) ----------------------------------------

POWER_CASES = [
    case(
        "unknown-power-did-you-mean",
        (FIGURE, "name: Blood Drinker", "name: Blod Drinker"),
        FIGURE,
        "card.start.powers[0].name",
        "Blod Drinker",
        "the engine implements no power named 'Blod Drinker'; did you mean 'Blood Drinker'?",
    ),
    case(
        "unknown-power-lists-known",
        (FIGURE, "name: Blood Drinker", "name: Qwerty"),
        FIGURE,
        "card.start.powers[0].name",
        "Qwerty",
        "no power named 'Qwerty'; known: Blood Drinker, Cabal Command",
    ),
    case(
        "unknown-ability-short-form",
        (FIGURE, "[Leap/Climb]", "[Leap Climb]"),
        FIGURE,
        "card.start.abilities[0].name",
        "Leap Climb",
        "the engine implements no ability named 'Leap Climb'; did you mean 'Leap/Climb'?",
    ),
    case(
        "unknown-ability-mapping-form",
        (CROSSROADS, "{name: Ghost}", "{name: Gohst}"),
        CROSSROADS,
        "card.transformed.abilities[0].name",
        "Gohst",
        "no ability named 'Gohst'; did you mean 'Ghost'?",
    ),
    case(
        "power-unknown-param",
        (FIGURE, "params: {amount: 1}", "params: {amount: 1, ammount: 2}"),
        FIGURE,
        "card.start.powers[0].params",
        "ammount",
        "power 'Blood Drinker' takes no parameter 'ammount' (it takes: amount)",
    ),
    case(
        "power-param-on-power-without-params",
        (FIGURE, "name: Dodge}", "name: Dodge, params: {amount: 1}}"),
        FIGURE,
        "card.start.powers[1].params",
        "name: Dodge",
        "power 'Dodge' takes no parameter 'amount' (it takes: none)",
    ),
    case(
        "power-param-wrong-type",
        (FIGURE, "params: {amount: 1}", "params: {amount: one}"),
        FIGURE,
        "card.start.powers[0].params",
        "amount: one",
        "power 'Blood Drinker' parameter 'amount' must be a whole number >= 1, not 'one'",
    ),
    case(
        "power-param-bool-is-not-a-number",
        (FIGURE, "params: {amount: 1}", "params: {amount: true}"),
        FIGURE,
        "card.start.powers[0].params",
        "amount: true",
        "parameter 'amount' must be a whole number >= 1, not True",
    ),
    case(
        "power-param-below-minimum",
        (FIGURE, "params: {amount: 1}", "params: {amount: 0}"),
        FIGURE,
        "card.start.powers[0].params",
        "amount: 0",
        "power 'Blood Drinker' parameter 'amount' must be >= 1, not 0",
    ),
    case(
        "power-param-not-a-choice",
        (KEEPER, "threshold: 3", "threshold: 7"),
        KEEPER,
        "card.start.powers[0].params",
        "threshold: 7",
        "power 'Insanity' parameter 'threshold' must be one of 2 | 3 | 4 | 5 | 6, not 7",
    ),
    case(
        "power-missing-param",
        (FIGURE, ", params: {amount: 1}", ""),
        FIGURE,
        "card.start.powers[0].params",
        "Blood Drinker",
        "power 'Blood Drinker' needs parameter 'amount' (a whole number >= 1)",
    ),
    case(
        "ability-unknown-param",
        (CROSSROADS, "{name: Ghost}", "{name: Ghost, params: {walls: true}}"),
        CROSSROADS,
        "card.transformed.abilities[0].params",
        "name: Ghost",
        "ability 'Ghost' takes no parameter 'walls' (it takes: none)",
    ),
    case(
        "power-unknown-slot",
        (FIGURE, "{slot: defense, colour: orange", "{slot: defence, colour: orange"),
        FIGURE,
        "card.start.powers[1].slot",
        "defence",
        "'defence' is not allowed here; use 'speed', 'attack', 'defense' or 'damage'",
    ),
    case(
        "HC-CARD-05-power-unknown-colour",
        (FIGURE, "colour: orange", "colour: teal"),
        FIGURE,
        "card.start.powers[1].colour",
        "colour: teal",
        "'teal' is not allowed here",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), POWER_CASES)
def test_power_rule(mini, edits, file, field, at, message):
    """Powers and abilities must be ones the engine implements, with the parameters it declares."""
    check_case(mini, edits, file, field, at, message)


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        pytest.param(
            [(FIGURE, "17:orange", "17"), (FIGURE, "16:orange", "16")],
            "the card has an orange defense power",
            id="power-without-circle",
        ),
        pytest.param(
            [(FIGURE, '"6 9 16 2"', '"6 9 16 2:orange"')],
            "the dial shows an orange circle on damage",
            id="circle-without-power",
        ),
    ],
)
def test_colour_messages_use_an_before_a_vowel(mini, edits, expected):
    """HC-CARD-05 messages read as English: "an orange ... power", not "a orange ... power"."""
    for name, old, new in edits:
        mini.edit(name, old, new)
    assert expected in mini.only_problem(FIGURE).message


# --- plot twists (HC-PLOT-04, HC-PLOT-07) ---------------------------------------------------------------------

PLOT_CASES = [
    case(
        "unknown-effect-did-you-mean",
        (PLOT_TWISTS, "effect: {name: prevent_rescue}", "effect: {name: prevent_resuce}"),
        PLOT_TWISTS,
        "plot_twists[1].effect.name",
        "prevent_resuce",
        "the engine implements no plot-twist effect named 'prevent_resuce'; did you mean 'prevent_rescue'?",
    ),
    case(
        "effect-param-not-a-choice",
        (PLOT_TWISTS, "params: {whose: own}", "params: {whose: mine}"),
        PLOT_TWISTS,
        "plot_twists[2].effect.params",
        "whose: mine",
        "effect 'reroll_attack' parameter 'whose' must be one of own | opposing | any, not 'mine'",
    ),
    case(
        "effect-missing-param",
        (PLOT_TWISTS, "params: {vp: 20, condition: each_victim_slain}", "params: {vp: 20}"),
        PLOT_TWISTS,
        "plot_twists[5].effect.params",
        "vp: 20",
        "effect 'subplot_vp' needs parameter 'condition' (",
    ),
    case(
        "effect-unknown-param",
        (
            PLOT_TWISTS,
            "effect: {name: prevent_slaying}\n    text: Stop",
            "effect: {name: prevent_slaying, params: {x: 1}}\n    text: Stop",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect.params",
        "params: {x: 1}",
        "effect 'prevent_slaying' takes no parameter 'x' (it takes: ",
    ),
    case(
        "HC-PLOT-07-ticking-clock-only-in-preview",
        (
            PLOT_TWISTS,
            "kind: ticking_clock\n    windows: [preview]",
            "kind: ticking_clock\n    windows: [preview, hunting]",
        ),
        PLOT_TWISTS,
        "plot_twists[7]",
        "name: Midnight Chime",
        "a ticking clock is played only in its owner's preview phase: windows: [preview]",
    ),
    case(
        "HC-PLOT-04-HC-SETUP-09-subplot-only-at-setup",
        (
            PLOT_TWISTS,
            "kind: subplot\n    windows: [setup]\n    effect: {name: subplot_vp, params: {vp: 20",
            "kind: subplot\n    windows: [preview]\n    effect: {name: subplot_vp, params: {vp: 20",
        ),
        PLOT_TWISTS,
        "plot_twists[5]",
        "name: Body Count",
        "a subplot is revealed at setup: windows: [setup]",
    ),
    case(
        "HC-PLOT-07-unknown-window",
        (PLOT_TWISTS, "windows: [rescue]", "windows: [midnight]"),
        PLOT_TWISTS,
        "plot_twists[1].windows[0]",
        "windows: [midnight]",
        "'midnight' is not allowed here; use 'setup', 'preview', 'suspense', 'slaying', 'rescue'",
    ),
    case(
        "HC-PLOT-07-at-least-one-window",
        (PLOT_TWISTS, "windows: [rescue]", "windows: []"),
        PLOT_TWISTS,
        "plot_twists[1].windows",
        "windows: []",
        "at least 1 item",
    ),
    case(
        "unknown-plot-twist-kind",
        (PLOT_TWISTS, "kind: ticking_clock", "kind: clock"),
        PLOT_TWISTS,
        "plot_twists[7].kind",
        "kind: clock",
        "'clock' is not allowed here; use 'normal', 'subplot' or 'ticking_clock'",
    ),
    case(
        "plot-twist-missing-text",
        (PLOT_TWISTS, "    text: Stop a rescue.\n", ""),
        PLOT_TWISTS,
        "plot_twists[1].text",
        "name: Look Out",
        "required field 'text' is missing; add it",
    ),
    case(
        "plot-twist-unknown-field",
        (PLOT_TWISTS, "    text: Stop a rescue.\n", "    text: Stop a rescue.\n    kinds: normal\n"),
        PLOT_TWISTS,
        "plot_twists[1].kinds",
        "kinds: normal",
        "unknown field 'kinds'; did you mean 'kind'?",
    ),
    case(
        "duplicate-plot-twist-in-one-file",
        (PLOT_TWISTS, "name: Look Out", "name: Not So Fast"),
        PLOT_TWISTS,
        "plot_twists[1].name",
        8,
        "'Not So Fast'",
        "names must be unique",
    ),
    case(
        "plot-twist-file-unknown-top-level-field",
        (PLOT_TWISTS, "plot_twists:\n", "crypt_name: mine\nplot_twists:\n"),
        PLOT_TWISTS,
        "crypt_name",
        "crypt_name: mine",
        "unknown field 'crypt_name'; this file holds only 'plot_twists'",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), PLOT_CASES)
def test_plot_twist_rule(mini, edits, file, field, at, message):
    """Plot twists: registered effects, kind vs timing window, names once."""
    check_case(mini, edits, file, field, at, message)


NOT_SO_FAST = "    windows: [slaying]\n    effect: {name: prevent_slaying}\n"

# Checks between a card's kind, windows and effect (engine/horrorclix/registry/plot_effects.py card_problems).
EFFECT_FIT_CASES = [
    case(
        "HC-PLOT-07-effect-played-outside-its-windows",
        (PLOT_TWISTS, NOT_SO_FAST, "    windows: [rescue]\n    effect: {name: prevent_slaying}\n"),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        5,
        "effect 'prevent_slaying' cannot be played in the rescue window (it fits: slaying)",
    ),
    case(
        "HC-PLOT-04-subplot-effect-only-on-a-subplot",
        (
            PLOT_TWISTS,
            NOT_SO_FAST,
            "    windows: [setup]\n    effect: {name: subplot_vp, params: {vp: 5, condition: rival_killed}}\n",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        "condition: rival_killed",
        "the effect 'subplot_vp' is only for kind: subplot",
    ),
    case(
        "HC-PLOT-12-or-reroll-needs-attack-roll-window",
        (
            PLOT_TWISTS,
            NOT_SO_FAST,
            "    windows: [slaying]\n    effect: {name: prevent_slaying, params: {or_reroll: true}}\n",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        "or_reroll: true",
        "or_reroll is true, so add attack_roll to windows",
    ),
    case(
        "target-only-in-its-window",
        (
            PLOT_TWISTS,
            NOT_SO_FAST,
            "    windows: [suspense]\n    effect: {name: damage_monster, params: {amount: 1, layer: deals, target: slayer}}\n",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        "target: slayer",
        "target 'slayer' only exists in the slaying window",
    ),
    case(
        "reach-only-for-near-victim-targets",
        (
            PLOT_TWISTS,
            NOT_SO_FAST,
            "    windows: [hunting]\n"
            "    effect: {name: damage_monster, params: {amount: 1, layer: deals, target: one_opposing, reach: 2}}\n",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        "reach: 2",
        "reach only applies to *_near_victim targets",
    ),
    case(
        "distance-or-speed-bonus-not-both",
        (
            PLOT_TWISTS,
            NOT_SO_FAST,
            "    windows: [suspense]\n    effect: {name: opponent_moves_victim, params: {distance: 2, speed_bonus: 1}}\n",
        ),
        PLOT_TWISTS,
        "plot_twists[0].effect",
        "speed_bonus: 1",
        "give either distance or speed_bonus, not both",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), EFFECT_FIT_CASES)
def test_plot_twist_effect_fits_card(mini, edits, file, field, at, message):
    """A card's effect must fit its kind and windows, and its parameters must fit together."""
    check_case(mini, edits, file, field, at, message)


def test_ticking_clock_card_needs_the_ticking_clock_effect(mini):
    """HC-PLOT-05: a ticking clock uses the 'ticking_clock' effect; another effect also misses its window."""
    mini.edit(
        PLOT_TWISTS,
        "{name: ticking_clock, params: {stat: attack, amount: 1, who: friendly}}",
        "{name: reroll_attack, params: {whose: any}}",
    )
    problems = mini.problems_in(PLOT_TWISTS)
    line = mini.line(PLOT_TWISTS, "name: Midnight Chime") + 3  # name, kind, windows, effect
    assert [(p.line, p.field, p.message) for p in problems] == [
        (line, "plot_twists[7].effect", "a ticking_clock card uses the effect 'ticking_clock', not 'reroll_attack'"),
        (
            line,
            "plot_twists[7].effect",
            "effect 'reroll_attack' cannot be played in the preview window (it fits: attack_roll)",
        ),
    ]


@pytest.mark.parametrize(
    "effect",
    [
        pytest.param(
            "    windows: [slaying, attack_roll]\n    effect: {name: prevent_slaying, params: {or_reroll: true}}\n",
            id="or-reroll",
        ),
        pytest.param(
            "    windows: [slaying]\n    effect: {name: damage_monster, params: {amount: 1, layer: deals, target: slayer}}\n",
            id="slayer-target",
        ),
        pytest.param(
            "    windows: [suspense]\n"
            "    effect: {name: damage_monster, params: {amount: 1, layer: takes, target: opposing_near_victim, reach: 2}}\n",
            id="near-victim-reach",
        ),
    ],
)
def test_plot_twist_effect_fits_card_when_it_does(mini, effect):
    """The fit checks do not over-fire on cards that are right."""
    mini.edit(PLOT_TWISTS, NOT_SO_FAST, effect)
    assert [str(p) for p in mini.problems()] == []
