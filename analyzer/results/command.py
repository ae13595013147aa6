"""`clix results`: the runs recorded in the result store (analyzer.play.store), listed, shown and exported."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.names import settings_names
from clix.analyzer.library.rulesets import ruleset_of_version
from clix.analyzer.play.result import RunResult
from clix.analyzer.play.store import GameKey, RunRecord, Store, local_time
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET
from rich import box
from rich.console import Console
from rich.table import Table

FORMATS = ("csv", "parquet")
SUMMARY_PARTS = ("outcome", "score", "victory_points", "first_player", "tie_break", "game_length")
"""What every duel's stored summary holds (and `clix results show` prints): a HorrorClix duel's has its victim rush
too, a HeroClix duel's its knockouts."""


def run_ruleset(record: RunRecord) -> str:
    """The ruleset a run played (its summary's settings name its version; a run without one is HorrorClix's)."""
    try:
        version = json.loads(record.document)["settings"]["ruleset"]
    except (TypeError, ValueError, KeyError):
        return DEFAULT_RULESET
    return (ruleset_of_version(version) if isinstance(version, str) else None) or DEFAULT_RULESET


def settings_of_kind(record: RunRecord, kind: str) -> dict[str, Any] | None:
    """A run's settings when its summary says it is of `kind` ("melee", "horrified"), else None (a duel's run, or
    a damaged summary)."""
    try:
        settings = json.loads(record.document)["settings"]
    except (TypeError, ValueError, KeyError):
        return None
    return settings if isinstance(settings, dict) and settings.get("kind") == kind else None


def melee_settings(record: RunRecord) -> dict[str, Any] | None:
    """A melee run's settings (`analyzer.melee.keep`), or None for another run (or a damaged summary)."""
    return settings_of_kind(record, "melee")


def horrified_settings(record: RunRecord) -> dict[str, Any] | None:
    """A Horrified run's settings (`analyzer.horrified.keep`), or None for another run (or a damaged summary)."""
    return settings_of_kind(record, "horrified")


def run_label(record: RunRecord) -> str:
    """What a run played, as `clix results list` shows it: "A vs B" for a duel, "melee: A, B, C" (with its teams)
    for a melee, "pods of N: A, B, C, D, E" for a field in pods (its score column is A's win share), "horrified:
    M1+M2, 2 heroes" (and its table) for a Horrified run."""
    horrified = horrified_settings(record)
    if horrified is not None:
        table = "" if horrified.get("table") == "lineup" else f" ({horrified.get('table')} table)"
        players = horrified.get("players")
        return f"horrified: {record_names(record)['a']}, {players} hero{'' if players == 1 else 'es'}{table}"
    melee = melee_settings(record)
    if melee is not None and melee.get("pods"):
        return f"pods of {melee['pods']}: " + record_names(record)["a"]
    if melee is not None:
        teams = f" ({melee['teams']})" if melee.get("teams") else ""
        return "melee: " + record_names(record)["a"] + teams
    ruleset = run_ruleset(record)
    names = record_names(record)
    return f"{names['a']} vs {names['b']}" + ("" if ruleset == DEFAULT_RULESET else f" ({ruleset})")


def report_name(record: RunRecord) -> str:
    """The file name of the report in a run's folder: horrified.html for a Horrified run, else report.html."""
    return "horrified.html" if horrified_settings(record) is not None else "report.html"


def record_names(record: RunRecord) -> dict[str, str]:
    """How a run's armies are shown, by side ("a", "b"): the names its summary recorded
    (`analyzer.common.names`), else its ids (a run recorded before names were, or a damaged summary). A melee's
    armies are all on side "a" (joined by commas), side "b" says "(melee)" (`clix serve` shows "a vs b")."""
    if melee_settings(record) is not None:
        return {"a": ", ".join(record.army_a.split(",")), "b": "(melee)"}
    if horrified_settings(record) is not None:  # the monsters against the heroes, as a Horrified cell is named
        return {"a": "+".join(record.army_a.split(",")), "b": "+".join(record.army_b.split(","))}
    try:
        settings = json.loads(record.document)["settings"]
        return settings_names({**settings, "army_a": record.army_a, "army_b": record.army_b})
    except (TypeError, ValueError, KeyError):
        return {"a": record.army_a, "b": record.army_b}


def find_run(store: Store, run: str) -> RunRecord:
    """The run named by its id (see `clix results list`) or `last`."""
    runs = store.runs()
    if not runs:
        raise ClixError(f"--store {store.path}: no run recorded yet; `clix duel` records each run")
    if run == "last":
        return runs[-1]
    by_id = {str(record.id): record for record in runs}
    found = by_id.get(run.strip().lstrip("#"))
    if found is None:
        raise ClixError(did_you_mean("run", run, by_id, "`clix results list` shows every run (or say `last`)"))
    return found


