"""KeywordVocabulary: how many messages and sessions hold a term, read from the keyword index.

Feeds the typo fallback (domain/spelling.py): a spelling counts as known when some message or
session holds it, as the index's analyzer stems it.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.index.analyzer import stem
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS


class KeywordVocabulary:
    def __init__(self, lookup: KeywordLookup) -> None:
        self._lookup = lookup

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
