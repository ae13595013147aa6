"""Finding and loading the roster library for the CLI."""

from __future__ import annotations

import os
from pathlib import Path

from clix.analyzer.errors import ClixError
from clix.engine.roster.legality import reference_problems
from clix.engine.roster.loader import Roster, find_roster_files, load_roster
from clix.engine.roster.problems import Problem, relative
from clix.engine.roster.yaml_lines import path_problem

REPO_ROSTERS = Path(__file__).resolve().parent.parent / "rosters"


def default_roster_dir() -> Path:
    """$CLIX_ROSTERS, else ./rosters when it exists, else the rosters shipped beside the package."""
    env = os.environ.get("CLIX_ROSTERS")
    if env:
        return Path(env)
    local = Path("rosters")
    return local if local.is_dir() else REPO_ROSTERS


def load_for_check(targets: list[Path], library: Path) -> tuple[Roster, list[Problem], int]:
    """Load `targets` with the library (for names they refer to); return problems of `targets` only."""
    missing = [t for t in targets if not t.exists()]
    if missing:
        raise ClixError(f"{missing[0]}: {path_problem(missing[0]) or 'no such file or directory'}")
    checked = {relative(p) for p in find_roster_files(targets)[0]}
    paths = targets + ([library] if library.is_dir() else [])
    roster, problems = load_roster(paths)
    problems = [p for p in problems if p.file in checked] + reference_problems(roster, checked)
    return roster, sorted(set(problems), key=lambda p: (p.file, p.line, p.field, p.message)), len(checked)


def load_checked(library: Path) -> Roster:
    """Load the whole library, refusing to go on if any file in it is invalid."""
    if not library.is_dir():
        raise ClixError(f"{library}: roster library not found; pass --rosters DIR or set CLIX_ROSTERS")
    roster, problems = load_roster([library])
    problems += reference_problems(roster)
    if problems:
        raise ClixError(
            f"{problems[0]} (and {len(problems) - 1} more); run `clix roster check {library}` to see all"
            if len(problems) > 1
            else f"{problems[0]}"
        )
    return roster
