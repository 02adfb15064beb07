"""The keyword question each source asks the server, as one statement (Q-01, Q-02): the rows holding a
query keyword in their own words, scored by BM25 over their stored windows in SQL (the ranking model,
computed as tantivy computes it on SQLite), the best `limit` of them and the literal reading's rows,
each with only what the reply needs.

The rows scored are, for each keyword, the newest POOL_ROWS holding it (GIN), and as many holding all
of them: a keyword held by no more rows is scored on every row that holds it, as tantivy scores it;
a commoner one on its newest rows, since scoring all of a common word's rows would cost its whole
posting list every search, and age weighs on every hit's final score.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.data.postgres.literal_reading import folded_like
from oneclaw_search.data.postgres.window_writes import TURN_TYPES
from oneclaw_search.data.text.analyzer import analyze
from oneclaw_search.data.text.keywords import Clause
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.window_bm25 import Collection

POOL_ROWS = 1_000


def lexeme(term: str) -> str:
    """A term of the keyword index's analyzer as a tsquery lexeme (the tsvectors hold its terms as they are)."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery(clause: Sequence[str]) -> str:
    """A keyword as a tsquery: its one term, or its terms side by side (a typed identifier, a path)."""
    return " <-> ".join(lexeme(term) for term in clause)


class Question:
    """What both sources' statements are built from: the keywords, the quoted phrases and the weights."""

    def __init__(self, query: HistoryQuery, found: list[Clause], terms: list[str], collection: Collection) -> None:
        self.keywords = [tsquery(clause) for clause in found]
        self.phrases = [(phrase, tsquery(words)) for phrase in query.phrases if (words := analyze(phrase))]
        self.terms = terms
        self.idfs = [collection.idf(term) for term in terms]
        self.average = collection.average_length

    def pool(self, table: str, words: str, when: str, narrowed: str, params: list[object],
             size: int = POOL_ROWS) -> tuple[str, list[object]]:
        """SQL for the ids scored: the newest `size` rows holding each keyword, and holding all of them,
        each holding every quoted phrase: as words of a message, as written in a session's title or preview."""
        matches = [" & ".join(f"({k})" for k in self.keywords)] + (self.keywords if len(self.keywords) > 1 else [])
        if table == "messages":
            phrases, held = "".join(f" AND p.{words} @@ %s::tsquery" for _ in self.phrases), [q for _, q in self.phrases]
        else:
            phrases = "".join(f" AND ({folded_like('p.title')} OR {folded_like('p.last_message_preview')})" for _ in self.phrases)
            held = [text for text, _ in self.phrases for text in (text, text)]
        part = (f"(SELECT p.id FROM {table} p WHERE p.{words} @@ %s::tsquery{phrases} AND p.{when} BETWEEN %s AND %s"
                f"{narrowed} ORDER BY p.{when} DESC LIMIT {int(size)})")
        return " UNION ".join([part] * len(matches)), [v for match in matches for v in (match, *held, *params)]

    def score(self, counts: str, length: str) -> tuple[str, list[object]]:
        return f"oneclaw_search_bm25({counts}, {length}, %s::text[], %s::float8[], %s::float8)", [self.terms, self.idfs,
                                                                                                 self.average]


# The rows scored are looked up by key (the pool's and the literal reading's ids): asked for as "in the
# pool or among these ids", the planner scans and scores every row of the tenant.
_MESSAGES = """WITH pool AS MATERIALIZED ({pool}),
    chosen AS (SELECT m.id, m.session_id, m.type, m.content, m.created_at, m.seq, {score} AS score,
        m.id IN (SELECT id FROM pool) AS pooled FROM (SELECT id FROM pool UNION SELECT unnest(%s::text[])) ids
        JOIN messages m ON m.tenant = {current} AND m.id = ids.id),
    live AS (SELECT c.*, s.title FROM chosen c JOIN LATERAL (SELECT s.title, s.deleted_at FROM sessions s
        WHERE s.tenant = {current} AND s.id = c.session_id LIMIT 1) s ON true WHERE s.deleted_at IS NULL)
    SELECT id, session_id, title, type, content, created_at, score FROM (
        (SELECT * FROM live WHERE pooled ORDER BY score DESC, seq DESC LIMIT %s)
        UNION (SELECT * FROM live WHERE id = ANY(%s))) best"""


def ranked_messages(question: Question, after: int, before: int, within: Within | None, limit: int,
                    literal: list[str]) -> tuple[str, list[object]]:
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    narrowed, extra = " AND p.type = ANY(%s)", list[object]([types])
    if within is not None and within.sessions is not None:
        narrowed, extra = narrowed + " AND p.session_id = ANY(%s)", [*extra, sorted(within.sessions)]
    pool, pooled = question.pool("messages", "words", "created_at", narrowed, [after, before, *extra])
    score, scored = question.score("m.window_tf", "m.window_length")
    return _MESSAGES.format(pool=pool, score=score, current=CURRENT), [*pooled, *scored, literal, limit, literal]


def ranked_sessions(question: Question, after: int, before: int, within: Within | None, limit: int,
                    literal: list[str]) -> tuple[str, list[object]]:
    narrowed, extra = " AND p.deleted_at IS NULL", list[object]()
    if within is not None and within.sessions is not None:
        narrowed, extra = narrowed + " AND p.id = ANY(%s)", [sorted(within.sessions)]
    pool, pooled = question.pool("sessions", "title_words", "updated_at", narrowed, [after, before, *extra])
    score, scored = question.score("s.title_tf", "s.title_length")
    sql = (f"WITH pool AS MATERIALIZED ({pool}), chosen AS (SELECT s.id, s.title, s.message_count, s.last_message_preview, "
           f"s.created_at, s.updated_at, {score} AS score, s.id IN (SELECT id FROM pool) AS pooled "
           "FROM (SELECT id FROM pool UNION SELECT unnest(%s::text[])) ids "
           f"JOIN sessions s ON s.tenant = {CURRENT} AND s.id = ids.id WHERE s.deleted_at IS NULL) "
           "SELECT id, title, message_count, last_message_preview, created_at, updated_at, score FROM ("
           "(SELECT * FROM chosen WHERE pooled ORDER BY score DESC, updated_at DESC LIMIT %s) "
           "UNION (SELECT * FROM chosen WHERE id = ANY(%s))) best")
    return sql, [*pooled, *scored, literal, limit, literal]
