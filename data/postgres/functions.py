"""The SQL functions and triggers of the PostgreSQL schema (schema.py creates them): the literal
reading's folding and pattern, a window's length as a search engine keeps it, the memory cache's
counter, and the statistics refresh writers may ask for.
"""
from __future__ import annotations

from oneclaw_search.data.postgres.database import TENANT_SETTING

CURRENT = f"current_setting('{TENANT_SETTING}', true)"  # NULL when unset: no row matches, nothing is written

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
# A row's folded text behind its tenant's mark (eight hex digits of a hash of the name, and a space), as
# the trigram indexes hold it: a pattern that starts with the mark makes pg_trgm intersect the needle's
# postings with the mark's, so a search visits its own tenant's rows only, however many others share
# the index. PL/pgSQL, kept whole, for the LEAKPROOF mark row-level security needs (schema.py). The
# fold is named with its schema: ANALYZE and index builds run with only pg_catalog on the search path.
MARKED_FUNCTION = """CREATE OR REPLACE FUNCTION oneclaw_search_marked(tenant text, value text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
    BEGIN
        RETURN left(md5(tenant), 8) || ' ' || {schema}.oneclaw_search_fold(value);
    END $$"""
# The current tenant's mark, then '%query%' over the folded query, its own `%`, `_` and `\` matching
# only themselves (ESCAPE '\'); each % doubled for the driver, which reads a lone one as a placeholder.
LIKE_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_like(query text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE RETURN left(md5({CURRENT}), 8) || ' '
    || '%%' || replace(replace(replace(oneclaw_search_fold(query), '\\', '\\\\'), '%%', '\\%%'), '_', '\\_') || '%%'"""

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
GIN_INDEXES = ("messages_words", "messages_folded_trgm", "sessions_title_words", "sessions_title_marked_trgm",
               "sessions_preview_marked_trgm")
ANALYZE_FUNCTION = f"""CREATE OR REPLACE FUNCTION oneclaw_search_analyze() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    BEGIN
        ANALYZE (SKIP_LOCKED) sessions, messages, memory_index;
        {" ".join(f"PERFORM gin_clean_pending_list(to_regclass('{index}'));" for index in GIN_INDEXES)}
    END $$"""

# A window's length as a search engine keeps it, one byte (Lucene's SmallFloat, as tantivy and
# domain/window_bm25.py's stored_length read it): below 32 itself, else 24 plus the length past 24
# with all but its top four bits cleared.
NORM_FUNCTION = """CREATE OR REPLACE FUNCTION oneclaw_search_norm(length integer) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN
    CASE WHEN length < 32 THEN length
         ELSE 24 + (((length - 24) >> (length(ltrim((length - 24)::bit(32)::text, '0')) - 4))
                    << (length(ltrim((length - 24)::bit(32)::text, '0')) - 4)) END"""
