"""The side index's trigram questions: which rows may hold this text, or these quoted phrases.

Answers are history row ids inside a time window (or index rows); the caller re-reads those rows
from the history and re-checks them, so the index can narrow the search but never invent a hit.
"""
from __future__ import annotations

import re

import numpy as np

from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.postings_lookups import newest_with_terms
from oneclaw_search.data.index_docs import TRIGRAM, DocKind, trigrams
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import index_terms, is_cjk, plain

_WORD = re.compile(r"\w+")
MAX_TRIGRAMS = 6


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def trigram_match(index: SideIndex, kind: DocKind, texts: list[str]) -> str | None:
    """An FTS5 query for rows holding the rarest trigrams of the texts: a superset of the rows
    holding the texts (the index keeps no positions, to stay small), so callers re-check each row.
    Rare trigrams narrow as well as all of them and cost a fraction of the time. Rarity comes from
    the sampled counts, since FTS5's own vocabulary walks a trigram's whole list to count it."""
    grams = list(dict.fromkeys(gram for text in texts for gram in trigrams(text)))
    if len(grams) > MAX_TRIGRAMS:
        counts: dict[str, int] = {}
        for chunk in sql_batches(grams):
            counts.update(index.execute(f"SELECT term, n FROM {kind.table('gsample')} WHERE term IN ({marks(chunk)})", chunk))
        grams = sorted(grams, key=lambda gram: counts.get(gram, 0))[:MAX_TRIGRAMS]
    return " AND ".join(_quoted(gram) for gram in grams) or None


def phrase_rows(index: SideIndex, kind: DocKind, query: HistoryQuery) -> np.ndarray | None:
    """Rows that may hold every quoted phrase long enough for trigrams; None when nothing is quoted."""
    match = trigram_match(index, kind, [phrase for phrase in query.phrases if len(phrase) >= TRIGRAM])
    return None if match is None else _gram_rows(index, kind, match)


def _gram_rows(index: SideIndex, kind: DocKind, match: str) -> np.ndarray:
    """Every row (ascending) the trigram query matches."""
    grams = kind.table("grams")
    return np.fromiter((row[0] for row in index.execute(f"SELECT rowid FROM {grams} WHERE {grams} MATCH ?", [match])), dtype=np.int64)


def literal_hits(
    index: SideIndex, kind: DocKind, literal: str, after: int, before: int, limit: int
) -> list[str] | None:
    """Ids of up to `limit` recent rows that may contain the folded text `literal` (to be
    re-checked); None when it is too short to look up."""
    if len(literal) < TRIGRAM and is_cjk(literal):
        return _cjk_term_hits(index, kind, literal, after, before, limit)
    match = trigram_match(index, kind, [literal]) if len(literal) >= TRIGRAM else None
    if match is None:
        return None
    inner = interior_terms(literal)
    if inner:  # rows must also hold the literal's inner words: most trigram look-alikes do not
        candidates = _gram_rows(index, kind, match)
        return newest_with_terms(index, kind, inner, kind.gram_word_columns, after, before, limit, within=candidates)
    grams = kind.table("grams")
    rows = index.execute(
        f"SELECT d.id FROM {grams} JOIN {kind.table('docs')} d ON d.doc = {grams}.rowid"
        f" WHERE {grams} MATCH ? AND d.at BETWEEN ? AND ? ORDER BY {grams}.rowid DESC LIMIT ?",
        [match, after, before, limit],
    )
    return [row[0] for row in rows]


def interior_terms(literal: str) -> list[str]:
    """Index terms every row holding the ASCII text `literal` must hold: the whole-word terms of
    its words with a separator on both sides inside it. Such a word stands alone in the row too (a
    word at either end may be part of a longer one), and its whole-word term ignores case."""
    if not literal.isascii():
        return []
    inner = [m.group() for m in _WORD.finditer(literal) if m.start() > 0 and m.end() < len(literal)]
    return list(dict.fromkeys(term for word in inner for term in index_terms(word)[:1]))


def _cjk_term_hits(index: SideIndex, kind: DocKind, literal: str, after: int, before: int, limit: int) -> list[str]:
    """One or two CJK characters are index terms themselves (every character and pair is indexed),
    so rows holding them are found by term rather than by a scan."""
    return newest_with_terms(index, kind, [plain(literal)], kind.gram_word_columns, after, before, limit)
