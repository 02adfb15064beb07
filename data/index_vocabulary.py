"""IndexVocabulary: how many rows use a term, read from the side index's postings.

Feeds the typo fallback (domain/spelling.py): a spelling counts as known when some message or
session holds it.
"""
from __future__ import annotations

from collections.abc import Sequence

import peewee as pw

from oneclaw_search.data.index_lookup import IndexLookup
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, fts_term


class IndexVocabulary:
    def __init__(self, lookup: IndexLookup) -> None:
        self._lookup = lookup

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        totals = dict.fromkeys(terms, 0)
        if not self._lookup.usable or not terms:
            return totals
        coded = {fts_term(term): term for term in terms}
        try:
            for kind in (MESSAGES, SESSIONS):
                for term, count in self._lookup.index.postings(kind).frequencies(list(coded)).items():
                    totals[coded[term]] += count
        except pw.OperationalError:  # no index built yet (only memory was searched)
            pass
        return totals

    def frequency(self, term: str) -> int:
        """Read from the index as the search just left it (no catch-up: this runs per candidate)."""
        return self.frequencies([term])[term]
