"""SideIndex: the lexical index kept in its own SQLite file beside the history (issue 3).

Per kind of row (messages, sessions): postings of index terms for BM25 (data/postings.py), an
FTS5 trigram table over folded text for the spec's substring test, a sample of trigram counts,
and a map from index rows back to history rows. The history database itself is only ever read.
"""
from __future__ import annotations

import os
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import peewee as pw

from oneclaw_search.data import postings
from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, DocKind, IndexedDoc, trigrams
from oneclaw_search.data.postings_reader import PostingsReader

FORMAT_VERSION = "11"  # bump whenever terms, tables or tokenizers change: old files are rebuilt
SUFFIX = ".search-index.sqlite"
GRAM_SAMPLE = 32  # every 32nd row's trigrams are counted: rarity estimates for trigram lookups
_GRAMS = "tokenize = 'trigram case_sensitive 1', content = '', columnsize = 0, detail = none"
# FTS5 merges 4 segments of a level by default: at 16 (and 64 before a write must merge) a build
# spends a sixth less time on trigrams, and a 200K-row lookup stays at about 1 ms. It writes its
# pending trigrams out every 1 MB by default: a 64 MB table lets a build's batch go out whole,
# 8 % less trigram time at a million messages (a commit writes out the rest in any case).
_GRAM_OPTIONS = (("automerge", 16), ("crisismerge", 64), ("hashsize", 64 * 1024 * 1024))


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

    def ensure_schema(self, source: str, embedder: str) -> None:
        """Create the tables, or start over when the file was made by another format, for another
        history, or with vectors from another embedder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.peewee.atomic("IMMEDIATE"):
            self.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            identity = {"format": FORMAT_VERSION, "source": source, "embedder": embedder}
            if all(self.meta(key) == value for key, value in identity.items()):
                return
            self._drop_everything_but_meta()
            self.execute("DELETE FROM meta")
            for kind in (MESSAGES, SESSIONS):
                self.create_kind(kind)
            self.set_meta(**identity)

    def _drop_everything_but_meta(self) -> None:
        """Tables of any earlier format go too; virtual tables first, as they take their shadow tables along."""
        listed = "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta' AND name NOT LIKE 'sqlite%'"
        for name, in self.execute(listed + " AND sql LIKE 'CREATE VIRTUAL%'") + self.execute(listed):
            self.execute(f'DROP TABLE IF EXISTS "{name}"')

    def create_kind(self, kind: DocKind) -> None:
        self.execute(
            f"CREATE TABLE {kind.table('docs')} (doc INTEGER PRIMARY KEY, src INTEGER NOT NULL UNIQUE,"
            " id TEXT NOT NULL, at INTEGER NOT NULL, fp INTEGER NOT NULL)"
        )
        self.execute(f"CREATE TABLE {kind.table('vec')} (doc INTEGER PRIMARY KEY, v BLOB NOT NULL)")
        grams = kind.table("grams")
        self.execute(f"CREATE VIRTUAL TABLE {grams} USING fts5({', '.join(kind.gram_columns)}, {_GRAMS})")
        for option, value in _GRAM_OPTIONS:
            self.execute(f"INSERT INTO {grams} ({grams}, rank) VALUES (?, ?)", (option, value))
        self.execute(f"CREATE TABLE {kind.table('gsample')} (term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
        postings.create_tables(self.execute, kind.prefix)
        self.restore_secondary_indexes(kind)
        # Readers compare it to tell a rebuilt table from one that only grew.
        self.set_meta(**{f"{kind.prefix}__generation": uuid.uuid4().hex})

    def defer_secondary_indexes(self, kind: DocKind) -> None:
        """Drops the indexes that find rows by id, lists by term and segments' lists by segment,
        for a first build to restore once at the end: filling them row by row (the term index in
        random key order) took about 10 of a million-message build's seconds more than building
        each whole afterwards."""
        for name, _ in _secondary_indexes(kind):
            self.execute(f"DROP INDEX IF EXISTS {name}")

    def restore_secondary_indexes(self, kind: DocKind) -> None:
        for name, on in _secondary_indexes(kind):
            self.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {on}")

    def drop_kind(self, kind: DocKind) -> None:
        for table in (*(kind.table(role) for role in ("gsample", "grams", "vec", "docs")), *postings.table_names(kind.prefix)):
            self.execute(f"DROP TABLE IF EXISTS {table}")
        self.execute("DELETE FROM meta WHERE key LIKE ?", (f"{kind.prefix}.%",))

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


def _secondary_indexes(kind: DocKind) -> tuple[tuple[str, str], ...]:
    return ((kind.table("docs_id"), f"{kind.table('docs')} (id)"), *postings.secondary_indexes(kind.prefix))
