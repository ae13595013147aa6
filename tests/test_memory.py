"""Issue 31: a run's memory per game stays small and constant. The rows of the games finished are packed into
columnar Arrow chunks as they come (`runner.RowTable`) instead of kept as dicts (~9 KB a game: a 2,000-game duel
held 350 MB), and read back as the very table the dicts made. Memory is counted (tracemalloc for Python objects,
Arrow's own allocator for the chunks), never timed."""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from clix.analyzer.play import pool, rowtable, runner
from clix.analyzer.play.rowtable import RowTable
from clix.analyzer.play.runner import Matchup, play_one, run_matchup

ROSTERS = Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"
MATCHUP = Matchup(ROSTERS, "butcher-shop", "firing-line", "graveyard", turn_limit=2)
BYTES_PER_GAME = 2_000
"""What a finished game may keep in the main process (as dicts its rows took ~9,000 bytes; packed, ~400)."""


def _drop_row_caches() -> None:
    """Empty the maps' nearest-distance row caches (engine.horrorclix.players.position: bounded, emptied when full). The
    compiled engine's allocations have no Python frame of their own, so tracemalloc charges them to the runner's
    line that started the game: left in, a cache that filled (or started again) during the run counted as kept."""
    from clix.engine.core.geometry import Geometry
    from clix.engine.horrorclix.players.position import NEAREST_ROWS

    for thing in gc.get_objects():
        if isinstance(thing, Geometry):
            thing.caches.pop(NEAREST_ROWS, None)
    gc.collect()


def _kept_per_game(games: int) -> float:
    """Bytes a `run_matchup` of `games` games keeps once it returns, per game: the Python objects allocated by
    the runner and the pool (the engine's own caches are bounded, and left out) and the Arrow chunks."""
    # warm with a run of the same size: imports, the roster, the engine's tables, and whatever the first long run
    # allocates once (the compiled engine's first run of some hundred games kept ~1 MB more, once per process)
    run_matchup(MATCHUP, games, 1, jobs=1)
    _drop_row_caches()
    arrow_before = pa.total_allocated_bytes()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        result = run_matchup(MATCHUP, games, 0, jobs=1)
        _drop_row_caches()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert result.count == games
    mine = [tracemalloc.Filter(True, module.__file__) for module in (runner, rowtable, pool)]
    grown = sum(stat.size_diff for stat in after.filter_traces(mine).compare_to(before.filter_traces(mine), "filename"))
    return (grown + pa.total_allocated_bytes() - arrow_before) / games


def test_a_finished_game_keeps_a_few_hundred_bytes(monkeypatch):
    monkeypatch.setattr(rowtable, "ROW_CHUNK", 50)  # most rows packed, as in a long run
    # the smaller of two runs: what a game keeps shows in both, a cache some earlier test left to fill once in one
    per_game = min(_kept_per_game(400), _kept_per_game(400))
    assert 0 < per_game < BYTES_PER_GAME


def test_the_dicts_would_keep_far_more():
    """The bound above means something: the same games' rows as dicts take several times more."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows = [play_one(MATCHUP, 0, index) for index in range(40)]
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(rows) == 40 and kept / 40 > 2 * BYTES_PER_GAME


@pytest.mark.parametrize("jobs", [1, 2])
def test_packed_rows_are_the_rows_and_the_frame_the_dicts_make(monkeypatch, jobs):
    monkeypatch.setattr(rowtable, "ROW_CHUNK", 7)  # several chunks, one left as dicts
    result = run_matchup(MATCHUP, 40, 3, jobs=jobs, batch_size=4)  # batches may come back out of order
    games, figures = zip(*(play_one(MATCHUP, 3, index) for index in range(40)), strict=True)
    figure_rows = [row for rows in figures for row in rows]
    assert list(result.games) == list(games) and list(result.figures) == figure_rows
    for packed, plain in (
        (result.games_frame(), pd.DataFrame(games)),
        (result.figures_frame(), pd.DataFrame(figure_rows)),
    ):
        pd.testing.assert_frame_equal(packed, plain, check_exact=True)
        assert packed.to_csv(index=False) == plain.to_csv(index=False)


def _error_of(write: Callable[..., Any], *args: Any, **options: Any) -> type[Exception] | None:
    """The type of Arrow error a write raises, None when it writes."""
    try:
        write(*args, **options)
    except pa.ArrowException as error:
        return type(error)
    return None


def _same_values(compact: pd.DataFrame, frame: pd.DataFrame, trial: int) -> None:
    """The compact frame holds the frame's values, each column as narrow or narrower, in the same order."""
    assert list(compact.columns) == list(frame.columns)
    for name in frame.columns:
        column = compact[name]
        if column.dtype.kind == "i":
            assert column.dtype.itemsize <= frame[name].dtype.itemsize
        pd.testing.assert_series_equal(
            column.astype(frame[name].dtype), frame[name], check_exact=True, obj=f"trial {trial} {name}"
        )


