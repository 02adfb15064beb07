"""The side index's two questions: which rows hold these terms (BM25), which hold this text (trigrams).

Both answer with history row ids inside a time window; the caller re-reads those rows from the
history and re-checks them, so the index can narrow the search but never invent a hit.
"""
from __future__ import annotations

from oneclaw_search.data.side_index import DocKind, SideIndex, fts_term
from oneclaw_search.domain.history_query import HistoryQuery

TRIGRAM = 3  # the shortest text a trigram index can look up
MAX_TRIGRAMS = 24  # a long text is pinned down by a spread of its trigrams; more only cost time


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def trigram_match(texts: list[str]) -> str | None:
    """An FTS5 query for rows holding every trigram of every text: a superset of the rows holding
    the texts (the index keeps no positions, to stay small), so callers re-check each row."""
    grams: list[str] = []
    for text in texts:
        found = list(dict.fromkeys(text[i:i + TRIGRAM] for i in range(len(text) - TRIGRAM + 1)))
        if len(found) > MAX_TRIGRAMS:
            step = (len(found) - 1) / (MAX_TRIGRAMS - 1)
            found = [found[round(i * step)] for i in range(MAX_TRIGRAMS)]
        grams += found
    return " AND ".join(_quoted(gram) for gram in dict.fromkeys(grams)) or None


def _phrase_filter(kind: DocKind, query: HistoryQuery) -> tuple[str, list[object]]:
    """SQL keeping only rows that may hold every quoted phrase long enough for trigrams."""
    match = trigram_match([phrase for phrase in query.phrases if len(phrase) >= TRIGRAM])
    if match is None:
        return "", []
    return f" AND d.doc IN (SELECT rowid FROM {kind.table('grams')} WHERE {kind.table('grams')} MATCH ?)", [match]


def keyword_hits(
    index: SideIndex, kind: DocKind, query: HistoryQuery, after: int, before: int, limit: int,
    weights: tuple[float, ...] = (),
) -> dict[str, float]:
    """Row id → BM25 score (higher is better) of the best `limit` rows holding any query term."""
    if not query.terms or limit <= 0:
        return {}
    words = kind.table("words")
    rank = f"bm25({words}{''.join(f', {w}' for w in weights)})"
    extra, params = _phrase_filter(kind, query)
    rows = index.execute(
        f"SELECT d.id, {rank} FROM {words} JOIN {kind.table('docs')} d ON d.doc = {words}.rowid"
        f" WHERE {words} MATCH ? AND d.at BETWEEN ? AND ?{extra} ORDER BY {rank} LIMIT ?",
        [" OR ".join(_quoted(fts_term(term)) for term in query.terms), after, before, *params, limit],
    )
    return {row_id: -score for row_id, score in rows}


def literal_hits(
    index: SideIndex, kind: DocKind, literal: str, after: int, before: int, limit: int
) -> list[str] | None:
    """Ids of up to `limit` recent rows that may contain the folded text `literal` (to be
    re-checked); None when it is too short to look up."""
    match = trigram_match([literal]) if len(literal) >= TRIGRAM else None
    if match is None:
        return None
    grams = kind.table("grams")
    rows = index.execute(
        f"SELECT d.id FROM {grams} JOIN {kind.table('docs')} d ON d.doc = {grams}.rowid"
        f" WHERE {grams} MATCH ? AND d.at BETWEEN ? AND ? ORDER BY {grams}.rowid DESC LIMIT ?",
        [match, after, before, limit],
    )
    return [row[0] for row in rows]
