"""Roster validation: armies and names across files (how each case works: tests/validation_cases.py)."""

from __future__ import annotations

import pytest
from validation_cases import (
    ARMY,
    FIGURE,
    KEEPER,
    MAP,
    PLOT_TWISTS,
    VICTIMS,
    case,
    check_case,
)

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


def test_an_unknown_field_does_not_hide_the_bad_names_after_it(mini):
    """Issue 37 (homebrew): an army with a misspelt key and a misspelt figure gets both problems in one check, not
    one per round; the army is still never played (it is not in the library's armies)."""
    mini.edit(ARMY, "build_total:", "buidl_note: 1\nbuild_total:")
    mini.edit(ARMY, "figure: crossroads-witch-e", "figure: no-such-figure")
    found = [p.message for p in mini.problems_in(ARMY)]
    assert any("unknown field 'buidl_note'" in m for m in found), found
    assert any("no figure named 'no-such-figure'" in m for m in found), found
