"""The side index's two questions: which rows hold these terms (BM25), which hold this text (trigrams).

Both answer with history row ids inside a time window; the caller re-reads those rows from the
history and re-checks them, so the index can narrow the search but never invent a hit.
"""
from __future__ import annotations

import math

from oneclaw_search.data.side_index import DocKind, SideIndex, fts_term
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import is_cjk, plain

TRIGRAM = 3  # the shortest text a trigram index can look up
MAX_TRIGRAMS = 6
MAX_PAIRED_TERMS = 8  # a long text is pinned down by a spread of its trigrams; more only cost time


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def trigram_match(index: SideIndex, kind: DocKind, texts: list[str]) -> str | None:
    """An FTS5 query for rows holding the rarest trigrams of the texts: a superset of the rows
    holding the texts (the index keeps no positions, to stay small), so callers re-check each row.
    Rare trigrams narrow as well as all of them and cost a fraction of the time."""
    grams = list(dict.fromkeys(text[i:i + TRIGRAM] for text in texts for i in range(len(text) - TRIGRAM + 1)))
    if len(grams) > MAX_TRIGRAMS:
        counts = dict(index.execute(
            f"SELECT term, doc FROM {kind.table('gvocab')} WHERE term IN ({', '.join('?' * len(grams))})", grams
        ))
        grams = sorted(grams, key=lambda gram: counts.get(gram, 0))[:MAX_TRIGRAMS]
    return " AND ".join(_quoted(gram) for gram in grams) or None


def _phrase_filter(index: SideIndex, kind: DocKind, query: HistoryQuery) -> tuple[str, list[object]]:
    """SQL keeping only rows that may hold every quoted phrase long enough for trigrams."""
    match = trigram_match(index, kind, [phrase for phrase in query.phrases if len(phrase) >= TRIGRAM])
    if match is None:
        return "", []
    return f" AND d.doc IN (SELECT rowid FROM {kind.table('grams')} WHERE {kind.table('grams')} MATCH ?)", [match]


def keyword_hits(
    index: SideIndex, kind: DocKind, query: HistoryQuery, after: int, before: int, limit: int,
    weights: tuple[float, ...] = (),
) -> dict[str, float]:
    """Row id → BM25 score (higher is better) of the best `limit` rows holding any query term."""
    if not (query.terms or query.compounds) or limit <= 0:
        return {}
    words = kind.table("words")
    rank = f"bm25({words}{''.join(f', {w}' for w in weights)})"
    extra, params = _phrase_filter(index, kind, query)
    scored, admitted = _ranked_terms(query), _any_term(kind, query)
    if admitted != scored:  # rank by each term once; admit by the stricter rule
        extra += f" AND d.doc IN (SELECT rowid FROM {words} WHERE {words} MATCH ?)"
        params.append(admitted)
    rows = index.execute(
        f"SELECT d.id, {rank} FROM {words} JOIN {kind.table('docs')} d ON d.doc = {words}.rowid"
        f" WHERE {words} MATCH ? AND d.at BETWEEN ? AND ?{extra} ORDER BY {rank} LIMIT ?",
        [scored, after, before, *params, limit],
    )
    ideal = _ideal_score(index, kind, query)
    return {row_id: -score / ideal for row_id, score in rows}


def _ideal_score(index: SideIndex, kind: DocKind, query: HistoryQuery) -> float:
    """What BM25 gives a row of average length holding every query term once: the sum of their
    IDFs. Dividing by it turns scores into coverage, comparable across queries and sources."""
    total = index.meta_int(f"{kind.prefix}.fts_rows")
    frequency = dict(index.execute(
        f"SELECT term, doc FROM {kind.table('vocab')} WHERE term IN ({', '.join('?' * len(query.all_terms))})",
        [fts_term(term) for term in query.all_terms],
    ))
    def idf(term: str) -> float:  # FTS5's own: ln((N - n + 0.5) / (n + 0.5)), at least 1e-6
        found = frequency.get(fts_term(term), 0)  # a word no row uses still counts: the query asked for it
        return max(math.log((total - found + 0.5) / (found + 0.5)), 1e-6)
    units = [idf(term) for term in query.terms] + [max(map(idf, parts)) for parts in query.compounds]
    return max(sum(units), 1e-6)


def _ranked_terms(query: HistoryQuery) -> str:
    """Every loose term and every compound (terms in order) once: what BM25 scores a row by."""
    terms = [_quoted(fts_term(term)) for term in query.terms]
    terms += [" + ".join(_quoted(fts_term(part)) for part in parts) for parts in query.compounds]
    return " OR ".join(terms)


def _any_term(kind: DocKind, query: HistoryQuery) -> str:
    """Rows holding any loose term or compound (terms in order) in their own text, or, for messages,
    two of the loose terms in the turn before: one shared word with a neighbour is no evidence."""
    own = kind.word_columns[0]
    terms = [_quoted(fts_term(term)) for term in query.terms]
    alternatives = [f"{{{own}}} : " + " + ".join(_quoted(fts_term(part)) for part in parts) for parts in query.compounds]
    if len(kind.word_columns) == 1 or kind.word_columns[1] != "context":
        return " OR ".join(terms + alternatives)
    if terms:
        alternatives.insert(0, f"{{{own}}} : ({' OR '.join(terms)})")
    pairs = [f"({a} AND {b})" for i, a in enumerate(terms[:MAX_PAIRED_TERMS]) for b in terms[i + 1:MAX_PAIRED_TERMS]]
    if pairs:
        alternatives.append(f"{{context}} : ({' OR '.join(pairs)})")
    return " OR ".join(alternatives)


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
    grams = kind.table("grams")
    rows = index.execute(
        f"SELECT d.id FROM {grams} JOIN {kind.table('docs')} d ON d.doc = {grams}.rowid"
        f" WHERE {grams} MATCH ? AND d.at BETWEEN ? AND ? ORDER BY {grams}.rowid DESC LIMIT ?",
        [match, after, before, limit],
    )
    return [row[0] for row in rows]


def _cjk_term_hits(index: SideIndex, kind: DocKind, literal: str, after: int, before: int, limit: int) -> list[str]:
    """One or two CJK characters are index terms themselves (every character and pair is indexed),
    so rows holding them are found by term rather than by a scan."""
    words = kind.table("words")
    match = " OR ".join(f"{{{column}}} : {_quoted(fts_term(plain(literal)))}" for column in kind.gram_columns)
    rows = index.execute(
        f"SELECT d.id FROM {words} JOIN {kind.table('docs')} d ON d.doc = {words}.rowid"
        f" WHERE {words} MATCH ? AND d.at BETWEEN ? AND ? ORDER BY {words}.rowid DESC LIMIT ?",
        [match, after, before, limit],
    )
    return [row[0] for row in rows]
