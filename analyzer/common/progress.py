"""One rich progress bar for long runs: games done, games/s and the time left."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


@contextmanager
def progress_bar(
    console: Console, description: str, total: int, quiet: bool, done: int = 0
) -> Iterator[Callable[[int], None] | None]:
    """One rich progress bar (none when `quiet`); yields the callback that advances it by a number of games.
    `done` games are counted from the start (taken from the result store: not in the rate). Off a terminal
    (output piped or redirected) there is no bar: rich would leave a blank line where it stood."""
    if quiet or not console.is_terminal:
        yield None
        return
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(description, total=total, completed=done, rate="–")

        def advance(finished: int) -> None:
            progress.advance(task, finished)
            elapsed = progress.tasks[0].elapsed or 0
            if elapsed:
                progress.update(task, rate=f"{(progress.tasks[0].completed - done) / elapsed:.1f}")

        yield advance


@contextmanager
def stage(console: Console, description: str, quiet: bool) -> Iterator[None]:
    """A spinner with `description` while a long step without a count runs (none when `quiet`, or off a
    terminal): a million-game duel's statistics and files take a minute or two."""
    if quiet or not console.is_terminal:
        yield
        return
    with console.status(description):
        yield
