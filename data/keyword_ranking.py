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

from oneclaw_search.data.postings_lookups import doc_ids
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
    loose = [lists[fts_term(term)] for term in query.terms]
    compounds = [_together([lists[fts_term(part)] for part in parts]) for parts in query.compounds]
    for found in loose + compounds:
        score.add(found)
    matched = np.flatnonzero(score.total > 0)  # every row holding a term scores above 0 (bools scan 6x faster)
    at = table.ats[matched]
    candidates = matched[table.alive[matched] & (at >= after) & (at <= before)]
    if allowed is not None:
        candidates = candidates[np.isin(candidates, allowed)]
    admission = _Admission(loose, compounds, kind.word_columns[1:2] == ("context",))
    best, sure = _best_admitted(score.total, candidates, limit, admission)
    ideal = max(sum(score.idf(len(found.docs)) for found in loose)
                + sum(max(score.idf(len(lists[fts_term(p)].docs)) for p in parts) for parts in query.compounds), 1e-6)
    ids = doc_ids(index, kind, best)
    hits = {ids[doc]: float(score.total[doc]) / ideal for doc in best.tolist() if doc in ids}
    return KeywordHits(hits, frozenset(ids[doc] for doc, certain in zip(best.tolist(), sure.tolist()) if doc in ids and not certain))


class _Admission:
    """Which rows count as hits: a loose term in the row's own text (for sessions, in either
    column), two of the first eight loose terms in the turn before, or a compound's words in the
    row's own text (`sure` is False for rows only a compound admits)."""

    def __init__(self, loose: list[TermList], compounds: list[TermList], with_context: bool) -> None:
        self._loose, self._compounds, self._with_context = loose, compounds, with_context

    def __call__(self, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        own, context = np.zeros(len(docs), dtype=bool), np.zeros(len(docs), dtype=np.int8)
        for position, found in enumerate(self._loose):
            counts = _counts_of(found, docs)
            if not self._with_context:
                own |= counts.any(axis=1)
                continue
            own |= counts[:, 0] > 0
            if position < MAX_PAIRED_TERMS:
                context += counts[:, 1] > 0
        sure = own | (context >= 2)
        by_compound = np.zeros(len(docs), dtype=bool)
        for found in self._compounds:
            by_compound |= _counts_of(found, docs)[:, 0] > 0
        return sure | by_compound, sure


def _counts_of(found: TermList, docs: np.ndarray) -> np.ndarray:
    """The list's counts for each of `docs` (zeros where the list does not hold it)."""
    if not len(found.docs):
        return np.zeros((len(docs), found.counts.shape[1]), dtype=np.uint8)
    at = np.minimum(np.searchsorted(found.docs, docs), len(found.docs) - 1)
    return np.where((found.docs[at] == docs)[:, None], found.counts[at], 0)


def _best_admitted(scores: np.ndarray, candidates: np.ndarray, limit: int, admission: _Admission):
    """The best `limit` admitted candidates and whether each is sure. Only the best few candidates
    are checked (four times as many as wanted, more when too few pass): at a million messages,
    marking every matched row cost more than the scoring."""
    wanted = 4 * limit
    while True:
        top = _best(scores, candidates, wanted)
        admitted, sure = admission(top)
        if admitted.sum() >= limit or wanted >= len(candidates):
            return top[admitted][:limit], sure[admitted][:limit]
        wanted *= 4


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
