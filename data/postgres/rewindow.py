"""Windows for rows stored by an earlier version: a schema made by one gets every tenant's turn windows,
own words and session title words, as this version lays them out, when ensure_schema brings it up to
date. The count triggers stand by then, so the statistics follow the windows as they are stored; the
turns by day, which a rewritten window does not move, are counted afresh.
"""
from __future__ import annotations

import peewee as pw

from oneclaw_search.data.postgres.database import TENANT_SETTING, execute
from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.data.postgres.message_rows import store_windows
from oneclaw_search.data.postgres.term_counts import recount_days
from oneclaw_search.data.postgres.window_writes import TURN_TYPES
from oneclaw_search.data.postgres.windows import own_words, tenant_mark, title_window, window_of
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW

# The tenant named as well as set: a superuser reads past the policies.
_TURNS = (f"SELECT session_id, id, content FROM messages WHERE tenant = {CURRENT} AND type = ANY(%s) "
          "ORDER BY session_id, seq")


def store_all_windows(database: pw.Database) -> None:
    """Every tenant's windows and title words, each tenant read and written under its own policy."""
    for (tenant,) in execute(database, "SELECT name FROM oneclaw_tenants").fetchall():
        execute(database, "SELECT set_config(%s, %s, true)", (TENANT_SETTING, tenant))
        _store_tenant(database, tenant_mark(tenant))
        recount_days(database)
    execute(database, "SELECT set_config(%s, '', true)", (TENANT_SETTING,))


def _store_tenant(database: pw.Database, mark: str) -> None:
    chains: dict[str, list[tuple[str, str]]] = {}
    for session, key, content in execute(database, _TURNS, (TURN_TYPES,)).fetchall():
        chains.setdefault(session, []).append((key, content))
    for chain in chains.values():
        owns = [own_words(content) for _, content in chain]
        alone = [title_window(own) for own in owns]
        execute(database, "UPDATE messages m SET words = w.words::tsvector, own_tf = w.counts, own_length = w.length "
                          "FROM unnest(%s::text[], %s::text[], %s::jsonb[], %s::integer[]) w(id, words, counts, length) "
                          f"WHERE m.tenant = {CURRENT} AND m.id = w.id",
                ([key for key, _ in chain], [own.tsvector(mark) for own in owns], [own.counts for own in alone],
                 [own.length for own in alone]))
        store_windows(database, {key: window_of(owns, at, DEFAULT_WINDOW) for at, (key, _) in enumerate(chain)})
    for key, title in execute(database, f"SELECT id, title FROM sessions WHERE tenant = {CURRENT}").fetchall():
        words = own_words(title)
        window = title_window(words)
        execute(database, "UPDATE sessions SET title_words = %s::tsvector, title_tf = %s::jsonb, title_length = %s "
                f"WHERE tenant = {CURRENT} AND id = %s",
                (words.tsvector(mark), window.counts, window.length, key))
