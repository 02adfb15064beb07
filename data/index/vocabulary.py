"""KeywordVocabulary: how many messages and sessions hold a term, and which words lie one edit away,
read from the keyword index (Q-08).

Feeds the typo fallback (domain/spelling.py): a spelling counts as known when some message or
session holds it, as the index's analyzer stems it; close spellings are found with tantivy's
fuzzy term queries, which match index terms (stems), so the words themselves are read from a
few of the rows they match.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import tantivy

from oneclaw_search.data.index.analyzer import stem
from oneclaw_search.data.index.keyword_index import unsigned_values
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES, ROWID, SESSIONS, IndexKind
from oneclaw_search.domain.spelling import one_edit_away
from oneclaw_search.domain.text import fold

SAMPLE_ROWS = 32  # rows read per source for the words a fuzzy match stands for
Texts = Callable[[list[int]], list[str]]  # history rowids → the rows' texts
_WORD = re.compile(r"\w+")


class KeywordVocabulary:
    def __init__(self, lookup: KeywordLookup, message_texts: Texts, session_texts: Texts) -> None:
        self._lookup = lookup
        self._texts = {MESSAGES.name: message_texts, SESSIONS.name: session_texts}

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
                totals[term] += searcher.doc_freq(kind.own or kind.main_field, term)
        return totals

    def frequency(self, term: str) -> int:
        return self.frequencies([term])[term]

    def spellings_near(self, word: str) -> set[str]:
        if not self._lookup.state_now.usable:
            return set()
        root = stem(word)
        words, roots = one_edit_away(word), one_edit_away(root)
        near: set[str] = set()
        for kind in (MESSAGES, SESSIONS):
            for text in self._texts[kind.name](self._fuzzy_rowids(kind, root)):
                near |= {found for found in _WORD.findall(fold(text)) if found in words or stem(found) in roots}
        return near

    def _fuzzy_rowids(self, kind: IndexKind, root: str) -> list[int]:
        fields = [kind.own] if kind.own else [field for field, _ in kind.fields]
        query = tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.fuzzy_term_query(kind.schema, field, root))
                                             for field in fields])
        searcher = self._lookup.keyword.searcher(kind)
        hits = searcher.search(query, SAMPLE_ROWS, count=False).hits
        return unsigned_values(searcher, ROWID, [address for _, address in hits])
