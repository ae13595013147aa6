"""Roster validation: every rule in engine/roster (models, dial, loader, legality, yaml_lines) has a test.

Each test starts from the valid mini roster (tests/fixtures/mini_roster, copied to a temporary directory),
breaks exactly one thing, and asserts the one problem reported against that file: its field, its line and
the words of its message. Removing a rule therefore makes its test fail. Rule IDs are from
docs/horrorclix_rules.md and appear in the test ids.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clix.engine.roster.loader import load_roster
from clix.engine.roster.models import Figure, PlotTwistFile, VictimFile

FIGURE = "figures/grave-knight-u.yaml"  # unique, range 0, red attack + orange defense powers, 5 clicks
DEMO = "figures/demo-ghoul-d.yaml"
CROSSROADS = "figures/crossroads-witch-e.yaml"  # start_a/start_b, transformed side, red_start 2, 6 clicks
KEEPER = "figures/crypt-keeper-r.yaml"  # grants one extra plot twist
PLOT_TWISTS = "plot_twists.yaml"
VICTIMS = "victims.yaml"
MAP = "maps/graveyard-mini.yaml"
ARMY = "armies/legal-army.yaml"

Edit = tuple[str, str, str]
TWIST = {
    "name": "Not So Fast",
    "windows": ["slaying"],
    "effect": {"name": "prevent_slaying"},
    "text": "Stop a slaying.",
    "provenance": "test",
}
VICTIM = {"name": "Jock", "speed": 6, "gender": "male", "provenance": "test"}


def case(case_id: str, edits: Edit | list[Edit], file: str, field: str, at: str | int, *message: str) -> object:
    """One broken-roster case: apply `edits` (file, old, new); expect one problem in `file`.

    The problem must name `field`, sit on the line of the edited `file` containing `at` (or on line `at` when
    it is a number), and its message must contain every string of `message`.
    """
    return pytest.param(edits if isinstance(edits, list) else [edits], file, field, at, message, id=case_id)


def check_case(mini, edits: list[Edit], file: str, field: str, at: str | int, message: tuple[str, ...]) -> None:
    for name, old, new in edits:
        mini.edit(name, old, new)
    problem = mini.only_problem(file)
    assert problem.field == field, str(problem)
    assert problem.line == (at if isinstance(at, int) else mini.line(file, at)), str(problem)
    for part in message:
        assert part in problem.message, f"{part!r} not in {problem.message!r}"
    assert str(problem) == f"{problem.file}:{problem.line}: {field}: {problem.message}"


# --- the valid roster ----------------------------------------------------------------------------------------


def test_valid_mini_roster_has_no_problems(mini):
    """The baseline every other test breaks: all files load and the army is legal (HC-SETUP-01..02, HC-PLOT-01)."""
    roster, problems = mini.load()
    assert problems == []
    assert sorted(roster.figures) == ["crossroads-witch-e", "crypt-keeper-r", "demo-ghoul-d", "grave-knight-u"]
    assert len(roster.plot_twists) == 9
    assert sorted(roster.victims) == ["Cheerleader", "Jock", "Librarian"]
    assert list(roster.maps) == ["graveyard-mini"]
    assert list(roster.armies) == ["legal-army"]
    assert roster.figures["grave-knight-u"].unique
    assert roster.figures["crossroads-witch-e"].card.crossroads
    assert roster.figures["crossroads-witch-e"].dial[1].value("attack").colour == "purple"
    assert roster.figures["crypt-keeper-r"].dial[1].value("speed").hourglass
    assert roster.figures["crypt-keeper-r"].dial[-1].killed
    assert len(roster.maps["graveyard-mini"].victim_spaces()) == 12


def test_template_figure_loads_without_problems():
    """The template figure shipped in rosters/ is itself valid (red starting line, HC-SETUP-07)."""
    path = Path(__file__).resolve().parent.parent / "rosters" / "figures" / "countess-vey-v.yaml"
    roster, problems = load_roster([path])
    assert problems == []
    assert roster.figures["countess-vey-v"].red_start == 2


@pytest.mark.parametrize(
    "edits",
    [
        pytest.param([(ARMY, "players: 2", "players: 3"), (ARMY, ", Jock, Librarian]", "]")], id="HC-VICTIM-02-3p"),
        pytest.param(
            [(ARMY, "players: 2", "players: 4"), (ARMY, ", Cheerleader, Jock, Librarian]", "]")], id="HC-VICTIM-02-4p"
        ),
        pytest.param(
            [
                (ARMY, "  - crypt-keeper-r\n", "  - crypt-keeper-r\n  - crypt-keeper-r\n"),
                (ARMY, "crypt:\n", "crypt:\n  - Dead End\n"),
            ],
            id="HC-SETUP-01-two-copies-of-a-rookie-HC-PLOT-03-two-granted-cards",
        ),
        pytest.param(
            [(FIGURE, "rank: unique", "rank: limited_edition"), (ARMY, "build_total: 300", "build_total: 1000")],
            id="HC-SETUP-01-limited-edition-once-HC-SETUP-02-build-total-1000",
        ),
        pytest.param([(ARMY, "side: start_a", "side: start_b")], id="HC-CARD-07-start_b"),
        pytest.param([(ARMY, "  - Body Count\n", "  - Dead End\n")], id="HC-PLOT-04-no-subplot"),
    ],
)
def test_legal_variations_have_no_problems(mini, edits):
    """Rules must not over-fire: other legal armies load cleanly too."""
    for name, old, new in edits:
        mini.edit(name, old, new)
    assert [str(p) for p in mini.problems()] == []


# --- figures: base data (HC-CARD-03, HC-CARD-04, HC-MOVE-02) ----------------------------------------------------

FIGURE_CASES = [
    case(
        "figure-id-not-a-slug",
        (FIGURE, "id: grave-knight-u", "id: Grave_Knight"),
        FIGURE,
        "id",
        "id: Grave_Knight",
        "id 'Grave_Knight' is not valid",
        "lower-case letters, digits and single hyphens",
    ),
    case(
        "figure-id-double-hyphen",
        (FIGURE, "id: grave-knight-u", "id: grave--knight"),
        FIGURE,
        "id",
        "id: grave--knight",
        "id 'grave--knight' is not valid",
    ),
    case(
        "HC-CARD-11-unknown-rank",
        (FIGURE, "rank: unique", "rank: legendary"),
        FIGURE,
        "rank",
        "rank: legendary",
        "'legendary' is not allowed here",
        "'rookie', 'experienced', 'veteran', 'unique', 'limited_edition' or 'demo'",
    ),
    case(
        "HC-MOVE-02-unknown-speed-mode",
        (FIGURE, "speed_mode: boot", "speed_mode: hoof"),
        FIGURE,
        "speed_mode",
        "speed_mode: hoof",
        "'hoof' is not allowed here",
        "'boot', 'wing' or 'fin'",
    ),
    case(
        "missing-required-provenance",
        (FIGURE, "provenance: test fixture (clix tests; not an official dial)\n", ""),
        FIGURE,
        "provenance",
        "id: grave-knight-u",
        "required field 'provenance' is missing; add it",
    ),
    case(
        "missing-required-rank",
        (FIGURE, "rank: unique\n", ""),
        FIGURE,
        "rank",
        "id: grave-knight-u",
        "required field 'rank' is missing; add it",
    ),
    case(
        "missing-required-field-in-power",
        (FIGURE, "{slot: defense, colour: orange, name: Dodge}", "{slot: defense, name: Dodge}"),
        FIGURE,
        "card.start.powers[1].colour",
        "name: Dodge",
        "required field 'colour' is missing",
    ),
    case(
        "unknown-field-did-you-mean",
        (FIGURE, "notes: at most", "note: at most"),
        FIGURE,
        "note",
        "note: at most",
        "unknown field 'note'; did you mean 'notes'?",
    ),
    case(
        "unknown-nested-field-did-you-mean",
        (FIGURE, "    abilities: [Leap/Climb]", "    abilites: [Leap/Climb]"),
        FIGURE,
        "card.start.abilites",
        "abilites:",
        "unknown field 'abilites'; did you mean 'abilities'?",
    ),
    case(
        "unknown-field-lists-allowed-fields",
        (FIGURE, "notes: at most", "colour_scheme: at most"),
        FIGURE,
        "colour_scheme",
        "colour_scheme:",
        "unknown field 'colour_scheme'; allowed fields: bolts, cabal, card, classes",
    ),
    case(
        "points-at-least-1",
        (FIGURE, "points: 60", "points: 0"),
        FIGURE,
        "points",
        "points: 0",
        "greater than or equal to 1",
    ),
    case(
        "HC-CARD-04-at-least-one-class",
        (FIGURE, "classes: [Undead]", "classes: []"),
        FIGURE,
        "classes",
        "classes: []",
        "at least 1 item",
    ),
    case(
        "HC-COMBAT-16-HC-COMBAT-22-bolts-need-range",
        (FIGURE, "range: 0", "range: 0\nbolts: 2"),
        FIGURE,
        "bolts",
        "bolts: 2",
        "bolts is 2 but range is 0",
        "makes no ranged attack",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), FIGURE_CASES)
def test_figure_rule(mini, edits, file, field, at, message):
    """Base data of a figure: id, rank, speed mode, required and unknown fields, bolts vs range."""
    check_case(mini, edits, file, field, at, message)


# --- figures: the dial (HC-CARD-02, HC-CARD-05, HC-COMBAT-11, HC-SETUP-07) --------------------------------------

DIAL_CASES = [
    case(
        "HC-CARD-02-value-not-a-number",
        (FIGURE, '"6 9 16 2"', '"6 9 q 2"'),
        FIGURE,
        "dial[2]",
        '"6 9 q 2"',
        "click 2: defense 'q' is not a whole number or 'h' (hourglass)",
    ),
    case(
        "HC-CARD-02-click-not-quoted-text",
        (FIGURE, '"6 9 16 2"', "6"),
        FIGURE,
        "dial[2]",
        "  - 6",
        'click 2: a click must be a quoted string like "7 10 17 3" or "x", not 6',
    ),
    case(
        "HC-CARD-02-three-values",
        (FIGURE, '"6 9 16 2"', '"6 9 16"'),
        FIGURE,
        "dial[2]",
        '"6 9 16"',
        'click 2: click "6 9 16" has 3 values; write four (speed attack defense damage)',
    ),
    case(
        "HC-CARD-02-five-values",
        (FIGURE, '"6 9 16 2"', '"6 9 16 2 1"'),
        FIGURE,
        "dial[2]",
        '"6 9 16 2 1"',
        'click "6 9 16 2 1" has 5 values',
    ),
    case(
        "HC-CARD-05-unknown-colour",
        (FIGURE, '"7 10:red 16:orange 3"', '"7 10:rd 16:orange 3"'),
        FIGURE,
        "dial[1]",
        '"7 10:rd 16:orange 3"',
        "click 1: attack '10:rd': unknown colour 'rd' (use one of red, orange",
    ),
    case(
        "HC-COMBAT-11-last-click-killed",
        (FIGURE, '  - "x"\n', ""),
        FIGURE,
        "dial[3]",
        '"6 9 15 2"',
        'the last click must be "x" (killed); add "x" after click 3',
    ),
    case(
        "HC-SETUP-07-start-off-the-dial",
        (FIGURE, "start: 0", "start: 9"),
        FIGURE,
        "start",
        "start: 9",
        "start is 9 but the dial has only clicks 0-4",
    ),
    case(
        "HC-SETUP-07-start-on-killed-click",
        (FIGURE, "start: 0", "start: 4"),
        FIGURE,
        "start",
        "start: 4",
        "start is 4, a killed click; a starting line must be on a live click",
    ),
    case(
        "HC-SETUP-07-red-start-off-the-dial",
        (CROSSROADS, "red_start: 2", "red_start: 6"),
        CROSSROADS,
        "red_start",
        "red_start: 6",
        "red_start is 6 but the dial has only clicks 0-5",
    ),
    case(
        "HC-SETUP-07-red-start-on-killed-click",
        (CROSSROADS, "red_start: 2", "red_start: 5"),
        CROSSROADS,
        "red_start",
        "red_start: 5",
        "red_start is 5, a killed click",
    ),
    case(
        "HC-SETUP-07-red-side-without-red-start",
        (FIGURE, "  start:\n", "  start:\n    starts_on: red\n"),
        FIGURE,
        "card.start.starts_on",
        "starts_on: red",
        "this side starts on the red line but the dial has no 'red_start'",
    ),
    case(
        "HC-CARD-09-transform-to-red-line-without-red-start",
        [(CROSSROADS, "red_start: 2\n", ""), (CROSSROADS, "    starts_on: red\n", "")],
        CROSSROADS,
        "card.start_a.transform.dial_to",
        "transform: {trigger",
        "the transformation turns the dial to the red line but the dial has no 'red_start'",
    ),
    case(
        "HC-CARD-05-colour-on-dial-without-power",
        (FIGURE, '"6 9 16 2"', '"6:green 9 16 2"'),
        FIGURE,
        "dial[2]",
        '"6:green 9 16 2"',
        "the dial shows a green circle on speed but no card side has a green speed power",
    ),
    case(
        "HC-CARD-05-power-without-colour-on-dial",
        [(FIGURE, "17:orange", "17"), (FIGURE, "16:orange", "16")],
        FIGURE,
        "card.start.powers[1]",
        "name: Dodge",
        "orange defense power but no click of the dial shows that circle, so it could never be used",
    ),
    case(
        "HC-CARD-05-two-powers-on-one-circle",
        (FIGURE, "{slot: defense, colour: orange, name: Dodge}", "{slot: attack, colour: red, name: Dodge}"),
        FIGURE,
        "card.start.powers[1]",
        "{slot: attack, colour: red, name: Dodge}",
        "two powers on the red attack circle; give each its own colour",
    ),
    case(
        "dial-needs-two-clicks",
        (FIGURE, '  - "7 10:red 16:orange 3"\n  - "6 9 16 2"\n  - "6 9 15 2"\n  - "x"\n', ""),
        FIGURE,
        "dial",
        "dial:",
        "at least 2 items",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), DIAL_CASES)
def test_dial_rule(mini, edits, file, field, at, message):
    """Dial notation and its consistency with the card and the starting lines."""
    check_case(mini, edits, file, field, at, message)


@pytest.mark.parametrize("value", ["h", "H"])
def test_dial_notation_hourglass(mini, value):
    """HC-HOURGLASS-01..02: 'h' (either case) is an hourglass in a slot; the click is in the hourglass state."""
    mini.edit(KEEPER, '"h 8 14 2"', f'"{value} 8 14 2"')
    roster, problems = mini.load()
    assert problems == []
    click = roster.figures["crypt-keeper-r"].dial[1]
    assert click.hourglass and not click.killed
    assert click.value("speed").number is None


def test_dial_notation_killed_click_either_case(mini):
    """HC-COMBAT-11: 'x' or 'X' is a killed click (three skulls)."""
    mini.edit(KEEPER, '  - "x"', '  - "X"')
    roster, problems = mini.load()
    assert problems == []
    assert roster.figures["crypt-keeper-r"].dial[-1].killed


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

# Checks between a card's kind, windows and effect (engine/registry/plot_effects.py card_problems).
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


# --- victims (HC-VICTIM-01) -----------------------------------------------------------------------------------

VICTIM_CASES = [
    case(
        "HC-VICTIM-01-gender",
        (VICTIMS, "gender: male", "gender: m"),
        VICTIMS,
        "victims[1].gender",
        "Jock",
        "'m' is not allowed here; use 'male' or 'female'",
    ),
    case(
        "HC-VICTIM-01-speed-at-least-1",
        (VICTIMS, "speed: 6", "speed: 0"),
        VICTIMS,
        "victims[1].speed",
        "Jock",
        "greater than or equal to 1",
    ),
    case(
        "HC-VICTIM-01-missing-gender",
        (VICTIMS, "speed: 6, gender: male, ", "speed: 6, "),
        VICTIMS,
        "victims[1].gender",
        "Jock",
        "required field 'gender' is missing",
    ),
    case(
        "duplicate-victim-in-one-file",
        (VICTIMS, "{name: Librarian", "{name: Cheerleader"),
        VICTIMS,
        "victims[2].name",
        "speed: 4",
        "'Cheerleader' is already defined earlier in this file (line",
        "names must be unique",
    ),
    case(
        "victim-file-unknown-top-level-field",
        (VICTIMS, "victims:\n", "victim_count: 3\nvictims:\n"),
        VICTIMS,
        "victim_count",
        "victim_count: 3",
        "unknown field 'victim_count'; this file holds only 'victims'",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), VICTIM_CASES)
def test_victim_rule(mini, edits, file, field, at, message):
    """Victim archetypes: speed, gender, names once."""
    check_case(mini, edits, file, field, at, message)


def test_victim_file_needs_at_least_one_victim(mini):
    """A victim file with an empty list is reported at the 'victims' key."""
    mini.write(VICTIMS, "# no victims yet\nvictims: []\n")
    problems = mini.problems_in(VICTIMS)
    assert [(p.line, p.field) for p in problems] == [(2, "victims")]
    assert problems[0].message == "'victims' must be a list with at least one entry"


# --- maps (HC-TERRAIN-12..24, HC-SETUP-04, HC-SETUP-06, HC-VICTIM-02, HC-VICTIM-07) ------------------------------

MAP_CASES = [
    case(
        "map-id-not-a-slug",
        (MAP, "id: graveyard-mini", "id: graveyard mini"),
        MAP,
        "id",
        "id: graveyard mini",
        "id 'graveyard mini' is not valid",
    ),
    case(
        "HC-TERRAIN-20-unknown-map-kind",
        (MAP, "kind: indoor_outdoor", "kind: cave"),
        MAP,
        "kind",
        "kind: cave",
        "'cave' is not allowed here; use 'outdoor', 'indoor' or 'indoor_outdoor'",
    ),
    case(
        "rows-of-different-widths",
        (MAP, '"v.h.v.#."', '"v.h.v.#"'),
        MAP,
        "rows[2]",
        '"v.h.v.#"',
        "row 2 has 7 spaces but row 0 has 8; every row needs the same width",
    ),
    case(
        "HC-TERRAIN-01-bad-map-character",
        (MAP, '"v.h.v.#."', '"v.h.v.X."'),
        MAP,
        "rows[2]",
        '"v.h.v.X."',
        "row 2 uses 'X'; use . clear, h hindering, ~ water, # blocking, v victim start, 1-4 starting area",
    ),
    case(
        "HC-TERRAIN-12-wall-off-the-map",
        (MAP, "{at: [2, 1], side: east}", "{at: [8, 1], side: east}"),
        MAP,
        "walls[0]",
        "at: [8, 1]",
        "wall at [8, 1] is off the 8x6 map",
    ),
    case(
        "HC-TERRAIN-12-wall-unknown-side",
        (MAP, "{at: [2, 1], side: east}", "{at: [2, 1], side: up}"),
        MAP,
        "walls[0].side",
        "side: up",
        "'up' is not allowed here; use 'north', 'south', 'east' or 'west'",
    ),
    case(
        "HC-TERRAIN-12-wall-line-not-straight",
        (MAP, "[4, 2, 4, 4]", "[4, 2, 5, 4]"),
        MAP,
        "wall_lines[0]",
        "[4, 2, 5, 4]",
        "wall line [4, 2, 5, 4] is not straight; a wall line runs along one grid line",
    ),
    case(
        "HC-TERRAIN-12-wall-line-off-the-map",
        (MAP, "[4, 2, 4, 4]", "[4, 2, 4, 7]"),
        MAP,
        "wall_lines[0]",
        "[4, 2, 4, 7]",
        "wall line [4, 2, 4, 7] runs off the map (grid points 0-8 x 0-6)",
    ),
    case(
        "HC-TERRAIN-23-indoor-only-on-indoor-outdoor-maps",
        (MAP, "kind: indoor_outdoor", "kind: outdoor"),
        MAP,
        "indoor",
        "indoor:",
        "'indoor' rectangles are only for indoor_outdoor maps (this map is outdoor)",
    ),
    case(
        "HC-TERRAIN-23-indoor-rectangle-off-the-map",
        (MAP, "[5, 2, 7, 4]", "[5, 2, 8, 4]"),
        MAP,
        "indoor[0]",
        "[5, 2, 8, 4]",
        "indoor rectangle [5, 2, 8, 4] must be [x1, y1, x2, y2] inside the map",
    ),
    case(
        "HC-TERRAIN-23-indoor-rectangle-reversed",
        (MAP, "[5, 2, 7, 4]", "[7, 2, 5, 4]"),
        MAP,
        "indoor[0]",
        "[7, 2, 5, 4]",
        "indoor rectangle [7, 2, 5, 4] must be [x1, y1, x2, y2] inside the map with x1<=x2, y1<=y2",
    ),
    case(
        "HC-TERRAIN-13-object-off-the-map",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [0, 6]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "tombstone at [0, 6] is off the map",
    ),
    case(
        "HC-SETUP-06-object-on-clear-terrain-only",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [2, 2]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "tombstone at [2, 2] is on hindering terrain; objects go on clear",
    ),
    case(
        "HC-TERRAIN-13-one-object-per-space",
        (MAP, "{kind: portal, at: [4, 4], side: north}", "{kind: portal, at: [2, 4], side: north}"),
        MAP,
        "objects[2]",
        "portal",
        "two objects at [2, 4]; one object per space",
    ),
    case(
        "HC-TERRAIN-17-tombstone-only-outdoors",
        (MAP, "{kind: tombstone, at: [0, 1]}", "{kind: tombstone, at: [5, 3]}"),
        MAP,
        "objects[0]",
        "tombstone",
        "a tombstone may stand only on an outdoor space, and [5, 3] is indoors (HC-TERRAIN-17, HC-TERRAIN-19)",
    ),
    case(
        "HC-TERRAIN-19-tree-only-outdoors",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: tree, at: [7, 2]}"),
        MAP,
        "objects[1]",
        "tree",
        "a tree may stand only on an outdoor space, and [7, 2] is indoors",
    ),
    case(
        "HC-TERRAIN-14-portal-without-side",
        (MAP, "{kind: portal, at: [4, 4], side: north}", "{kind: portal, at: [4, 4]}"),
        MAP,
        "objects[2]",
        "portal",
        "a portal needs 'side': the edge of its space where the doorway is",
    ),
    case(
        "HC-TERRAIN-19-tree-with-side",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: tree, at: [2, 4], side: west}"),
        MAP,
        "objects[1]",
        "tree",
        "a tree has no 'side'; only portals do",
    ),
    case(
        "HC-TERRAIN-13-unknown-object-kind",
        (MAP, "{kind: tree, at: [2, 4]}", "{kind: statue, at: [2, 4]}"),
        MAP,
        "objects[1].kind",
        "statue",
        "'statue' is not allowed here; use 'tombstone', 'tree' or 'portal'",
    ),
    case(
        "HC-VICTIM-02-HC-VICTIM-07-fewer-than-12-victim-spaces",
        (MAP, '".v.v.v.v"', '"...v.v.v"'),
        MAP,
        "rows",
        "rows:",
        "the map has 11 victim start spaces ('v'); mark at least 12",
        "(HC-VICTIM-02)",
    ),
    case(
        "HC-SETUP-04-at-least-two-starting-areas",
        (MAP, '"22222222"', '"........"'),
        MAP,
        "rows",
        "rows:",
        "the map needs at least two starting areas",
    ),
    case(
        "HC-SETUP-04-starting-area-not-on-an-edge",
        [(MAP, '"22222222"', '"........"'), (MAP, '"v.v..v.."', '"v.v2.v.."')],
        MAP,
        "rows",
        "rows:",
        "starting area 2 does not touch a map edge (HC-SETUP-04)",
    ),
    case(
        "HC-SETUP-04-no-starting-areas-on-opposite-edges",
        [(MAP, '"22222222"', '"........"'), (MAP, '".v.v.v.v"', '"2v.v.v.v"'), (MAP, '".v.~.v.v"', '"2v.~.v.v"')],
        MAP,
        "rows",
        "rows:",
        "no two starting areas lie on opposite edges; a two-player game needs one such pair (HC-SETUP-04)",
    ),
    case(
        "map-needs-rows",
        (
            MAP,
            'rows:\n  - "11111111"\n  - ".v.v.v.v"\n  - "v.h.v.#."\n  - ".v.~.v.v"\n  - "v.v..v.."\n  - "22222222"\n',
            "rows: []\n",
        ),
        MAP,
        "rows",
        "rows: []",
        "at least 1 item",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), MAP_CASES)
def test_map_rule(mini, edits, file, field, at, message):
    """Map shape and markings: rows, walls, indoor areas, objects, victim spaces, starting areas."""
    check_case(mini, edits, file, field, at, message)


@pytest.mark.parametrize(
    ("old", "new", "field", "at"),
    [
        pytest.param("[4, 2, 4, 4]", "[4, 2, 4]", "wall_lines[0]", "[4, 2, 4]", id="wall-line-of-three-numbers"),
        pytest.param(
            "{at: [2, 1], side: east}", "{at: [2], side: east}", "walls[0].at", "at: [2]", id="wall-at-one-number"
        ),
    ],
)
def test_short_coordinate_list_is_not_called_a_missing_field(mini, old, new, field, at):
    """A coordinate list with too few numbers must say so, not "required field '3' is missing" (HC-TERRAIN-12)."""
    mini.edit(MAP, old, new)
    problem = mini.only_problem(MAP)
    assert problem.line == mini.line(MAP, at)
    assert problem.field.startswith(field)
    assert "required field" not in problem.message, str(problem)


# --- armies (HC-SETUP-01, HC-SETUP-02, HC-CARD-07, HC-PLOT-01, HC-PLOT-03, HC-PLOT-04, HC-VICTIM-02) ---------------

ARMY_CASES = [
    case(
        "HC-SETUP-02-build-total-multiple-of-100",
        (ARMY, "build_total: 300", "build_total: 250"),
        ARMY,
        "build_total",
        "build_total: 250",
        "build total 250 is not a multiple of 100 (HC-SETUP-02); use 200 or 300",
    ),
    case(
        "HC-SETUP-02-build-total-at-least-100",
        (ARMY, "build_total: 300", "build_total: 0"),
        ARMY,
        "build_total",
        "build_total: 0",
        "greater than or equal to 100",
    ),
    case(
        "HC-SETUP-02-over-the-build-total",
        (ARMY, "build_total: 300", "build_total: 100"),
        ARMY,
        "figures",
        "figures:",
        "the figures cost 150 points, over the build total of 100 (HC-SETUP-02); drop 50 points",
    ),
    case(
        "HC-SETUP-01-unique-twice",
        (ARMY, "  - crypt-keeper-r\n", "  - crypt-keeper-r\n  - grave-knight-u\n"),
        ARMY,
        "figures[3]",
        9,
        "'grave-knight-u' is unique: at most one copy per army (HC-SETUP-01)",
    ),
    case(
        "HC-SETUP-01-HC-SETUP-12-limited-edition-twice",
        [
            (FIGURE, "rank: unique", "rank: limited_edition"),
            (ARMY, "  - crypt-keeper-r\n", "  - crypt-keeper-r\n  - grave-knight-u\n"),
        ],
        ARMY,
        "figures[3]",
        9,
        "'grave-knight-u' is limited edition: at most one copy per army (HC-SETUP-01)",
    ),
    case(
        "HC-SETUP-01-HC-CARD-13-demo-figure",
        (ARMY, "  - crypt-keeper-r\n", "  - crypt-keeper-r\n  - demo-ghoul-d\n"),
        ARMY,
        "figures[3]",
        "demo-ghoul-d",
        "'demo-ghoul-d' is a demo figure, not legal in regular play (HC-SETUP-01); remove it",
    ),
    case(
        "HC-CARD-07-crossroads-side-missing",
        (ARMY, "{figure: crossroads-witch-e, side: start_a}", "crossroads-witch-e"),
        ARMY,
        "figures[1]",
        "crossroads-witch-e",
        "'crossroads-witch-e' has a crossroads card; choose its side with",
        "(HC-CARD-07)",
    ),
    case(
        "HC-CARD-07-side-on-a-figure-without-crossroads-card",
        (ARMY, "  - crypt-keeper-r\n", "  - {figure: crypt-keeper-r, side: start_b}\n"),
        ARMY,
        "figures[2].side",
        "crypt-keeper-r",
        "'crypt-keeper-r' has no crossroads card; remove 'side'",
    ),
    case(
        "HC-CARD-14-unknown-crossroads-side",
        (ARMY, "side: start_a", "side: start_c"),
        ARMY,
        "figures[1].side",
        "start_c",
        "'start_c' is not allowed here; use 'start_a' or 'start_b'",
    ),
    case(
        "HC-PLOT-03-crypt-size-with-granted-card",
        (ARMY, "  - Midnight Chime\n", ""),
        ARMY,
        "crypt",
        "crypt:",
        "the crypt holds 6 plot twists; it must hold exactly 7 (six plus 1 granted by its figures)",
    ),
    case(
        "HC-PLOT-01-crypt-of-six",
        (ARMY, "  - crypt-keeper-r\n", ""),
        ARMY,
        "crypt",
        "crypt:",
        "the crypt holds 7 plot twists; it must hold exactly 6 (HC-PLOT-01, HC-PLOT-03)",
    ),
    case(
        "HC-PLOT-01-duplicate-card-in-crypt",
        (ARMY, "  - Midnight Chime\n", "  - Try Again\n"),
        ARMY,
        "crypt[6]",
        16,
        "'Try Again' is in the crypt twice; no two cards in a crypt may be the same (HC-PLOT-01)",
    ),
    case(
        "HC-PLOT-04-two-subplots",
        (ARMY, "  - Midnight Chime\n", "  - Last Stand\n"),
        ARMY,
        "crypt",
        "crypt:",
        "the crypt holds 2 subplots (Body Count, Last Stand); at most one is allowed (HC-PLOT-04)",
    ),
    case(
        "unknown-figure-did-you-mean",
        (ARMY, "  - grave-knight-u\n", "  - grave-knight\n"),
        ARMY,
        "figures[0]",
        "grave-knight",
        "no figure named 'grave-knight'; did you mean 'grave-knight-u'?",
    ),
    case(
        "unknown-figure-no-close-match",
        (ARMY, "  - grave-knight-u\n", "  - zzz-qqq\n"),
        ARMY,
        "figures[0]",
        "zzz-qqq",
        "no figure named 'zzz-qqq'; `clix roster list` shows every name",
    ),
    case(
        "unknown-plot-twist-did-you-mean",
        (ARMY, "  - Midnight Chime\n", "  - Midnight Chimes\n"),
        ARMY,
        "crypt[6]",
        "Midnight Chimes",
        "no plot twist named 'Midnight Chimes'; did you mean 'Midnight Chime'?",
    ),
    case(
        "HC-VICTIM-01-unknown-victim-archetype",
        (ARMY, "Librarian, Cheerleader", "Librarain, Cheerleader"),
        ARMY,
        "victims[2]",
        "victims:",
        "no victim archetype named 'Librarain'; did you mean 'Librarian'?",
    ),
    case(
        "HC-VICTIM-02-six-victims-in-a-two-player-game",
        (ARMY, ", Librarian]", "]"),
        ARMY,
        "victims",
        "victims:",
        "the army contributes 5 victims; in a 2-player game each player contributes 6 of the twelve (HC-VICTIM-02)",
    ),
    case(
        "HC-VICTIM-02-four-victims-in-a-three-player-game",
        (ARMY, "players: 2", "players: 3"),
        ARMY,
        "victims",
        "victims:",
        "the army contributes 6 victims; in a 3-player game each player contributes 4 of the twelve",
    ),
    case(
        "HC-SETUP-06-at-most-two-objects",
        (ARMY, "objects: [tombstone, portal]", "objects: [tombstone, portal, tree]"),
        ARMY,
        "objects",
        "objects:",
        "at most 2 items",
    ),
    case(
        "HC-TERRAIN-13-unknown-army-object",
        (ARMY, "objects: [tombstone, portal]", "objects: [tombstone, statue]"),
        ARMY,
        "objects[1]",
        "objects:",
        "'statue' is not allowed here; use 'tombstone', 'tree' or 'portal'",
    ),
    case(
        "army-players-at-most-4",
        (ARMY, "players: 2", "players: 5"),
        ARMY,
        "players",
        "players: 5",
        "less than or equal to 4",
    ),
    case(
        "army-unknown-field-did-you-mean",
        (ARMY, "crypt:", "cript:"),
        ARMY,
        "cript",
        "cript:",
        "unknown field 'cript'; did you mean 'crypt'?",
    ),
    case(
        "army-missing-name",
        (ARMY, "name: Legal Army\n", ""),
        ARMY,
        "name",
        "build_total:",
        "required field 'name' is missing; add it",
    ),
]


@pytest.mark.parametrize(("edits", "file", "field", "at", "message"), ARMY_CASES)
def test_army_rule(mini, edits, file, field, at, message):
    """Army legality: build total, ranks, crossroads sides, crypt, victims, names that exist."""
    check_case(mini, edits, file, field, at, message)


@pytest.mark.parametrize(
    ("file", "old", "new", "field", "misleading"),
    [
        pytest.param(
            KEEPER,
            "threshold: 3",
            "threshold: 7",
            "card.start.powers[0].params",
            ["no figure named 'crypt-keeper-r'", "must hold exactly 6"],
            id="figure",
        ),
        pytest.param(
            PLOT_TWISTS,
            "params: {whose: own}",
            "params: {whose: mine}",
            "plot_twists[2].effect.params",
            ["no plot twist named 'Try Again'"],
            id="plot-twist",
        ),
        pytest.param(
            VICTIMS,
            "gender: male",
            "gender: m",
            "victims[1].gender",
            ["no victim archetype named 'Jock'"],
            id="victim",
        ),
    ],
)
def test_invalid_item_is_not_reported_as_missing_from_the_army(mini, file, old, new, field, misleading):
    """An army naming a figure, card or victim whose own file has a mistake must not claim it does not exist.

    The item's file gets the real problem; the army (checked on its own with `clix roster check ARMY`, which
    hides other files' problems) must not send the player looking for a misspelt name, nor recompute the crypt
    size as if the figure were absent (HC-PLOT-03).
    """
    mini.edit(file, old, new)
    assert [p.field for p in mini.problems_in(file)] == [field]
    army_messages = [p.message for p in mini.problems_in(ARMY)]
    for text in misleading:
        assert not any(text in m for m in army_messages), army_messages


# --- names across files ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "copy", "field", "at", "name"),
    [
        pytest.param(FIGURE, "figures/zz-copy.yaml", "id", "id: grave-knight-u", "grave-knight-u", id="figure-id"),
        pytest.param(MAP, "maps/zz-copy.yaml", "id", "id: graveyard-mini", "graveyard-mini", id="map-id"),
    ],
)
def test_duplicate_id_across_files(mini, source, copy, field, at, name):
    """Two files defining the same figure or map id: the later file (in path order) is reported."""
    mini.write(copy, mini.text(source))
    problem = mini.only_problem(copy)
    assert (problem.field, problem.line) == (field, mini.line(copy, at))
    assert problem.message == f"'{name}' is already defined in {mini.path(source)}; names must be unique"
    assert mini.problems_in(source) == []


def test_duplicate_plot_twist_and_victim_across_files(mini):
    """A plot twist or victim archetype defined in two list files is reported where it is defined again."""
    mini.write(
        "zz-more.yaml",
        "plot_twists:\n  - name: Dead Calm\n    windows: [slaying]\n    effect: {name: prevent_slaying}\n"
        "    text: t\n    provenance: p\n  - name: Try Again\n    windows: [attack_roll]\n"
        "    effect: {name: reroll_attack, params: {whose: any}}\n    text: t\n    provenance: p\n",
    )
    mini.write("zz-victims.yaml", "victims:\n  - {name: Jock, speed: 5, gender: male, provenance: p}\n")
    twist = mini.only_problem("zz-more.yaml")
    assert (twist.line, twist.field) == (7, "plot_twists[1].name")
    assert twist.message == f"'Try Again' is already defined in {mini.path(PLOT_TWISTS)}; names must be unique"
    victim = mini.only_problem("zz-victims.yaml")
    assert (victim.line, victim.field) == (2, "victims[0].name")
    assert victim.message == f"'Jock' is already defined in {mini.path(VICTIMS)}; names must be unique"


# --- reading files: YAML, repeated keys, file kinds (engine/roster/yaml_lines.py, loader.py) ----------------------


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        pytest.param(
            "id: ghoul\nname: Ghoul\n\tpoints: 60\n", 3, "found character '\\t' that cannot start any token", id="tab"
        ),
        pytest.param("id: ghoul\n  name: Ghoul\nrank: rookie\n", 2, "mapping values are not allowed here", id="indent"),
    ],
)
def test_yaml_syntax_error_has_its_line(mini, text, line, message):
    """A file that is not YAML gives one problem, on the line of the mistake, with no field."""
    mini.write("figures/broken.yaml", text)
    problem = mini.only_problem("figures/broken.yaml")
    assert (problem.line, problem.field) == (line, "")
    assert problem.message.startswith("not valid YAML: ")
    assert message in problem.message
    assert "check the indentation and quotes" in problem.message


@pytest.mark.parametrize(
    ("raw", "line", "message"),
    [
        pytest.param(
            b"id: ghoul\nname: !!python/object:os.system Ghoul\n",
            2,
            "YAML tags ('!!python/object:os.system') are not allowed in clix files; remove the tag",
            id="python-tag",
        ),
        pytest.param(
            b"id: ghoul\nname: !mine Ghoul\n",
            2,
            "YAML tags ('!mine') are not allowed in clix files; remove the tag",
            id="local-tag",
        ),
        pytest.param(
            "id: ghoul\nname: Ghoul\n".encode("utf-16"),
            1,
            "the file is UTF-16 text, not UTF-8; save it as UTF-8",
            id="utf-16",
        ),
    ],
)
def test_a_tag_or_utf16_is_named_for_what_it_is(mini, raw, line, message):
    """Issue 31: a YAML tag and a UTF-16 file each get a line that says what they are and how to fix them."""
    mini.path("figures/broken.yaml").write_bytes(raw)
    problem = mini.only_problem("figures/broken.yaml")
    assert (problem.line, problem.field, problem.message) == (line, "", message)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param('id: ghoul\nname: "Ghoul\nrank: rookie\n', 2, id="unclosed-quote"),
        pytest.param("# a figure\nid: ghoul\nclasses: [Undead\nrank: rookie\n", 3, id="unclosed-bracket"),
    ],
)
def test_yaml_unclosed_quote_or_bracket_points_at_where_it_opens(mini, text, line):
    """An unclosed quote or bracket is reported on the line where it opens, not where PyYAML gave up
    (for a quote that is past the end of the file)."""
    mini.write("figures/broken.yaml", text)
    problem = mini.only_problem("figures/broken.yaml")
    assert problem.message.startswith("not valid YAML: ")
    assert problem.line == line, str(problem)


@pytest.mark.parametrize(
    ("file", "old", "new", "field", "first"),
    [
        pytest.param(FIGURE, "points: 60", "points: 60\npoints: 70", "points", "points: 60", id="top-level"),
        pytest.param(
            CROSSROADS,
            "    title: Crone",
            "    title: Crone\n    title: Old Crone",
            "card.start_b.title",
            "title: Crone",
            id="nested",
        ),
    ],
)
def test_repeated_key(mini, file, old, new, field, first):
    """PyYAML silently keeps the last of two equal keys; clix reports the second with the line of the first."""
    mini.edit(file, old, new)
    problem = mini.only_problem(file)
    first_line = mini.line(file, first)
    assert problem.field == field
    assert problem.line == first_line + 1
    assert problem.message == (
        f"key '{field.rsplit('.', 1)[-1]}' appears twice (first on line {first_line}); "
        "keep one, PyYAML would silently drop the first"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "# notes\ntitle: my collection\nauthor: me\n", "cannot tell what this file describes", id="unknown-kind"
        ),
        pytest.param("- grave-knight-u\n- crypt-keeper-r\n", "a roster file must be a mapping of keys", id="a-list"),
        pytest.param("# nothing yet\n", "a roster file must be a mapping of keys", id="empty"),
    ],
)
def test_file_of_unknown_kind(mini, text, message):
    """A file is told by its keys (dial, rows, build_total, plot_twists, victims); anything else is a problem."""
    mini.write("stray.yaml", text)
    problem = mini.only_problem("stray.yaml")
    assert (problem.line, problem.field) == (1, "")
    assert message in problem.message


def test_file_kind_message_names_every_kind(mini):
    mini.write("stray.yaml", "title: x\n")
    message = mini.only_problem("stray.yaml").message
    for key in ("'dial'", "'rows'", "'build_total'", "'plot_twists'", "'victims'"):
        assert key in message


def test_non_yaml_files_in_a_directory_are_ignored_but_named_ones_are_not(mini):
    """Directories are searched for .yaml/.yml only; a file named explicitly must be a roster file."""
    readme = mini.write("README.txt", "not a roster")
    assert mini.problems() == []
    _, problems = load_roster([readme])
    assert [(p.line, p.field, p.message) for p in problems] == [(0, "", "not a roster file; roster files end in .yaml")]
    _, problems = load_roster([mini.path("nowhere.yaml")])
    assert [p.message for p in problems] == ["no such file or directory"]


def test_yml_suffix_is_loaded(mini):
    mini.path(DEMO).rename(mini.path("figures/demo-ghoul-d.yml"))
    roster, problems = mini.load()
    assert problems == []
    assert "demo-ghoul-d" in roster.figures


def test_problem_text_without_line_or_field():
    """Problem renders as file:line: field: message, dropping the parts it does not know."""
    from clix.engine.roster.problems import Problem

    assert str(Problem("a.yaml", 3, "rank", "bad")) == "a.yaml:3: rank: bad"
    assert str(Problem("a.yaml", 0, "", "bad")) == "a.yaml: bad"
    assert str(Problem("a.yaml", 1, "", "bad")) == "a.yaml:1: bad"


def test_every_problem_found_at_once(mini):
    """Validation reports every mistake in a file, not just the first (style practice 7)."""
    mini.edit(FIGURE, "rank: unique", "rank: legendary")
    mini.edit(FIGURE, "speed_mode: boot", "speed_mode: hoof")
    mini.edit(FIGURE, '"6 9 16 2"', '"6 9 16"')
    assert [p.field for p in mini.problems_in(FIGURE)] == ["rank", "speed_mode", "dial[2]"]


def test_figure_model_rejects_dial_without_killed_click_directly():
    """The model itself (not only the loader) enforces the dial shape (HC-COMBAT-11)."""
    data = {
        "id": "a-b",
        "name": "A",
        "set": "s",
        "collector_number": 1,
        "rank": "rookie",
        "points": 10,
        "speed_mode": "boot",
        "range": 0,
        "classes": ["Undead"],
        "provenance": "p",
        "card": {"start": {}},
        "dial": ["6 8 14 2", "5 8 13 1"],
    }
    with pytest.raises(ValueError, match='the last click must be "x"'):
        Figure.model_validate(data)
    figure = Figure.model_validate({**data, "dial": ["6 8 14 2", "x"]})
    assert figure.collector_number == "1"


@pytest.mark.parametrize(
    ("model", "data", "message"),
    [
        pytest.param(
            PlotTwistFile,
            {"plot_twists": [TWIST, TWIST]},
            "plot twist 'Not So Fast' is listed twice; each name once",
            id="plot-twists",
        ),
        pytest.param(
            VictimFile,
            {"victims": [VICTIM, VICTIM]},
            "victim archetype 'Jock' is listed twice; each name once",
            id="victims",
        ),
    ],
)
def test_list_file_models_reject_repeated_names(model, data, message):
    """The list-file models themselves refuse a name listed twice (the loader reports it per item, see above)."""
    with pytest.raises(ValueError, match=re.escape(message)):
        model.model_validate(data)
    model.model_validate({key: items[:1] for key, items in data.items()})
