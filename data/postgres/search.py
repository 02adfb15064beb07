"""Message and session search on the PostgreSQL server (the MessageSearch and SessionSearch ports,
AC-07, AC-08, Q-01, Q-02): the same ranking model as the SQLite backend, computed by the server.

Each source asks three things: its statistics for the query's terms (kept by the server as rows are
written, term_counts.py), the spec's literal reading through its DAO (LIKE of folded text, re-checked
with Unicode folding), and one ranked statement (ranked.py) that scores the rows holding a keyword by
BM25 over their stored windows and returns the best as the reply shows them. A session's statement
scores its literal rows too; a message search reads them beside its statement and scores those its
pool did not hold in one more. Python reads only those rows.
"""
from __future__ import annotations

from oneclaw_search.data.postgres.daos import PostgresSessionDao
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.message_dao import PostgresMessageDao
from oneclaw_search.data.postgres.pools import pool_size, spans
from oneclaw_search.data.postgres.ranked import Question, ranked_messages, ranked_sessions, scored_messages
from oneclaw_search.data.postgres.readers import literal_readers
from oneclaw_search.data.postgres.term_counts import MESSAGES, SESSIONS, TURNS, collections
from oneclaw_search.data.postgres.windows import tenant_mark
from oneclaw_search.data.text.keywords import clause_terms, clauses
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import session_text
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit, ScoredMessage, ScoredSession, SessionHit
from oneclaw_search.domain.text_evidence import evidence
from oneclaw_search.domain.window_bm25 import NOTHING_KNOWN, Statistics

RETRIEVERS = ("keyword (BM25F over stored windows, PostgreSQL)", "phrase (pg_trgm)")


# What each source's rows are scored on: its counts column, its length column, and the kind of counts kept of it.
_FIELDS = {MESSAGES: (("window_tf", "window_length", MESSAGES), ("own_tf", "own_length", TURNS)),
           SESSIONS: (("title_tf", "title_length", SESSIONS),)}


def _question(history: PostgresHistory, kind: str, query: HistoryQuery, deadline: Deadline | None,
              ) -> tuple[Question | None, Statistics]:
    """The query's keywords and their weights among the tenant's rows of `kind` (a message's window and
    own words, a session's title); no question when the query has no keyword (its stopwords alone,
    punctuation)."""
    found = clauses(query.raw)
    terms = clause_terms(found)
    if not found:
        return None, Statistics(NOTHING_KNOWN)
    made = collections(history, [counted for _, _, counted in _FIELDS[kind]], terms, deadline)
    fields = [(counts, length, kept) for (counts, length, _), kept in zip(_FIELDS[kind], made, strict=True)]
    known = Statistics(fields[0][2], fields[1][2] if len(fields) > 1 else None)
    return Question(query, found, terms, fields, tenant_mark(history.tenant)), known


def _coverage(score: float, known: Statistics) -> float:
    return score / known.ideal if known.ideal > 0 else 0.0


class PostgresMessageSearch:
    retrievers = RETRIEVERS

    def __init__(self, history: PostgresHistory, dao: PostgresMessageDao) -> None:
        self._history = history
        self._dao = dao

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredMessage]:
        """The literal reading runs beside the keyword statement, on a connection of its own: the two wait
        on the server apart, and the literal rows the keyword pool did not score are scored after."""
        reading = literal_readers().submit(self._dao.search_content, query.raw, after, before, limit,
                                           deadline=deadline, within=within)
        question, weights = _question(self._history, MESSAGES, query, deadline)
        ranked: dict[str, tuple[MessageHit, float]] = {}
        if question is not None and limit > 0:
            sql, params = ranked_messages(question, after, before, within, limit, [],
                                          self._since(question, after, before, limit, within, deadline))
            ranked = {row[0]: (MessageHit(*row[:6]), row[6]) for row in self._history.rows(sql, params, deadline)}
        scored: dict[str, tuple[MessageHit, float]] = {hit.id: (hit, 0.0) for hit in reading.result()}
        unscored = [key for key in scored if key not in ranked]
        if question is not None and limit > 0 and unscored:
            sql, params = scored_messages(question, unscored)
            scored.update((key, (scored[key][0], score)) for key, score in self._history.rows(sql, params, deadline))
        scored.update(ranked)
        kept = [(hit, score) for hit, score in scored.values() if query.admits(hit.content)]
        found = evidence(query, [hit.content for hit, _ in kept], [_coverage(score, weights) for _, score in kept],
                         [True] * len(kept), every=False)  # a message is never held to every term
        return [ScoredMessage(hit, item) for (hit, _), item in zip(kept, found, strict=True)]

    def _since(self, question: Question, after: int, before: int, limit: int, within: Within | None,
               deadline: Deadline | None) -> list[int | None]:
        """Where each pooled keyword's newest rows are read from: spans only where the counts describe
        the rows searched (every turn type, every session)."""
        turns = question.fields[1][2]
        narrowed = Within.narrows(within)
        held = [None] * len(question.pooled()) if narrowed else question.pooled_held(turns)
        return spans(self._history, held, turns.rows, pool_size(limit), after, before, deadline)


class PostgresSessionSearch:
    retrievers = RETRIEVERS

    def __init__(self, history: PostgresHistory, dao: PostgresSessionDao) -> None:
        self._history = history
        self._dao = dao

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredSession]:
        literal = self._dao.search_by_title_or_preview(query.raw, after, before, limit, deadline=deadline, within=within)
        question, weights = _question(self._history, SESSIONS, query, deadline)
        scored: dict[str, tuple[SessionHit, float]] = {hit.id: (hit, 0.0) for hit in literal}
        if question is not None and limit > 0:
            sql, params = ranked_sessions(question, after, before, within, limit, list(scored))
            scored.update((row[0], (SessionHit(*row[:6]), row[6])) for row in self._history.rows(sql, params, deadline))
        # A session's words are its title's: its preview is its last message, found as a message.
        kept = [(hit, score) for hit, score in scored.values() if query.admits(session_text(hit))]
        found = evidence(query, [session_text(hit) for hit, _ in kept], [_coverage(score, weights) for _, score in kept],
                         [True] * len(kept), [hit.title for hit, _ in kept])
        return [ScoredSession(hit, item) for (hit, _), item in zip(kept, found, strict=True)]
