"""Message and session search on the keyword index: the domain's MessageSearch and SessionSearch ports
(AC-07, AC-08, Q-01..Q-04).

One straight path: one ranked question to tantivy, which computes the ranking model itself (BM25 over
each message's window, each session's title) and names the best rows; the rows the index has not
taken in read directly; one read of the rows found, which the history decides are live; then the
spec's literal reading through the DAO (narrowed by trigram candidates), only where its rows could
still be missing (literal_rows.py). Python reads only those rows' texts, and scores itself only the few the
index does not hold as they are (row_evidence.py).
"""
from __future__ import annotations

from functools import partial

from oneclaw_search.data.history.literal_index import Unindexed
from oneclaw_search.data.history.message_dao import PeeweeMessageDao, RowHit
from oneclaw_search.data.history.session_dao import PeeweeSessionDao, SessionRowHit
from oneclaw_search.data.index.documents import fingerprint
from oneclaw_search.data.index.index_state import IndexState
from oneclaw_search.data.index.keyword_search import Ranked, ranked_rowids
from oneclaw_search.data.index.literal_rows import scored_rows
from oneclaw_search.data.index.lookup import EDITED_READS, KeywordLookup
from oneclaw_search.data.index.row_evidence import Scoring, row_evidence
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS, IndexKind
from oneclaw_search.data.index.unindexed_rows import NO_ROWID_ABOVE, PAGE_ROWS, Unread
from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import session_text
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import ScoredMessage, ScoredSession
from oneclaw_search.domain.window_bm25 import TITLE_ONLY, Collection, Statistics, WindowLayout

Window = tuple[int, int]  # created after, before
INDEXED_RETRIEVERS = ("keyword (BM25F, tantivy)", "phrase (trigram candidates)")
SCANNED_RETRIEVERS = ("keyword (BM25F over the newest rows read directly: no usable index)", "phrase (LIKE scan)")


class _OnTheIndex:
    """What message and session search share: the lookup, what ran, and tantivy's ranked rows."""

    def __init__(self, lookup: KeywordLookup) -> None:
        self._lookup = lookup

    @property
    def retrievers(self) -> tuple[str, ...]:
        """What the latest search ran: the index, or keyword and phrase scans when the index could not serve."""
        return INDEXED_RETRIEVERS if self._lookup.state_now.usable else SCANNED_RETRIEVERS

    def _ranked(self, kind: IndexKind, state: IndexState, terms: QueryTerms, query: HistoryQuery, window: Window,
                limit: int, within: Within | None, hidden: list[str]) -> Ranked:
        """tantivy's best rows and its statistics; none while the index cannot be read."""
        if not state.usable:
            nothing = Collection(0, 0.0, dict.fromkeys(terms.terms, 0))
            return Ranked({}, {}, lambda: Statistics(nothing, nothing))
        return ranked_rowids(self._lookup.keyword, kind, query, window, limit, within, hidden)

    def _scoring(self, kind: IndexKind, ranked: Ranked, rows: list[tuple[int, str]], unread: Unread, state: IndexState,
                 query: HistoryQuery) -> Scoring:
        """The engine's scores of the rows it holds as they are (asked again for rows it holds but did
        not rank among its best: whole-query rows of the literal reading), and what the rest are scored with."""
        scores, prints = dict(ranked.scores), dict(ranked.fingerprints)
        unread_rows = set(unread.rowids)
        indexed_up_to = state.read if kind is MESSAGES else NO_ROWID_ABOVE
        asked = [rowid for rowid, _ in rows if rowid not in scores and rowid not in unread_rows and rowid <= indexed_up_to]
        if asked and state.usable:
            more = ranked_rowids(self._lookup.keyword, kind, query, (0, 0), len(asked), among=asked)
            scores.update(more.scores)
            prints.update(more.fingerprints)
        # Rows read directly (the index may not hold them, or their neighbours, as they are now) and rows
        # edited since they were indexed are scored here, on the history as it is.
        stale = self._stale(kind, rows, prints) | unread_rows
        engine = {rowid: score for rowid, score in scores.items() if rowid not in stale}
        layout = self._layout(kind)
        return Scoring(engine, lambda: unread.joined(ranked.statistics(), layout), layout)

    def _layout(self, kind: IndexKind) -> WindowLayout:
        """What a row of this kind is ranked on: a message on its window, a session on its own text."""
        return self._lookup.keyword.layout if kind is MESSAGES else TITLE_ONLY

    def _stale(self, kind: IndexKind, rows: list[tuple[int, str]], prints: dict[int, int]) -> set[int]:
        """Rows whose text changed since they were indexed: scored on their text now; the index takes
        in their new words at its next catch-up."""
        if kind is not MESSAGES:
            return set()  # a session whose title changed is compared whole at the next catch-up
        stale = {rowid for rowid, text in rows if rowid in prints and fingerprint(text) != prints[rowid]}
        if stale:
            self._lookup.reindex(sorted(stale))
        return stale


