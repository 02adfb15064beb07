"""Postings: the side index's own inverted lists of index terms, written in segments (issue 3).

FTS5's bm25() reads the size of every matching row from disk: 35 ms for a word in 2 % of a
million messages. These lists keep each term's rows with their term counts per column, and each
segment the sizes, times and previous turns of its rows, so keyword_ranking.py can rank with the
same formula in numpy and credit a row with the words of the turns around it. Every write adds a
segment; the newest segments merge eight at a time, one level up.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple

import numpy as np

from oneclaw_search.data.entities import marks

FANOUT = 8  # segments of one level merged into one: few segments to read, each posting rewritten log8(n) times
# A big build's segments (20K rows) start at this level and merge nothing: fifty of them at a million
# messages read as fast as six merged ones (p50 41.6 vs 41.0 ms), and merging cost 7 s of the build.
# Catch-ups' small segments reach this level only after FANOUT ** BULK_LEVEL of them.
BULK_LEVEL = 3
_MAX_COUNT = 255  # term counts per column are kept in a byte


def create_tables(execute, prefix: str) -> None:
    execute(f"CREATE TABLE {prefix}_seg (seg INTEGER PRIMARY KEY, level INTEGER NOT NULL, first INTEGER NOT NULL,"
            " count INTEGER NOT NULL, sizes BLOB NOT NULL, ats BLOB NOT NULL, prevs BLOB NOT NULL)")
    # A rowid table: its pages hold rows of up to 4 KB, where WITHOUT ROWID spills blobs over 1 KB
    # to half-empty overflow pages (a quarter of the space, at a million messages).
    execute(f"CREATE TABLE {prefix}_post (seg INTEGER NOT NULL, term TEXT NOT NULL, docs BLOB NOT NULL, tfs BLOB NOT NULL)")
    execute(f"CREATE TABLE {prefix}_dead (doc INTEGER PRIMARY KEY)")


def secondary_indexes(prefix: str) -> tuple[tuple[str, str], ...]:
    """Names and columns of the indexes a term's lists and a segment's rows are found by
    (SideIndex creates them, and a first build only at its end)."""
    return (f"{prefix}_post_term", f"{prefix}_post (term, seg)"), (f"{prefix}_post_seg", f"{prefix}_post (seg)")


def table_names(prefix: str) -> tuple[str, ...]:
    return (f"{prefix}_dead", f"{prefix}_post", f"{prefix}_seg")


def next_row_sql(prefix: str) -> str:
    """A query for the number the next indexed row gets: segments cover rows 1 … next_row - 1, never reused."""
    return f"SELECT coalesce(max(first + count), 1) FROM {prefix}_seg"


def next_row(execute, prefix: str) -> int:
    return execute(next_row_sql(prefix))[0][0]


class SegmentTerms(NamedTuple):
    """A batch's term lists, ready to write at any row number: term i's rows (0-based positions in
    the batch, ascending) are `rows[starts[i]:starts[i + 1]]`, with their counts per column."""

    names: list[str]
    rows: np.ndarray  # int32
    counts: np.ndarray  # uint8 [pair, column]
    starts: np.ndarray  # int64, one more than names
    sizes: np.ndarray  # uint32 terms per row, over its columns


def segment_terms(cells: Sequence[Sequence[str]], width: int) -> SegmentTerms:
    """The lists of a batch whose row i holds the terms `cells[i * width + c]` in column c. Runs
    where the batch is prepared (data/batch_preparer.py): it touches every term of every message."""
    lengths = np.fromiter(map(len, cells), dtype=np.int64, count=len(cells))
    sizes = lengths.reshape(-1, width).sum(axis=1).astype(np.uint32)
    terms = list(chain.from_iterable(cells))
    if not terms:
        return SegmentTerms([], np.zeros(0, np.int32), np.zeros((0, width), np.uint8), np.zeros(1, np.int64), sizes)
    names = list(dict.fromkeys(terms))  # numbered in order of first use: the lists come out in this order
    number = dict(zip(names, range(len(names))))
    ids = np.fromiter(map(number.__getitem__, terms), dtype=np.int64, count=len(terms))
    cell_of_term = np.repeat(np.arange(len(cells), dtype=np.int64), lengths)
    rows, columns = cell_of_term // width, cell_of_term % width
    if width == 1:  # one column (messages): a pair's count is its run in sorted order, a third of the time
        keys = np.sort(ids << 32 | rows)
        first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        pairs, counts = keys[first], np.diff(np.r_[first, len(keys)]).reshape(-1, 1)
    else:
        pairs, inverse = np.unique(ids << 32 | rows, return_inverse=True)
        counts = np.bincount(inverse.ravel() * width + columns, minlength=len(pairs) * width).reshape(-1, width)
    term_ids = pairs >> 32
    starts = np.r_[np.flatnonzero(np.r_[True, term_ids[1:] != term_ids[:-1]]), len(pairs)]
    return SegmentTerms(names, (pairs & 0xFFFFFFFF).astype(np.int32), np.minimum(counts, _MAX_COUNT).astype(np.uint8),
                        starts.astype(np.int64), sizes)


def write_segment(connection, prefix: str, first: int, terms: SegmentTerms, ats: Sequence[int],
                  prevs: Sequence[int] | None = None, largest_merge: int | None = None, bulk: bool = False) -> None:
    """Index rows `first`, `first + 1`, … holding `terms`, `ats[i]` row i's time, `prevs[i]` the
    row number of the turn before it (0: none). Then merges FANOUT neighbouring segments of one
    level, smallest first, while the merged segment would hold at most `largest_merge` rows; a
    `bulk` segment starts at BULK_LEVEL and merges nothing."""
    count = len(terms.sizes)
    if not count:
        return
    seg = (connection.execute(f"SELECT max(seg) FROM {prefix}_seg").fetchone()[0] or 0) + 1
    connection.execute(
        f"INSERT INTO {prefix}_seg (seg, level, first, count, sizes, ats, prevs) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (seg, BULK_LEVEL if bulk else 0, first, count, terms.sizes.tobytes(), np.asarray(ats, dtype=np.int64).tobytes(),
         np.asarray(prevs if prevs is not None else [0] * count, dtype=np.int32).tobytes()),
    )
    width = terms.counts.shape[1]
    doc_bytes, count_bytes = (terms.rows + np.int32(first)).tobytes(), terms.counts.tobytes()
    bounds = terms.starts.tolist()
    connection.executemany(
        f"INSERT INTO {prefix}_post (seg, term, docs, tfs) VALUES (?, ?, ?, ?)",
        ((seg, name, doc_bytes[4 * a:4 * b], count_bytes[width * a:width * b]) for name, a, b in zip(terms.names, bounds, bounds[1:])),
    )
    if not bulk:
        _merge_runs(connection, prefix, largest_merge)


def _merge_runs(connection, prefix: str, largest: int | None) -> None:
    while True:
        segments = connection.execute(f"SELECT seg, level, count FROM {prefix}_seg ORDER BY seg").fetchall()
        runs = [segments[i:i + FANOUT] for i in range(len(segments) - FANOUT + 1)
                if len({level for _, level, _ in segments[i:i + FANOUT]}) == 1]
        runs = [run for run in runs if largest is None or sum(count for _, _, count in run) <= largest]
        if not runs:
            return
        run = min(runs, key=lambda run: run[0][1])
        _merge(connection, prefix, [seg for seg, _, _ in run], run[0][1] + 1)


def _merge(connection, prefix: str, segs: list[int], level: int) -> None:
    """One segment in place of `segs` (consecutive, oldest first): their lists joined term by term.
    Rows are numbered in segment order, so joining the bytes keeps every list sorted."""
    listed = marks(segs)
    parts = connection.execute(
        f"SELECT first, count, sizes, ats, prevs FROM {prefix}_seg WHERE seg IN ({listed}) ORDER BY seg", segs
    ).fetchall()
    merged: dict[str, tuple[list[bytes], list[bytes]]] = {}
    for term, docs, tfs in connection.execute(
        f"SELECT term, docs, tfs FROM {prefix}_post WHERE seg IN ({listed}) ORDER BY seg", segs
    ):
        lists = merged.setdefault(term, ([], []))
        lists[0].append(docs)
        lists[1].append(tfs)
    new = segs[-1]  # keeps its place in seg order, so segments stay in row order
    connection.execute(f"DELETE FROM {prefix}_post WHERE seg IN ({listed})", segs)
    connection.execute(f"DELETE FROM {prefix}_seg WHERE seg IN ({listed})", segs)
    connection.execute(
        f"INSERT INTO {prefix}_seg (seg, level, first, count, sizes, ats, prevs) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (new, level, parts[0][0], sum(p[1] for p in parts), *(b"".join(p[i] for p in parts) for i in (2, 3, 4))),
    )
    connection.executemany(
        f"INSERT INTO {prefix}_post (seg, term, docs, tfs) VALUES (?, ?, ?, ?)",
        ((new, term, b"".join(docs), b"".join(tfs)) for term, (docs, tfs) in merged.items()),
    )

