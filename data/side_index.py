"""SideIndex: the lexical index kept in its own SQLite file beside the history (issue 3).

FTS5 tables per kind of row (messages, sessions): one over index terms for BM25, one over folded
text in trigrams for the spec's substring test, and a map from index rows back to history rows.
The history database itself is only ever read.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import peewee as pw

FORMAT_VERSION = "7"  # bump whenever terms, tables or tokenizers change: old files are rebuilt
SUFFIX = ".search-index.sqlite"
_WORDS = "tokenize = \"unicode61 remove_diacritics 0 tokenchars '_'\", content = ''"
_GRAMS = "tokenize = 'trigram case_sensitive 1', content = '', columnsize = 0, detail = none"


@dataclass(frozen=True, slots=True)
class DocKind:
    """A kind of history row: its table prefix, its columns of terms and of text for trigrams."""

    prefix: str
    word_columns: tuple[str, ...]
    gram_columns: tuple[str, ...]

    def table(self, role: str) -> str:
        return f"{self.prefix}_{role}"


MESSAGES = DocKind("m", ("body", "context"), ("body",))
SESSIONS = DocKind("s", ("title", "preview"), ("title", "preview"))


@dataclass(frozen=True, slots=True)
class IndexedDoc:
    """One history row as indexed: `terms` and `folded` hold one text per column of its kind."""

    source_rowid: int
    id: str
    at: int
    fingerprint: int
    terms: tuple[str, ...]  # one FTS5-ready string of terms per word column
    folded: tuple[str, ...]  # one folded text per trigram column
    vector: bytes | None = None


def fts_term(term: str) -> str:
    """Index terms as FTS5 sees them: non-ASCII terms hex-coded so no tokenizer can split them."""
    return term if term.isascii() else "u_" + term.encode().hex()


def default_index_path(database_path: Path) -> Path:
    return database_path.with_name(database_path.name + SUFFIX)


class SideIndex:
    """The index file; each thread gets its own connection, writers take SQLite's write lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.peewee = pw.SqliteDatabase(
            str(path),
            pragmas={"journal_mode": "wal", "synchronous": "normal", "busy_timeout": 30_000, "cache_size": -32_000},
        )

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        return self.peewee.execute_sql(sql, params).fetchall()

    def ensure_schema(self, source: str, embedder: str) -> None:
        """Create the tables, or start over when the file was made by another format, for another
        history, or with vectors from another embedder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.peewee.atomic("IMMEDIATE"):
            self.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            identity = {"format": FORMAT_VERSION, "source": source, "embedder": embedder}
            if all(self.meta(key) == value for key, value in identity.items()):
                return
            for kind in (MESSAGES, SESSIONS):
                self.drop_kind(kind)
                self.create_kind(kind)
            self.execute("DELETE FROM meta")
            self.set_meta(**identity)

    def create_kind(self, kind: DocKind) -> None:
        self.execute(
            f"CREATE TABLE {kind.table('docs')} (doc INTEGER PRIMARY KEY, src INTEGER NOT NULL UNIQUE,"
            " id TEXT NOT NULL, at INTEGER NOT NULL, fp INTEGER NOT NULL)"
        )
        self.execute(f"CREATE INDEX {kind.table('docs_id')} ON {kind.table('docs')} (id)")
        self.execute(f"CREATE TABLE {kind.table('vec')} (doc INTEGER PRIMARY KEY, v BLOB NOT NULL)")
        self.execute(f"CREATE VIRTUAL TABLE {kind.table('words')} USING fts5({', '.join(kind.word_columns)}, {_WORDS})")
        self.execute(f"CREATE VIRTUAL TABLE {kind.table('grams')} USING fts5({', '.join(kind.gram_columns)}, {_GRAMS})")
        self.execute(f"CREATE VIRTUAL TABLE {kind.table('vocab')} USING fts5vocab({kind.table('words')}, 'row')")
        self.execute(f"CREATE VIRTUAL TABLE {kind.table('gvocab')} USING fts5vocab({kind.table('grams')}, 'row')")

    def drop_kind(self, kind: DocKind) -> None:
        for role in ("vocab", "gvocab", "words", "grams", "vec", "docs"):
            self.execute(f"DROP TABLE IF EXISTS {kind.table(role)}")
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

    def add(self, kind: DocKind, docs: Iterable[IndexedDoc]) -> int:
        """Index `docs` under fresh doc numbers, so stale FTS rows of earlier versions never match."""
        docs = list(docs)
        if not docs:
            return 0
        start = (self.execute(f"SELECT max(doc) FROM {kind.table('docs')}")[0][0] or 0) + 1
        connection = self.peewee.connection()
        numbered = list(enumerate(docs, start))
        connection.executemany(
            f"INSERT INTO {kind.table('docs')} (doc, src, id, at, fp) VALUES (?, ?, ?, ?, ?)",
            [(doc, d.source_rowid, d.id, d.at, d.fingerprint) for doc, d in numbered],
        )
        connection.executemany(
            f"INSERT INTO {kind.table('vec')} (doc, v) VALUES (?, ?)",
            [(doc, d.vector) for doc, d in numbered if d.vector is not None],
        )
        self.set_meta(**{f"{kind.prefix}__fts_rows": self.meta_int(f"{kind.prefix}.fts_rows") + len(docs)})
        for role, columns, texts in (("words", kind.word_columns, lambda d: d.terms), ("grams", kind.gram_columns, lambda d: d.folded)):
            connection.executemany(
                f"INSERT INTO {kind.table(role)} (rowid, {', '.join(columns)}) VALUES (?, {', '.join('?' * len(columns))})",
                [(doc, *texts(d)) for doc, d in numbered],
            )
        return len(docs)

    def forget(self, kind: DocKind, source_rowids: Sequence[int]) -> int:
        """Drop history rows from the map; their FTS rows stay behind as orphans until a rebuild."""
        connection = self.peewee.connection()
        before = connection.total_changes
        connection.executemany(
            f"DELETE FROM {kind.table('vec')} WHERE doc IN (SELECT doc FROM {kind.table('docs')} WHERE src = ?)",
            [(r,) for r in source_rowids],
        )
        connection.executemany(f"DELETE FROM {kind.table('docs')} WHERE src = ?", [(r,) for r in source_rowids])
        removed = connection.total_changes - before
        self.set_meta(**{f"{kind.prefix}__orphans": self.meta_int(f"{kind.prefix}.orphans") + removed})
        return removed
