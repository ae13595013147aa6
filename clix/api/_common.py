"""What the API's functions share: their checks (errors that name the Python parameter, not the command line's
flag), the roster library, armies given as objects, the progress callback, and the base of every result (a short
repr, a small HTML table for notebooks, the report written to a folder)."""

from __future__ import annotations

import contextlib
import html
import io
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from rich.console import Console

from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library import load as library_load
from clix.engine.horrorclix.roster.models import Army as ArmyModel

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

Source = str | Path | Sequence[str | Path] | None
"""A roster library: a folder or file, or several (later ones replace items of the same name); None: the
library `clix` uses (./rosters, else $CLIX_ROSTERS, else the sample library)."""
ArmyArgument = str | Path | ArmyModel
"""An army: its id in the library, the path of its file, or an `Army` object."""
Names = str | Sequence[str] | None
"""Several names: a list, or one string of comma-separated names."""
Progress = Callable[[int, int], object] | None
"""Told `(games done, games planned)` as games finish (the games planned may grow as a run goes, under a target
precision, or shrink when a race finds fewer candidates)."""

QUIET = Console(file=io.StringIO(), quiet=True)
"""The console the commands' code prints to when the API calls it: nothing is shown."""

LISTINGS = {"plot-twists": "plot_twists"}


def speak_python(message: str, flags: Mapping[str, str]) -> str:
    """A message of the command line's code in the API's words: each flag (`--games`) becomes the parameter
    (`games`), and "`clix roster list armies` shows every army" becomes "clix.load_library().armies lists every
    army"."""
    for flag in sorted(flags, key=len, reverse=True):
        message = re.sub(rf"{re.escape(flag)}(?![\w-])", flags[flag], message)

    def listing(found: re.Match[str]) -> str:
        table = LISTINGS.get(found.group(1), found.group(1))
        return f"clix.load_library().{table} lists every {found.group(2)}"

    message = re.sub(r"`clix roster list ([\w-]+)` shows every ([\w ]+)", listing, message)
    return message.replace("`clix roster list` shows every name", "clix.load_library() holds every name")


@contextlib.contextmanager
def python_errors(flags: Mapping[str, str]) -> Iterator[None]:
    """Re-raise a ClixError of the commands' code in the API's words (`speak_python`)."""
    try:
        yield
    except ClixError as exc:
        raise ClixError(speak_python(str(exc), flags)) from None


def flags_of(*names: str, **renamed: str) -> dict[str, str]:
    """The flags of parameters of the same name (`target_ci`: `--target-ci`), and of `renamed` ones
    (`army="--in"`)."""
    found = {"--" + name.replace("_", "-"): name for name in names}
    return found | {flag: name for name, flag in renamed.items()}


# --- checks ---------------------------------------------------------------------------------------------


