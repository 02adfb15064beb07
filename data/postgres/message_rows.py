"""How the writer hands rows to the server: text made storable, each turn with its own words and its
window (window_writes.py), messages sent by COPY, and the windows of stored neighbours replaced.

Row-level security refuses COPY into a tenant table, so messages are copied into a temporary table of
the same columns and moved over from it by one INSERT, which still upserts by id under the policy.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import peewee as pw

from oneclaw_search.data.history.new_rows import NewMessage, message_row
from oneclaw_search.data.postgres.database import cursor_of, execute
from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.data.postgres.window_writes import TURN_TYPES, Stored, Written
from oneclaw_search.data.postgres.windows import WindowCounts, own_words, title_window

_INCOMING = "oneclaw_search_incoming"
MESSAGE_COLUMNS = ["id", "session_id", "type", "content", "created_at", "tool_name", "tool_input", "tool_output",
                   "words", "window_tf", "window_length", "own_tf", "own_length"]


def storable(value: object) -> object:
    """A column value as PostgreSQL can hold it (storable_text for text, anything else as it is)."""
    return storable_text(value) if isinstance(value, str) else value


def storable_text(value: str) -> str:
    """Text as PostgreSQL can hold it: NUL, which a text column refuses, and lone surrogates (bytes
    that were not UTF-8 in the source file) become U+FFFD."""
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in value)
    return value


def titled(row: dict[str, object], mark: str) -> dict[str, object]:
    """A session row with its title's words (lexemes marked as the tenant's): a session is ranked by its title."""
    words = own_words(storable_text(str(row["title"])))
    window = title_window(words)
    return {**row, "title_words": words.tsvector(mark), "title_tf": window.counts, "title_length": window.length}


def windowed(message: NewMessage) -> tuple[Written, dict[str, object]]:
    """A message as written, and its row (its window still to be filled in)."""
    row = {column: storable(value) for column, value in message_row(message).items()}
    words = own_words(str(row["content"])) if message.type in TURN_TYPES else None
    return Written(message.id, message.session_id, words), row


def with_window(written: Written, row: dict[str, object], window: WindowCounts | None, mark: str) -> dict[str, object]:
    """A turn's row with its words, window and own words' counts (a tool row has none)."""
    words = written.words
    if words is None or window is None:
        return {**row, "words": words.tsvector(mark) if words is not None else None, "window_tf": None, "window_length": None,
                "own_tf": None, "own_length": None}
    own = title_window(words)
    return {**row, "words": words.tsvector(mark), "window_tf": window.counts, "window_length": window.length,
            "own_tf": own.counts, "own_length": own.length}


def stored_messages(database: pw.Database, ids: list[str]) -> dict[str, Stored]:
    if not ids:
        return {}
    found = execute(database, "SELECT id, session_id, seq FROM messages WHERE id = ANY(%s)",
                    ([storable(key) for key in ids],)).fetchall()
    return {row[0]: Stored(row[1], row[2]) for row in found}


def copy_messages(database: pw.Database, rows: Sequence[dict[str, object]]) -> None:
    """Insert or replace `rows` by id: COPY into the temporary table, then one INSERT in their order."""
    if not rows:
        return
    listed = ", ".join(MESSAGE_COLUMNS)
    execute(database, f"CREATE TEMP TABLE IF NOT EXISTS {_INCOMING} ON COMMIT DELETE ROWS AS "
                      f"SELECT 0 AS at, {listed} FROM messages WITH NO DATA")
    with cursor_of(database) as cursor, cursor.copy(f"COPY {_INCOMING} (at, {listed}) FROM STDIN") as copy:
        for at, row in enumerate(rows):
            copy.write_row([at, *(row[column] for column in MESSAGE_COLUMNS)])
    updates = ", ".join(f"{column} = excluded.{column}" for column in MESSAGE_COLUMNS if column != "id")
    execute(database, f"INSERT INTO messages ({listed}) SELECT {listed} FROM {_INCOMING} ORDER BY at "
                      f"ON CONFLICT (tenant, id) DO UPDATE SET {updates}")
    execute(database, f"TRUNCATE {_INCOMING}")


def store_windows(database: pw.Database, windows: dict[str, WindowCounts]) -> None:
    """Replace the windows of stored turns a write changed (the tenant named as well as set: a superuser
    reads past the policies)."""
    if not windows:
        return
    ids = sorted(windows)
    params: list[Any] = [ids, [windows[key].counts for key in ids], [windows[key].length for key in ids]]
    execute(database, "UPDATE messages m SET window_tf = w.counts, window_length = w.length "
                      "FROM unnest(%s::text[], %s::jsonb[], %s::integer[]) w(id, counts, length) "
                      f"WHERE m.tenant = {CURRENT} AND m.id = w.id", params)
