"""Defaults for the command line from a configuration file (`clix.toml`), read with the standard `tomllib` and handed
to click as the commands' `default_map`, so an option given on the command line always wins.

The files, later ones over earlier ones: the user's (`$XDG_CONFIG_HOME/clix/clix.toml`, else
`~/.config/clix/clix.toml`), the project's (`./clix.toml`, in the folder clix runs in), then one named by
`clix --config FILE` or `$CLIX_CONFIG`. A file holds a `[defaults]` table, for every command that takes the option,
and one table per command (`[duel]`, `[meta]`, `[roster.check]`), keyed by the options' long names without their
dashes (`games = 2000`, `target-ci = 3`, `rosters = ["rosters", "mine"]`); docs/cli.md has the whole story.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from clix.analyzer.common.errors import ClixError
from clix.engine.core.files.problems import did_you_mean

FILE_NAME = "clix.toml"
ENV_FILE = "CLIX_CONFIG"
DEFAULTS = "defaults"
"""The table whose options apply to every command that has them."""


def user_file() -> Path:
    """The user's configuration file (it may not exist)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "clix" / FILE_NAME


def config_files(named: Path | None) -> list[Path]:
    """The files to read, in order (later over earlier): the user's and the project's where they exist, then the
    one named by `--config` or `$CLIX_CONFIG` (which must exist)."""
    found = [path for path in (user_file(), Path(FILE_NAME)) if path.is_file()]
    if named is None and os.environ.get(ENV_FILE):
        named = Path(os.environ[ENV_FILE])
    if named is not None:
        if not named.is_file():
            raise ClixError(f"{named}: no such configuration file (named by --config or ${ENV_FILE})")
        found.append(named)
    return found


@dataclass
class Defaults:
    """The defaults read: click's `default_map` (nested by command, keyed by parameter name) and, for `-v`, what
    each file set."""

    default_map: dict[str, Any] = field(default_factory=dict)
    read: list[str] = field(default_factory=list)


def load_defaults(root: Any, files: list[Path]) -> Defaults:
    """The defaults `files` set for the commands under `root`; ClixError (file, table, key, what is wrong) on a
    file that is not TOML, a table that names no command, an option a command lacks, or a value it refuses."""
    defaults = Defaults()
    commands = dict(_commands(root))
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ClixError(f"{path}: not a valid TOML file: {exc}") from None
        set_here: list[str] = []
        shared = data.pop(DEFAULTS, {})
        if not isinstance(shared, dict):
            raise ClixError(f"{path}: [{DEFAULTS}] must be a table of options (name = value)")
        for key, value in shared.items():
            takers = [(name, command) for name, command in commands.items() if _option(command, key) is not None]
            if not takers:
                known = sorted({o for command in commands.values() for o in _option_names(command)})
                raise ClixError(f"{path}: [{DEFAULTS}] {key}: no command takes --{key}{_hint(key, known)}")
            for name, command in takers:
                _set(defaults.default_map, name, command, key, value, path, DEFAULTS)
            set_here.append(f"{key}={value!r}")
        for name, options in _tables(data, path):
            command = commands.get(name)
            if command is None:
                raise ClixError(f"{path}: [{name}]: no such command{_hint(name, sorted(commands), 'table')}")
            for key, value in options.items():
                _set(defaults.default_map, name, command, key, value, path, name)
                set_here.append(f"{name}.{key}={value!r}")
        defaults.read.append(f"{path} ({', '.join(set_here) or 'nothing set'})")
    return defaults


def _commands(group: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every command under `group` (typer's click group) by its dotted name (`duel`, `roster.check`)."""
    for name, command in group.commands.items():
        dotted = f"{prefix}{name}"
        if hasattr(command, "commands"):  # a group
            yield from _commands(command, dotted + ".")
        else:
            yield dotted, command


def _tables(data: Mapping[str, Any], path: Path, prefix: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """The command tables of a file by dotted name, nested tables (`[roster.check]`) unfolded; a table's
    non-table values are its options."""
    for name, value in data.items():
        dotted = f"{prefix}{name}"
        if not isinstance(value, dict):
            raise ClixError(f"{path}: {dotted} = ...: an option goes in a table, [{DEFAULTS}] or [COMMAND]")
        options = {k: v for k, v in value.items() if not isinstance(v, dict)}
        if options or not value:
            yield dotted, options
        yield from _tables({k: v for k, v in value.items() if isinstance(v, dict)}, path, dotted + ".")


def _options(command: Any) -> list[Any]:
    """A command's options (not its arguments, nor eager ones like --help)."""
    return [p for p in command.params if p.param_type_name == "option" and not p.is_eager]


def _option_names(command: Any) -> list[str]:
    return [name[2:] for option in _options(command) for name in option.opts if name.startswith("--")]


def _option(command: Any, key: str) -> Any:
    """The option of `command` whose long name is `--key` (None if it has none)."""
    for param in _options(command):
        if f"--{key}" in param.opts:
            return param
    return None


def _set(default_map: dict[str, Any], name: str, command: Any, key: str, value: Any, path: Path, table: str) -> None:
    """Check `value` as the option's own type would on the command line, then put it in the nested map."""
    option = _option(command, key)
    if option is None:
        names = _option_names(command)
        raise ClixError(
            f"{path}: [{table}] {key}: `clix {name.replace('.', ' ')}` has no option --{key}{_hint(key, names)}"
        )
    try:
        option.process_value(typer.Context(command), value)
    except typer.BadParameter as exc:
        raise ClixError(f"{path}: [{table}] {key}: {exc.format_message()}") from None
    node = default_map
    for part in name.split("."):
        node = node.setdefault(part, {})
    assert option.name is not None
    node[option.name] = value


def _hint(word: str, known: list[str], what: str = "option") -> str:
    suggestion = did_you_mean(what, word, known)
    return f" ({suggestion.split('; ', 1)[1]})" if "; " in suggestion else ""
