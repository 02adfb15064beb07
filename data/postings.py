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

import numpy as np

from oneclaw_search.data.entities import marks

FANOUT = 8  # segments of one level merged into one: few segments to read, each posting rewritten log8(n) times
_MAX_COUNT = 255  # term counts per column are kept in a byte


def create_tables(execute, prefix: str) -> None:
    execute(f"CREATE TABLE {prefix}_seg (seg INTEGER PRIMARY KEY, level INTEGER NOT NULL, first INTEGER NOT NULL,"
            " count INTEGER NOT NULL, sizes BLOB NOT NULL, ats BLOB NOT NULL, prevs BLOB NOT NULL)")
    # A rowid table: its pages hold rows of up to 4 KB, where WITHOUT ROWID spills blobs over 1 KB
    # to half-empty overflow pages (a quarter of the space, at a million messages).
    execute(f"CREATE TABLE {prefix}_post (seg INTEGER NOT NULL, term TEXT NOT NULL, docs BLOB NOT NULL, tfs BLOB NOT NULL)")
    execute(f"CREATE INDEX {prefix}_post_term ON {prefix}_post (term, seg)")
    execute(f"CREATE INDEX {prefix}_post_seg ON {prefix}_post (seg)")
    execute(f"CREATE TABLE {prefix}_dead (doc INTEGER PRIMARY KEY)")


def table_names(prefix: str) -> tuple[str, ...]:
    return (f"{prefix}_dead", f"{prefix}_post", f"{prefix}_seg")


def next_row(execute, prefix: str) -> int:
    """The number the next indexed row gets: segments cover rows 1 … next_row - 1, never reused."""
    return execute(f"SELECT coalesce(max(first + count), 1) FROM {prefix}_seg")[0][0]


def write_segment(connection, prefix: str, first: int, columns: Sequence[Sequence[str]], ats: Sequence[int],
                  prevs: Sequence[int] | None = None, largest_merge: int | None = None) -> None:
    """Index rows `first`, `first + 1`, …: `columns[i][c]` holds row i's space-separated terms in
    column c, `ats[i]` its time, `prevs[i]` the row number of the turn before it (0: none). Then
    merges FANOUT neighbouring segments of one level, smallest first, while the merged segment
    would hold at most `largest_merge` rows."""
    if not columns:
        return
    width = len(columns[0])
    # One split per cell and whole-array bookkeeping: this runs for every term of every message.
    split = [text.split() for texts in columns for text in texts]  # cell i * width + c: row i, column c
    counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
    cells = np.repeat(np.arange(len(split), dtype=np.int64), counts)
    terms = list(chain.from_iterable(split))
    sizes = counts.reshape(-1, width).sum(axis=1).astype(np.uint32)
    rows, cols = cells // width, cells % width
    seg = (connection.execute(f"SELECT max(seg) FROM {prefix}_seg").fetchone()[0] or 0) + 1
    connection.execute(
        f"INSERT INTO {prefix}_seg (seg, level, first, count, sizes, ats, prevs) VALUES (?, 0, ?, ?, ?, ?, ?)",
        (seg, first, len(columns), sizes.tobytes(), np.asarray(ats, dtype=np.int64).tobytes(),
         np.asarray(prevs if prevs is not None else [0] * len(columns), dtype=np.int32).tobytes()),
    )
    connection.executemany(f"INSERT INTO {prefix}_post (seg, term, docs, tfs) VALUES (?, ?, ?, ?)",
                           _term_lists(seg, first, width, terms, rows, cols))
    _merge_runs(connection, prefix, largest_merge)


def _term_lists(seg: int, first: int, width: int, terms: list[str], rows: np.ndarray, cols: np.ndarray):
    """(seg, term, docs, counts) per distinct term: docs as int32, counts as uint8 [doc, column]."""
    if not terms:
        return []
    names = list(dict.fromkeys(terms))
    number = {term: i for i, term in enumerate(names)}
    ids = np.fromiter(map(number.__getitem__, terms), dtype=np.int64, count=len(terms))
    keys = ids << 32 | rows
    pairs, inverse = np.unique(keys, return_inverse=True)
    counts = np.bincount(inverse.ravel() * width + cols, minlength=len(pairs) * width).reshape(-1, width)
    counts = np.minimum(counts, _MAX_COUNT).astype(np.uint8)
    docs = (pairs & 0xFFFFFFFF).astype(np.int32) + np.int32(first)
    term_ids = pairs >> 32
    starts = np.flatnonzero(np.r_[True, term_ids[1:] != term_ids[:-1]])
    ends = np.r_[starts[1:], len(pairs)]
    doc_bytes, count_bytes = docs.tobytes(), counts.tobytes()
    return [(seg, names[term], doc_bytes[4 * a:4 * b], count_bytes[width * a:width * b])
            for term, a, b in zip(term_ids[starts].tolist(), starts.tolist(), ends.tolist())]


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

