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
    assert all(word.strip(".").isupper() for word in arguments.split() if word.strip(".")), usage  # ARMY_A, PATHS..., never army_a


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
