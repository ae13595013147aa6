"""The result store's runs on the page (issue 41, part 4): a run's games or figures downloaded as CSV or Parquet
(`clix results export`'s tables), two runs compared side by side (`clix results show`'s numbers), and the runs of
an army against the field (`clix meta --row`, whose games the store keeps under the duels' keys but which it does
not list) found by their run folders under the output folder, each cell of their heatmap linked to its duel."""

from __future__ import annotations

import json
import tempfile
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.store import RunRecord, Store, local_time
from clix.analyzer.results.command import export_run, find_run, run_label

TABLES = ("games", "figures")
FORMATS = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet"}
"""The formats a run's table downloads in, with their media types."""
ROW_COMMAND = "clix meta --row "
"""How a meta row's summary.json names its command (analyzer/meta/row.py)."""


def table_of(store_path: Path, run: str, file: str) -> tuple[str, bytes]:
    """The run's games (or figures) as `clix results export RUN --format FMT` writes them, `file` being
    games.csv, figures.csv, games.parquet or figures.parquet: (file name, bytes)."""
    table, _, fmt = file.partition(".")
    if table not in TABLES or fmt not in FORMATS:
        raise ClixError(f"table: {file!r} is not a table of a run; choose games or figures, as csv or parquet")
    with tempfile.TemporaryDirectory(prefix="clix-serve-") as folder:
        path, _ = export_run(Store.existing(store_path), run, fmt, Path(folder) / file, table == "figures")
        return f"run-{run}-{file}", path.read_bytes()


def field_runs(out: Path, army: str = "", map_name: str = "", since: date | None = None) -> list[dict[str, Any]]:
    """The meta rows whose run folders are under `out` (`OUT/*/run-*/summary.json`: the page's `ARMY-vs-field`
    runs and `clix meta --row`'s in clix-out/meta), newest first, filtered as the store's runs are: `army` part
    of an id or name of the row's armies, `map_name` one of its maps, started on `since` or later."""
    found = []
    for summary_path in out.glob("*/run-*/summary.json"):
        try:
            summary = json.loads(summary_path.read_text(encoding="utf-8"))
            settings = summary["settings"]
            if not str(settings.get("command", "")).startswith(ROW_COMMAND):
                continue
            armies, maps = [str(a) for a in settings["armies"]], [str(m) for m in settings["maps"]]
            opponents = [str(o.get("name") or o["opponent"]) for o in summary["opponents"]]
            score = summary["field"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a folder being written, or not a row's
        started = datetime.fromtimestamp(summary_path.stat().st_mtime).astimezone()
        if army and army.lower() not in " ".join([*armies, str(summary.get("name", "")), *opponents]).lower():
            continue
        if (map_name and map_name not in maps) or (since is not None and started.date() < since):
            continue
        folder = summary_path.parent
        found.append({
            "folder": folder, "started": started, "army": summary.get("name") or armies[0], "field": opponents,
            "maps": ", ".join(maps), "players": ", ".join(map(str, settings.get("players", []))),
            "games": settings.get("games"), "interrupted": bool(settings.get("interrupted")),
            "score": _interval(score), "cells": folder / "cells.csv", "ruleset": settings.get("ruleset", ""),
        })  # fmt: skip
    return sorted(found, key=lambda row: row["started"], reverse=True)


def _interval(score: dict[str, Any]) -> str:
    return f"{_percent(score.get('score'))} [{_percent(score.get('low'))}–{_percent(score.get('high'))}]"


def heatmap(cells_csv: Path, ruleset: str) -> dict[str, Any]:
    """A row's cells (cells.csv) as a heatmap: its opponents by map, each cell's score with its interval and the
    address of its duel: the duel form filled with the cell's armies, map, players, seed and games, whose games
    the store already holds (a row's cells are the duel's, analyzer/meta/row.py)."""
    try:
        cells = pd.read_csv(cells_csv)
        summary = json.loads((cells_csv.parent / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ClixError(f"cells: cannot read {cells_csv.name} of {cells_csv.parent.name} ({exc})") from None
    seed = summary["settings"].get("seed", 0)
    family = "heroclix-2005" if str(ruleset).startswith("heroclix") else ""
    maps = list(dict.fromkeys(cells["map"]))
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for cell in cells.itertuples(index=False):
        query: dict[str, Any] = {"ruleset": family} if family else {}
        query |= {"army": cell.army_a, "against": cell.army_b, "map": cell.map, "players": cell.players,
                  "seed": seed, "games": int(cell.games)}  # fmt: skip
        rows.setdefault(str(cell.army_b), {})[str(cell.map)] = {
            "score": float(cell.score),
            "text": f"{_percent(cell.score)} [{_percent(cell.low)}–{_percent(cell.high)}]",
            "games": int(cell.games),
            "duel": "/duel?" + urlencode(query),
        }
    return {"army": str(cells["army_a"].iloc[0]) if len(cells) else "", "maps": maps, "rows": rows}


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def run_column(record: RunRecord) -> dict[str, str]:
    """What the comparison shows of one run: its armies, map, players, games and A's score with its interval."""
    try:
        score = json.loads(record.document)["score"]
        interval = f"{_percent(score['score'])} [{_percent(score['low'])}–{_percent(score['high'])}]"
    except (TypeError, ValueError, KeyError):
        interval = _percent(record.score)
    return {
        "run": str(record.id),
        "started": f"{local_time(record.started):%Y-%m-%d %H:%M}",
        "played": run_label(record),
        "map": record.map,
        "players": record.players,
        "seed": record.seed,
        "games": f"{record.games}{' (interrupted)' if record.interrupted else ''}",
        "A's score [95%]": interval,
    }


def compare(store_path: Path, first: str, second: str) -> list[dict[str, str]]:
    """The two runs (ids) side by side, one dict per run, as `run_column` shows them."""
    store = Store.existing(store_path)
    return [run_column(find_run(store, run)) for run in (first, second)]
