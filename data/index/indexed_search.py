"""Message and session search on the keyword index: the domain's MessageSearch and SessionSearch ports
(AC-07, AC-08, Q-01..Q-04).

One straight path: the spec's literal reading through the DAO (narrowed by trigram candidates), the
best rows by BM25 from tantivy, the rows the index has not taken in read directly, then one read of
every candidate with the turns beside it, whose texts give the ranking model its evidence. The history
decides what is live; evidence is always counted from the rows' current text. The rows the index lacks
(all of them when it cannot be read or written) are read for keywords newest first, for as long as the
budget allows, and the lookup is told how far the read reached.
"""
from __future__ import annotations

from oneclaw_search.data.history.literal_index import Unindexed
from oneclaw_search.data.history.message_dao import CandidateTurn, PeeweeMessageDao
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.documents import fingerprint
from oneclaw_search.data.index.index_state import IndexState
from oneclaw_search.data.index.keyword_search import keyword_rowids
from oneclaw_search.data.index.lookup import EDITED_READS, KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS, IndexKind
from oneclaw_search.data.index.unindexed_rows import NO_ROWID_ABOVE, PAGE_ROWS, Unread
from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import session_text
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import ScoredMessage, ScoredSession
from oneclaw_search.domain.relevance import CANDIDATES_PER_RESULT, Collection
from oneclaw_search.domain.text_evidence import evidence_of

Window = tuple[int, int]  # created after, before
INDEXED_RETRIEVERS = ("keyword (BM25F, tantivy)", "phrase (trigram candidates)")
SCANNED_RETRIEVERS = ("keyword (BM25F over the newest rows read directly: no usable index)", "phrase (LIKE scan)")


class _OnTheIndex:
    """What message and session search share: the lookup, what ran, and tantivy's best candidates."""

    def __init__(self, lookup: KeywordLookup) -> None:
        self._lookup = lookup

    @property
    def retrievers(self) -> tuple[str, ...]:
        """What the latest search ran: the index, or keyword and phrase scans when the index could not serve."""
        return INDEXED_RETRIEVERS if self._lookup.state_now.usable else SCANNED_RETRIEVERS

    def _candidates(self, kind: IndexKind, state: IndexState, terms: QueryTerms, query: HistoryQuery, window: Window,
                    limit: int, within: Within | None) -> tuple[dict[int, int], Collection]:
        """tantivy's best rows (rowid -> fingerprint) and its statistics; none while the index cannot be read."""
        if not state.usable:
            return {}, Collection(0, 0.0, dict.fromkeys(terms.terms, 0))
        return keyword_rowids(self._lookup.keyword, kind, query, *window, limit * CANDIDATES_PER_RESULT, within)


class IndexedMessageSearch(_OnTheIndex):
    def __init__(self, lookup: KeywordLookup, dao: PeeweeMessageDao) -> None:
        super().__init__(lookup)
        self._dao = dao

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredMessage]:
        state = self._lookup.state(deadline)
        literal = self._dao.search_content(query.raw, after, before, limit, deadline=deadline, within=within)
        terms = QueryTerms(query)
        indexed, found = self._candidates(MESSAGES, state, terms, query, (after, before), limit, within)
        unread = self._unread(state, terms, deadline)
        rows = [row for row in self._dao.candidates([*indexed, *unread.rowids], [hit.id for hit in literal], after, before,
                                                    within, deadline) if query.admits(row.hit.content)]
        self._note_edited(rows, indexed)
        bags = iter(terms.bags([text for row in rows for text in (row.hit.content, row.before, row.after)]))
        collection = unread.joined(found)
        return [ScoredMessage(row.hit, evidence_of(query, row.hit.content, own, collection, before, after))
                for row, own, before, after in zip(rows, bags, bags, bags, strict=False)]

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

    def _note_edited(self, rows: list[CandidateTurn], indexed: dict[int, int]) -> None:
        """Rows whose text changed since they were indexed are scored on their text now; the index
        takes in their new words at its next catch-up."""
        stale = [row.rowid for row in rows if row.rowid in indexed and fingerprint(row.hit.content) != indexed[row.rowid]]
        if stale:
            self._lookup.reindex(stale)


class IndexedSessionSearch(_OnTheIndex):
    def __init__(self, lookup: KeywordLookup, dao: PeeweeSessionDao) -> None:
        super().__init__(lookup)
        self._dao = dao

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[ScoredSession]:
        state = self._lookup.state(deadline)
        literal = self._dao.search_by_title_or_preview(query.raw, after, before, limit, deadline=deadline, within=within)
        terms = QueryTerms(query)
        indexed, found = self._candidates(SESSIONS, state, terms, query, (after, before), limit, within)
        changed = state.sessions if state.usable else Unindexed(0)
        unread = Unread()
        if changed is not None and terms.terms:
            unread.read_newest(lambda number: self._dao.unindexed(changed, PAGE_ROWS, number * PAGE_ROWS, deadline), terms,
                               changed.rowid, self._lookup.read_seconds, deadline)
            self._lookup.reached(deadline, None, unread.whole)
        hits = [hit for hit in self._dao.candidates([*indexed, *unread.rowids], [hit.id for hit in literal], after, before,
                                                    within, deadline) if query.admits(session_text(hit))]
        owns = terms.bags([hit.title for hit in hits])  # a session's words are its title's (documents.py)
        collection = unread.joined(found)
        return [ScoredSession(hit, evidence_of(query, session_text(hit), own, collection)) for hit, own in zip(hits, owns, strict=True)]

