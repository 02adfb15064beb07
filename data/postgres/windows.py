"""Each turn's window as the server keeps it (Q-01, Q-11): the keyword index's analyzer counts a
turn's own words once, and the writer stores its window (its own counts and its neighbours', as the
ranking model's layout weighs them) as term counts and a length, for BM25 computed in SQL.

A turn's own words also go in as a tsvector with positions, so the server's GIN index answers "holds
this keyword" (a phrase of a typed identifier's parts included) as tantivy's words field does; its
lexemes carry the tenant's mark.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from oneclaw_search.data.text.analyzer import text_terms
from oneclaw_search.domain.window_bm25 import Bag, Window, WindowLayout

# A tsvector holds at most 1 MB: a turn's words past this many characters are found by the literal
# reading only, and still count in its window (whose counts are its whole text's).
WORDS_CHARS = 200_000


def tenant_mark(tenant: str) -> str:
    """What every lexeme of a tenant's tsvectors starts with: the GIN indexes hold all tenants' rows, and
    a posting list of one tenant's words costs a search nothing for the others' (two tenants sharing a
    mark only share postings; the tenant's policy still decides every row)."""
    return hashlib.blake2b(tenant.encode(), digest_size=2).hexdigest() + ":"


@dataclass(frozen=True, slots=True)
class OwnWords:
    """A text's terms as the keyword index counts them (its window is made from the counts)."""

    text: str
    terms: list[str]
    counts: Counter[str]

    @property
    def length(self) -> int:
        return len(self.terms)

    @property
    def bag(self) -> Bag:
        return Bag(self.counts, len(self.terms))

    def tsvector(self, mark: str) -> str:
        """Its first WORDS_CHARS characters' terms as a tsvector literal, each lexeme marked as its tenant's."""
        shown = self.terms if len(self.text) <= WORDS_CHARS else text_terms(self.text[:WORDS_CHARS])
        return tsvector_literal(shown, mark)


def own_words(text: str) -> OwnWords:
    terms = text_terms(text)
    return OwnWords(text, terms, Counter(terms))


def tsvector_literal(terms: Sequence[str], mark: str) -> str:
    """Terms in order as PostgreSQL's tsvector input reads them, each behind `mark` and with its
    positions (the server keeps a lexeme's first 256 and places any past 16,383 there)."""
    places: dict[str, list[int]] = {}
    for at, term in enumerate(terms, start=1):
        places.setdefault(term, []).append(at)
    return " ".join(f"{_lexeme(mark, term)}:{','.join(map(str, at))}" for term, at in places.items())


@lru_cache(maxsize=65_536)
def _lexeme(mark: str, term: str) -> str:
    """A marked term quoted, once per term: a history's terms repeat from row to row."""
    return quoted(mark + term)


def quoted(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass(frozen=True, slots=True)
class WindowCounts:
    """A window as the server stores it: its term counts (jsonb text) and its length in terms."""

    counts: str
    length: int


def window_of(chain: Sequence[OwnWords], at: int, layout: WindowLayout) -> WindowCounts:
    """The window of `chain[at]` (a session's turns in the order written), weighed as the ranking
    model's Window weighs it."""
    before = tuple(chain[place].bag for place in range(at - 1, max(at - 1 - len(layout.before), -1), -1))
    after = tuple(chain[place].bag for place in range(at + 1, min(at + 1 + len(layout.after), len(chain))))
    weighed = Window(chain[at].bag, before, after).weighed(layout)
    times, own = weighed[0]
    counts = {term: times * count for term, count in own.counts.items()}
    for times, bag in weighed[1:]:
        for term, count in bag.counts.items():
            counts[term] = counts.get(term, 0) + times * count
    return WindowCounts(json.dumps(counts, ensure_ascii=False, separators=(",", ":")),
                        sum(times * bag.length for times, bag in weighed))


def title_window(words: OwnWords) -> WindowCounts:
    """A text's own words counted once: a session's title, which ranks it, and a turn's own words,
    scored beside its window."""
    return WindowCounts(json.dumps(words.counts, ensure_ascii=False, separators=(",", ":")), words.length)
