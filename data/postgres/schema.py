"""The PostgreSQL schema: OneClaw's tables and columns with a tenant column on each, the columns the
writer stores each turn's words and window in, the GIN and trigram indexes search runs on,
row-level security by tenant, and the tenant list (the SQL functions and triggers they use are in
functions.py and term_counts.py).

Every statement is idempotent: `ensure_schema` runs on an empty database or an up-to-date one alike.
"""
from __future__ import annotations

import time

from oneclaw_search.data.postgres.database import TENANT_ROLE, PostgresHistory, execute
from oneclaw_search.data.postgres.functions import (
    ANALYZE_FUNCTION,
    CURRENT,
    FOLD_FUNCTION,
    LIKE_FUNCTION,
    MARKED_FUNCTION,
    MEMORY_CHANGED_FUNCTION,
    MEMORY_TRIGGER,
    NORM_FUNCTION,
)
from oneclaw_search.data.postgres.rewindow import store_all_windows
from oneclaw_search.data.postgres.term_counts import TABLE as TERMS_TABLE
from oneclaw_search.data.postgres.term_counts import create_counts
from oneclaw_search.domain.errors import HistoryUnavailable

TENANT_COLUMN = f"tenant text NOT NULL DEFAULT {CURRENT} REFERENCES oneclaw_tenants (name) ON DELETE CASCADE"

TABLES = [
    "CREATE TABLE IF NOT EXISTS oneclaw_tenants (name text PRIMARY KEY, created_at bigint NOT NULL)",
    f"""CREATE TABLE IF NOT EXISTS sessions ({TENANT_COLUMN}, id text NOT NULL, title text NOT NULL,
        current_agent_id text NOT NULL, message_count integer NOT NULL, last_message_preview text,
        is_active integer NOT NULL, deleted_at bigint, created_at bigint NOT NULL, updated_at bigint NOT NULL,
        compacted_summary text, compact_boundary_timestamp bigint, last_logged_message_id text,
        title_words tsvector, title_tf jsonb, title_length integer,
        PRIMARY KEY (tenant, id))""",
    f"""CREATE TABLE IF NOT EXISTS messages ({TENANT_COLUMN}, id text NOT NULL, session_id text NOT NULL,
        type text NOT NULL, content text NOT NULL, thinking_content text, tool_call_id text, tool_name text,
        tool_input text, tool_output text, tool_status text, tool_duration_ms bigint, token_count_input bigint,
        token_count_output bigint, model_id text, provider_id text, created_at bigint NOT NULL, citations text,
        seq bigserial NOT NULL,
        words tsvector, window_tf jsonb, window_length integer, own_tf jsonb, own_length integer,
        PRIMARY KEY (tenant, id),
        FOREIGN KEY (tenant, session_id) REFERENCES sessions (tenant, id) ON DELETE CASCADE)""",
    f"""CREATE TABLE IF NOT EXISTS memory_index ({TENANT_COLUMN}, id text NOT NULL, source_type text NOT NULL,
        source_date text, chunk_text text NOT NULL, embedding bytea, created_at bigint NOT NULL,
        updated_at bigint NOT NULL, seq bigserial NOT NULL, PRIMARY KEY (tenant, id))""",
    f"""CREATE TABLE IF NOT EXISTS oneclaw_search_origins ({TENANT_COLUMN}, session_id text NOT NULL,
        source_kind text NOT NULL, project_path text, agent_type text, parent_session_id text, source_file text,
        PRIMARY KEY (tenant, session_id))""",
    f"""CREATE TABLE IF NOT EXISTS oneclaw_search_meta ({TENANT_COLUMN}, key text NOT NULL, value text NOT NULL,
        PRIMARY KEY (tenant, key))""",
]
INDEXES = [
    "CREATE INDEX IF NOT EXISTS index_sessions_updated_at ON sessions (tenant, updated_at)",
    # the few deleted sessions, whose messages every keyword search leaves out
    "CREATE INDEX IF NOT EXISTS index_sessions_deleted ON sessions (tenant) WHERE deleted_at IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS index_messages_session_id ON messages (tenant, session_id, created_at)",
    "CREATE INDEX IF NOT EXISTS index_messages_created_at ON messages (tenant, created_at)",
    # a session's turns in the order written: the writer reads the ones beside those it writes
    "CREATE INDEX IF NOT EXISTS index_messages_session_seq ON messages (tenant, session_id, seq)",
    "CREATE INDEX IF NOT EXISTS messages_words ON messages USING gin (words)",
    "CREATE INDEX IF NOT EXISTS messages_folded_trgm ON messages USING gin (folded gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS sessions_title_words ON sessions USING gin (title_words)",
    "CREATE INDEX IF NOT EXISTS sessions_title_marked_trgm ON sessions USING gin "
    "(oneclaw_search_marked(tenant, title) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS sessions_preview_marked_trgm ON sessions USING gin "
    "(oneclaw_search_marked(tenant, last_message_preview) gin_trgm_ops)",
    # the trigram index over a message's folded text made as it was read, which schemas before it was stored made
    "DROP INDEX IF EXISTS messages_marked_trgm",
    # the trigram indexes over every tenant's folded text alike, which schemas before the marked ones made
    "DROP INDEX IF EXISTS messages_fold_trgm",
    "DROP INDEX IF EXISTS sessions_title_fold_trgm",
    "DROP INDEX IF EXISTS sessions_preview_fold_trgm",
    # the trigram indexes over the unfolded text that schemas before the folded ones made
    "DROP INDEX IF EXISTS messages_content_trgm",
    "DROP INDEX IF EXISTS sessions_title_trgm",
    "DROP INDEX IF EXISTS sessions_preview_trgm",
]
# A schema made before windows were stored: its english tsvector columns (and their GIN indexes, and
# the functions they were generated by) give way to the windows the writer stores.
RETIRED = ["DROP FUNCTION IF EXISTS oneclaw_search_bm25(jsonb, integer, text[], float8[], float8)",
           "ALTER TABLE messages DROP COLUMN IF EXISTS content_tsv", "ALTER TABLE sessions DROP COLUMN IF EXISTS search_tsv",
           "DROP FUNCTION IF EXISTS oneclaw_search_words(text)", "DROP FUNCTION IF EXISTS oneclaw_search_plain(text)"]
