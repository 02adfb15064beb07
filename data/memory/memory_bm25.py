"""MemoryBM25: rank-bm25's Okapi model with OneClaw's IDF, built and scored from postings instead of a scan.

rank-bm25's own get_scores walks every document's term dictionary for every query term, which
grows with the memory index; the same formula evaluated only over the documents holding each term
gives the same numbers (Q-14) at a tiny fraction of the cost. Both are measured against rank-bm25 in
tests/benchmarks/bench_memory_bm25.py.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from rank_bm25 import BM25Okapi

K1, B = 1.2, 0.75  # BM25Scorer.kt's constants


class MemoryBM25(BM25Okapi):  # type: ignore[misc]  # rank-bm25 ships no types, so its class is Any
    def __init__(self, corpus: list[list[str]]) -> None:
        """The model of `corpus` (each chunk's terms), its postings counted in one numpy pass: rank-bm25's
        own set-up builds a dictionary per chunk first, several times slower on a large memory."""
        vocabulary: dict[str, int] = {}
        lengths = np.fromiter((len(terms) for terms in corpus), dtype=np.int64, count=len(corpus))
        ids = np.fromiter((vocabulary.setdefault(term, len(vocabulary)) for terms in corpus for term in terms),
                          dtype=np.int64, count=int(lengths.sum()))
        chunk_of = np.repeat(np.arange(len(corpus), dtype=np.int64), lengths)
        pairs, counts = np.unique(ids * len(corpus) + chunk_of, return_counts=True)  # by term, then chunk
        offsets = np.searchsorted(pairs // len(corpus), np.arange(len(vocabulary) + 1)).astype(np.int64)
        rows = (pairs % len(corpus)).astype(np.int32)
        self._restore(list(vocabulary), offsets, rows, counts.astype(np.float64), lengths.astype(np.float64))

    @classmethod
    def from_postings(cls, terms: Sequence[str], offsets: npt.NDArray[np.int64], rows: npt.NDArray[np.int32],
                      counts: npt.NDArray[np.float64], doc_len: npt.NDArray[np.float64]) -> MemoryBM25:
        """The model as a saved snapshot left it: rank-bm25's parameters and IDF, from postings."""
        model = cls.__new__(cls)
        model._restore(terms, offsets, rows, counts, doc_len)
        return model

    def _restore(self, terms: Sequence[str], offsets: npt.NDArray[np.int64], rows: npt.NDArray[np.int32],
                 counts: npt.NDArray[np.float64], doc_len: npt.NDArray[np.float64]) -> None:
        """rank-bm25's attributes but `doc_freqs`, its per-chunk dictionaries, which scoring never reads.
        Its sequences are tuples: a tuple of strings and numbers drops out of the garbage collector's
        sight, where a list of a memory's twenty thousand words is walked by every full collection."""
        self.k1, self.b, self.epsilon, self.tokenizer = K1, B, 0.25, None
        self.doc_freqs: list[dict[str, int]] = []
        self.corpus_size, self.doc_len = len(doc_len), tuple(doc_len.astype(np.int64).tolist())
        self.avgdl = float(doc_len.sum()) / len(doc_len)
        self.terms, self.offsets, self.rows, self.counts = tuple(terms), offsets, rows, counts
        self.idf: dict[str, float] = {}
        self._calc_idf(dict(zip(terms, np.diff(offsets).tolist(), strict=True)))
        self._finish()

    def _finish(self) -> None:
        self._term_index = {term: i for i, term in enumerate(self.terms)}
        self._doc_len = np.asarray(self.doc_len, dtype=np.float64)

    def _calc_idf(self, nd: dict[str, int]) -> None:
        """OneClaw's ln(1 + (N - df + 0.5) / (df + 0.5)): Okapi's own IDF turns negative for words
        in over half the chunks, which breaks small memories."""
        for word, freq in nd.items():
            self.idf[word] = math.log((self.corpus_size - freq + 0.5) / (freq + 0.5) + 1.0)

    def get_scores(self, query: list[str]) -> npt.NDArray[np.float64]:
        score = np.zeros(self.corpus_size)
        for term in query:
            position = self._term_index.get(term)
            if position is None:
                continue
            start, end = self.offsets[position], self.offsets[position + 1]
            rows, counts = self.rows[start:end], self.counts[start:end]
            norm = self.k1 * (1 - self.b + self.b * self._doc_len[rows] / self.avgdl)
            score[rows] += self.idf[term] * counts * (self.k1 + 1) / (counts + norm)
        return score

    def document_frequency(self, term: str) -> int:
        position = self._term_index.get(term)
        return 0 if position is None else int(self.offsets[position + 1] - self.offsets[position])