def runs_table(runs: list[RunRecord]) -> Table:
    """The runs as a table that fits 80 columns (cells fold rather than being cut)."""
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("run", justify="right", width=3, overflow="fold")
    table.add_column("started", width=10, overflow="fold")
    table.add_column("played", width=18, overflow="fold")
    table.add_column("map", width=9, overflow="fold")
    table.add_column("players", width=9, overflow="fold")
    table.add_column("games", justify="right", width=6, overflow="fold")
    table.add_column("A's score", justify="right", width=6, overflow="fold")
    for record in runs:
        score = "–" if record.score is None else f"{100 * record.score:.1f}%"
        table.add_row(
            str(record.id),
            f"{local_time(record.started):%Y-%m-%d %H:%M}",
            run_label(record),
            record.map,
            record.players.replace(",", ", "),
            f"{record.games}{'*' if record.interrupted else ''}",
            score,
        )
    return table


def print_list(store: Store, console: Console) -> None:
    """`clix results list`."""
    runs = store.runs()
    if not runs:
        console.print(f"no run recorded in {store.path} yet", markup=False)
        return
    console.print(runs_table(runs))
    notes = [f"{len(runs)} run{'s' if len(runs) > 1 else ''} in {store.path}"]
    if any(record.interrupted for record in runs):
        notes.append("* interrupted: the games finished")
    console.print("; ".join(notes), markup=False)


def print_run(store: Store, run: str, console: Console) -> None:
    """`clix results show RUN`: when and how the run was made, then the duel's own summary."""
    from clix.analyzer.duel.console import precision_lines, print_summary

    record = find_run(store, run)
    if melee_settings(record) is not None:
        _print_melee_run(record, console)
        return
    if horrified_settings(record) is not None:
        _print_horrified_run(record, console)
        return
    try:
        document = json.loads(record.document)
        settings = document.pop("settings")
        provenance = document.pop("provenance")
        if not isinstance(settings, dict) or any(part not in document for part in SUMMARY_PARTS):
            raise KeyError("settings")
    except (TypeError, ValueError, KeyError, AttributeError):
        raise ClixError(
            f"run {record.id}: its summary in {store.path} is damaged; its folder {record.out} has its report, and "
            f"`clix results export {record.id}` its games"
        ) from None
    names = record_names(record)
    console.print(
        f"run {record.id}, started {local_time(record.started):%Y-%m-%d %H:%M:%S}: {record.command}"
        + (" (interrupted)" if record.interrupted else ""),
        markup=False,
    )
    print_summary(console, document, settings, names, provenance, _shown(Path(record.out)) / "report.html")
    for line in precision_lines(document, names):
        console.print(line, markup=False)


def _print_melee_run(record: RunRecord, console: Console) -> None:
    """`clix results show RUN` for a melee: when and how, then the melee's own summary (analyzer.melee.console)."""
    from clix.analyzer.melee.console import print_summary

    console.print(
        f"run {record.id}, started {local_time(record.started):%Y-%m-%d %H:%M:%S}: {record.command}"
        + (" (interrupted)" if record.interrupted else ""),
        markup=False,
    )
    print_summary(json.loads(record.document), console)


def _print_horrified_run(record: RunRecord, console: Console) -> None:
    """`clix results show RUN` for a Horrified run: when and how, then the summary `clix horrified` printed (its win
    rates with their intervals, what ended the games), where its games came from and its report."""
    from clix.analyzer.horrified.command import lines, store_line

    document = json.loads(record.document)
    settings = document.pop("settings")
    console.print(
        f"run {record.id}, started {local_time(record.started):%Y-%m-%d %H:%M:%S}: {record.command}", markup=False
    )
    kept = {"path": settings.get("store", ""), **{k: settings.get(k) for k in ("run", "from_store", "played", "fresh")}}
    for line in [*lines(document), store_line(kept)]:
        console.print(line, markup=False, highlight=False)
    console.print(f"report: {_shown(Path(record.out)) / report_name(record)}", markup=False)


