"""Finding a ruleset's files in folders: every YAML file below a folder, and every path that hides files (a
folder that cannot be read, a broken or looping link), so a check can name it instead of skipping it silently."""

from __future__ import annotations

import os
from pathlib import Path

from clix.engine.core.files.problems import relative
from clix.engine.core.files.yaml_lines import path_problem

YAML_SUFFIXES = (".yaml", ".yml")
"""What a data or scenario file's name ends in."""


def walk_folder(root: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The YAML files below `root` (sorted, following links), and the paths below it that hide files, with why: a
    folder that cannot be read, a folder named like a YAML file, a broken or looping link."""
    files: list[Path] = []
    hidden: list[tuple[Path, str]] = []
    stack: list[tuple[Path, tuple[Path, ...]]] = [(root, (root.resolve(),))]
    while stack:
        folder, ancestors = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            hidden.append((folder, path_problem(folder) or "cannot read this folder, so its files were not checked"))
            continue
        for entry in entries:
            path = Path(entry.path)
            roster_like = path.suffix in YAML_SUFFIXES
            if entry.is_symlink() and not path.exists():
                if roster_like or not path.suffix:  # a link without a suffix may have named a folder
                    hidden.append((path, path_problem(path) or "broken symbolic link; fix it or remove it"))
                continue
            if _is_dir(entry):
                real = path.resolve()
                if real in ancestors:
                    hidden.append(
                        (
                            path,
                            f"symbolic link back to the folder '{relative(real)}' above it, which would "
                            "loop forever; remove the link",
                        )
                    )
                    continue
                if roster_like:
                    hidden.append((path, path_problem(path) or "this is a folder, not a file"))
                stack.append((path, (*ancestors, real)))
            elif roster_like:
                files.append(path)
    return sorted(files), hidden


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def yaml_files(paths: list[Path]) -> list[Path]:
    """Every `*.yaml` file named by `paths` (folders: every one below them, sorted), as scenario runs read them.

    Paths that hide files below a folder (a folder that cannot be read or is named like a file, a broken or
    looping link) are listed too: loading one reports what is wrong with it."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            files, hidden = walk_folder(path)
            found.extend(sorted([*(p for p in files if p.suffix == ".yaml"), *(p for p, _ in hidden)]))
        else:
            found.append(path)
    return found
