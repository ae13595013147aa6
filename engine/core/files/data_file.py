"""What every ruleset's library loader does first with a file: skip what is not YAML, read it with its lines, say a
YAML error in one line, leave a file of another ruleset to that ruleset, and turn YAML's own complaints (a repeated
key) into problems. `named` is the core's `named_ruleset` (this package sits below the ruleset registry, so it is
handed in); a file naming a ruleset clix does not play is the loader's problem."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clix.engine.core.files.folders import YAML_SUFFIXES
from clix.engine.core.files.problems import InvalidFile, LineMap, Problem, relative
from clix.engine.core.files.yaml_lines import YamlError, read_yaml


@dataclass
class DataFile:
    """A ruleset's YAML file read: its name in problems, its top-level value, the line of each value, and YAML's
    problems with it."""

    name: str
    data: Any
    lines: LineMap
    problems: list[Problem]


def read_data_file(
    path: Path, ruleset: str, named: Callable[[Any, LineMap, str], str]
) -> tuple[DataFile | None, list[Problem]]:
    """The file at `path` if it is YAML of `ruleset` (`named(data, lines, name)`, the ruleset it names); else None
    with the problems that stopped it (none for a file that is not YAML or is another ruleset's)."""
    name = relative(path)
    if path.suffix not in YAML_SUFFIXES:
        return None, []
    try:
        data, lines, yaml_problems = read_yaml(path)
    except YamlError as exc:
        return None, [Problem(name, exc.line, "", exc.message)]
    try:
        if named(data, lines, name) != ruleset:
            return None, []
    except InvalidFile as exc:
        return None, exc.problems
    problems = [Problem(name, line, ".".join(map(str, loc)), message) for line, loc, message in yaml_problems]
    return DataFile(name, data, lines, problems), []
