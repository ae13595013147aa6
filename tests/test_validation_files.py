"""Roster validation: reading the files themselves: YAML, encodings, kinds (how each case works: tests/validation_cases.py)."""

from __future__ import annotations

import re

import pytest
from clix.engine.horrorclix.roster.loader import load_roster
from clix.engine.horrorclix.roster.models import Figure, PlotTwistFile, VictimFile
from validation_cases import (
    CROSSROADS,
    DEMO,
    FIGURE,
    TWIST,
    VICTIM,
)

# --- reading files: YAML, repeated keys, file kinds (engine/core/files/yaml_lines.py, loader.py) ----------------------


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
    from clix.engine.core.files.problems import Problem

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
