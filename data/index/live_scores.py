"""The engine's scores held to BM25's live statistics (live_counts.py), for rows the keyword index ranked
(Q-11: one reply however the history was written).

Where tantivy's own statistics are not the live ones (it still counts dead documents, or a merge left
its average lengths as its one-byte norms round them), the rows it found are scored again: each term's
frequency in a row is read back from the engine's score for that term alone (score = weight·f/(f + norm),
with tantivy's weight and norm), and the row is scored over the live counts, in tantivy's single
precision where it matters. No text is read again.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import tantivy

from oneclaw_search.data.index.live_counts import Counts
from oneclaw_search.data.index.schema import ROWID, IndexKind, rows_query, unsigned_values
from oneclaw_search.domain.window_bm25 import K1, Statistics, length_norm, stored_length

Hit = tuple[float, tantivy.DocAddress]
_SINGLE_PRECISION = float(np.finfo(np.float32).eps)  # tantivy scores in 32-bit floats


def statistics(fields: Sequence[Counts], terms: Sequence[str]) -> Statistics:
    """The ranking model's statistics for rows scored outside the engine: the ranked field's, and the
    own words' where they are scored alone too."""
    return Statistics(fields[0].collection(terms), fields[1].collection(terms) if len(fields) > 1 else None)


def exact(searcher: tantivy.Searcher, kind: IndexKind, fields: Sequence[Counts], terms: Sequence[str]) -> bool:
    """Whether tantivy's own statistics are the live ones: no dead document, and its average lengths
    the live documents' (to single precision)."""
    return all(counts.rows == counts.engine_rows and
               math.isclose(_engine_average(searcher, kind, counts, terms), counts.average, rel_tol=1e-6) for counts in fields)


def rescored(searcher: tantivy.Searcher, kind: IndexKind, terms: Sequence[str], hits: Sequence[Hit],
             fields: Sequence[Counts]) -> list[Hit]:
    """`hits` (the engine's scores) scored over the live statistics, in the order given."""
    if not hits or exact(searcher, kind, fields, terms):
        return list(hits)
    addresses = [address for _, address in hits]
    rowids = unsigned_values(searcher, ROWID, addresses)
    totals = [0.0] * len(hits)
    for counts in fields:
        norms = [stored_length(length) for length in unsigned_values(searcher, counts.length_field, addresses)]
        engine_average = _engine_average(searcher, kind, counts, terms)
        for term in terms:
            per_row = _term_scores(searcher, kind, counts.field, term, rowids)
            engine_weight = _idf(counts.engine_rows, counts.engine_holding[term]) * (K1 + 1)
            live_weight = _idf(counts.rows, counts.holding[term]) * (K1 + 1)
            for at, rowid in enumerate(rowids):
                if (score := per_row.get(rowid, 0.0)) > 0:
                    frequency = _frequency(score, engine_weight, length_norm(norms[at], engine_average))
                    totals[at] += live_weight * frequency / (frequency + length_norm(norms[at], counts.average))
    return [(total, address) for total, address in zip(totals, addresses, strict=True)]


def spread(searcher: tantivy.Searcher, kind: IndexKind, fields: Sequence[Counts], terms: Sequence[str]) -> tuple[float, float] | None:
    """The least and the most ratio of a row's live score to the engine's, over any row (None where the
    engine's scores are the live ones). A term's share of a score is weight·f/(f + norm); held to the
    live counts, its weight moves by the ratio of idfs, and f/(f + norm) by a factor between 1 and the
    ratio of average lengths (a longer live average norms a row higher), so a score, their sum, moves
    within the widest of those bounds. A term tantivy's single precision weighs at nothing (one every
    document holds, in millions) adds nothing to either. Both scores are single-precision sums, so the
    bounds are widened by one rounding for each term of each field summed."""
    if exact(searcher, kind, fields, terms):
        return None
    lowest, highest = math.inf, 0.0
    for counts in fields:
        engine = [(term, _idf(counts.engine_rows, counts.engine_holding[term])) for term in terms]
        ratios = [_idf(counts.rows, counts.holding[term]) / weight for term, weight in engine if weight > 0] or [1.0]
        average = _engine_average(searcher, kind, counts, terms)
        lengths = counts.average / average if average > 0 else 1.0
        lowest, highest = min(lowest, min(ratios) * min(1.0, lengths)), max(highest, max(ratios) * max(1.0, lengths))
    rounding = len(fields) * max(len(terms), 1) * _SINGLE_PRECISION
    return lowest * (1.0 - rounding), highest * (1.0 + rounding)


def _term_scores(searcher: tantivy.Searcher, kind: IndexKind, field: str, term: str, rowids: list[int]) -> dict[int, float]:
    among = tantivy.Query.boost_query(rows_query(kind, rowids), 0.0)
    holds = tantivy.Query.term_query(kind.schema, field, term, index_option="freq")
    query = tantivy.Query.boolean_query([(tantivy.Occur.Must, among), (tantivy.Occur.Must, holds)])
    hits = searcher.search(query, len(rowids), count=False).hits
    found = unsigned_values(searcher, ROWID, [address for _, address in hits])
    return {rowid: score for rowid, (score, _) in zip(found, hits, strict=True)}


def _engine_average(searcher: tantivy.Searcher, kind: IndexKind, counts: Counts, terms: Sequence[str]) -> float:
    """tantivy's average length of the field as its scores use it: its explanation of a term's score is
    where the bindings show it (0 where no live document holds a term). It is the field's, whatever the
    term, so the rarest term a live document holds is asked (the cheapest to score; one only dead
    documents hold finds nothing to explain), once per noted index."""
    if counts.engine_average is None:
        held = min(((counts.holding[term], term) for term in terms if counts.holding[term] > 0), default=None)
        counts.engine_average = 0.0
        if held is not None:
            query = tantivy.Query.term_query(kind.schema, counts.field, held[1], index_option="freq")
            scored = searcher.search(query, 1, count=False).hits
            counts.engine_average = _average_in(json.loads(query.explain(searcher, scored[0][1]).to_json())) if scored else 0.0
        if counts.kept_averages is not None and counts.engine_average > 0:
            counts.kept_averages[counts.field] = counts.engine_average
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
    return float(np.float32(value))


def _frequency(score: float, weight: float, norm: float) -> float:
    """The term's frequency in the row, read back from the engine's score for it: score = weight · f / (f + norm).
    A score at the weight itself (a count so high single precision cannot tell it from saturation) reads
    as the highest count it can tell."""
    return float(round(score * norm / max(weight - score, weight * _SINGLE_PRECISION)))
