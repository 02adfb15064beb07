"""Keyword ranking over the side index's postings: FTS5's bm25() formula, computed in numpy (issue 3).

Same numbers as FTS5's bm25() with column weights (k1 1.2, b 0.75, IDF ln((N - n + 0.5) / (n + 0.5))
but at least 1e-6, row size summed over columns), in milliseconds at a million messages. A
compound (`src/main.kt`) is scored as the rows holding all its words; the lists keep no positions,
so rows it alone admits come back as `unsure`, for the caller to check the order in the text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from oneclaw_search.data.postings_reader import RowTable, TermList
from oneclaw_search.data.index_docs import DocKind, fts_term
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.history_query import HistoryQuery

K1, B = 1.2, 0.75
MAX_PAIRED_TERMS = 8  # the turn before must hold two query terms; pairs among the first eight suffice


@dataclass(frozen=True, slots=True)
class KeywordHits:
    scores: dict[str, float] = field(default_factory=dict)  # row id → BM25 coverage, best first
    unsure: frozenset[str] = frozenset()  # ids matched only through a compound's words


def keyword_hits(
    index: SideIndex, kind: DocKind, query: HistoryQuery, after: int, before: int, limit: int,
    weights: tuple[float, ...] = (), allowed: np.ndarray | None = None,
) -> KeywordHits:
    """The best `limit` rows holding query terms, by BM25 divided by what a row holding each term
    once would get (coverage); `allowed` optionally lists the only rows that may match."""
    reader = index.postings(kind)
    table = reader.rows()
    if not (query.terms or query.compounds) or limit <= 0 or table.rows == 0:
        return KeywordHits()
    lists = reader.lists([fts_term(term) for term in query.all_terms], len(table.sizes))
    score = _Scorer(table, np.asarray(weights or (1.0,) * len(kind.word_columns), dtype=float))
    own, context = np.zeros(len(table.sizes), dtype=bool), np.zeros(len(table.sizes), dtype=np.int8)
    with_context = kind.word_columns[1:2] == ("context",)
    for position, term in enumerate(query.terms):
        found = lists[fts_term(term)]
        score.add(found)
        if not with_context:
            own[found.docs] = True
            continue
        own[found.docs[found.counts[:, 0] > 0]] = True
        if position < MAX_PAIRED_TERMS:
            context[found.docs[found.counts[:, 1] > 0]] += 1
    by_compound = np.zeros(len(table.sizes), dtype=bool)
    for parts in query.compounds:
        found = _together([lists[fts_term(part)] for part in parts])
        score.add(found)
        by_compound[found.docs[found.counts[:, 0] > 0]] = True
    matched = np.flatnonzero(score.total > 0)  # every row holding a term scores above 0 (bools scan 6x faster)
    sure = own[matched] | (context[matched] >= 2)
    at = table.ats[matched]
    keep = (sure | by_compound[matched]) & table.alive[matched] & (at >= after) & (at <= before)
    if allowed is not None:
        keep &= np.isin(matched, allowed)
    best = _best(score.total, matched[keep], limit)
    unsure = set(best[~(own[best] | (context[best] >= 2))].tolist())
    ideal = max(sum(score.idf(len(lists[fts_term(term)].docs)) for term in query.terms)
                + sum(max(score.idf(len(lists[fts_term(p)].docs)) for p in parts) for parts in query.compounds), 1e-6)
    ids = _ids(index, kind, best)
    hits = {ids[doc]: float(score.total[doc]) / ideal for doc in best.tolist() if doc in ids}
    return KeywordHits(hits, frozenset(ids[doc] for doc in best.tolist() if doc in ids and doc in unsure))


class _Scorer:
    def __init__(self, table: RowTable, weights: np.ndarray) -> None:
        self._rows = table.rows
        self._sizes = table.sizes
        self._length_weight = K1 * B / (table.average_size or 1.0)
        self._weights = weights
        self.total = np.zeros(len(table.sizes))

    def idf(self, hits: int) -> float:
        return max(math.log((self._rows - hits + 0.5) / (hits + 0.5)), 1e-6)

    def add(self, found: TermList) -> None:
        if not len(found.docs):
            return
        frequency = found.counts @ self._weights
        norm = K1 * (1 - B) + self._length_weight * self._sizes[found.docs]
        self.total[found.docs] += self.idf(len(found.docs)) * frequency * (K1 + 1) / (frequency + norm)


def _together(parts: list[TermList]) -> TermList:
    """Rows holding every part in one column, each column counting the rarest part's occurrences."""
    docs, counts = parts[0].docs, parts[0].counts
    for part in parts[1:]:
        docs, mine, theirs = np.intersect1d(docs, part.docs, assume_unique=True, return_indices=True)
        counts = np.minimum(counts[mine], part.counts[theirs])
    keep = counts.any(axis=1)
    return TermList(docs[keep], counts[keep])


def _best(scores: np.ndarray, candidates: np.ndarray, limit: int) -> np.ndarray:
    """Candidates by score, best first, ties newest first."""
    if len(candidates) > limit:
        candidates = candidates[np.argpartition(-scores[candidates], limit - 1)[:limit]]
    return candidates[np.lexsort((-candidates, -scores[candidates]))]


def _ids(index: SideIndex, kind: DocKind, docs: np.ndarray) -> dict[int, str]:
    if not len(docs):
        return {}
    wanted = docs.tolist()
    return dict(index.execute(f"SELECT doc, id FROM {kind.table('docs')} WHERE doc IN ({', '.join('?' * len(wanted))})", wanted))


def term_rows(index: SideIndex, kind: DocKind, term: str, columns: tuple[int, ...], after: int, before: int, limit: int) -> list[str]:
    """Ids of the newest `limit` rows holding `term` in any of `columns`."""
    return newest_ids(index, kind, rows_with_terms(index, kind, [term], columns), after, before, limit)


def rows_with_terms(index: SideIndex, kind: DocKind, terms: list[str], columns: tuple[int, ...]) -> np.ndarray:
    """Rows (ascending) holding every one of `terms` in one of `columns`."""
    reader = index.postings(kind)
    end = len(reader.rows().sizes)
    lists = reader.lists([fts_term(term) for term in terms], end)
    found = []
    for column in columns:
        docs = None
        for term in terms:
            listed = lists[fts_term(term)]
            here = listed.docs[listed.counts[:, column] > 0]
            docs = here if docs is None else np.intersect1d(docs, here, assume_unique=True)
        found.append(docs)
    return found[0] if len(found) == 1 else np.unique(np.concatenate(found))


def newest_ids(index: SideIndex, kind: DocKind, docs: np.ndarray, after: int, before: int, limit: int) -> list[str]:
    """Ids of the newest `limit` live rows among `docs` (ascending) inside the time window."""
    table = index.postings(kind).rows()
    docs = docs[docs < len(table.sizes)]
    docs = docs[table.alive[docs] & (table.ats[docs] >= after) & (table.ats[docs] <= before)][::-1][:limit]
    ids = _ids(index, kind, docs)
    return [ids[doc] for doc in docs.tolist() if doc in ids]
