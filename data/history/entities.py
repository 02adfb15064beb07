"""peewee models of OneClaw's messages, sessions and memory_index tables, column for column.

Mirrors data/local/entity/{MessageEntity,SessionEntity,MemoryIndexEntity}.kt and the Room schema
1.json: same names, SQL types, nullability, primary keys, foreign key and index names. Models are
bound to no database; every query names the one it runs on, so two histories can be open at once.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import peewee as pw

from oneclaw_search.data.history.raw_sql import Row, execute_sql, sqlite_connection


class _RoomModel(pw.Model):
    class Meta:
        database = None
        legacy_table_names = False


class SessionEntity(_RoomModel):
    id = pw.TextField(primary_key=True)
    title = pw.TextField()
    current_agent_id = pw.TextField()
    message_count = pw.IntegerField()
    last_message_preview = pw.TextField(null=True)
    is_active = pw.IntegerField()
    deleted_at = pw.IntegerField(null=True)
    created_at = pw.IntegerField()
    updated_at = pw.IntegerField()
    compacted_summary = pw.TextField(null=True)
    compact_boundary_timestamp = pw.IntegerField(null=True)
    last_logged_message_id = pw.TextField(null=True)

    class Meta:
        table_name = "sessions"


class MessageEntity(_RoomModel):
    id = pw.TextField(primary_key=True)
    session_id = pw.TextField()
    type = pw.TextField()
    content = pw.TextField()
    thinking_content = pw.TextField(null=True)
    tool_call_id = pw.TextField(null=True)
    tool_name = pw.TextField(null=True)
    tool_input = pw.TextField(null=True)
    tool_output = pw.TextField(null=True)
    tool_status = pw.TextField(null=True)
    tool_duration_ms = pw.IntegerField(null=True)
    token_count_input = pw.IntegerField(null=True)
    token_count_output = pw.IntegerField(null=True)
    model_id = pw.TextField(null=True)
    provider_id = pw.TextField(null=True)
    created_at = pw.IntegerField()
    citations = pw.TextField(null=True)

    class Meta:
        table_name = "messages"
        constraints = [
            pw.SQL(
                'FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") '
                "ON UPDATE NO ACTION ON DELETE CASCADE"
            )
        ]


class MemoryIndexEntity(_RoomModel):
    id = pw.TextField(primary_key=True)
    source_type = pw.TextField()
    source_date = pw.TextField(null=True)
    chunk_text = pw.TextField()
    embedding = pw.BlobField(null=True)
    created_at = pw.IntegerField()
    updated_at = pw.IntegerField()

    class Meta:
        table_name = "memory_index"


class SearchMetaEntity(_RoomModel):
    """Our own key/value notes in databases this package creates (never in OneClaw's)."""

    key = pw.TextField(primary_key=True)
    value = pw.TextField()

    class Meta:
        table_name = "oneclaw_search_meta"


class SessionOriginEntity(_RoomModel):
    """Where an imported session came from: kept beside OneClaw's tables, never in them (P-13),
    so a search can filter by project or agent type and the file stays OneClaw's schema."""

    session_id = pw.TextField(primary_key=True)
    source_kind = pw.TextField()  # claude-code, squidbot, ...
    project_path = pw.TextField(null=True)
    agent_type = pw.TextField(null=True)  # a sub-agent's type (Explore, general-purpose); None for a main session
    parent_session_id = pw.TextField(null=True)
    source_file = pw.TextField(null=True)

    class Meta:
        table_name = "oneclaw_search_origins"


SessionEntity.add_index(pw.ModelIndex(SessionEntity, (SessionEntity.updated_at,), name="index_sessions_updated_at"))
SessionEntity.add_index(pw.ModelIndex(SessionEntity, (SessionEntity.deleted_at,), name="index_sessions_deleted_at"))
MessageEntity.add_index(pw.ModelIndex(MessageEntity, (MessageEntity.session_id,), name="index_messages_session_id"))
MessageEntity.add_index(pw.ModelIndex(MessageEntity, (MessageEntity.created_at,), name="index_messages_created_at"))

T = TypeVar("T")

ROOM_MODELS = (SessionEntity, MessageEntity, MemoryIndexEntity)
ALL_MODELS = (*ROOM_MODELS, SearchMetaEntity, SessionOriginEntity)


SQL_BATCH = 500  # values per statement: stays under SQLite's bound-parameter limit
NewRows = Sequence[Mapping[str, object]]  # rows to write, each column name → value, all with the same columns


def sql_batches(items: Sequence[T]) -> Iterator[list[T]]:
    """`items` in lists short enough to bind as the parameters of one statement."""
    for start in range(0, len(items), SQL_BATCH):
        yield list(items[start:start + SQL_BATCH])


def marks(values: Sequence[object]) -> str:
    """One `?` per value, for an `IN (...)` list."""
    return ", ".join("?" * len(values))


class RowsById:
    """A select of rows whose ids are in a list, rendered by peewee once and reused as SQL text:
    rendering a page of index hits' ids value by value cost more than running the query."""

    _IDS = "(__ids__)"
    _AFTER, _BEFORE = -7_100_000_001, -7_100_000_002  # stand-ins for the window, swapped for real bounds

    def __init__(self, select_where_id_in: Callable[[pw.SQL, int, int], pw.ModelSelect[Any]]) -> None:
        self._select = select_where_id_in  # (id condition, after, before) -> ModelSelect
        self._rendered: tuple[str, list[object]] | None = None

    def fetch(self, database: pw.Database, ids: Sequence[int], after: int, before: int) -> list[Row]:
        if self._rendered is None:
            self._rendered = self._select(pw.SQL(self._IDS), self._AFTER, self._BEFORE).bind(database).sql()
        sql, params = self._rendered
        bound = [{self._AFTER: after, self._BEFORE: before}.get(p, p) if isinstance(p, int) else p for p in params]
        rows: list[Row] = []
        for chunk in sql_batches(ids):
            rows += execute_sql(database, sql.replace(self._IDS, f"({marks(chunk)})"), [*bound, *chunk]).fetchall()
        return rows


def upsert_many(database: pw.Database, model: type[pw.Model], rows: NewRows) -> None:
    """Insert rows (dicts with the same keys: column names), updating those whose id exists.

    Not INSERT OR REPLACE: replacing a session deletes it first, and the foreign key's ON DELETE
    CASCADE would take its messages with it. One prepared statement for every row: peewee's
    insert_many renders each row's SQL in Python, which would be most of an import's time.
    """
    if rows:
        primary_key = model._meta.primary_key
        if primary_key is False:  # peewee's mark of a model with no primary key: nothing to conflict on
            raise ValueError(f"{model.__name__} has no primary key to upsert by")
        key = primary_key.column_name
        updates = ", ".join(f'"{column}" = excluded."{column}"' for column in _columns(model, rows) if column != key)
        _insert(database, model, rows, f' ON CONFLICT ("{key}") DO UPDATE SET {updates}')


def insert_many(database: pw.Database, model: type[pw.Model], rows: NewRows) -> None:
    """upsert_many for rows known to be new: a plain INSERT, one prepared statement."""
    if rows:
        _insert(database, model, rows, "")


def _columns(model: type[pw.Model], rows: NewRows) -> list[str]:
    return [model._meta.fields[name].column_name for name in rows[0]]


def _insert(database: pw.Database, model: type[pw.Model], rows: NewRows, on_conflict: str) -> None:
    columns = _columns(model, rows)
    listed = ", ".join(f'"{column}"' for column in columns)
    sqlite_connection(database).executemany(
        f'INSERT INTO "{model._meta.table_name}" ({listed}) VALUES ({marks(columns)}){on_conflict}',
        [tuple(row.values()) for row in rows],
    )
