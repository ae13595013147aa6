"""`clix scenario run`: run scenario files and report each one on a line.

Each file is played by the ruleset it names (its top-level `ruleset`; HorrorClix when it names none), found
through the core's registry, with that ruleset's library of figures and maps (loaded once, when first needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.engine.core.files.folders import yaml_files
from clix.engine.core.files.problems import InvalidFile
from clix.engine.core.files.yaml_lines import path_problem
from clix.engine.core.ruleset import Ruleset, file_ruleset, ruleset_named
from rich.console import Console


def run_paths(paths: list[Path], library: tuple[Path, ...], verbose: bool, console: Console) -> int:
    """Run every scenario under `paths`; return the exit code (0 all pass, 1 a failure, 2 a bad file)."""
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise ClixError(f"{missing[0]}: {path_problem(missing[0]) or 'no such file or directory'}")
    files = yaml_files(paths)
    if not files:
        raise ClixError(f"no scenario files (*.yaml) under {', '.join(map(str, paths))}")
    libraries: dict[str, Any] = {}
    passed = failed = invalid = 0
    for path in files:
        try:
            ruleset = ruleset_named(file_ruleset(path))
            if ruleset.name not in libraries:
                libraries[ruleset.name] = _library(ruleset, library)
            result = ruleset.run_scenario(path, libraries[ruleset.name])
        except InvalidFile as exc:
            invalid += 1
            for problem in exc.problems:
                console.print(f"INVALID {problem}", markup=False)
            continue
        if result.passed:
            passed += 1
            console.print(f"pass  {path}: {result.name}", markup=False)
        else:
            failed += 1
            console.print(f"FAIL  {path}: {result.name}", markup=False)
            for failure in result.failures:
                console.print(f"      {failure}", markup=False)
    summary = f"{passed} passed, {failed} failed"
    console.print(summary + (f", {invalid} invalid" if invalid else ""), markup=False)
    if invalid:
        return 2
    return 1 if failed else 0


def _library(ruleset: Ruleset, library: tuple[Path, ...]) -> Any:
    """The ruleset's library scenarios may name figures and maps from (None if there is none)."""
    layers = [layer for layer in library if layer.exists()]
    if not layers or ruleset.library_loader is None:
        return None
    roster, _ = ruleset.load_library(layers)
    return roster