def test_a_row_table_makes_the_frame_pandas_makes_whatever_the_values(tmp_path):
    """Columns that are None in a whole chunk, text beside None, ints beside floats, a column that changes type
    between chunks, a key missing from some rows (every fourth trial), text and ints in one column (every third):
    the frame is pandas's own, in key order. So are the batches put together, whatever their size, the CSV and
    Parquet files written a batch at a time, and the compact frame's values."""
    rnd = random.Random(7)
    values = {
        "small": lambda: rnd.choice([None, 0, 1, 200]),
        "wide": lambda: rnd.choice([None, -70_000, 2**40]),
        "text": lambda: rnd.choice([None, "a", "bb", ""]),
        "flag": lambda: rnd.choice([True, False]),
        "maybe": lambda: rnd.choice([True, False, None]),
        "real": lambda: rnd.choice([0.5, None, 1]),
        "none": lambda: None,
        "mixed": lambda: rnd.choice(["7", 7]),
        "rare": lambda: None if rnd.random() < 0.03 else rnd.randint(-5, 5),
        "label": lambda: rnd.choice(["ghoul", "bat", "witch"]),
    }
    for trial in range(60):
        chunk, merge = rnd.choice([1, 2, 3, 50]), rnd.choice([2, 3, 1000])  # chunks merged (MERGE_CHUNKS) or not
        rows = [
            {
                name: make()
                for name, make in values.items()
                if (trial % 4 or rnd.random() < 0.95) and (name != "mixed" or trial % 3 == 0)
            }
            for _ in range(rnd.randint(0, 25))
        ]
        keys = [rnd.randint(0, 6) for _ in rows]
        table, released = RowTable(), RowTable()
        original = rowtable.ROW_CHUNK, rowtable.MERGE_CHUNKS
        rowtable.ROW_CHUNK, rowtable.MERGE_CHUNKS = chunk, merge
        try:
            for key, row in zip(keys, rows, strict=True):
                table.add(key, [row])
                released.add(key, [row])
            frame = table.frame()
            batches = list(table.batches(rnd.choice([1, 3, 7, 1000])))
            compact_rows = table.compact()
            compact_rows.to_csv(tmp_path / "streamed.csv")
            parquet_error = _error_of(compact_rows.to_parquet, tmp_path / "streamed.parquet")
            compact = compact_rows.frame
            compact_released = released.compact(release=True).frame  # chunks freed as they are read
        finally:
            rowtable.ROW_CHUNK, rowtable.MERGE_CHUNKS = original
        expected = pd.DataFrame([rows[i] for i in sorted(range(len(rows)), key=lambda i: keys[i])])
        pd.testing.assert_frame_equal(frame, expected, check_exact=True, obj=f"trial {trial}")
        assert len(table) == len(rows)
        together = pd.concat(batches) if len(batches) > 1 else batches[0]
        pd.testing.assert_frame_equal(together, expected, check_exact=True, obj=f"trial {trial} batches")
        assert (tmp_path / "streamed.csv").read_text(encoding="utf-8") == expected.to_csv(index=False)
        assert parquet_error == _error_of(expected.to_parquet, tmp_path / "whole.parquet", index=False)
        if parquet_error is None:  # a column of text and ints is no Parquet column either way
            pd.testing.assert_frame_equal(
                pd.read_parquet(tmp_path / "streamed.parquet"),
                pd.read_parquet(tmp_path / "whole.parquet"),
                check_exact=True,
            )
        _same_values(compact, expected, trial)
        pd.testing.assert_frame_equal(compact_released, compact, check_exact=True, obj=f"trial {trial} released")
        assert len(released) == len(rows)
        if rows:
            with pytest.raises(RuntimeError, match="released"):
                released.frame()