WINDOW_COLUMNS = ["ALTER TABLE messages ADD COLUMN IF NOT EXISTS words tsvector",
                  "ALTER TABLE messages ADD COLUMN IF NOT EXISTS window_tf jsonb",
                  "ALTER TABLE messages ADD COLUMN IF NOT EXISTS window_length integer",
                  "ALTER TABLE messages ADD COLUMN IF NOT EXISTS own_tf jsonb",
                  "ALTER TABLE messages ADD COLUMN IF NOT EXISTS own_length integer",
                  # a message's folded text, behind its tenant's mark, as the literal reading compares it: stored,
                  # a row checked costs a search of it, where folding it again cost a function call a row
                  "ALTER TABLE messages ADD COLUMN IF NOT EXISTS folded text "
                  "GENERATED ALWAYS AS (oneclaw_search_marked(tenant, content)) STORED",
                  "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS title_words tsvector",
                  "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS title_tf jsonb",
                  "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS title_length integer"]
TENANT_TABLES = ("sessions", "messages", "memory_index", "oneclaw_search_origins", "oneclaw_search_meta", TERMS_TABLE)


# Under row-level security the planner may use an index for a condition only when its function is
# LEAKPROOF, and these are not marked so: without the mark every search reads the whole table. Each
# returns a boolean computed from its two arguments and raises only on a malformed pattern or query,
# whatever the row holds, so the mark is true of them; only a superuser may set it.
SEARCH_FUNCTIONS = ("ts_match_vq(tsvector, tsquery)", "textlike(text, text)", "word_similarity_op(text, text)",
                    "oneclaw_search_fold(text)", "oneclaw_search_marked(text, text)")
_LEAKY = "SELECT count(*) FROM pg_proc WHERE oid = ANY(%s::regprocedure[]) AND NOT proleakproof"


def search_functions_marked(history: PostgresHistory) -> bool:
    """Whether the search's index conditions are LEAKPROOF, so the indexes serve them under RLS."""
    return bool(history.rows(_LEAKY, ([f.replace(" ", "") for f in SEARCH_FUNCTIONS],))[0][0] == 0)


def security() -> list[str]:
    """Row-level security on every tenant table, forced on the owner too, and the tenant role's rights."""
    statements = [
        f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{TENANT_ROLE}') THEN "
        f"CREATE ROLE {TENANT_ROLE} NOLOGIN NOBYPASSRLS; END IF; END $$",
        f"GRANT {TENANT_ROLE} TO CURRENT_USER",
        "ALTER TABLE oneclaw_tenants ENABLE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS own_tenant ON oneclaw_tenants",
        f"CREATE POLICY own_tenant ON oneclaw_tenants FOR SELECT TO {TENANT_ROLE} USING (name = {CURRENT})",
        f"GRANT SELECT ON oneclaw_tenants TO {TENANT_ROLE}",
    ]
    for table in TENANT_TABLES:
        statements += [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
            f"DROP POLICY IF EXISTS own_tenant ON {table}",
            f"CREATE POLICY own_tenant ON {table} USING (tenant = {CURRENT}) WITH CHECK (tenant = {CURRENT})",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {TENANT_ROLE}",
        ]
    return [*statements, f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {TENANT_ROLE}",
            "REVOKE ALL ON FUNCTION oneclaw_search_analyze() FROM PUBLIC",
            f"GRANT EXECUTE ON FUNCTION oneclaw_search_analyze() TO {TENANT_ROLE}"]


