"""BM25's statistics as a fresh build of the same rows counts them, and the engine's scores held to them
(Q-11: one reply however the history was written).

tantivy keeps a replaced or deleted document in its statistics (how many documents, their lengths,
how many hold a term) until a merge drops it, and a window is rewritten whenever a turn beside it
arrives, changes or goes. While a searcher holds such documents, the rows it ranked are scored again
over the live documents alone: each term's frequency in a row is read back from the engine's score for
that term by itself, so no text is read again. A searcher holding none is exact as it is.
"""
from __future__ import annotations

import json
import math
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import tantivy

from oneclaw_search.data.index.schema import EVERY, EVERY_TERM, FINGERPRINT, LENGTH, ROWID, IndexKind, unsigned_values
from oneclaw_search.domain.window_bm25 import K1, B, Collection, stored_length

Hit = tuple[float, tantivy.DocAddress]
_SINGLE_PRECISION = 2.0**-23  # tantivy scores in 32-bit floats


@dataclass
class Counts:
    """One searcher's ranked field, counted two ways: over its live documents, and as tantivy's BM25
    counts it (replaced and deleted documents not yet merged away included)."""

    rows: int
    engine_rows: int
    holding: dict[str, int] = field(default_factory=dict)
    engine_holding: dict[str, int] = field(default_factory=dict)
    length: float | None = None  # the live documents' total length, read when first needed
    engine_average: float | None = None
    searcher: tantivy.Searcher | None = None

    @property
    def exact(self) -> bool:
        """Whether tantivy's own statistics are the live ones: it holds no dead document."""
        return self.rows == self.engine_rows

    @property
    def average(self) -> float:
        if self.length is None:
            self.length = _live_totals(self.searcher)[0] if self.searcher is not None and self.rows else 0.0
        return self.length / self.rows if self.rows else 0.0

    def collection(self, terms: Sequence[str]) -> Collection:
        """The statistics a row scored outside the engine is scored with, for these terms."""
        return Collection(self.rows, self.average, {term: self.holding[term] for term in terms})


