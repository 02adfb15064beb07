"""KeywordVocabulary: how many messages and sessions hold a term, and which words lie one edit away,
read from the keyword index (Q-08).

Feeds the typo fallback (domain/spelling.py): a spelling counts as known when some message or
session holds it, as the index's analyzer stems it; close spellings are found with tantivy's
fuzzy term queries, which match index terms (stems), so the words themselves are read from a
few of the rows they match. Rows the index has not taken in yet (those a search reads itself) are
read here too.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

import tantivy

from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.index_state import IndexState
from oneclaw_search.data.index.live_counts import alive_holding
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES, ROWID, SESSIONS, IndexKind, unsigned_values
from oneclaw_search.data.index.unindexed_rows import NO_ROWID_ABOVE
from oneclaw_search.data.text.analyzer import stem, text_terms
from oneclaw_search.domain.spelling import one_edit_away
from oneclaw_search.domain.text import fold

SAMPLE_ROWS = 32  # rows read per source for the words a fuzzy match stands for
# The newest rows the index has not taken in whose words count as known: a sample, as the typo retry
# needs the words of recent turns, not every row of a backlog.
UNINDEXED_SAMPLE = 5_000
Texts = Callable[[list[int]], list[str]]  # history rowids → the rows' texts
Unindexed = Callable[[IndexState], list[str]]  # the texts of the rows an index in this state has not taken in
_WORD = re.compile(r"\w+")


class KeywordVocabulary:
    def __init__(self, lookup: KeywordLookup, message_texts: Texts, session_texts: Texts,
                 unindexed: Unindexed = lambda state: []) -> None:
        self._lookup = lookup
        self._texts = {MESSAGES.name: message_texts, SESSIONS.name: session_texts}
        self._unindexed = unindexed
        self._read: tuple[IndexState, list[str], Counter[str]] | None = None

    def stem(self, word: str) -> str:
        return stem(word)

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """Read from the index as the search just left it (no catch-up: this runs per candidate)."""
        totals = dict.fromkeys(terms, 0)
        if not self._lookup.state_now.usable or not terms:
            return totals
        for kind in (MESSAGES, SESSIONS):
            searcher = self._lookup.keyword.searcher(kind)
            for term in totals:
                totals[term] += alive_holding(searcher, kind, kind.words, term)
        held = self._unread()[1]
        return {term: count + held[term] for term, count in totals.items()}

    def frequency(self, term: str) -> int:
        return self.frequencies([term])[term]

    def spellings_near(self, word: str) -> set[str]:
        if not self._lookup.state_now.usable:
            return set()
        root = stem(word)
        words, roots = one_edit_away(word), one_edit_away(root)
        near: set[str] = set()
        texts = [text for kind in (MESSAGES, SESSIONS) for text in self._texts[kind.name](self._fuzzy_rowids(kind, root))]
        for text in texts + self._unread()[0]:
            near |= {found for found in _WORD.findall(fold(text)) if found in words or stem(found) in roots}
        return near

    def _unread(self) -> tuple[list[str], Counter[str]]:
        """The texts of the rows the index has not taken in, and how many hold each term: read once
        for the index's state, as a respelled search asks several times."""
        state = self._lookup.state_now
        if self._read is None or self._read[0] != state:
            texts = [] if state.settled else self._unindexed(state)
            self._read = (state, texts, Counter(term for text in texts for term in set(text_terms(text))))
        return self._read[1], self._read[2]

    def _fuzzy_rowids(self, kind: IndexKind, root: str) -> list[int]:
        query = tantivy.Query.fuzzy_term_query(kind.schema, kind.words, root)
        searcher = self._lookup.keyword.searcher(kind)
        hits = searcher.search(query, SAMPLE_ROWS, count=False).hits
        return unsigned_values(searcher, ROWID, [address for _, address in hits])


def keyword_vocabulary(lookup: KeywordLookup, messages: PeeweeMessageDao, sessions: PeeweeSessionDao) -> KeywordVocabulary:
    """The vocabulary of the keyword index and of the rows it has not taken in, their texts read through the DAOs."""
    return KeywordVocabulary(lookup, messages.texts_by_rowid, sessions.texts_by_rowid, unindexed_texts(lookup, messages, sessions))


def unindexed_texts(lookup: KeywordLookup, messages: PeeweeMessageDao, sessions: PeeweeSessionDao) -> Unindexed:
    """The texts of the newest messages and sessions an index in a given state has not taken in: the
    rows a search reads itself."""
    def read(state: IndexState) -> list[str]:
        texts = [text for _, text in messages.turns_between(state.read, NO_ROWID_ABOVE, UNINDEXED_SAMPLE)] if state.read < state.top else []
        if state.sessions is not None:
            texts += [text for _, text in sessions.unindexed(state.sessions, UNINDEXED_SAMPLE)]
        return texts
    return read
