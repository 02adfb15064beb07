"""How many of a tenant's messages hold each word, kept by the server as rows change, so a search
reads a query's document frequencies in one index lookup (the Collection of domain/relevance.py).

Statement triggers with transition tables add the words of inserted rows and take away those of
deleted ones (an update does both), whoever writes: our writer, a host's own statements, a cascade
from a removed session. A word is a lexeme of `content_tsv`, so the counts are what its GIN index
would count, without reading each row to apply the tenant's policy.
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.postgres.database import TENANT_SETTING, PostgresHistory, execute
from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.domain.clock import Deadline

TABLE = "oneclaw_search_terms"
ROWS = ""  # no lexeme is empty: under this word, every message counts once (the tenant's total)
_WORDS = f"SELECT unnest(array_append(tsvector_to_array(content_tsv), '{ROWS}')) AS word, {{sign}} AS change FROM {{rows}}"
# Words in one order, so writers of one tenant take their rows' locks alike and never deadlock.
_APPLY = f"""INSERT INTO {TABLE} (word, held_by) SELECT word, sum(change) FROM ({{changes}}) c GROUP BY word
    HAVING sum(change) <> 0 ORDER BY word
    ON CONFLICT (tenant, word) DO UPDATE SET held_by = {TABLE}.held_by + excluded.held_by"""


def _apply(*parts: tuple[str, str]) -> str:
    return _APPLY.format(changes=" UNION ALL ".join(_WORDS.format(sign=sign, rows=rows) for sign, rows in parts))


# A statement with no tenant set (an admin's cascade from removing a tenant) changes nothing here:
# that tenant's counts go with it.
COUNT_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF coalesce({CURRENT}, '') = '' THEN
            RETURN NULL;
        ELSIF TG_OP = 'INSERT' THEN
            {_apply(("1", "added"))};
        ELSIF TG_OP = 'DELETE' THEN
            {_apply(("-1", "removed"))};
        ELSE
            {_apply(("1", "added"), ("-1", "removed"))};
        END IF;
        RETURN NULL;
    END $$"""
TRIGGERS = [
    "CREATE OR REPLACE TRIGGER messages_terms_added AFTER INSERT ON messages REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION oneclaw_search_count_terms()",
    "CREATE OR REPLACE TRIGGER messages_terms_removed AFTER DELETE ON messages REFERENCING OLD TABLE AS removed "
    "FOR EACH STATEMENT EXECUTE FUNCTION oneclaw_search_count_terms()",
    "CREATE OR REPLACE TRIGGER messages_terms_changed AFTER UPDATE ON messages "
    "REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION oneclaw_search_count_terms()",
]


def create_counts(database: pw.Database, tenant_column: str) -> None:
    """The table, its function and triggers. Made on a schema whose messages already hold rows, the
    counts start from them, each tenant's read under its own policy, with writers held off until the
    triggers stand (SHARE lock, released at the caller's commit)."""
    fresh = execute(database, "SELECT to_regclass(%s) IS NULL", (TABLE,)).fetchall() == [(True,)]
    execute(database, f"CREATE TABLE IF NOT EXISTS {TABLE} ({tenant_column}, word text NOT NULL, "
                      "held_by bigint NOT NULL, PRIMARY KEY (tenant, word))")
    tenants = [name for (name,) in execute(database, "SELECT name FROM oneclaw_tenants").fetchall()]
    untotalled = [] if fresh else [name for name in tenants if not _totalled(database, name)]
    if fresh or untotalled:
        execute(database, "LOCK TABLE messages IN SHARE MODE")
        for name in tenants if fresh else untotalled:
            _act_as(database, name)
            if fresh:
                execute(database, _apply(("1", f"messages WHERE tenant = {CURRENT}")))
            else:  # counts kept before the total was: the total from the rows
                execute(database, f"INSERT INTO {TABLE} (word, held_by) SELECT %s, count(*) FROM messages WHERE tenant = "
                                  f"{CURRENT} ON CONFLICT (tenant, word) DO NOTHING", (ROWS,))
    _act_as(database, "")
    execute(database, COUNT_FUNCTION)
    for trigger in TRIGGERS:
        execute(database, trigger)


def _act_as(database: pw.Database, tenant: str) -> None:
    """The rest of this transaction as `tenant` (none: '')."""
    execute(database, "SELECT set_config(%s, %s, true)", (TENANT_SETTING, tenant))


def _totalled(database: pw.Database, tenant: str) -> bool:
    """Whether the tenant's kept counts hold the total (counts kept before it was lack it). The tenant
    named as well as set: a superuser reads past the policies."""
    _act_as(database, tenant)
    return bool(execute(database, f"SELECT 1 FROM {TABLE} WHERE tenant = %s AND word = %s", (tenant, ROWS)).fetchall())


def message_counts(history: PostgresHistory, words: Sequence[str], deadline: Deadline | None = None) -> dict[str, int]:
    """How many of the tenant's messages hold each word (a lexeme as the english configuration makes it;
    ROWS: how many messages there are)."""
    if not words:
        return {}
    rows = history.rows(f"SELECT word, held_by FROM {TABLE} WHERE word = ANY(%s)", (list(words),), deadline)
    return {word: int(count) for word, count in rows}
