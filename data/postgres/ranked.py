"""The keyword question each source asks the server, as one statement (Q-01, Q-02): the rows holding
a query keyword in their own words (each keyword's newest, CANDIDATES_PER_RESULT per result), scored
by BM25 over their stored windows and own words in SQL (the ranking model, computed as tantivy computes
it on SQLite), the best `limit` of them and the literal reading's rows, each with only what the reply needs.

The pool's rows are scored by key after it is read, and only the rows the reply keeps are read whole.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.folded import folded_like
from oneclaw_search.data.postgres.functions import CURRENT
from oneclaw_search.data.postgres.pools import pool_part, pool_size
from oneclaw_search.data.postgres.window_writes import TURN_TYPES
from oneclaw_search.data.postgres.windows import quoted
from oneclaw_search.data.text.analyzer import analyze
from oneclaw_search.data.text.keywords import Clause
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.window_bm25 import K1, B, Collection

Field = tuple[str, str, Collection]  # a scored field: its counts column, its length column, its statistics


def identifier(term: str) -> str:
    """A term as a quoted SQL column name (a window's count of it, read by jsonb_to_record)."""
    return '"' + term.replace('"', '""') + '"'


def tsquery(clause: Sequence[str], mark: str) -> str:
    """A keyword as a tsquery of the tenant's lexemes: its one term, or its terms side by side (a typed
    identifier, a path)."""
    return " <-> ".join(quoted(mark + term) for term in clause)


class Question:
    """What both sources' statements are built from: the keywords, the quoted phrases, and each scored
    field's weights (a message's window and its own words; a session's title)."""

    def __init__(self, query: HistoryQuery, found: list[Clause], terms: list[str], fields: Sequence[Field], mark: str) -> None:
        self.clauses = found
        self.keywords = [tsquery(clause, mark) for clause in found]
        self.phrases = [(phrase, tsquery(words, mark)) for phrase in query.phrases if (words := analyze(phrase))]
        self.terms = terms
        self.fields = fields

    def pooled(self) -> list[str]:
        """The tsqueries whose newest rows are scored: every keyword, and all of them at once."""
        every = " & ".join(f"({keyword})" for keyword in self.keywords)
        return [every, *self.keywords] if len(self.keywords) > 1 else [every]

    def pooled_held(self, turns: Collection) -> list[int | None]:
        """How many turns hold each of `pooled()` in their own words, as far as the counts tell (at most
        that many for a keyword of several terms; not known for all of them at once, or a quoted phrase)."""
        held: list[int | None] = [min(turns.holding.get(term, 0) for term in clause) for clause in self.clauses]
        if self.phrases:
            return [None] * len(self.pooled())
        return held if len(held) == 1 else [None, *held]

    def scored(self, alias: str) -> tuple[str, str, list[object]]:
        """SQL for a row's score (BM25 over each scored field, each query term written out so no subquery
        runs per row) and the laterals it reads from, and their parameters in the order they stand in
        `SELECT score FROM table laterals`. A field's counts of all the terms are read in one pass,
        jsonb_to_record's columns named by the terms (the analyzer drops tokens over 40 bytes, so every
        term fits a column name), where one `->>` per term parsed the field once each."""
        columns = ", ".join(f"{identifier(term)} float8" for term in self.terms)
        scores, laterals, weights, averages = [], [], list[object](), list[object]()
        for at, (counts, length, collection) in enumerate(self.fields):
            average = collection.average_length
            norm = f"{K1} * ({1 - B} + {B} * oneclaw_search_norm({alias}.{length}) / %s::float8)" if average > 0 else f"{K1}"
            # OFFSET 0 keeps the length's weight a subquery, computed once a row: flattened, it is
            # computed again in every term's share of the score.
            laterals.append(f"CROSS JOIN LATERAL (SELECT {norm} AS n OFFSET 0) w{at} "
                            f"LEFT JOIN LATERAL jsonb_to_record({alias}.{counts}) AS f{at}({columns}) ON true")
            scores += [f"coalesce(%s * f{at}.{identifier(term)} * {K1 + 1} / (f{at}.{identifier(term)} + w{at}.n), 0)"
                       for term in self.terms]
            weights += [collection.idf(term) for term in self.terms]
            averages += [average] if average > 0 else []
        return " + ".join(scores), " ".join(laterals), [*weights, *averages]

    def phrase_conditions(self, alias: str, table: str) -> tuple[str, list[object]]:
        """Every quoted phrase held: as words of a message, as written in a session's title or preview."""
        if table == "messages":
            return "".join(f" AND {alias}.words @@ %s::tsquery" for _ in self.phrases), [q for _, q in self.phrases]
        sql = "".join(f" AND ({folded_like(f'{alias}.title')} OR {folded_like(f'{alias}.last_message_preview')})"
                      for _ in self.phrases)
        return sql, [text for text, _ in self.phrases for text in (text, text)]


# A session's deletion hides its messages: their ids, read once per statement (a partial index holds them).
_HIDDEN = "p.session_id <> ALL(ARRAY(SELECT id FROM sessions WHERE deleted_at IS NOT NULL))"
# The pool is read first and scored after, by key: a common keyword's bitmap reads every row holding
# it to find its newest, and scoring each there would read its window for rows the pool drops.
_MESSAGES = """WITH pool AS MATERIALIZED ({pool}),
    best AS (SELECT p.id, {score} AS score FROM pool JOIN messages p ON p.tenant = {current} AND p.id = pool.id {lateral}
        ORDER BY score DESC, p.seq DESC LIMIT %s),
    literal AS (SELECT p.id, {score} AS score FROM messages p {lateral} WHERE p.tenant = {current} AND p.id = ANY(%s))
    SELECT m.id, m.session_id, s.title, m.type, m.content, m.created_at, c.score
    FROM (SELECT * FROM best UNION SELECT * FROM literal) c JOIN messages m ON m.tenant = {current} AND m.id = c.id
    JOIN LATERAL (SELECT s.title FROM sessions s WHERE s.tenant = {current} AND s.id = m.session_id LIMIT 1) s ON true"""


def ranked_messages(question: Question, after: int, before: int, within: Within | None, limit: int,
                    literal: list[str], since: Sequence[int | None]) -> tuple[str, list[object]]:
    """The statement, its pool's keywords each read from its time in `since` (None: the whole window)."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    sessions, narrowed = "", list[object]()
    if within is not None and within.sessions is not None:
        sessions, narrowed = " AND p.session_id = ANY(%s)", [sorted(within.sessions)]
    score, lateral, read = question.scored("p")
    phrases, held = question.phrase_conditions("p", "messages")
    condition = f"p.words @@ %s::tsquery{phrases} AND p.type = ANY(%s){sessions} AND {_HIDDEN}"
    parts = [pool_part(condition, [keyword, *held, types, *narrowed], after, before, start, limit)
             for keyword, start in zip(question.pooled(), since, strict=True)]
    sql = _MESSAGES.format(pool=" UNION ".join(part for part, _ in parts), score=score, lateral=lateral, current=CURRENT)
    return sql, [*(value for _, values in parts for value in values), *read, limit, *read, literal]


def scored_messages(question: Question, ids: list[str]) -> tuple[str, list[object]]:
    """The statement scoring these messages (their ids and scores), as the keyword statement scores its pool."""
    score, lateral, read = question.scored("p")
    return f"SELECT p.id, {score} FROM messages p {lateral} WHERE p.tenant = {CURRENT} AND p.id = ANY(%s)", [*read, ids]


_SESSIONS = """WITH pool AS MATERIALIZED ({pool}),
    best AS (SELECT p.id, {score} AS score, p.updated_at FROM pool JOIN sessions p ON p.tenant = {current} AND p.id = pool.id
        {lateral} ORDER BY score DESC, p.updated_at DESC LIMIT %s),
    literal AS (SELECT p.id, {score} AS score, p.updated_at FROM sessions p {lateral}
        WHERE p.tenant = {current} AND p.id = ANY(%s))
    SELECT s.id, s.title, s.message_count, s.last_message_preview, s.created_at, s.updated_at, c.score
    FROM (SELECT * FROM best UNION SELECT * FROM literal) c JOIN sessions s ON s.tenant = {current} AND s.id = c.id"""


def ranked_sessions(question: Question, after: int, before: int, within: Within | None, limit: int,
                    literal: list[str]) -> tuple[str, list[object]]:
    sessions, narrowed = "", list[object]()
    if within is not None and within.sessions is not None:
        sessions, narrowed = " AND p.id = ANY(%s)", [sorted(within.sessions)]
    score, lateral, read = question.scored("p")
    phrases, held = question.phrase_conditions("p", "sessions")
    part = (f"(SELECT p.id FROM sessions p WHERE p.title_words @@ %s::tsquery"
            f"{phrases} AND p.updated_at BETWEEN %s AND %s AND p.deleted_at IS NULL{sessions} "
            f"ORDER BY p.updated_at DESC LIMIT {pool_size(limit)})")
    keywords = question.pooled()
    pooled = [value for keyword in keywords for value in (keyword, *held, after, before, *narrowed)]
    sql = _SESSIONS.format(pool=" UNION ".join([part] * len(keywords)), score=score, lateral=lateral, current=CURRENT)
    return sql, [*pooled, *read, limit, *read, literal]
