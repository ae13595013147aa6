"""A table's rows in compact form, for the statistics and files of long runs: narrow integers and categoricals
(`CompactRows`, made by `RowTable.compact`), the rules for those types, and handing freed memory back (issue 31)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


BATCH_ROWS = 16_384
"""Rows a batch of `RowTable.batches` holds: a CSV or Parquet file, or a compact frame, is written this many rows
at a time (some 30 MB of a duel's game rows, as a DataFrame and as the Arrow table it comes from)."""


class CompactRows:
    """A table's rows in compact form (`RowTable.compact`): `frame`, narrow integers and categoricals for the
    statistics, and `types`, each column's type in `RowTable.frame()`, so that its CSV and Parquet files, written a
    batch at a time and each batch typed back, are the files that frame makes."""

    def __init__(self, frame: pd.DataFrame, types: pd.Series) -> None:
        self.frame = frame
        self.types = types

    def __len__(self) -> int:
        return len(self.frame)

    def batches(self, size: int | None = None) -> Iterator[pd.DataFrame]:
        """The rows `size` at a time (BATCH_ROWS unless given), typed as `RowTable.frame()` types them; at least one
        batch."""
        size = size or BATCH_ROWS
        for start in range(0, max(1, len(self.frame)), size):
            yield self.frame.iloc[start : start + size].astype(self.types.to_dict())

    def to_csv(self, path: Path | str) -> None:
        """Write what `frame().to_csv(path, index=False)` writes for the whole table, a batch at a time."""
        with open(path, "w", encoding="utf-8", newline="") as handle:
            for number, batch in enumerate(self.batches()):
                batch.to_csv(handle, index=False, header=number == 0)

    def to_parquet(self, path: Path | str) -> None:
        """Write the table `frame().to_parquet(path, index=False)` writes for the whole table (the same columns,
        types and values, read back as the same frame), a batch at a time: a row group a batch."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        writer = None
        try:
            for batch in self.batches():
                schema = None if writer is None else writer.schema
                table = pa.Table.from_pandas(batch, schema=schema, preserve_index=False)
                if writer is None:
                    writer = pq.ParquetWriter(path, table.schema)
                writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()


def integer_holding(magnitude: int) -> str:
    """The narrowest of int16, int32 and int64 that holds ±`magnitude`."""
    import numpy as np

    return next(name for name in ("int16", "int32", "int64") if magnitude <= np.iinfo(name).max)


def code_type(levels: int) -> str:
    """The codes' type of a categorical of `levels` categories (pandas's own choice)."""
    return "int8" if levels < 2**7 else "int16" if levels < 2**15 else "int32"


def compacted(frame: pd.DataFrame) -> pd.DataFrame:
    """`RowTable._compact`'s frame of a frame made the plain way: the same narrow types by the same rules."""
    import pandas as pd

    columns = {}
    text: dict[str, list[str]] = {}
    for name, column in frame.items():
        if column.dtype.kind in "iu":
            largest = int(max(abs(int(column.min())), abs(int(column.max())))) if len(column) else 0
            column = column.astype(integer_holding(2 * largest))
        elif (column.dtype == object or isinstance(column.dtype, pd.StringDtype)) and column.map(
            lambda value: isinstance(value, str) or value is None
        ).all():
            levels = column.dropna().unique()
            if len(levels) <= max(16, len(column) // 2):
                text[name] = list(levels)
        columns[name] = column
    kinds = categories(text)
    for name in text:
        columns[name] = columns[name].astype(kinds[name])
    return pd.DataFrame(columns, index=frame.index)


LEVELS = 2**16
"""The most distinct values a compact text column takes as a categorical."""
SHARED_LEVELS = 64
"""A text column of at most this many values takes the categorical type it shares with the others like it."""


def categories(levels: dict[str, list[str]]) -> dict[str, pd.CategoricalDtype]:
    """Each compact text column's categorical type, its categories sorted (so sorting and grouping order them as
    text). The columns of at most SHARED_LEVELS values (who won, who went first, the armies, the map) share one
    type, every such column's values, so that two of them compare (`winner == first`); a column of more values
    (plot twists played, rounds of each slay, read value by value) has its own. A shared column's
    `value_counts` counts the others' values too, as zeros."""
    import pandas as pd

    few = {name: found for name, found in levels.items() if len(found) <= SHARED_LEVELS}
    shared = pd.CategoricalDtype(sorted(set().union(*few.values())))
    return {name: shared if name in few else pd.CategoricalDtype(sorted(found)) for name, found in levels.items()}


def free_memory() -> None:
    """Give the memory freed so far back to the system: Arrow's pool keeps freed pages for reuse, and so does the C
    library's heap (glibc: `malloc_trim`), where numpy's and pandas's arrays live; a long run's end phase would
    otherwise hold its freed rows' pages beside the statistics' (issue 31)."""
    import ctypes

    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own C library
    except (OSError, AttributeError):  # not glibc: nothing to trim
        return
    trim(0)
