"""Summary lines that fit the terminal: each line wrapped at word boundaries to the console's width, its
continuation indented under the line's own text, so a summary reads the same at 80 columns as at 200."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console

CONTINUATION = 4
"""How much deeper than its line a wrapped continuation is indented."""


def wrapped(line: str, width: int) -> list[str]:
    """`line` as lines of at most `width` characters, broken between words (never inside a word, a path or a
    number: a single word longer than the width keeps its own line); continuations indented under the text."""
    if len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    return textwrap.wrap(
        line.strip(" "),
        width=width,
        initial_indent=lead,
        subsequent_indent=lead + " " * CONTINUATION,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [line]


def print_lines(console: Console, lines: Iterable[str], keep: Iterable[str] = ()) -> None:
    """Print summary `lines` wrapped to the console's width; lines that start with one of `keep` (a table's
    rows, a path to copy) are printed whole."""
    kept = tuple(keep)
    for line in lines:
        for part in [line] if kept and line.startswith(kept) else wrapped(line, console.width):
            console.print(part, markup=False, soft_wrap=True)


def wrote(paths: Iterable[Path | str]) -> str:
    """The line that says what a command wrote: the folder once, then the files' names ("wrote 9 files to out:
    summary.json, ..."; files in its subfolders by their paths under it), rather than every full path."""
    written = [Path(p) for p in paths]
    if not written:
        return "wrote no file"
    try:
        folder = Path(os.path.commonpath([p.parent for p in written]))
    except ValueError:  # absolute and relative paths mixed
        folder = Path("/")
    if folder.is_absolute() and folder.parent == folder:  # only the root in common: nothing worth naming once
        return "wrote " + ", ".join(str(p) for p in written)
    names = ", ".join(str(p.relative_to(folder)) for p in written)
    return f"wrote {counted(len(written), 'file')} to {folder}: {names}"


def counted(count: int, word: str, many: str | None = None) -> str:
    """ "1 file", "3 files", "2 armies" (`many` when the plural is not the word and an s)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def unwrapped(text: str) -> list[str]:
    """The lines of a summary printed by `print_lines`, each wrapped line joined again (a continuation is indented
    `CONTINUATION` deeper than its line; a summary's own deeper lines are indented 2 deeper)."""
    joined: list[str] = []
    indent = 0
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip(" "))
        if joined and line.strip() and depth >= indent + CONTINUATION:
            joined[-1] += " " + line.strip()
            continue
        joined.append(line)
        indent = depth
    return joined
