"""The rows of a run's games kept compactly while it plays, and read back as the frames, files and statistics
tables the rows make (issue 31: a run's memory per game is small and constant, so a 1,000,000-game duel fits in
1 GB).

A `RowTable` packs every ROW_CHUNK rows into a columnar Arrow chunk. It reads back as the very DataFrame
`pd.DataFrame(rows)` makes (`frame`), or in compact form (`compact`: the same values in narrow integers and
categoricals, a quarter of the memory, for statistics), which writes that frame's CSV and Parquet files a batch
at a time (the whole frame is never made). A long duel compacts its rows, releases them, and then makes its
statistics and files from the compact rows alone.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from clix.analyzer.play.compact import (
    BATCH_ROWS,
    LEVELS,
    CompactRows,
    categories,
    code_type,
    compacted,
    free_memory,
    integer_holding,
)

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

ROW_CHUNK = 1024
"""Rows a `RowTable` gathers as dicts before it packs them into one Arrow chunk."""

MERGE_CHUNKS = 32
"""Packed chunks of ROW_CHUNK rows merged into one: each chunk's Arrow objects (a table, its schema, an array and
buffers a column) cost some 100 KB whatever its rows, more than its rows themselves (issue 31)."""


_NARROW_INTS = ("int8", "int16", "int32")


class RowTable:
    """The rows of one table (dicts, as `game_rows` makes them), packed every ROW_CHUNK rows into a columnar
    Arrow chunk, its text dictionary-encoded and its integers in the narrowest type that holds them: a game's
    rows cost a few hundred bytes instead of ~9 KB as dicts (issue 31), so a long run's memory grows by less
    than its output table. Each chunk keeps the types Arrow gave the rows, to unpack exactly.

    Rows come in any order, each with a sort key (the game's index); `frame()` is the DataFrame
    `pd.DataFrame(rows)` makes of the rows in key order (a stable sort: a game's figure rows keep their order),
    value for value and type for type, and `rows()` the dicts themselves."""

    def __init__(self) -> None:
        self._pending: list[dict[str, Any]] = []
        self._chunks: list[tuple[pa.Table, pa.Schema]] = []
        """Packed chunks with the schema each unpacks to."""
        self._keys = array("q")
        self._released = False
        self._plain: list[dict[str, Any]] | None = None
        """Every row as a dict, once a chunk could not be packed (values Arrow cannot type): the plain way."""

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: int, rows: Iterable[dict[str, Any]]) -> None:
        """Add rows under one sort key (a game's row, or its figure rows in order)."""
        for row in rows:
            self._keys.append(key)
            if self._plain is not None:
                self._plain.append(row)
                continue
            self._pending.append(row)
            if len(self._pending) >= ROW_CHUNK:
                self._pack()

    def extend(self, other: RowTable) -> None:
        """Add every row of `other`, with its keys."""
        if self._plain is None and other._plain is None:
            self._pack()
            other._pack()
            self._chunks += other._chunks
            self._keys.extend(other._keys)
            return
        for key, row in zip(other._keys, other._rows_in_added_order(), strict=True):
            self.add(key, [row])

    def keys(self) -> Any:
        """Each row's key, in the order the rows were added (a numpy array)."""
        import numpy as np

        return np.frombuffer(self._keys, dtype=np.int64) if len(self._keys) else np.zeros(0, dtype=np.int64)

    def where(self, inside: Any) -> RowTable:
        """A table of the rows where `inside` (a boolean array, a row each in the order they were added) holds, in
        that order (chunks filtered, not unpacked)."""
        import pyarrow as pa

        self._pack()
        kept = RowTable()
        keys = self.keys()
        kept._keys = array("q", keys[inside].tobytes())
        if self._plain is not None:
            kept._plain = [row for row, keep in zip(self._plain, inside, strict=True) if keep]
            return kept
        start = 0
        for chunk, schema in self._chunks:
            mask = inside[start : start + len(chunk)]
            start += len(chunk)
            if mask.all():
                kept._chunks.append((chunk, schema))
            elif mask.any():
                kept._chunks.append((chunk.filter(pa.array(mask)), schema))
        return kept

    def _pack(self) -> None:
        if self._released:
            raise RuntimeError("the rows were released (RowTable.release)")
        if not self._pending or self._plain is not None:
            return
        import pyarrow as pa

        columns = list(dict.fromkeys(key for row in self._pending for key in row))
        try:
            same = not self._chunks or self._chunks[0][1].names == columns
            if not same or any(len(row) != len(columns) for row in self._pending):
                raise ValueError("rows with different columns")  # pandas fills a missing key with NaN, not None
            chunk = pa.table({name: pa.array([row[name] for row in self._pending]) for name in columns})
            self._chunks.append((_packed(chunk), chunk.schema))
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            self._plain = self._rows_in_added_order()
            self._chunks = []
        self._pending = []
        self._merge_small()

    def _merge_small(self) -> None:
        """Merge the last MERGE_CHUNKS chunks into one when each is a single pack and their columns agree on types
        (a column all None in a chunk is typed null there, and takes the others' type): the merged chunk unpacks to
        the same values, and a long run keeps one chunk's overhead per MERGE_CHUNKS packs."""
        import pyarrow as pa

        last = self._chunks[-MERGE_CHUNKS:]
        names = last[0][1].names if last else []
        if len(last) < MERGE_CHUNKS or any(len(c) > ROW_CHUNK or s.names != names for c, s in last):
            return
        fields = []
        for position, name in enumerate(names):
            kinds = {schema.field(position).type for _, schema in last} - {pa.null()}
            if len(kinds) > 1:
                return
            fields.append(pa.field(name, next(iter(kinds), pa.null())))
        schema = pa.schema(fields)
        whole = pa.concat_tables([chunk.cast(schema) for chunk, _ in last]).combine_chunks()
        self._chunks[-MERGE_CHUNKS:] = [(_packed(whole), schema)]

    def _rows_in_added_order(self) -> list[dict[str, Any]]:
        if self._plain is not None:
            return self._plain
        return [row for chunk, schema in self._chunks for row in chunk.cast(schema).to_pylist()] + self._pending

    def _order(self) -> Any:
        """The rows' positions in key order (None when they were added in order)."""
        import numpy as np

        keys = np.frombuffer(self._keys, dtype=np.int64) if len(self._keys) else np.zeros(0, dtype=np.int64)
        if len(keys) < 2 or bool(np.all(keys[1:] >= keys[:-1])):
            return None
        return np.argsort(keys, kind="stable")

    def _table(self) -> pa.Table | None:
        """Every row as one Arrow table in key order; None on the plain way."""
        import pyarrow as pa

        self._pack()
        if self._plain is not None:
            return None
        chunks = [chunk.cast(schema) for chunk, schema in self._chunks]
        try:
            table = pa.concat_tables(chunks, promote_options="permissive") if chunks else pa.table({})
        except (pa.ArrowException, TypeError, ValueError):  # chunks that typed a column differently
            self._plain = self._rows_in_added_order()
            self._chunks = []
            return None
        order = self._order()
        return table if order is None else table.take(order)

    def rows(self) -> list[dict[str, Any]]:
        """Every row as a dict, in key order."""
        table = self._table()
        if table is not None:
            return table.to_pylist() if len(self) else []
        order = self._order()
        plain = self._plain or []
        return list(plain) if order is None else [plain[i] for i in order]

    def frame(self) -> pd.DataFrame:
        """The rows as the DataFrame `pd.DataFrame(self.rows())` makes, without making the dicts."""
        import pandas as pd

        table = self._table()
        if table is None:
            return pd.DataFrame(self.rows())
        return table.to_pandas() if len(self) else pd.DataFrame()

    def _schema(self) -> pa.Schema | None:
        """The whole table's schema, as `_table` would concatenate the chunks; None on the plain way (taken when
        the chunks' types do not unify, as `_table` takes it)."""
        import pyarrow as pa

        self._pack()
        if self._plain is not None:
            return None
        try:
            return pa.unify_schemas([schema for _, schema in self._chunks], promote_options="permissive")
        except (pa.ArrowException, TypeError, ValueError):
            self._plain = self._rows_in_added_order()
            self._chunks = []
            return None

    def _with_none(self, schema: pa.Schema) -> dict[str, str]:
        """The integer and flag columns with a None somewhere, and the type `frame()` gives them for it: float
        for integers (None is NaN), object for flags."""
        import pyarrow as pa

        found = {}
        for name, kind in zip(schema.names, schema.types, strict=True):
            flag = pa.types.is_boolean(kind)
            if (flag or pa.types.is_integer(kind)) and any(chunk.column(name).null_count for chunk, _ in self._chunks):
                found[name] = "object" if flag else "float64"
        return found

    def batches(self, size: int | None = None, release: bool = False) -> Iterator[pd.DataFrame]:
        """The rows in key order, `size` at a time, each batch a DataFrame typed as `frame()` types the whole table
        (an integer column with a None in any batch is float in every batch): the batches are the frame's rows, and
        their CSV lines the frame's. At least one batch (an empty table gives the empty frame). `size` is BATCH_ROWS
        unless given. With `release`, each packed chunk is freed once the batches have read it, and the table is
        released at the end (`release`): its rows and what is made of them are never held whole at once."""
        import numpy as np
        import pyarrow as pa

        size = size or BATCH_ROWS
        schema = self._schema()
        if schema is None or not len(self):
            whole = self.frame()
            if release:
                self.release()
            yield whole
            return
        widen = self._with_none(schema)
        chunks = [chunk for chunk, _ in self._chunks]
        offsets = np.cumsum([0] + [len(chunk) for chunk in chunks])
        order = self._order()
        total = len(self)
        last_read = self._last_batches(offsets, order, size) if release else None
        for number, start in enumerate(range(0, total, size)):
            stop = min(total, start + size)
            positions = np.arange(start, stop) if order is None else order[start:stop]
            owner = np.searchsorted(offsets, positions, side="right") - 1
            # each chunk's rows in the whole table's types (chunks' dictionaries may not combine in their narrow
            # index types), then the batch in key order (the parts hold it chunk by chunk)
            parts = [chunks[c].take(positions[owner == c] - offsets[c]).cast(schema) for c in np.unique(owner)]
            table = pa.concat_tables(parts)
            if order is not None:
                table = table.take(np.argsort(np.argsort(owner, kind="stable")))
            frame = table.to_pandas()
            for name, kind in widen.items():
                frame[name] = frame[name].astype(kind)
            frame.index = range(start, stop)
            del parts, table
            if last_read is not None and (last_read == number).any():
                for read in np.flatnonzero(last_read == number):
                    chunks[read] = self._chunks[read] = None  # type: ignore[call-overload]
                pa.default_memory_pool().release_unused()
            yield frame
        if release:
            self.release()
            free_memory()

    @staticmethod
    def _last_batches(offsets: Any, order: Any, size: int) -> Any:
        """For each chunk (rows `offsets[c]` to `offsets[c + 1]`), the number of the last batch of `size` rows in key
        order (`order`, None when the rows are in it) that reads it."""
        import numpy as np

        if order is None:
            return (offsets[1:] - 1) // size
        last = np.zeros(len(offsets) - 1, dtype=np.int64)
        for number, start in enumerate(range(0, len(order), size)):
            last[np.unique(np.searchsorted(offsets, order[start : start + size], side="right") - 1)] = number
        return last

    def compact(self, release: bool = False) -> CompactRows:
        """The rows as a `CompactRows`: `frame()`'s values in about a quarter of its memory, and its files. With
        `release`, the table is released as it is read (`batches`): a long run's rows never sit in memory twice."""
        return CompactRows(*self._compact(release))

    def release(self) -> None:
        """Free the rows (a long run's statistics and files then come from its `compact()` rows); the count stays,
        and reading a row is an error."""
        self._pending, self._chunks, self._plain = [], [], None
        self._released = True

    def _compact(self, release: bool = False) -> tuple[pd.DataFrame, pd.Series]:
        """The values of `frame()` in about a quarter of its memory, for statistics over long runs, and the types
        `frame()` gives each column. An integer column without None is in the narrowest of int16, int32 and int64
        that holds twice its largest magnitude (a sum or difference of two values still fits); a text column of few
        distinct values (`_levels`) is a categorical, its categories sorted (so grouping orders it as it orders
        text), and those of a few values share one type (`_categories`), so they compare with each other as text
        does; every other column is as `frame()` types it. Filled a batch at a time: the whole `frame()` is never
        made."""
        import numpy as np
        import pandas as pd

        schema = self._schema()
        if schema is None or not len(self):
            whole = self.frame()
            if release:
                self.release()
            return compacted(whole), whole.dtypes
        total = len(self)
        widen = self._with_none(schema)
        filled: dict[str, np.ndarray] = {}
        text: dict[str, list[str]] = {}
        pieces: dict[str, list[Any]] = {}
        for name, kind in zip(schema.names, schema.types, strict=True):
            if name in widen:
                pieces[name] = []
            elif (narrow := self._integer_type(name, kind)) is not None:
                filled[name] = np.empty(total, dtype=narrow)
            elif (levels := self._levels(name, kind)) is not None:
                text[name] = levels
            else:
                pieces[name] = []
        kinds = categories(text)
        for name in text:
            filled[name] = np.empty(total, dtype=code_type(len(kinds[name].categories)))
        types = None
        for batch in self.batches(release=release):
            types = batch.dtypes if types is None else types  # the whole table's types (`batches`)
            rows = slice(batch.index[0], batch.index[-1] + 1)
            for name, column in batch.items():
                if name in text:
                    filled[name][rows] = pd.Categorical(column, dtype=kinds[name]).codes
                elif name in filled:
                    filled[name][rows] = column.to_numpy()
                else:
                    pieces[name].append(column)
        columns = {}
        for name in schema.names:
            if name in text:
                columns[name] = pd.Categorical.from_codes(filled.pop(name), dtype=kinds[name])
            elif name in filled:
                columns[name] = filled.pop(name)
            else:
                columns[name] = pd.concat(pieces.pop(name), ignore_index=True)
        return pd.DataFrame(columns, copy=False), types

    def _integer_type(self, name: str, kind: pa.DataType) -> str | None:
        """The narrow type of an integer column (`_compact`), None for any other column."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if not pa.types.is_integer(kind):
            return None
        largest = 0
        for chunk, _ in self._chunks:
            low, high = pc.min_max(chunk.column(name)).values()
            largest = max(largest, *(abs(v.as_py()) for v in (low, high) if v.is_valid))
        return integer_holding(2 * largest)

    def _levels(self, name: str, kind: pa.DataType) -> list[str] | None:
        """A text column's distinct values, sorted, when there are at most half as many as rows and at most
        LEVELS (`_compact`); None otherwise (a seed path, unique to each game, stays text)."""
        import pyarrow as pa

        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            return None
        found: set[str] = set()
        limit = min(max(16, len(self) // 2), LEVELS)
        for chunk, _ in self._chunks:
            column = chunk.column(name)
            if pa.types.is_dictionary(column.type):
                for piece in column.chunks:
                    found.update(piece.dictionary.to_pylist())
            else:
                found.update(value for value in column.to_pylist() if value is not None)
            if len(found) > limit:
                return None
        return sorted(found)


def _packed(table: pa.Table) -> pa.Table:
    """A chunk's compact form: text dictionary-encoded (its indices, too, in the narrowest type holding them),
    64-bit integers in the narrowest type holding them (`Table.cast` to the original schema gives the chunk back
    exactly)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    columns = []
    for column in table.columns:
        if pa.types.is_string(column.type):
            column = column.dictionary_encode()
            levels = max((len(piece.dictionary) for piece in column.chunks), default=0)
            for name in _NARROW_INTS[:2]:  # the indices too: a byte a row for a column of a few values
                if levels <= np.iinfo(name).max:
                    column = column.cast(pa.dictionary(getattr(pa, name)(), pa.string()))
                    break
        elif pa.types.is_int64(column.type) and column.null_count < len(column):
            low, high = pc.min_max(column).values()
            for name in _NARROW_INTS:
                info = np.iinfo(name)
                if info.min <= low.as_py() and high.as_py() <= info.max:
                    column = column.cast(getattr(pa, name)())
                    break
        columns.append(column)
    return pa.table(columns, names=table.column_names)


class Rows(Sequence[dict[str, Any]]):
    """A `RowTable`'s rows as a read-only list of dicts: `len` and truth cost nothing, each row is made when read
    (`RunResult.games`, for code that reads rows; `RunResult.games_frame()` is the cheap way to a DataFrame)."""

    def __init__(self, table: RowTable) -> None:
        self._table = table
        self._cache: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return len(self._table)

    def _all(self) -> list[dict[str, Any]]:
        if self._cache is None or len(self._cache) != len(self._table):
            self._cache = self._table.rows()
        return self._cache

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        return self._all()[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            other = other._all()
        return self._all() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Rows({len(self)} rows)"
