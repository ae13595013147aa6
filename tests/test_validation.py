"""Roster validation: figures and their dials (how each case works: tests/validation_cases.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clix.engine.horrorclix.roster.loader import load_roster
from validation_cases import ARMY, CROSSROADS, FIGURE, KEEPER, case, check_case

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
    path = Path(__file__).resolve().parent.parent / "rosters" / "horrorclix" / "figures" / "countess-vey-v.yaml"
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
