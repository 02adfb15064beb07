"""The side index's tables: made for one history and embedder, and started over when either or the
format changes (issue 3).

Per kind of row (messages, sessions): the map from index rows to history rows, their vectors, an
FTS5 trigram table with its sampled trigram counts, and the postings (data/postings.py), whose
secondary indexes a first build adds only at its end.
"""
from __future__ import annotations

import uuid

from oneclaw_search.data import postings
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, DocKind
from oneclaw_search.data.side_index import SideIndex

FORMAT_VERSION = "11"  # bump whenever terms, tables or tokenizers change: old files are rebuilt
_GRAMS = "tokenize = 'trigram case_sensitive 1', content = '', columnsize = 0, detail = none"
# FTS5 merges 4 segments of a level by default: at 16 (and 64 before a write must merge) a build
# spends a sixth less time on trigrams, and a 200K-row lookup stays at about 1 ms. It writes its
# pending trigrams out every 1 MB by default: a 64 MB table lets a build's batch go out whole,
# 8 % less trigram time at a million messages (a commit writes out the rest in any case).
_GRAM_OPTIONS = (("automerge", 16), ("crisismerge", 64), ("hashsize", 64 * 1024 * 1024))


def ensure_schema(index: SideIndex, source: str, embedder: str) -> None:
    """Create the tables, or start over when the file was made by another format, for another
    history, or with vectors from another embedder."""
    index.path.parent.mkdir(parents=True, exist_ok=True)
    with index.peewee.atomic("IMMEDIATE"):
        index.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        identity = {"format": FORMAT_VERSION, "source": source, "embedder": embedder}
        if all(index.meta(key) == value for key, value in identity.items()):
            return
        _drop_everything_but_meta(index)
        index.execute("DELETE FROM meta")
        for kind in (MESSAGES, SESSIONS):
            create_kind(index, kind)
        index.set_meta(**identity)


def _drop_everything_but_meta(index: SideIndex) -> None:
    """Tables of any earlier format go too; virtual tables first, as they take their shadow tables along."""
    listed = "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta' AND name NOT LIKE 'sqlite%'"
    for name, in index.execute(listed + " AND sql LIKE 'CREATE VIRTUAL%'") + index.execute(listed):
        index.execute(f'DROP TABLE IF EXISTS "{name}"')


def create_kind(index: SideIndex, kind: DocKind) -> None:
    index.execute(
        f"CREATE TABLE {kind.table('docs')} (doc INTEGER PRIMARY KEY, src INTEGER NOT NULL UNIQUE,"
        " id TEXT NOT NULL, at INTEGER NOT NULL, fp INTEGER NOT NULL)"
    )
    index.execute(f"CREATE TABLE {kind.table('vec')} (doc INTEGER PRIMARY KEY, v BLOB NOT NULL)")
    grams = kind.table("grams")
    index.execute(f"CREATE VIRTUAL TABLE {grams} USING fts5({', '.join(kind.gram_columns)}, {_GRAMS})")
    for option, value in _GRAM_OPTIONS:
        index.execute(f"INSERT INTO {grams} ({grams}, rank) VALUES (?, ?)", (option, value))
    index.execute(f"CREATE TABLE {kind.table('gsample')} (term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
    postings.create_tables(index.execute, kind.prefix)
    restore_secondary_indexes(index, kind)
    # Readers compare it to tell a rebuilt table from one that only grew.
    index.set_meta(**{f"{kind.prefix}__generation": uuid.uuid4().hex})


def defer_secondary_indexes(index: SideIndex, kind: DocKind) -> None:
    """Drops the indexes that find rows by id, lists by term and segments' lists by segment,
    for a first build to restore once at the end: filling them row by row (the term index in
    random key order) took about 10 of a million-message build's seconds more than building
    each whole afterwards."""
    for name, _ in _secondary_indexes(kind):
        index.execute(f"DROP INDEX IF EXISTS {name}")


def restore_secondary_indexes(index: SideIndex, kind: DocKind) -> None:
    for name, on in _secondary_indexes(kind):
        index.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {on}")


def drop_kind(index: SideIndex, kind: DocKind) -> None:
    for table in (*(kind.table(role) for role in ("gsample", "grams", "vec", "docs")), *postings.table_names(kind.prefix)):
        index.execute(f"DROP TABLE IF EXISTS {table}")
    index.execute("DELETE FROM meta WHERE key LIKE ?", (f"{kind.prefix}.%",))


def _secondary_indexes(kind: DocKind) -> tuple[tuple[str, str], ...]:
    return ((kind.table("docs_id"), f"{kind.table('docs')} (id)"), *postings.secondary_indexes(kind.prefix))