@pytest.mark.parametrize("merge", [3, 1000])
def test_chunks_merge_and_their_text_reads_back_whatever_the_dictionaries(monkeypatch, merge):
    """Packed chunks merge MERGE_CHUNKS at a time (a chunk's Arrow objects cost more than its rows), keeping a
    column that is None in a whole chunk; batches that take rows from chunks whose dictionaries do not combine in
    one byte (two chunks of 100 different texts each) read back in key order, and so does the compact frame."""
    monkeypatch.setattr(rowtable, "ROW_CHUNK", 100)
    monkeypatch.setattr(rowtable, "MERGE_CHUNKS", merge)
    rows = [{"text": f"value {i}", "gap": None if i < 100 else i, "number": i} for i in range(1000)]
    keys = [(i * 37) % 1000 for i in range(1000)]  # each batch reads rows from many chunks
    table = RowTable()
    for key, row in zip(keys, rows, strict=True):
        table.add(key, [row])
    assert len(table._chunks) == (4 if merge == 3 else 10)  # ten packs, merged three at a time or not at all
    expected = pd.DataFrame([rows[i] for i in sorted(range(1000), key=lambda i: keys[i])])
    pd.testing.assert_frame_equal(table.frame(), expected, check_exact=True)
    pd.testing.assert_frame_equal(pd.concat(list(table.batches(128))), expected, check_exact=True)
    assert table.rows() == expected.astype(object).where(expected.notna(), None).to_dict("records")
    _same_values(table.compact(release=True).frame, expected, 0)


def test_text_whose_chunks_index_it_differently_reads_back(monkeypatch):
    """A text column of one value in one chunk and hundreds in the next (byte and two-byte dictionary indices):
    frame, batches in key order and compact frame all hold its values."""
    monkeypatch.setattr(rowtable, "ROW_CHUNK", 300)
    rows = [{"text": "one" if i < 300 else f"value {i}", "number": i} for i in range(900)]
    keys = [900 - i if i % 7 == 0 else i for i in range(900)]
    table = RowTable()
    for key, row in zip(keys, rows, strict=True):
        table.add(key, [row])
    expected = pd.DataFrame([rows[i] for i in sorted(range(900), key=lambda i: keys[i])])
    pd.testing.assert_frame_equal(table.frame(), expected, check_exact=True)
    pd.testing.assert_frame_equal(pd.concat(list(table.batches(128))), expected, check_exact=True)
    _same_values(table.compact().frame, expected, 0)


def test_the_statistics_frames_take_a_fraction_of_the_frames_memory():
    """A long duel's statistics run on the compact rows (`RowTable.compact`) (narrow integers, shared categoricals for text): the same
    values in at most a third of the memory, and the same summary (issue 31)."""
    from clix.analyzer.stats.duel import summarize

    result = run_matchup(MATCHUP, 3000, 4, jobs=1)  # enough rows that the text's categories count for little
    for table in (result.game_table, result.figure_table):
        frame, compact = table.frame(), table.compact().frame
        _same_values(compact, frame, 0)
        assert compact.memory_usage(deep=True).sum() * 3 < frame.memory_usage(deep=True).sum()
    whole = summarize(result.games_frame(), result.figures_frame())
    assert summarize(result.game_table.compact().frame, result.figure_table.compact().frame) == whole


def test_released_rows_keep_their_count_and_read_no_more(tmp_path):
    """A long duel compacts its rows and frees them before its statistics: the count stays, reading a row is an
    error (never a silently empty table), and the compact rows still write the files the rows would have."""
    result = run_matchup(MATCHUP, 40, 1, jobs=1)
    expected = result.games_frame()
    compact = result.game_table.compact()
    result.game_table.release()
    assert result.count == 40 == len(compact)
    with pytest.raises(RuntimeError, match="released"):
        result.games_frame()
    compact.to_csv(tmp_path / "games.csv")
    assert (tmp_path / "games.csv").read_text(encoding="utf-8") == expected.to_csv(index=False)