# Moves whenever ensure_schema would change an existing schema: a schema marked with it is left as it
# is, so adding a tenant to a current schema costs no DDL.
SCHEMA_VERSION = ("oneclaw-search schema 9: windows 1-1-1 and own words stored, own words and turns by day counted, "
                  "folded message text stored, trigram indexes by tenant")
_MARK = "SELECT obj_description(to_regclass('oneclaw_tenants'), 'pg_class')"


def ensure_schema(admin: PostgresHistory) -> None:
    """Create whatever is missing, and bring a schema made by an earlier version up to date (its rows'
    windows and own words stored as this version lays them out, its counts made from them)."""
    superuser = admin.rows("SELECT rolsuper FROM pg_roles WHERE rolname = current_user") == [(True,)]
    if admin.rows(_MARK) == [(SCHEMA_VERSION,)] and (not superuser or search_functions_marked(admin)):
        return
    with admin.connected() as database, database.atomic():
        execute(database, "SELECT pg_advisory_xact_lock(hashtext('oneclaw_search_schema'))")  # one creator at a time
        execute(database, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
        older = execute(database, f"SELECT to_regclass('messages') IS NOT NULL AND ({_MARK}) IS DISTINCT FROM %s",
                        (SCHEMA_VERSION,)).fetchall() == [(True,)]
        schema = execute(database, "SELECT quote_ident(current_schema())").fetchall()[0][0]
        functions = [FOLD_FUNCTION, MARKED_FUNCTION.format(schema=schema), LIKE_FUNCTION, NORM_FUNCTION]
        for statement in [*functions, *TABLES, *RETIRED, *WINDOW_COLUMNS, *INDEXES]:
            execute(database, statement)
        create_counts(database, TENANT_COLUMN)
        for statement in [MEMORY_CHANGED_FUNCTION, MEMORY_TRIGGER, ANALYZE_FUNCTION, *security()]:
            execute(database, statement)
        if superuser:
            for function in SEARCH_FUNCTIONS:
                execute(database, f"ALTER FUNCTION {function} LEAKPROOF")
        if older:
            store_all_windows(database)
        execute(database, f"COMMENT ON TABLE oneclaw_tenants IS '{SCHEMA_VERSION}'")


def add_tenant(admin: PostgresHistory, name: str) -> bool:
    """Add a tenant; False when it was already there."""
    added = admin.rows("INSERT INTO oneclaw_tenants (name, created_at) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING name",
                       (name, int(time.time() * 1000)))
    return bool(added)


def tenants(admin: PostgresHistory) -> list[str]:
    return [row[0] for row in admin.rows("SELECT name FROM oneclaw_tenants ORDER BY name")]


def check_tenant(history: PostgresHistory) -> None:
    """HistoryUnavailable naming the fix when the schema, the tenant role or the tenant is missing."""
    try:
        history.rows("SELECT 1 FROM oneclaw_tenants LIMIT 0")
    except HistoryUnavailable as problem:
        text = str(problem)
        if f'role "{TENANT_ROLE}" does not exist' in text or "oneclaw_tenants" in text:
            raise HistoryUnavailable(f"{history.name}: no oneclaw-search schema here; create it and the tenant with "
                                     f"`oneclaw-search tenants add {history.tenant} --db URL`") from problem
        if "permission denied to set role" in text:
            raise HistoryUnavailable(f"{history.name}: this user may not act as a tenant; as the schema's owner run "
                                     f"GRANT {TENANT_ROLE} TO <user>") from problem
        raise
    if not history.rows("SELECT 1 FROM oneclaw_tenants WHERE name = %s", (history.tenant,)):
        raise HistoryUnavailable(f"{history.name}: tenant {history.tenant!r} does not exist; add it with "
                                 f"`oneclaw-search tenants add {history.tenant} --db URL`")


def stored_embedder(history: PostgresHistory) -> str | None:
    """The embedder the tenant's memory vectors came from (HistoryWriter records it), if any."""
    rows = history.rows("SELECT value FROM oneclaw_search_meta WHERE key = 'embedder'")
    return rows[0][0] if rows else None
