"""SideIndex: the lexical index kept in its own SQLite file beside the history (issue 3).

Per kind of row (messages, sessions): postings of index terms for BM25 (data/postings.py), an
FTS5 trigram table over folded text for the spec's substring test, a sample of trigram counts,
and a map from index rows back to history rows (their tables: data/index_schema.py). The history
database itself is only ever read.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import peewee as pw

from oneclaw_search.data import postings
from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.index_docs import DocKind, IndexedDoc, trigrams
from oneclaw_search.data.postings_reader import PostingsReader

SUFFIX = ".search-index.sqlite"
GRAM_SAMPLE = 32  # every 32nd row's trigrams are counted: rarity estimates for trigram lookups


def default_index_path(database_path: Path) -> Path:
    return database_path.with_name(database_path.name + SUFFIX)


def user_cache() -> Path:
    """Where our files go when they may not sit beside the history: $XDG_CACHE_HOME/oneclaw-search."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "oneclaw-search"


class SideIndex:
    """The index file; each thread gets its own connection, writers take SQLite's write lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._readers: dict[str, PostingsReader] = {}
        self.peewee = pw.SqliteDatabase(
            str(path),
            pragmas={"journal_mode": "wal", "synchronous": "normal", "busy_timeout": 30_000, "cache_size": -32_000,
                     "journal_size_limit": 64 * 1024 * 1024},  # a big batch must not leave a WAL the index's size behind
        )

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        return self.peewee.execute_sql(sql, params).fetchall()

    def postings(self, kind: DocKind) -> PostingsReader:
        if kind.prefix not in self._readers:
            self._readers[kind.prefix] = PostingsReader(self.execute, kind.prefix, kind.stored_columns, kind.context_from_prevs)
        return self._readers[kind.prefix]

    def meta(self, key: str, default: str | None = None) -> str | None:
        rows = self.execute("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else default

    def meta_int(self, key: str) -> int:
        return int(self.meta(key, "0") or 0)

    def set_meta(self, **values: object) -> None:
        self.peewee.connection().executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [(key.replace("__", "."), str(value)) for key, value in values.items()],
        )

    def add(self, kind: DocKind, docs: Iterable[IndexedDoc], largest_merge: int | None = None,
            terms: postings.SegmentTerms | None = None, bulk: bool = False) -> int:
        """Index `docs` under doc numbers never used before, so stale postings of earlier versions never
        match; segment merges stop at `largest_merge` rows (a search waiting on a catch-up sets it),
        and a `bulk` build's segments merge nothing (postings.BULK_LEVEL). `terms` are the docs'
        term lists when they were made already, else made of `IndexedDoc.terms`."""
        docs = list(docs)
        if not docs:
            return 0
        if terms is None:
            terms = postings.segment_terms([text.split() for d in docs for text in d.terms], kind.stored_columns)
        start = postings.next_row(self.execute, kind.prefix)
        connection = self.peewee.connection()
        # Parameters are generated row by row, never kept as lists of a batch's tuples.
        connection.executemany(
            f"INSERT INTO {kind.table('docs')} (doc, src, id, at, fp) VALUES (?, ?, ?, ?, ?)",
            ((doc, d.source_rowid, d.id, d.at, d.fingerprint) for doc, d in enumerate(docs, start)),
        )
        connection.executemany(
            f"INSERT INTO {kind.table('vec')} (doc, v) VALUES (?, ?)",
            ((doc, d.vector) for doc, d in enumerate(docs, start) if d.vector is not None),
        )
        columns = kind.gram_columns
        connection.executemany(
            f"INSERT INTO {kind.table('grams')} (rowid, {', '.join(columns)}) VALUES (?, {', '.join('?' * len(columns))})",
            ((doc, *d.folded) for doc, d in enumerate(docs, start)),
        )
        self._sample_grams(kind, [d.folded for doc, d in enumerate(docs, start) if doc % GRAM_SAMPLE == 1])
        postings.write_segment(connection, kind.prefix, start, terms, [d.at for d in docs],
                               self._previous_rows(kind, start, docs), largest_merge, bulk)
        return len(docs)

    def _previous_rows(self, kind: DocKind, start: int, docs: list[IndexedDoc]) -> list[int]:
        """The row number of each doc (numbered from `start`)'s turn before, from this batch or an
        earlier one (0: not indexed)."""
        rows = dict(zip((d.source_rowid for d in docs), range(start, start + len(docs))))
        wanted = sorted({d.previous for d in docs if d.previous and d.previous not in rows})
        for chunk in sql_batches(wanted):
            rows.update(self.execute(f"SELECT src, doc FROM {kind.table('docs')} WHERE src IN ({marks(chunk)})", chunk))
        return [rows.get(d.previous, 0) if d.previous else 0 for d in docs]

    def _sample_grams(self, kind: DocKind, texts: list[tuple[str, ...]]) -> None:
        counts: Counter[str] = Counter()
        for columns in texts:
            counts.update({gram for text in columns for gram in trigrams(text)})
        self.peewee.connection().executemany(
            f"INSERT INTO {kind.table('gsample')} (term, n) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET n = n + excluded.n",
            counts.items(),
        )

    def forget(self, kind: DocKind, source_rowids: Sequence[int]) -> int:
        """Drop history rows from the map; their postings and trigrams stay behind, marked dead, as
        orphans until a rebuild."""
        connection = self.peewee.connection()
        connection.executemany(
            f"DELETE FROM {kind.table('vec')} WHERE doc IN (SELECT doc FROM {kind.table('docs')} WHERE src = ?)",
            [(r,) for r in source_rowids],
        )
        connection.executemany(
            f"INSERT OR IGNORE INTO {kind.prefix}_dead (doc) SELECT doc FROM {kind.table('docs')} WHERE src = ?",
            [(r,) for r in source_rowids],
        )
        before = connection.total_changes
        connection.executemany(f"DELETE FROM {kind.table('docs')} WHERE src = ?", [(r,) for r in source_rowids])
        removed = connection.total_changes - before
        self.set_meta(**{f"{kind.prefix}__orphans": self.meta_int(f"{kind.prefix}.orphans") + removed})
        return removed
