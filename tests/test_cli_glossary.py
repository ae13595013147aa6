"""One vocabulary across commands (issue 37, item 1): every option that more than one command takes is in the
glossary of docs/cli.md, with the commands that take it, and has the same short form in each of them."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import typer
from clix.analyzer.cli import app

GLOSSARY = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
SHORT = {"-n": "--games", "-o": "--out", "-j": "--jobs", "-s": "--seed", "-p": "--players"}
"""The glossary's short forms, each for one long option only."""


def _commands(group, prefix: str = ""):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def options() -> dict[str, dict[str, tuple[str, ...]]]:
    """Each long option, by the commands that take it, with its other names there."""
    found: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    for name, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.param_type_name != "option" or param.is_eager:
                continue
            names = (*param.opts, *param.secondary_opts)
            long = next(n for n in names if n.startswith("--"))
            found[long][name] = tuple(sorted(n for n in names if n != long))
    return found


def glossary_rows() -> dict[str, str]:
    """The glossary table's rows: each long option it names in its first column, with the row's text."""
    section = GLOSSARY.split("(the glossary)", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split(" | ")[0]
            for long in re.findall(r"(--[a-z-]+)", first):
                rows[long] = line
    return rows


def test_every_shared_option_is_in_the_glossary_with_its_commands():
    rows = glossary_rows()
    for long, commands in options().items():
        if len(commands) < 2:
            continue
        assert long in rows, (
            f"{long} is taken by {sorted(commands)} but docs/cli.md's glossary does not say what it means"
        )
        listed = rows[long].split(" | ")[1]
        for command in commands:
            head = command.split()[0]
            assert head in listed or "every command" in listed, f"{long}: the glossary row does not name `{command}`"


def test_a_shared_option_has_the_same_short_form_everywhere():
    for long, commands in options().items():
        forms = {others for others in commands.values()}
        short = {n for others in forms for n in others if not n.startswith("--")}
        assert len({tuple(n for n in others if not n.startswith("--")) for others in forms}) == 1, (long, commands)
        for name in short:
            assert SHORT.get(name) == long or (long, name) == ("--verbose", "-v"), f"{name} means {long} here"


def test_the_glossarys_short_forms_are_on_every_command_with_the_option():
    found = options()
    for short, long in SHORT.items():
        for command, others in found[long].items():
            assert short in others, f"`clix {command}` takes {long} without {short}"


def test_the_glossary_can_fail(monkeypatch):
    """A shared option the glossary lacks is caught (the check above is not vacuous)."""
    rows = glossary_rows()
    assert "--games" in rows and "--jobs" in rows
    monkeypatch.setattr("test_cli_glossary.GLOSSARY", GLOSSARY.replace("`--jobs J`", "`jobs`"))
    assert "--jobs" not in glossary_rows()