class IndexedMessageSearch(_OnTheIndex):
    def __init__(self, lookup: KeywordLookup, dao: PeeweeMessageDao, sessions: PeeweeSessionDao) -> None:
        super().__init__(lookup)
        self._dao = dao
        self._sessions = sessions

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredMessage]:
        state = self._lookup.state(deadline)
        terms = QueryTerms(query)
        hidden = self._sessions.hidden(deadline) if state.usable else []
        ranked = self._ranked(MESSAGES, state, terms, query, (after, before), limit, within, hidden)
        unread = self._unread(state, terms, deadline)
        others = self._dao.hits([*ranked.scores, *unread.rowids], after, before, within, deadline)
        found = scored_rows(query, ranked, others, limit, lambda hit: hit.content, lambda: [
            (hit.rowid, hit) for hit in self._dao.search_content(query.raw, after, before, limit, deadline=deadline,
                                                                 within=within) if isinstance(hit, RowHit)])
        rows = [(rowid, hit.content) for rowid, hit in found]
        layout = self._layout(MESSAGES)
        scoring = self._scoring(MESSAGES, ranked, rows, unread, state, query)
        by_rowid = dict(found)
        read = partial(self._dao.windows, deadline=deadline)
        evidence = row_evidence(query, terms, rows, scoring, lambda rowids: read([(rowid, by_rowid[rowid]) for rowid in rowids],
                                                                                   layout.reach))
        return [ScoredMessage(hit, item) for (_, hit), item in zip(found, evidence, strict=True)]

    def _unread(self, state: IndexState, terms: QueryTerms, deadline: Deadline | None) -> Unread:
        """Messages the index may not hold as they are now: the newest it has not taken in (every row
        when it cannot be read) and, while the history changed since the index last caught up, its
        newest turns."""
        if state.settled or not terms.terms:
            return Unread()
        floor = state.read if state.usable else 0
        below = [NO_ROWID_ABOVE]

        def page(_: int) -> list[tuple[int, str]]:
            rows = self._dao.turns_between(floor, below[0], PAGE_ROWS, deadline)
            below[0] = rows[-1][0] if rows else below[0]
            return rows
        unread = Unread().read_newest(page, terms, floor, self._lookup.read_seconds, deadline)
        self._lookup.reached(deadline, unread.rows, unread.whole)
        return unread.read(self._dao.turns_between(0, floor + 1, EDITED_READS, deadline), terms, floor) if floor else unread


class IndexedSessionSearch(_OnTheIndex):
    def __init__(self, lookup: KeywordLookup, dao: PeeweeSessionDao) -> None:
        super().__init__(lookup)
        self._dao = dao

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredSession]:
        state = self._lookup.state(deadline)
        terms = QueryTerms(query)
        hidden = self._dao.hidden(deadline) if state.usable else []
        ranked = self._ranked(SESSIONS, state, terms, query, (after, before), limit, within, hidden)
        changed = state.sessions if state.usable else Unindexed(0)
        unread = Unread()
        if changed is not None and terms.terms:
            unread.read_newest(lambda number: self._dao.unindexed(changed, PAGE_ROWS, number * PAGE_ROWS, deadline), terms,
                               changed.rowid, self._lookup.read_seconds, deadline)
            self._lookup.reached(deadline, None, unread.whole)
        others = self._dao.hits([*ranked.scores, *unread.rowids], after, before, within, deadline)
        found = scored_rows(query, ranked, others, limit, session_text, lambda: [
            (hit.rowid, hit) for hit in self._dao.search_by_title_or_preview(query.raw, after, before, limit, deadline=deadline,
                                                                             within=within) if isinstance(hit, SessionRowHit)])
        # A session's words are its title's (documents.py): its title is its window, and it has no neighbours;
        # the whole query is looked for in its title and preview, as the spec's LIKE looks.
        rows = [(rowid, session_text(hit)) for rowid, hit in found]
        scoring = self._scoring(SESSIONS, ranked, rows, unread, state, query)
        evidence = row_evidence(query, terms, rows, scoring, lambda rowids: [([], []) for _ in rowids],
                                [hit.title for _, hit in found], every=True)
        return [ScoredSession(hit, item) for (_, hit), item in zip(found, evidence, strict=True)]
