"""The side index's trigram questions: which rows may hold this text, or these quoted phrases.

Answers are index rows (inside a time window, for the spec's LIKE test); the caller maps them to
history ids, re-reads those rows from the history and re-checks them, so the index can narrow the
search but never invent a hit.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.postings_lookups import newest_docs_with_terms
from oneclaw_search.data.index_docs import TRIGRAM, DocKind, trigrams
from oneclaw_search.data.side_index import GRAM_SAMPLE, SideIndex
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import index_terms, is_cjk, plain

_WORD = re.compile(r"\w+")
MAX_TRIGRAMS = 6
ENOUGH_ROWS = 1_000


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def trigram_match(index: SideIndex, kind: DocKind, texts: list[str]) -> str | None:
    """An FTS5 query for rows holding the rarest trigrams of the texts: a superset of the rows
    holding the texts (the index keeps no positions, to stay small), so callers re-check each row.
    Rarity comes from the sampled counts, since FTS5's own vocabulary walks a trigram's whole list
    to count it. Each trigram costs its whole list to read (0.5-1.5 ms for a common one at a
    million messages) yet past the first two rarely narrows, so more are added only while the
    rows expected to hold all chosen ones (counted as if independent) exceed ENOUGH_ROWS."""
    grams = list(dict.fromkeys(gram for text in texts for gram in trigrams(text)))
    if len(grams) <= 2:
        return " AND ".join(_quoted(gram) for gram in grams) or None
    counts: dict[str, int] = {}
    for chunk in sql_batches(grams):
        counts.update(index.execute(f"SELECT term, n FROM {kind.table('gsample')} WHERE term IN ({marks(chunk)})", chunk))
    rows = max(index.postings(kind).rows().rows, 1)
    chosen, expected = [], float(rows)
    for gram in sorted(grams, key=lambda gram: counts.get(gram, 0))[:MAX_TRIGRAMS]:
        if len(chosen) >= 2 and expected <= ENOUGH_ROWS:
            break
        chosen.append(gram)
        expected *= min(counts.get(gram, 0) * GRAM_SAMPLE / rows, 1.0)
    return " AND ".join(_quoted(gram) for gram in chosen)


def phrase_rows(index: SideIndex, kind: DocKind, query: HistoryQuery) -> np.ndarray | None:
    """Rows that may hold every quoted phrase long enough for trigrams; None when nothing is quoted."""
    match = trigram_match(index, kind, [phrase for phrase in query.phrases if len(phrase) >= TRIGRAM])
    return None if match is None else _gram_rows(index, kind, match)


def _gram_rows(index: SideIndex, kind: DocKind, match: str) -> np.ndarray:
    """Every row (ascending) the trigram query matches."""
    grams = kind.table("grams")
    return np.fromiter((row[0] for row in index.execute(f"SELECT rowid FROM {grams} WHERE {grams} MATCH ?", [match])), dtype=np.int64)


def literal_pages(
    index: SideIndex, kind: DocKind, literal: str, after: int, before: int, pages: tuple[int, ...]
) -> Iterator[np.ndarray] | None:
    """Pages (one per size in `pages`) of index rows, newest first, of live rows in the time window
    that may contain the folded text `literal` (to be re-checked); None when it is too short to
    look up. Rows, not ids: a caller resolves only the pages it reads (postings_lookups.ids_in_order),
    and a trigram lookup reads on only when a later page is asked for. Close it when done."""
    if len(literal) < TRIGRAM and is_cjk(literal):
        # One or two CJK characters are index terms themselves (every character and pair is indexed).
        return _sliced(newest_docs_with_terms(index, kind, [plain(literal)], kind.gram_word_columns, after, before, sum(pages)), pages)
    match = trigram_match(index, kind, [literal]) if len(literal) >= TRIGRAM else None
    if match is None:
        return None
    inner = interior_terms(literal)
    if inner:  # rows must also hold the literal's inner words: most trigram look-alikes do not
        candidates = _gram_rows(index, kind, match)
        return _sliced(newest_docs_with_terms(index, kind, inner, kind.gram_word_columns, after, before, sum(pages),
                                              within=candidates), pages)
    return _newest_matching(index, kind, match, after, before, pages)


def _sliced(docs: np.ndarray, pages: tuple[int, ...]) -> Iterator[np.ndarray]:
    start = 0
    for size in pages:
        yield docs[start:start + size]
        start += size


def _newest_matching(index: SideIndex, kind: DocKind, match: str, after: int, before: int, pages: tuple[int, ...],
                     ) -> Iterator[np.ndarray]:
    """Pages of the newest live rows in the window the trigram query matches, read from FTS5 as
    far as asked (a thousand rows where a hundred serve cost 0.7-1.5 ms) and checked against the
    row table (a join per row to the map cost more than the match)."""
    table = index.postings(kind).rows()
    grams = kind.table("grams")
    cursor = index.peewee.execute_sql(f"SELECT rowid FROM {grams} WHERE {grams} MATCH ? ORDER BY rowid DESC", [match])
    try:
        held = np.zeros(0, dtype=np.int64)  # rows read past the page before
        for size in pages:
            found, kept = [held], len(held)
            while kept < size and (page := cursor.fetchmany(max(size, 256))):
                rows = np.fromiter((row[0] for row in page), dtype=np.int64, count=len(page))
                rows = rows[rows < len(table.ats)]  # rows added since the table was read wait for the next search
                rows = rows[table.live_within(rows, after, before)]
                found.append(rows)
                kept += len(rows)
            rows = np.concatenate(found)
            held = rows[size:]
            yield rows[:size]
    finally:
        cursor.close()


def interior_terms(literal: str) -> list[str]:
    """Index terms every row holding the ASCII text `literal` must hold: the whole-word terms of
    its words with a separator on both sides inside it. Such a word stands alone in the row too (a
    word at either end may be part of a longer one), and its whole-word term ignores case."""
    if not literal.isascii():
        return []
    inner = [m.group() for m in _WORD.finditer(literal) if m.start() > 0 and m.end() < len(literal)]
    return list(dict.fromkeys(term for word in inner for term in index_terms(word)[:1]))