def whole(value: Any, name: str) -> int:
    """An integer parameter (a bool or a float is refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClixError(f"{name} must be a whole number (got {value!r})")
    return value


def games(value: Any, name: str = "games", minimum: int = 2) -> int:
    """A number of games within [minimum, MAX_GAMES]."""
    whole(value, name)
    if not minimum <= value <= checks.MAX_GAMES:
        raise ClixError(f"{name} must be {minimum} to {checks.MAX_GAMES:,} games (got {value:,})")
    return int(value)


def turns(value: Any) -> int:
    """A turn limit per player."""
    whole(value, "turns")
    if not 1 <= value <= checks.MAX_TURNS:
        raise ClixError(f"turns must be a turn limit per player from 1 to {checks.MAX_TURNS} (got {value:,})")
    return int(value)


def seed(value: Any) -> int:
    """A master seed."""
    whole(value, "seed")
    if value < 0:
        raise ClixError(f"seed must be a non-negative integer (got {value})")
    return int(value)


def jobs(value: Any) -> int:
    """Worker processes: 0 (the default, as the command line's) for every core; more than the machine's cores
    are capped to them; 1 plays in this process."""
    whole(value, "jobs")
    if value < 0:
        raise ClixError(f"jobs must be 0 (every core) or a number of worker processes (got {value})")
    return checks.jobs(value)


def budget(value: Any, name: str = "budget") -> int:
    """A build total: 100, 200, ... 1000."""
    whole(value, name)
    if value < 100 or value > 1000 or value % 100:
        raise ClixError(f"{name} must be a build total of 100, 200, ... up to 1000 (got {value:,})")
    return int(value)


def names(value: Names, name: str) -> list[str]:
    """A list of names given as a list or as one comma-separated string."""
    if value is None:
        return []
    if isinstance(value, str):
        return [n.strip() for n in value.split(",") if n.strip()]
    if isinstance(value, Sequence) and all(isinstance(n, str) for n in value):
        return [n.strip() for n in value if n.strip()]
    raise ClixError(f"{name} must be a list of names or a comma-separated string (got {value!r})")


def comma(value: Names, name: str) -> str | None:
    """Names as the command line's comma-separated option takes them (None when none are given)."""
    found = names(value, name)
    return ",".join(found) if found else None


def players(value: str | Sequence[str], name: str = "players") -> str:
    """Player styles as "A,B" (a pair given as a tuple or list is joined)."""
    if isinstance(value, str):
        return value
    return ",".join(names(value, name))


# --- the library and armies -----------------------------------------------------------------------------


def layers(rosters: Source) -> list[Path] | None:
    """`rosters` as the library's layers (None: the default library)."""
    if rosters is None:
        return None
    if isinstance(rosters, str | Path):
        return [Path(rosters)]
    return [Path(r) for r in rosters]


def load(rosters: Source, arguments: Mapping[str, str], **wanted: Any) -> library_load.Library:
    """The library for a run that uses `wanted` (as `analyzer.library.load.load_library` takes them); an argument
    that names nothing (or a broken file) is a ClixError that starts with the parameter it came from
    (`arguments`: each argument's parameter). Problems in files the run does not use are ignored."""
    try:
        return library_load.load_library(layers(rosters), **wanted)
    except ClixError as exc:
        message = speak_python(str(exc), {"--rosters": "rosters"})
        parameter = next((p for a, p in arguments.items() if f"'{a}'" in message or message.startswith(a)), None)
        for path, name in MADE.items():  # an Army object's file is named by the army, not by its temporary path
            if path in message:
                message = re.sub(r"; run `clix roster check [^`]*` to see all", "", message)
                message = re.sub(rf"{re.escape(path)}(:\d+)?", f"Army {name!r}", message)
        raise ClixError(message if parameter is None else f"{parameter}: {message}") from None


def ruleset_of(rosters: Source, arguments: Sequence[tuple[str, str, bool]], ruleset: str | None = None) -> str:
    """The ruleset of a run naming `arguments` (each (its parameter, an id or a file path, whether it is a map)):
    theirs, else `ruleset`, else HorrorClix; a ClixError naming two of different rulesets
    (analyzer/library/rulesets.py `arguments_ruleset`)."""
    from clix.analyzer.library.rulesets import ARMIES, MAPS, Argument, arguments_ruleset

    named = [Argument(label, text, MAPS if is_map else ARMIES) for label, text, is_map in arguments]
    return arguments_ruleset(layers(rosters), named, ruleset)


def ruleset_library(
    rosters: Source, ruleset: str, armies: Sequence[tuple[str, str]], maps: Sequence[tuple[str, str]]
) -> Any:
    """The library of a run in a ruleset other than HorrorClix's (a `rulesets.RulesetLibrary`: `data`, `layers`,
    `id(argument)`; the ruleset's default map's id under ""), the `armies` and `maps` (each (its parameter, an id or
    a file path)) resolved to ids and checked as the command line checks them."""
    from clix.analyzer.library.rulesets import MAPS, Argument, analysis_library

    return analysis_library(
        layers(rosters),
        ruleset,
        [Argument(label, text) for label, text in armies],
        [Argument(label, text, MAPS) for label, text in maps],
    )


def army_kind(settings: Mapping[str, Any]) -> str:
    """What the ruleset of a run's `settings` (its `ruleset` version) calls an army: "army", "force"."""
    from clix.analyzer.library.rulesets import kit_of, ruleset_of_version

    ruleset = ruleset_of_version(str(settings.get("ruleset", "")))
    return "army" if ruleset is None else str(kit_of(ruleset).army_kind)


MADE: dict[str, str] = {}
"""The army files written for `Army` objects (by `army_argument`), with their armies' names."""


def army_argument(army: Any, folder: Path, name: str) -> str:
    """An army argument as the library takes it: an id or a file path (an `Army` object is written to a file in
    `folder`, named after the army: the name becomes its id)."""
    if isinstance(army, ArmyModel):
        slug = re.sub(r"[^a-z0-9]+", "-", army.name.lower()).strip("-") or "army"
        text = yaml.safe_dump(army.model_dump(mode="json", exclude_none=True), sort_keys=False)
        path = folder / f"{slug}.yaml"
        if path.exists() and path.read_text() != text:  # another army of the same name: its id says whose
            path = folder / f"{slug}-{name.replace('_', '-')}.yaml"
        path.write_text(text)
        MADE[str(path)] = army.name
        return str(path)
    if isinstance(army, Path):
        return str(army)
    if isinstance(army, str):
        return army
    raise ClixError(f"{name} must be an army id, a file path or a clix.Army (got {type(army).__name__})")


@contextlib.contextmanager
def army_folder() -> Iterator[Path]:
    """A temporary folder for the army files of `Army` objects, kept while the games are played."""
    with tempfile.TemporaryDirectory(prefix="clix-armies-") as folder:
        try:
            yield Path(folder)
        finally:
            for path in [p for p in MADE if p.startswith(folder)]:
                del MADE[path]


def note(line: str) -> None:
    """A note of the commands' code (not an error) as a warning."""
    warnings.warn(line.removeprefix("note: "), stacklevel=4)


# --- progress -------------------------------------------------------------------------------------------


class Counter:
    """The progress callback's count: games done and planned, told to `callback` as they change."""

    def __init__(self, callback: Progress, total: int = 0) -> None:
        if callback is not None and not callable(callback):
            raise ClixError(f"progress must be a function of (games done, games planned) (got {callback!r})")
        self.callback = callback
        self.done = 0
        self.total = total

    def advance(self, games: int) -> None:
        self.done += games
        if self.callback is not None:
            self.callback(self.done, max(self.total, self.done))

    def plan(self, games: int) -> None:
        """`games` more games planned (a new look of a run to a target precision)."""
        self.total += games

    @property
    def step(self) -> Callable[[int], None] | None:
        """The callback the commands' code takes (told of games as they finish), None without a callback."""
        return self.advance if self.callback is not None else None


# --- results --------------------------------------------------------------------------------------------


class Result:
    """The base of the API's results: `headline` (one sentence), `table()` (a few rows), a short repr, an HTML
    repr for notebooks, `plot()` and `report(path)`."""

    @property
    def headline(self) -> str:
        raise NotImplementedError

    def table(self) -> pd.DataFrame:
        """The few rows a notebook shows under the headline."""
        raise NotImplementedError

    def plot(self) -> Figure:
        raise NotImplementedError

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        """Write the command's outputs to `folder` (a fresh, empty staging folder); return the paths."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.headline}>"

    def _repr_html_(self) -> str:
        table = self.table().to_html(index=False, border=0, max_rows=12, na_rep="–")
        return f"<div><p><b>{html.escape(self.headline)}</b></p>{table}</div>"

    def report(self, path: str | Path, pdf: bool = False) -> Path:
        """Write the report and return its path. `path` ending in .html: that one self-contained HTML file (and
        with `pdf` its PDF beside it, .pdf for .html); else a folder, as the command line's --out, with every
        output (the HTML report, the tables, the plots and with `pdf` the PDF), replacing an earlier run's outputs
        there (a folder holding other files is refused)."""
        from clix.analyzer.report.folder import Target, claim_output

        path = Path(path)
        if path.suffix.lower() in (".html", ".htm"):
            with tempfile.TemporaryDirectory(prefix="clix-report-") as folder:
                written = self._write(Path(folder) / "out", pdf)
                path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(written["report"], path)
                if pdf:
                    shutil.copyfile(written["pdf"], path.with_suffix(".pdf"))
            return path
        with python_errors({"--out": "path", "--force": "force"}), claim_output(Target(path, force=True)) as claimed:
            with claimed.staged() as staging:
                written = self._write(staging, pdf)
            return claimed.final(written["report"])


def percent(score: Mapping[str, Any] | None, low: str = "low", high: str = "high", key: str = "score") -> str:
    """ "52% [45–59]" (a score with its 95% interval), "52%" when it has no interval, "–" when there is none."""
    if not score or score.get(key) is None:
        return "–"
    if any(score.get(end) is None or score[end] != score[end] for end in (low, high)):  # None or NaN
        return f"{100 * score[key]:.0f}%"
    return f"{100 * score[key]:.0f}% [{100 * score[low]:.0f}–{100 * score[high]:.0f}]"
