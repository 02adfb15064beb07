"""Questions put to the keyword index: the candidates of a keyword search (the best rows by tantivy's
BM25 over their own words) with the statistics the ranking model needs (Q-01, Q-02).

Answers are history rowids; callers re-read those rows from the history and re-check them, so the
index narrows a search but never invents a hit.
"""
from __future__ import annotations

import json
from typing import Any

import tantivy

from oneclaw_search.data.index.keyword_index import KeywordIndex, unsigned_values
from oneclaw_search.data.index.schema import AT, FINGERPRINT, MESSAGES, ROLE, ROWID, SESSION, IndexKind
from oneclaw_search.data.text.analyzer import analyze
from oneclaw_search.data.text.keywords import Clause, clause_terms, clauses
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.relevance import Collection

# How far past the cut a search looks when rows tie there: the rows tantivy would cut among equals
# depend on how a build laid out its segments, so the newest of them are kept instead, the same on
# every build (up to this many times the rows asked for).
TIED_READS = 4
Subquery = tuple[tantivy.Occur, tantivy.Query]  # a clause of a boolean query


def words_match(kind: IndexKind, clause: Clause, field: str | None = None) -> tantivy.Query:
    field = field or kind.words
    if len(clause) == 1:
        return tantivy.Query.term_query(kind.schema, field, clause[0], index_option="freq")
    return tantivy.Query.phrase_query(kind.schema, field, list(clause))


def _anywhere(kind: IndexKind, clause: Clause) -> tantivy.Query:
    """A quoted phrase in any field holding the row's text (a session's preview too): where the
    history's own test of a phrase looks."""
    if len(kind.literal_words) == 1:
        return words_match(kind, clause)
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, words_match(kind, clause, field)) for field in kind.literal_words])


def window_clauses(kind: IndexKind, after: int, before: int) -> list[Subquery]:
    if after <= 0 and before >= NO_UPPER_BOUND:
        return []
    window = tantivy.Query.range_query(kind.schema, AT, tantivy.FieldType.Integer, after, before)
    return [(tantivy.Occur.Must, window)]


def narrowed_to(kind: IndexKind, within: Within | None) -> list[Subquery]:
    """Clauses keeping a search inside `within` (its sessions; for messages, its types), adding
    nothing to any row's score."""
    if within is None:
        return []
    wanted = [(SESSION, within.sessions), (ROLE, within.types if kind is MESSAGES else None)]
    return [(tantivy.Occur.Must, tantivy.Query.boost_query(tantivy.Query.term_set_query(kind.schema, field, sorted(values)), 0.0))
            for field, values in wanted if values is not None]


def keyword_rowids(keyword: KeywordIndex, kind: IndexKind, query: HistoryQuery, after: int, before: int, limit: int,
                   within: Within | None = None) -> tuple[dict[int, int], Collection]:
    """The best `limit` rows by BM25 over their own words (rowid → the fingerprint of the text each
    was indexed with), every quoted phrase standing in each; and the statistics of the index's rows."""
    found = clauses(query.raw)
    searcher = keyword.searcher(kind)
    if not found or limit <= 0 or searcher.num_docs == 0:
        return {}, Collection(searcher.num_docs, 0.0, dict.fromkeys(clause_terms(found), 0))
    phrases = [(tantivy.Occur.Must, _anywhere(kind, tuple(terms))) for phrase in query.phrases if (terms := analyze(phrase))]
    words = tantivy.Query.boolean_query([(tantivy.Occur.Should, words_match(kind, clause)) for clause in found])
    question = tantivy.Query.boolean_query([(tantivy.Occur.Must, words), *phrases, *window_clauses(kind, after, before),
                                            *narrowed_to(kind, within)])
    addresses = _best(searcher, question, limit)
    rowids = dict(zip(unsigned_values(searcher, ROWID, addresses), unsigned_values(searcher, FINGERPRINT, addresses),
                      strict=True))
    average = _average_length(words, searcher, addresses[0]) if addresses else 0.0
    holding = {term: searcher.doc_freq(kind.words, term) for term in clause_terms(found)}
    return rowids, Collection(searcher.num_docs, average, holding)


def _best(searcher: tantivy.Searcher, question: tantivy.Query, limit: int) -> list[tantivy.DocAddress]:
    """The best `limit` rows; among rows tied at the cut, the newest. One search reads as far past
    the cut as ties are looked for: searching again on a tie cost more than reading further at once."""
    hits = searcher.search(question, limit * TIED_READS, count=False).hits
    if len(hits) <= limit or hits[limit - 1][0] != hits[limit][0]:
        return [address for _, address in hits[:limit]]
    cut = hits[limit - 1][0]
    above = [address for score, address in hits if score > cut]
    tied = [address for score, address in hits if score == cut]
    newest = sorted(zip(unsigned_values(searcher, ROWID, tied), range(len(tied)), strict=True), reverse=True)
    return above + [tied[at] for _, at in newest[:limit - len(above)]]


def _average_length(question: tantivy.Query, searcher: tantivy.Searcher, address: tantivy.DocAddress) -> float:
    """The words field's average length in terms, as tantivy's BM25 reads it: its explanation of a
    hit is the one place the bindings show it."""
    explained = json.loads(question.explain(searcher, address).to_json())
    return _found_average(explained) or 0.0


def _found_average(node: Any) -> float | None:
    if isinstance(node, dict):
        if str(node.get("description", "")).startswith("avgdl"):
            return float(node["value"])
        node = node.get("details", [])
    for child in node if isinstance(node, list) else []:
        value = _found_average(child)
        if value is not None:
            return value
    return None
