"""The PostgreSQL schema: OneClaw's tables and columns with a tenant column on each, the generated
tsvector and trigram indexes search runs on, row-level security by tenant, and the tenant list.

Every statement is idempotent: `ensure_schema` runs on an empty database or an up-to-date one alike.
"""
from __future__ import annotations

import time

from oneclaw_search.data.postgres.database import TENANT_ROLE, TENANT_SETTING, PostgresHistory, execute
from oneclaw_search.data.postgres.term_counts import TABLE as TERMS_TABLE
from oneclaw_search.data.postgres.term_counts import create_counts
from oneclaw_search.domain.errors import HistoryUnavailable

CURRENT = f"current_setting('{TENANT_SETTING}', true)"  # NULL when unset: no row matches, nothing is written
TENANT_COLUMN = f"tenant text NOT NULL DEFAULT {CURRENT} REFERENCES oneclaw_tenants (name) ON DELETE CASCADE"
# A message's words past this many characters are found by the literal reading only: a tsvector
# holds at most 1 MB, and one pasted log must not make its row unwritable.
TSV_CHARS = 200_000



# The words the keyword search indexes and queries: accents dropped (NFKD, then no combining marks:
# the server may lack unaccent) and camelCase identifiers also split into their parts, so
# getUserName is found as typed and by "user name". Immutable, so a generated column can use them;
# a query goes through them too. Each step runs only on text that needs it: most text is ASCII.
PLAIN_FUNCTION = """CREATE OR REPLACE FUNCTION oneclaw_search_plain(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
    CASE WHEN value ~ '[^[:ascii:]]' THEN regexp_replace(normalize(value, NFKD), '[\\u0300-\\u036f]', '', 'g')
         ELSE value END"""
