"""The side index's two questions: which rows hold these terms (BM25), which hold this text (trigrams).

Both answer with history row ids inside a time window; the caller re-reads those rows from the
history, so an index that lags behind can miss a row but never invent one.
"""
from __future__ import annotations

from oneclaw_search.data.side_index import DocKind, SideIndex, fts_term
from oneclaw_search.domain.history_query import HistoryQuery

TRIGRAM = 3  # the shortest text a trigram index can look up


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _phrase_filter(kind: DocKind, query: HistoryQuery) -> tuple[str, list[object]]:
    """SQL keeping only rows that hold every quoted phrase long enough for trigrams."""
    phrases = [phrase for phrase in query.phrases if len(phrase) >= TRIGRAM]
    if not phrases:
        return "", []
    match = " AND ".join(_quoted(phrase) for phrase in phrases)
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
    """Ids of up to `limit` recent rows containing the folded text `literal`; None if too short to look up."""
    if len(literal) < TRIGRAM:
        return None
    grams = kind.table("grams")
    rows = index.execute(
        f"SELECT d.id FROM {grams} JOIN {kind.table('docs')} d ON d.doc = {grams}.rowid"
        f" WHERE {grams} MATCH ? AND d.at BETWEEN ? AND ? ORDER BY {grams}.rowid DESC LIMIT ?",
        [_quoted(literal), after, before, limit],
    )
    return [row[0] for row in rows]
