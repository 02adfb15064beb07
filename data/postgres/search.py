"""Message and session search on the server (the MessageSearch and SessionSearch ports), scored by the
same ranking model as the SQLite backend (domain/relevance.py), computed here in Python.

The spec's literal reading comes from the DAOs (LIKE of folded text over pg_trgm, re-checked with Unicode
folding). Keyword candidates are rows whose tsvector holds a query term (GIN), the rarest terms
counting most, read with the turns just before and after them; each row's window is then counted from
its texts by the keyword index's own analyzer and scored as the index scores it. The server keeps
statistics of rows' own words only: a window's are taken as its own words' (its average length as
often as a window holds texts), an approximation the SQLite index does not need.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oneclaw_search.data.postgres.daos import (
    MESSAGE_COLUMNS,
    SESSION_COLUMNS,
    SESSION_OF_EACH,
    TURN_TYPES,
    PostgresMessageDao,
    PostgresSessionDao,
    message_conditions,
)
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.word_weights import WordWeights, candidate_pool, tsquery
from oneclaw_search.data.text.keywords import QueryTerms, clauses
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import session_text
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit, ScoredMessage, ScoredSession, SessionHit
from oneclaw_search.domain.text_evidence import evidence
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, TITLE_ONLY, Collection, Window, WindowLayout, window_coverage

RETRIEVERS = ("keyword (BM25F, PostgreSQL full-text)", "phrase (pg_trgm)")
# Candidates per result a source ranks here: the model re-ranks the server's pool with the turns
# around each row, which lifts some from below the first few.
CANDIDATES_PER_RESULT = 4


def windows_of(collection: Collection, layout: WindowLayout) -> Collection:
    """Statistics of rows' own words read as their windows'."""
    weight = layout.own + sum(layout.before) + sum(layout.after)
    return Collection(collection.rows, collection.average_length * weight, collection.holding)
# The turn just before and just after, in the order written (time, then the row's sequence).
_BESIDE = """LEFT JOIN LATERAL (SELECT n.content FROM messages n WHERE n.tenant = m.tenant AND n.session_id = m.session_id
    AND n.type = ANY(%s) AND (n.created_at, n.seq) {side} (m.created_at, m.seq) ORDER BY n.created_at {order}, n.seq {order}
    LIMIT 1) {name} ON true"""
_AROUND = f"{_BESIDE.format(side='<', order='DESC', name='b')} {_BESIDE.format(side='>', order='ASC', name='a')}"


class PostgresMessageSearch:
    retrievers = RETRIEVERS

    def __init__(self, history: PostgresHistory, dao: PostgresMessageDao, layout: WindowLayout = DEFAULT_WINDOW) -> None:
        self._history = history
        self._dao = dao
        self._layout = layout
        self._weights = WordWeights(history, "messages", "content_tsv", "content")

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredMessage]:
        literal = self._dao.search_content(query.raw, after, before, limit, deadline=deadline, within=within)
        terms = QueryTerms(query)
        collection = self._weights.collection(terms.terms, deadline)
        ids = self._keyword_ids(query, collection, after, before, limit * CANDIDATES_PER_RESULT, within, deadline)
        rows = self._read([*ids, *(hit.id for hit in literal if hit.id not in ids)], after, before, within, deadline)
        rows = [row for row in rows if query.admits(row[4])]
        bags = iter(terms.bags([text for row in rows for text in (row[4], row[6], row[7])]))
        windows = windows_of(collection, self._layout)
        made = [(Window(own, (earlier,), (later,)), terms.holds(row[4], own)) for row, own, earlier, later in
                zip(rows, bags, bags, bags, strict=False)]
        found = evidence(query, [row[4] for row in rows], [window_coverage(window, windows, self._layout) for window, _ in made],
                         [held for _, held in made])
        return [ScoredMessage(MessageHit(*row[:6]), item) for row, item in zip(rows, found, strict=True)]

    def _keyword_ids(self, query: HistoryQuery, collection: Collection, after: int, before: int, limit: int,
                     within: Within | None, deadline: Deadline | None) -> list[str]:
        """The `limit` rows holding the most of the query's weight (each term by its idf), newest first
        among equals, from a pool of the newest rows holding each of its keywords."""
        found = clauses(query.raw)
        if not found or limit <= 0:
            return []
        matches = [tsquery(clause) for clause in found]
        weights = [sum(collection.idf(term) for term in clause) for clause in found]
        pool, params = candidate_pool("messages", "content_tsv", matches, weights, after, before, within, limit)
        rows = self._history.rows(f"SELECT id FROM ({pool}) pool ORDER BY score DESC, created_at DESC, id LIMIT %s",
                                  [*params, limit], deadline)
        return [row[0] for row in rows]

    def _read(self, ids: Sequence[str], after: int, before: int, within: Within | None,
              deadline: Deadline | None) -> list[tuple[Any, ...]]:
        """The live messages among `ids` in the window, each with the turns just before and after it."""
        if not ids:
            return []
        narrowed, params = message_conditions(within)
        return self._history.rows(
            f"SELECT {MESSAGE_COLUMNS}, b.content, a.content FROM messages m "
            f"{SESSION_OF_EACH} {_AROUND} "
            f"WHERE m.id = ANY(%s) AND m.created_at BETWEEN %s AND %s{narrowed}",
            [TURN_TYPES, TURN_TYPES, list(ids), after, before, *params], deadline)

class PostgresSessionSearch:
    retrievers = RETRIEVERS

    def __init__(self, history: PostgresHistory, dao: PostgresSessionDao) -> None:
        self._history = history
        self._dao = dao
        self._weights = WordWeights(history, "sessions", "search_tsv", "title", weight="A")

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredSession]:
        literal = self._dao.search_by_title_or_preview(query.raw, after, before, limit, deadline=deadline, within=within)
        terms = QueryTerms(query)
        collection = self._weights.collection(terms.terms, deadline)
        hits = {hit.id: hit for hit in self._keyword_hits(query, collection, after, before, limit * CANDIDATES_PER_RESULT,
                                                          within, deadline)}
        hits.update((hit.id, hit) for hit in literal)
        # A session's words are its title's: its preview is its last message, found as a message.
        kept = [hit for hit in hits.values() if query.admits(session_text(hit))]
        owns = [terms.bag(hit.title) for hit in kept]
        found = evidence(query, [session_text(hit) for hit in kept], [window_coverage(Window(own), collection, TITLE_ONLY)
                                                                      for own in owns],
                         [terms.holds(hit.title, own) for hit, own in zip(kept, owns, strict=True)], [hit.title for hit in kept])
        return [ScoredSession(hit, item) for hit, item in zip(kept, found, strict=True)]

    def _keyword_hits(self, query: HistoryQuery, collection: Collection, after: int, before: int, limit: int,
                      within: Within | None, deadline: Deadline | None) -> list[SessionHit]:
        found = clauses(query.raw)
        if not found or limit <= 0:
            return []
        narrowed, params = "", list[object]()
        if within is not None and within.sessions is not None:
            narrowed, params = " AND s.id = ANY(%s)", [sorted(within.sessions)]
        titled = [tsquery(clause, "A") for clause in found]
        weights = [sum(collection.idf(term) for term in clause) for clause in found]
        held = " + ".join(["%s * (s.search_tsv @@ %s::tsquery)::int"] * len(found))
        rows = self._history.rows(
            f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.search_tsv @@ %s::tsquery AND s.deleted_at IS NULL "
            f"AND s.updated_at BETWEEN %s AND %s{narrowed} ORDER BY ({held}) DESC, s.updated_at DESC, s.id LIMIT %s",
            [" | ".join(f"({match})" for match in titled), after, before, *params,
             *(v for pair in zip(weights, titled, strict=True) for v in pair), limit], deadline)
        return [SessionHit(*row) for row in rows]
