"""The command-line conventions a Typer/rich user expects (issue 37, part 2): `-h` beside `--help` on every
command, `-V` beside `--version` (answered without loading the command line), shell completion offered, flags shown
without a value type, and usage lines naming their arguments in one style."""

from __future__ import annotations

import subprocess
import sys

import pytest
from clix.analyzer.cli import COMMANDS, GROUP_COMMANDS, app
from typer.testing import CliRunner


def _group_name(group) -> str:
    return next(info.name for info in app.registered_groups if info.typer_instance is group)


EVERY_COMMAND = [[name] for name, _ in COMMANDS] + [[_group_name(group), name] for group, name, _ in GROUP_COMMANDS]


@pytest.mark.parametrize("words", EVERY_COMMAND, ids=" ".join)
def test_every_command_takes_dash_h_and_shows_flags_without_a_type(words):
    short = CliRunner().invoke(app, [*words, "-h"], env={"COLUMNS": "100"})
    long = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "100"})
    assert short.exit_code == 0, short.output
    assert short.output == long.output
    assert "<bool>" not in short.output  # a flag takes no value
    usage = next(line for line in short.output.splitlines() if "Usage:" in line)
    arguments = usage.split("[OPTIONS]", 1)[1].replace("[", " ").replace("]", " ").replace("{", " ").replace("}", " ")
    assert all(word.strip(".").isupper() for word in arguments.split() if word.strip(".")), (
        usage
    )  # ARMY_A, PATHS..., never army_a


def test_the_root_offers_completion_and_dash_capital_v():
    result = CliRunner().invoke(app, ["-h"], env={"COLUMNS": "100"})
    assert "--install-completion" in result.output and "--show-completion" in result.output
    assert "-V" in result.output


def test_version_answers_without_loading_the_command_line():
    """`clix -V` and `clix --version` print the version from the package metadata alone: the analyzer, typer and
    pandas are never imported (a command line that loads them takes a second)."""
    probe = (
        "import sys; sys.argv = ['clix', '{flag}']; from clix.launch import main; main(); "
        "print(sorted(m for m in ('typer', 'pandas', 'clix.analyzer') if m in sys.modules))"
    )
    for flag in ("-V", "--version"):
        done = subprocess.run([sys.executable, "-c", probe.format(flag=flag)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        first, loaded = done.stdout.splitlines()
        assert first.startswith("clix ") and "(ruleset " in first
        assert loaded == "[]"


def test_a_long_line_wraps_between_words_under_its_own_indent():
    from clix.analyzer.common.text import wrapped

    line = "    butcher-shop: passed 2% (1% with victims), no legal action 7%, 5.1 attacks/game (0.6 after the last victim)"
    parts = wrapped(line, 80)
    assert len(parts) == 2 and all(len(p) <= 80 for p in parts)
    assert parts[1].startswith(" " * 8) and not parts[1].startswith(" " * 9)
    assert " ".join(p.strip() for p in parts) == line.strip()  # nothing lost, no word broken
    path = "  report: /a/very/long/" + "x" * 90 + "/report.html"
    assert [p.strip() for p in wrapped(path, 80)] == ["report:", path.split()[1]]  # the path kept whole


@pytest.mark.parametrize(
    "words",
    [
        ["duel", "butcher-shop", "firing-line", "--games", "8"],
        ["meta", "butcher-shop", "haunting", "--maps", "mansion", "--games", "4"],
        # two holdout armies: one pairing, too few for prediction intervals (which once raised a TypeError)
        [
            "value",
            "--armies",
            "3",
            "--opponents",
            "2",
            "--games",
            "2",
            "--resamples",
            "10",
            "--holdout",
            "2",
            "--holdout-games",
            "4",
        ],
        [
            "build",
            "--field",
            "butcher-shop,firing-line",
            "--maps",
            "graveyard",
            "--candidates",
            "2",
            "--first-games",
            "2",
            "--finalists",
            "1",
            "--games",
            "2",
        ],
        ["melee", "butcher-shop", "firing-line", "haunting", "midnight-rush", "--games", "24", "--turns", "4"],
    ],
    ids=lambda words: words[0],
)
def test_a_summary_fits_80_columns_and_piped_output_starts_with_it(words, tmp_path):
    """Issue 37, part 3: at COLUMNS=80 no summary line of duel, meta, value or build is wider than 80 characters, and
    output that goes to a pipe
    starts with the summary (no blank line left by a progress bar)."""
    import os

    env = {**os.environ, "COLUMNS": "80"}
    args = [*words, "--seed", "5", "--jobs", "1", "--out", "out", "--store", "s.duckdb"]  # short paths: they never wrap
    done = subprocess.run([sys.executable, "-m", "clix", *args], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and lines[0].strip(), done.stdout[:200]
    assert [line for line in lines if len(line) > 80] == []
