"""HistoryQuery: what one search looks for, read once from the agent's query string.

The whole query is kept as the spec's literal phrase (FEAT-032's LIKE '%query%'), beside the
keyword terms (Q-01) and any "quoted phrases" that must appear as written (Q-03).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from oneclaw_search.domain.search_terms import Stem, index_terms, query_compounds, unchanged
from oneclaw_search.domain.text import fold

_QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    """`literal`: the folded query as a whole; `phrases`: folded quoted parts; `terms`: loose index
    terms; `compounds`: term sequences typed as one unit (paths, dotted keys); `stem`: how terms
    were made from words, for texts to be compared with them."""

    raw: str
    literal: str
    phrases: tuple[str, ...]
    terms: tuple[str, ...]
    compounds: tuple[tuple[str, ...], ...] = ()
    stem: Stem = field(default=unchanged, compare=False)

    @property
    def all_terms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*self.terms, *(part for parts in self.compounds for part in parts)]))

    @classmethod
    def parse(cls, raw: str, stem: Stem = unchanged) -> HistoryQuery:
        phrases = tuple(dict.fromkeys(fold(p.strip()) for p in _QUOTED.findall(raw) if p.strip()))
        terms, compounds = query_compounds(raw, stem)
        return cls(raw, fold(raw), phrases, tuple(terms), tuple(compounds), stem)

    def has_compound(self, text: str) -> bool:
        """Whether `text` holds one of the compounds' terms side by side, in order."""
        terms = index_terms(text, self.stem)
        return any(
            list(parts) == terms[i:i + len(parts)] for parts in self.compounds for i in range(len(terms) - len(parts) + 1)
        )

    def admits(self, text: str) -> bool:
        """Whether `text` holds every quoted phrase (texts always pass when nothing is quoted)."""
        if not self.phrases:
            return True
        folded = fold(text)
        return all(phrase in folded for phrase in self.phrases)