def horrified_games(store: Store, record: RunRecord, settings: dict[str, Any]) -> Any:
    """A Horrified run's games from the store, one row per game of each cell, as its games.csv (a pandas table);
    a ClixError naming the first cell whose games are missing."""
    import pandas as pd
    from clix.analyzer.horrified.command import GAME_FIELDS

    indexes = record.game_indexes()
    rows = []
    for cell in settings["cells"]:
        found = store.load(GameKey(cell["key"], {}), indexes=indexes, warn=lambda line: None)
        if len(found) < len(indexes):
            missing = min(set(indexes) - set(found))
            raise ClixError(
                f"run {record.id}: {len(indexes) - len(found)} games of its cell {'+'.join(cell['monsters'])} vs "
                f"{'+'.join(cell['heroes'])} are missing or damaged in {store.path} (game {missing} first); its folder "
                f"{record.out} has its games.csv"
            )
        head = {"monsters": "+".join(cell["monsters"]), "heroes": "+".join(cell["heroes"]),
                "assumption": cell["assumption"], "value": cell["value"]}  # fmt: skip
        rows += [{**head, **found[index][0]} for index in sorted(found)]
    return pd.DataFrame(rows, columns=GAME_FIELDS)


def _shown(path: Path) -> Path:
    """A stored (absolute) path as the user would type it: relative to the working directory when inside it."""
    try:
        return path.relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def run_tables(store: Store, record: RunRecord) -> RunResult:
    """The run's games from the store, packed (`Store.load_packed`): its game and figure tables are the run's
    games.csv and figures.csv."""
    import numpy as np

    indexes = np.array(record.game_indexes(), dtype=np.int64)
    stored = store.load_packed(GameKey(record.key, {}), below=int(indexes.max(initial=-1)) + 1, warn=lambda line: None)
    stored = stored.among(lambda keys: np.isin(keys, indexes))
    missing = np.setdiff1d(indexes, np.frombuffer(stored.indexes, dtype=np.int64) if stored.count else [])
    if len(missing):
        raise ClixError(
            f"run {record.id}: {len(missing)} of its {len(indexes)} games are missing or damaged in {store.path} "
            f"(game {int(missing[0])} first); its folder {record.out} has its tables"
        )
    return stored


def _export_target(out: Path) -> Path:
    """The file `results export` writes: `out` when it is new or a regular file (a symbolic link's target, so the
    link stays); anything else (a folder, a FIFO, a device, a socket) is refused with one line."""
    target = Path(os.path.realpath(out)) if out.is_symlink() else out
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise ClixError(f"--out {out}: cannot be written ({exc.strerror or exc})") from None
    if stat.S_ISREG(mode):
        return target
    kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
    if stat.S_ISDIR(mode):
        raise ClixError(f"--out {out}: is a folder; name the file to write (as {out / 'games.csv'})")
    raise ClixError(
        f"--out {out}: is {kind}; results export writes a regular file only (a new path, or a file it replaces)"
    )


_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def export_run(store: Store, run: str, fmt: str | None, out: Path, figures: bool) -> tuple[Path, int]:
    """`clix results export`: write the run's game rows (or figure rows) to `out`; return it and the row count."""
    chosen = fmt or out.suffix.lstrip(".").lower()
    if chosen not in FORMATS:
        given = f"--format {fmt}" if fmt else f"--out {out}"
        raise ClixError(f"{given}: choose --format csv or parquet (or end the file name in .csv or .parquet)")
    out = _export_target(out)
    record = find_run(store, run)
    horrified = horrified_settings(record)
    if horrified is not None:
        if figures:
            raise ClixError(f"--figures: run {record.id} is a Horrified run, which has no figure rows; leave it out")
        frame = horrified_games(store, record, horrified)
        return _write(out, lambda path: _frame_to(frame, chosen, path)), len(frame)
    stored = run_tables(store, record)
    table = (stored.figure_table if figures else stored.game_table).compact()
    writer = table.to_csv if chosen == "csv" else table.to_parquet
    return _write(out, writer), len(table)


def _frame_to(frame: Any, chosen: str, path: Path) -> None:
    if chosen == "csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, index=False)


def _write(out: Path, write: Callable[[Path], Any]) -> Path:
    """`write(path)` to a file beside `out`, then renamed over it (keeping a replaced file's permissions)."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ClixError(f"--out {out}: cannot create its folder ({exc.strerror or exc})") from None
    staging = out.with_name(f".{out.name}.clix-new-{os.getpid()}")
    try:
        write(staging)
        with contextlib.suppress(FileNotFoundError):  # a file replaced keeps its permissions
            os.chmod(staging, stat.S_IMODE(out.stat().st_mode))
        staging.replace(out)
    except OSError as exc:  # named as the file asked for, not the hidden one written first
        raise OSError(exc.errno, exc.strerror or str(exc), str(out)) from None
    finally:
        with contextlib.suppress(OSError):
            staging.unlink()
    return out