CAMEL = "'([[:lower:][:digit:]])([[:upper:]])', '\\1 \\2', 'g'"
WORDS_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_words(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
    CASE WHEN value ~ '[[:lower:][:digit:]][[:upper:]]'
         THEN oneclaw_search_plain(value) || ' ' || regexp_replace(oneclaw_search_plain(value), {CAMEL})
         ELSE oneclaw_search_plain(value) END"""

# The literal reading's caseless form, computed alike for a row and a query so one trigram index
# serves both: compatibility forms composed (a decomposed 'école' is 'école', 'ﬁ' is 'fi'), the
# letters whose case folding is more than a lower case (ß and ẞ fold to 'ss', ς to 'σ'), then lower.
# Rows it admits are checked again with the domain's own folding, which decides. In PL/pgSQL, so the
# planner keeps it whole: inlined, its parts are not LEAKPROOF and row-level security keeps the index out.
# COST says what a call costs (several µs, against lower()'s cost of 1): at PL/pgSQL's default of 100
# the planner folds every session's title and preview in a scan rather than ask the trigram indexes.
FOLD_FUNCTION = """CREATE OR REPLACE FUNCTION oneclaw_search_fold(value text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
    BEGIN
        IF value ~ '[^[:ascii:]]' THEN
            IF NOT value IS NFKC NORMALIZED THEN  -- the check costs a third of normalizing; most text passes it
                value := normalize(value, NFKC);
            END IF;
            RETURN lower(replace(replace(replace(value, 'ß', 'ss'), 'ẞ', 'ss'), 'ς', 'σ'));
        END IF;
        RETURN lower(value);
    END $$"""
# '%query%' over the folded query, its own `%`, `_` and `\` matching only themselves (ESCAPE '\');
# each % doubled for the driver, which reads a lone one as a placeholder.
LIKE_FUNCTION = """CREATE OR REPLACE FUNCTION oneclaw_search_like(query text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
    '%%' || replace(replace(replace(oneclaw_search_fold(query), '\\', '\\\\'), '%%', '\\%%'), '_', '\\_') || '%%'"""

# The memory cache's key: a per-tenant counter every statement that changes memory_index moves, in
# its own transaction, whoever runs it; reading it is one index lookup where counting the rows was
# a scan of the tenant's whole memory each search. A statement with no tenant set (an admin's
# cascade from removing a tenant) leaves it alone: that tenant is going away.
MEMORY_VERSION = "memory_version"
MEMORY_CHANGED_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_memory_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF coalesce({CURRENT}, '') <> '' THEN
            INSERT INTO oneclaw_search_meta (key, value) VALUES ('{MEMORY_VERSION}', '1')
                ON CONFLICT (tenant, key) DO UPDATE SET value = (oneclaw_search_meta.value::bigint + 1)::text;
        END IF;
        RETURN NULL;
    END $$"""
MEMORY_TRIGGER = ("CREATE OR REPLACE TRIGGER memory_index_changed AFTER INSERT OR UPDATE OR DELETE ON memory_index "
                  "FOR EACH STATEMENT EXECUTE FUNCTION oneclaw_search_memory_changed()")

# The planner's statistics for a tenant's tables, refreshed as soon as a writer has changed enough of
# them and at the end of an import (writer.py), with the GIN indexes' pending entries merged, which
# every search would otherwise read through one by one. A tenant role may not ANALYZE a table it does
# not own, so the schema's owner lends it these statements over these tables only. SKIP_LOCKED: one
# refresh at a time is enough.
GIN_INDEXES = ("messages_content_tsv", "messages_fold_trgm", "sessions_search_tsv", "sessions_title_fold_trgm",
               "sessions_preview_fold_trgm")
ANALYZE_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_analyze() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    BEGIN
        ANALYZE (SKIP_LOCKED) sessions, messages, memory_index;
        {" ".join(f"PERFORM gin_clean_pending_list('{index}'::regclass);" for index in GIN_INDEXES)}
    END $$"""

TABLES = [
    "CREATE TABLE IF NOT EXISTS oneclaw_tenants (name text PRIMARY KEY, created_at bigint NOT NULL)",
    f"""CREATE TABLE IF NOT EXISTS sessions ({TENANT_COLUMN}, id text NOT NULL, title text NOT NULL,
        current_agent_id text NOT NULL, message_count integer NOT NULL, last_message_preview text,
        is_active integer NOT NULL, deleted_at bigint, created_at bigint NOT NULL, updated_at bigint NOT NULL,
        compacted_summary text, compact_boundary_timestamp bigint, last_logged_message_id text,
        search_tsv tsvector GENERATED ALWAYS AS
            (setweight(to_tsvector('english', oneclaw_search_words(left(title, {TSV_CHARS}))), 'A')
            || setweight(to_tsvector('english', oneclaw_search_words(coalesce(last_message_preview, ''))), 'B')) STORED,
        PRIMARY KEY (tenant, id))""",
    f"""CREATE TABLE IF NOT EXISTS messages ({TENANT_COLUMN}, id text NOT NULL, session_id text NOT NULL,
        type text NOT NULL, content text NOT NULL, thinking_content text, tool_call_id text, tool_name text,
        tool_input text, tool_output text, tool_status text, tool_duration_ms bigint, token_count_input bigint,
        token_count_output bigint, model_id text, provider_id text, created_at bigint NOT NULL, citations text,
        seq bigserial NOT NULL,
        content_tsv tsvector GENERATED ALWAYS AS
            (to_tsvector('english', oneclaw_search_words(left(content, {TSV_CHARS})))) STORED,
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
    "CREATE INDEX IF NOT EXISTS index_messages_session_id ON messages (tenant, session_id, created_at)",
    "CREATE INDEX IF NOT EXISTS index_messages_created_at ON messages (tenant, created_at)",
    "CREATE INDEX IF NOT EXISTS messages_content_tsv ON messages USING gin (content_tsv)",
    "CREATE INDEX IF NOT EXISTS messages_fold_trgm ON messages USING gin (oneclaw_search_fold(content) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS sessions_search_tsv ON sessions USING gin (search_tsv)",
    "CREATE INDEX IF NOT EXISTS sessions_title_fold_trgm ON sessions USING gin (oneclaw_search_fold(title) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS sessions_preview_fold_trgm ON sessions USING gin "
    "(oneclaw_search_fold(last_message_preview) gin_trgm_ops)",
    # the trigram indexes over the unfolded text that schemas before the folded ones made
    "DROP INDEX IF EXISTS messages_content_trgm",
    "DROP INDEX IF EXISTS sessions_title_trgm",
    "DROP INDEX IF EXISTS sessions_preview_trgm",
]
TENANT_TABLES = ("sessions", "messages", "memory_index", "oneclaw_search_origins", "oneclaw_search_meta", TERMS_TABLE)


# Under row-level security the planner may use an index for a condition only when its function is
# LEAKPROOF, and these are not marked so: without the mark every search reads the whole table. Each
# returns a boolean computed from its two arguments and raises only on a malformed pattern or query,
# whatever the row holds, so the mark is true of them; only a superuser may set it.
SEARCH_FUNCTIONS = ("ts_match_vq(tsvector, tsquery)", "textlike(text, text)", "word_similarity_op(text, text)",
                    "oneclaw_search_fold(text)")
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


def ensure_schema(admin: PostgresHistory) -> None:
    """Create whatever is missing."""
    with admin.connected() as database, database.atomic():
        execute(database, "SELECT pg_advisory_xact_lock(hashtext('oneclaw_search_schema'))")  # one creator at a time
        execute(database, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for statement in [PLAIN_FUNCTION, WORDS_FUNCTION, FOLD_FUNCTION, LIKE_FUNCTION, *TABLES, *INDEXES]:
            execute(database, statement)
        create_counts(database, TENANT_COLUMN)
        for statement in [MEMORY_CHANGED_FUNCTION, MEMORY_TRIGGER, ANALYZE_FUNCTION, *security()]:
            execute(database, statement)
        if execute(database, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchall() == [(True,)]:
            for function in SEARCH_FUNCTIONS:
                execute(database, f"ALTER FUNCTION {function} LEAKPROOF")


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
