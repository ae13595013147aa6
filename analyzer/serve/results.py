"""The result store's runs on the page (issue 41, part 4): a run's games or figures downloaded as CSV (`clix results
export`'s tables) and two runs compared side by side (`clix results show`'s numbers)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.store import RunRecord, Store, local_time
from clix.analyzer.results.command import export_run, find_run, record_names

TABLES = ("games", "figures")


def csv_of(store_path: Path, run: str, table: str) -> tuple[str, bytes]:
    """The run's games (or figures) as `clix results export RUN --format csv` writes them: (file name, bytes)."""
    if table not in TABLES:
        raise ClixError(f"table: {table!r} is not a table of a run; choose games or figures")
    with tempfile.TemporaryDirectory(prefix="clix-serve-") as folder:
        path, _ = export_run(Store.existing(store_path), run, "csv", Path(folder) / f"{table}.csv", table == "figures")
        return f"run-{run}-{table}.csv", path.read_bytes()


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def run_column(record: RunRecord) -> dict[str, str]:
    """What the comparison shows of one run: its armies, map, players, games and A's score with its interval."""
    names = record_names(record)
    try:
        score = json.loads(record.document)["score"]
        interval = f"{_percent(score['score'])} [{_percent(score['low'])}–{_percent(score['high'])}]"
    except (TypeError, ValueError, KeyError):
        interval = _percent(record.score)
    return {
        "run": str(record.id),
        "started": f"{local_time(record.started):%Y-%m-%d %H:%M}",
        "duel": f"{names['a']} vs {names['b']}",
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
