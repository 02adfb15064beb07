"""The statistics BM25 needs of a tenant's windows, kept by the server as rows change (the Collection
of domain/window_bm25.py): how many windows hold each term, and under the empty word (no term is
empty) how many windows there are and their total length. Messages' windows are kind 'm', sessions'
titles kind 's'; turns' own words kind 'w' (scored beside the windows, and how common a word is for
the literal reading's plan); turns by the day they were written kind 'd' (how far back a common
word's newest rows lie).

Statement triggers with transition tables add the terms of new windows and take away those of old
ones (an update does both), whoever writes: our writer, a host's own statements, a cascade from a
removed session. A search reads a query's counts in one index lookup and never recounts.
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.postgres.database import PostgresHistory, execute
from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.data.postgres.windows import tenant_mark
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.window_bm25 import Collection

TABLE = "oneclaw_search_window_terms"
OLD_TABLE = "oneclaw_search_terms"  # an earlier schema's counts of english lexemes: dropped
ROWS = ""  # no term is empty: under this word, every window counts once and adds its length
MESSAGES, SESSIONS, TURNS, DAYS = "m", "s", "w", "d"  # message windows, session titles, turns' own words, turns by day
# Turns are counted by the day they were written on: a search reads one count a day back to the first
# day it needs, a year's history being a few hundred rows.
DAY_MS = 86_400_000
_MARKED = len(tenant_mark(""))  # a tsvector lexeme's tenant mark, before the term
# A turn's day as a word that sorts as the day does (a time before 1970 counts in the first day).
_DAY = f"lpad(greatest({{row}}.created_at / {DAY_MS}, 0)::text, 12, '0')"
# Each kind: its table, the terms of a row `r` (as a lateral yielding `word`), the column present on
# every row counted, and the row's length.
_KINDS = {MESSAGES: ("messages", "jsonb_object_keys(r.window_tf)", "window_tf", "r.window_length"),
          SESSIONS: ("sessions", "jsonb_object_keys(r.title_tf)", "title_tf", "r.title_length"),
          TURNS: ("messages", f"LATERAL (SELECT substr(x, {_MARKED + 1}) FROM unnest(tsvector_to_array(r.words)) x)",
                  "words", "coalesce(r.own_length, 0)"),
          DAYS: ("messages", f"LATERAL (SELECT {_DAY.format(row='r')} WHERE r.words IS NOT NULL)", "words", "0")}
_TERMS = """SELECT k.word, {sign} AS change, 0::bigint AS length FROM {rows} r, {terms} k(word)
    UNION ALL SELECT '{total}', {sign}, {sign} * {length} FROM {rows} r WHERE r.{present} IS NOT NULL"""
# Words in one order, so writers of one tenant take their rows' locks alike and never deadlock.
_APPLY = f"""INSERT INTO {TABLE} (kind, word, held_by, length) SELECT '{{kind}}', word, sum(change), sum(length)
    FROM ({{changes}}) c GROUP BY word HAVING sum(change) <> 0 OR sum(length) <> 0 ORDER BY word
    ON CONFLICT (tenant, kind, word) DO UPDATE
    SET held_by = {TABLE}.held_by + excluded.held_by, length = {TABLE}.length + excluded.length"""


def _apply(kind: str, *parts: tuple[str, str]) -> str:
    _, terms, present, length = _KINDS[kind]
    return _APPLY.format(kind=kind, changes=" UNION ALL ".join(
        _TERMS.format(sign=sign, rows=rows, terms=terms, present=present, length=length, total=ROWS) for sign, rows in parts))


def _function(table: str) -> str:
    """A statement with no tenant set (an admin's cascade from removing a tenant) changes nothing here:
    that tenant's counts go with it."""
    kinds = [kind for kind, (owner, *_) in _KINDS.items() if owner == table]

    def each(*parts: tuple[str, str]) -> str:
        return "; ".join(_apply(kind, *parts) for kind in kinds)
    return f"""CREATE OR REPLACE FUNCTION oneclaw_search_count_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF coalesce({CURRENT}, '') = '' THEN
            RETURN NULL;
        ELSIF TG_OP = 'INSERT' THEN
            {each(("1", "added"))};
        ELSIF TG_OP = 'DELETE' THEN
            {each(("-1", "removed"))};
        ELSE
            {each(("1", "added"), ("-1", "removed"))};
        END IF;
        RETURN NULL;
    END $$"""


def _triggers(table: str) -> list[str]:
    run = f"FOR EACH STATEMENT EXECUTE FUNCTION oneclaw_search_count_{table}()"
    return [f"CREATE OR REPLACE TRIGGER {table}_windows_added AFTER INSERT ON {table} REFERENCING NEW TABLE AS added {run}",
            f"CREATE OR REPLACE TRIGGER {table}_windows_removed AFTER DELETE ON {table} REFERENCING OLD TABLE AS removed {run}",
            f"CREATE OR REPLACE TRIGGER {table}_windows_changed AFTER UPDATE ON {table} "
            f"REFERENCING OLD TABLE AS removed NEW TABLE AS added {run}"]


_RETIRED = ["DROP TRIGGER IF EXISTS messages_terms_added ON messages", "DROP TRIGGER IF EXISTS messages_terms_removed ON messages",
            "DROP TRIGGER IF EXISTS messages_terms_changed ON messages", "DROP FUNCTION IF EXISTS oneclaw_search_count_terms()",
            f"DROP TABLE IF EXISTS {OLD_TABLE}"]


def create_counts(database: pw.Database, tenant_column: str) -> None:
    """The table, its functions and triggers (an earlier schema's counts retired). Counts start from
    the windows already stored when the table is new; windows stored later count through the triggers."""
    for statement in _RETIRED:
        execute(database, statement)
    execute(database, f"CREATE TABLE IF NOT EXISTS {TABLE} ({tenant_column}, kind text NOT NULL, word text NOT NULL, "
                      "held_by bigint NOT NULL, length bigint NOT NULL DEFAULT 0, PRIMARY KEY (tenant, kind, word))")
    for table in dict.fromkeys(table for table, *_ in _KINDS.values()):
        execute(database, _function(table))
        for trigger in _triggers(table):
            execute(database, trigger)


def counted(history: PostgresHistory, kind: str, terms: Sequence[str], deadline: Deadline | None = None,
            ) -> dict[str, tuple[int, int]]:
    """How many of the tenant's windows of `kind` hold each term, with ROWS: (windows, their total length)."""
    rows = history.rows(f"SELECT word, held_by, length FROM {TABLE} WHERE kind = %s AND word = ANY(%s)",
                        (kind, sorted({*terms, ROWS})), deadline)
    return {word: (int(held), int(length)) for word, held, length in rows}


def collection(history: PostgresHistory, kind: str, terms: Sequence[str], deadline: Deadline | None = None) -> Collection:
    """The tenant's windows of `kind` as BM25 sees them, for these query terms."""
    return collections(history, [kind], terms, deadline)[0]


def collections(history: PostgresHistory, kinds: Sequence[str], terms: Sequence[str],
                deadline: Deadline | None = None) -> list[Collection]:
    """The tenant's windows of each of `kinds` as BM25 sees them, for these query terms, in one lookup."""
    rows = history.rows(f"SELECT kind, word, held_by, length FROM {TABLE} WHERE kind = ANY(%s) AND word = ANY(%s)",
                        (list(kinds), sorted({*terms, ROWS})), deadline)
    found = {(kind, word): (int(held), int(length)) for kind, word, held, length in rows}
    made = []
    for kind in kinds:
        windows, length = found.get((kind, ROWS), (0, 0))
        made.append(Collection(windows, length / windows if windows else 0.0,
                               {term: found.get((kind, term), (0, 0))[0] for term in terms}))
    return made


def message_counts(history: PostgresHistory, words: Sequence[str], deadline: Deadline | None = None) -> dict[str, int]:
    """How many of the tenant's turns hold each word in their own words (ROWS: how many turns there
    are): the literal reading's and the typo fallback's estimate of how common a word is."""
    return {word: held for word, (held, _) in counted(history, TURNS, words, deadline).items()}


def known(history: PostgresHistory, terms: Sequence[str]) -> dict[str, int]:
    """How many turns and session titles hold each term: how common a spelling is, for the typo fallback."""
    rows = history.rows(f"SELECT word, sum(held_by) FROM {TABLE} WHERE kind = ANY(%s) AND word = ANY(%s) GROUP BY word",
                        ([TURNS, SESSIONS], list(terms)))
    return {word: int(held) for word, held in rows}


# For each count asked for, the newest day by which at least that many turns were written, going back
# from `before`'s day (a day's turns all count, so the day's start bounds them), or NULL when the days
# back to `after`'s hold fewer: one pass over the days, each count a filter of it.
_BACK = f"""SELECT {{asked}} FROM (SELECT word, sum(held_by) OVER (ORDER BY word DESC) AS upto FROM {TABLE}
        WHERE kind = '{DAYS}' AND word BETWEEN %s AND %s) days"""


def day_word(at: int) -> str:
    """The day of a time in milliseconds as the counts name it."""
    return str(max(at // DAY_MS, 0)).rjust(12, "0")


def written_since(history: PostgresHistory, needed: Sequence[int], after: int, before: int,
                  deadline: Deadline | None = None) -> list[int | None]:
    """For each count in `needed`, a time from which about that many of the tenant's turns were written
    up to `before` (None: fewer were, back to `after`). The counts take in all of `before`'s day and the
    turns of deleted sessions, so a span may hold fewer: its readers then read the whole window."""
    asked = ", ".join(["max(word) FILTER (WHERE upto >= %s)"] * len(needed))
    words = history.rows(_BACK.format(asked=asked), (*needed, day_word(after), day_word(before)), deadline)[0]
    return [None if word is None or int(word) == 0 else int(word) * DAY_MS for word in words]


def recount_days(database: pw.Database) -> None:
    """The current tenant's turns counted by day afresh (a schema made before they were counted)."""
    execute(database, f"DELETE FROM {TABLE} WHERE tenant = {CURRENT} AND kind = '{DAYS}'")
    execute(database, f"""INSERT INTO {TABLE} (tenant, kind, word, held_by, length)
        SELECT {CURRENT}, '{DAYS}', word, count(*), 0 FROM (SELECT {_DAY.format(row='m')} AS word FROM messages m
        WHERE m.tenant = {CURRENT} AND m.words IS NOT NULL UNION ALL SELECT '{ROWS}' FROM messages m
        WHERE m.tenant = {CURRENT} AND m.words IS NOT NULL) d GROUP BY word""")