class LiveStatistics:
    """How many live documents hold each term, kept for as long as an index shows the same live
    documents. tantivy's reader moves to a new commit by itself, so they are known by what they add up
    to: how many, and the sums of their lengths and fingerprints. tantivy's own counts, which depend on
    the dead documents too, are read afresh each time (a dictionary lookup)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[tuple[float, ...], dict[str, int]]] = {}

    def counts(self, searcher: tantivy.Searcher, kind: IndexKind, terms: Sequence[str]) -> Counts:
        alive, counted = searcher.num_docs, searcher.doc_freq(EVERY, EVERY_TERM)
        engine = {term: searcher.doc_freq(kind.ranked, term) for term in terms}
        if alive == counted:  # tantivy's statistics are exact: read as they are
            return Counts(alive, counted, dict(engine), engine, searcher=searcher)
        length, prints = _live_totals(searcher)
        key = (alive, length, prints)
        with self._lock:
            kept = self._kept.get(kind.name)
            if kept is None or kept[0] != key:
                kept = self._kept[kind.name] = (key, {})
        holding = kept[1]
        for term in terms:
            if term not in holding:
                holding[term] = alive_holding(searcher, kind, kind.ranked, term)
        return Counts(alive, counted, {term: holding[term] for term in terms}, engine, length=length)


def alive_holding(searcher: tantivy.Searcher, kind: IndexKind, field: str, term: str) -> int:
    """How many live documents hold `term` in `field` (tantivy's document frequency counts the dead too)."""
    if searcher.num_docs == searcher.doc_freq(EVERY, EVERY_TERM):
        return searcher.doc_freq(field, term)
    query = tantivy.Query.term_query(kind.schema, field, term, index_option="basic")
    found: Any = searcher.search(query, 1, count=True)  # the stubs leave out the result's count
    return int(found.count or 0)


def _live_totals(searcher: tantivy.Searcher) -> tuple[float, float]:
    """The live documents' total length of the ranked field (each keeps its own), and the sum of their
    fingerprints: between them, what tells one set of live documents from another."""
    found = searcher.aggregate(tantivy.Query.all_query(), {"length": {"sum": {"field": LENGTH}},
                                                           "prints": {"sum": {"field": FINGERPRINT}}})
    return float(found["length"]["value"] or 0.0), float(found["prints"]["value"] or 0.0)


def rescored(searcher: tantivy.Searcher, kind: IndexKind, terms: Sequence[str], hits: Sequence[Hit], counts: Counts) -> list[Hit]:
    """`hits` (the engine's scores) scored over the live statistics, in the same order as given."""
    if counts.exact or not hits:
        return list(hits)
    addresses = [address for _, address in hits]
    rowids = unsigned_values(searcher, ROWID, addresses)
    norms = [stored_length(length) for length in unsigned_values(searcher, LENGTH, addresses)]
    engine_average = _engine_average(searcher, kind, counts, terms, addresses)
    totals = [0.0] * len(hits)
    for term in terms:
        per_row = _term_scores(searcher, kind, term, rowids)
        if not per_row:
            continue
        engine_weight = _idf(counts.engine_rows, counts.engine_holding[term]) * (K1 + 1)
        live_weight = _idf(counts.rows, counts.holding[term]) * (K1 + 1)
        for at, rowid in enumerate(rowids):
            score = per_row.get(rowid, 0.0)
            if score > 0:
                frequency = _frequency(score, engine_weight, _norm(norms[at], engine_average))
                totals[at] += live_weight * frequency / (frequency + _norm(norms[at], counts.average))
    return [(total, address) for total, address in zip(totals, addresses, strict=True)]


def bound(counts: Counts, terms: Sequence[str]) -> float:
    """The most a row's live score can exceed the engine's, over any row: each term's ratio of idfs times
    the ratio of average lengths where the live documents are the longer (a shorter average norms a row
    higher)."""
    if counts.exact:
        return 1.0
    ratios = [_idf(counts.rows, counts.holding[t]) / _idf(counts.engine_rows, counts.engine_holding[t]) for t in terms]
    lengths = counts.average / counts.engine_average if counts.engine_average else 1.0
    return max(ratios, default=1.0) * max(1.0, lengths)


def _term_scores(searcher: tantivy.Searcher, kind: IndexKind, term: str, rowids: list[int]) -> dict[int, float]:
    among = tantivy.Query.boost_query(tantivy.Query.term_set_query(kind.schema, ROWID, rowids), 0.0)
    holds = tantivy.Query.term_query(kind.schema, kind.ranked, term, index_option="freq")
    query = tantivy.Query.boolean_query([(tantivy.Occur.Must, among), (tantivy.Occur.Must, holds)])
    hits = searcher.search(query, len(rowids), count=False).hits
    found = unsigned_values(searcher, ROWID, [address for _, address in hits])
    return {rowid: score for rowid, (score, _) in zip(found, hits, strict=True)}


def _engine_average(searcher: tantivy.Searcher, kind: IndexKind, counts: Counts, terms: Sequence[str],
                    addresses: list[tantivy.DocAddress]) -> float:
    """tantivy's average length of the ranked field, dead documents included: its explanation of a
    term's score is where the bindings show it."""
    if counts.engine_average is None:
        query = tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.term_query(kind.schema, kind.ranked, term,
                                                                                             index_option="freq")) for term in terms])
        scored = searcher.search(query, 1, count=False).hits
        counts.engine_average = _average_in(json.loads(query.explain(searcher, scored[0][1]).to_json())) if scored else 0.0
    return counts.engine_average


def _average_in(node: Any) -> float:
    if isinstance(node, dict):
        if str(node.get("description", "")).startswith("avgdl"):
            return float(node["value"])
        node = node.get("details", [])
    for child in node if isinstance(node, list) else []:
        if (found := _average_in(child)) > 0:
            return found
    return 0.0


def _idf(rows: int, holding: int) -> float:
    """BM25's idf in tantivy's single precision: for a term nearly every document holds, 1 + x rounds
    away most of x, and a score held to the live statistics must round as the engine's own does."""
    ratio = _single(_single(rows - holding + 0.5) / _single(holding + 0.5))
    return _single(math.log(_single(1.0 + ratio)))


def _single(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _norm(length: int, average: float) -> float:
    return K1 * (1 - B + B * length / average) if average > 0 else K1


def _frequency(score: float, weight: float, norm: float) -> float:
    """The term's frequency in the row, read back from the engine's score for it: score = weight · f / (f + norm).
    A score at the weight itself (a count so high single precision cannot tell it from saturation) reads
    as the highest count it can tell."""
    return float(round(score * norm / max(weight - score, weight * _SINGLE_PRECISION)))
