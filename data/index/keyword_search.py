"""Questions put to the keyword index: keyword hits ranked by tantivy's BM25, and the candidates of
the spec's literal reading (rows holding every trigram of the folded query), newest first (Q-01, Q-02).

Answers are history rowids; callers re-read those rows from the history and re-check them, so the
index narrows a search but never invents a hit.
"""
from __future__ import annotations

import math
import re
from itertools import pairwise

import tantivy

from oneclaw_search.data.index.analyzer import analyze
from oneclaw_search.data.index.keyword_index import KeywordIndex, unsigned_values
from oneclaw_search.data.index.schema import AT, FINGERPRINT, LITERAL, ROLE, ROWID, SESSION, IndexKind
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.search_terms import is_cjk, plain
from oneclaw_search.domain.stopwords import STOPWORDS

TRIGRAM = 3
MAX_TRIGRAMS = 16  # tantivy intersects lists from the rarest up: more trigrams cost little, and cut look-alikes
Clause = tuple[str, ...]  # index terms that must stand together (one term, or a phrase)
Subquery = tuple[tantivy.Occur, tantivy.Query]  # a clause of a boolean query
_EDGES = re.compile(r"^\W+|\W+$")


def clauses(raw: str) -> list[Clause]:
    """The query's keywords, each typed word one clause: a word of several terms (a path, a
    camelCase name) is a phrase of them, a CJK word its character pairs; stopwords alone drop out."""
    found: list[Clause] = []
    for chunk in raw.replace('"', " ").split():
        terms = analyze(chunk)
        if len(terms) == 1 and plain(_EDGES.sub("", chunk)) in STOPWORDS:
            continue
        if len(terms) > 1 and all(is_cjk(term) for term in terms):
            found += list(pairwise(terms))
        elif terms:
            found.append(terms)
    return list(dict.fromkeys(found))


def _match(kind: IndexKind, field: str, clause: Clause) -> tantivy.Query:
    if len(clause) == 1:
        return tantivy.Query.term_query(kind.schema, field, clause[0], index_option="freq")
    if field not in kind.phrase_fields:  # a field without positions: the words need only be there
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, _match(kind, field, (term,))) for term in clause])
    return tantivy.Query.phrase_query(kind.schema, field, list(clause))


def _any(queries: list[tantivy.Query], at_least: int = 1) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, query) for query in queries], at_least)


def _window(kind: IndexKind, after: int, before: int) -> list[Subquery]:
    if after <= 0 and before >= NO_UPPER_BOUND:
        return []
    window = tantivy.Query.range_query(kind.schema, AT, tantivy.FieldType.Integer, after, before)
    return [(tantivy.Occur.Must, window)]


def narrowed_to(kind: IndexKind, within: Within | None) -> list[Subquery]:
    """Clauses keeping a search inside `within` (its sessions; for messages, its types), adding
    nothing to any row's score."""
    if within is None:
        return []
    wanted = [(SESSION, within.sessions), (ROLE, within.types if kind.own is not None else None)]
    return [(tantivy.Occur.Must, tantivy.Query.boost_query(tantivy.Query.term_set_query(kind.schema, field, sorted(values)), 0.0))
            for field, values in wanted if values is not None]


def _weighted(kind: IndexKind, field: str, weight: float, clause: Clause) -> tantivy.Query:
    query = _match(kind, field, clause)
    return query if weight == 1.0 else tantivy.Query.boost_query(query, weight)


def _keyword_query(kind: IndexKind, found: list[Clause], phrases: list[Clause]) -> tantivy.Query:
    """Every keyword in every field, weighted, summed: a plain disjunction, which tantivy ranks
    with block-max WAND (best-field-per-keyword and an admission clause inside the query would
    take it several times as long on a large history). Which rows count is asked afterwards, of
    the few best (`admitted`)."""
    scored = [_weighted(kind, field, weight, clause) for clause in found for field, weight in kind.fields]
    must = [(tantivy.Occur.Must, _any([_match(kind, field, phrase) for field in kind.phrase_fields])) for phrase in phrases]
    return tantivy.Query.boolean_query([*must, (tantivy.Occur.Should, _any(scored))])


def admitted(keyword: KeywordIndex, kind: IndexKind, rowids: list[int], found: list[Clause]) -> tuple[set[int], set[int]]:
    """Those of `rowids` holding one of the keywords in their own words, and those holding none
    there but two or more in their window (one keyword found only in another turn is no hit)."""
    if not rowids:
        return set(), set()
    if kind.own is None:  # only message windows mix in other rows' words; sessions have no own-words field
        raise ValueError(f"the {kind.name} index has no field of a row's own words")
    own = _any([_match(kind, field, clause) for clause in found for field in (kind.own, *(f for f, _ in kind.fields[1:]))])
    holding = _among(keyword, kind, rowids, own)
    if len(found) < 2:
        return holding, set()
    around = _any([_any([_match(kind, field, clause) for field, _ in kind.fields]) for clause in found], 2)
    return holding, _among(keyword, kind, rowids, around) - holding


def _among(keyword: KeywordIndex, kind: IndexKind, rowids: list[int], query: tantivy.Query) -> set[int]:
    rows = tantivy.Query.term_set_query(kind.schema, ROWID, list(rowids))
    searcher = keyword.searcher(kind)
    hits = searcher.search(tantivy.Query.boolean_query([(tantivy.Occur.Must, rows), (tantivy.Occur.Must, query)]),
                           len(rowids), count=False).hits
    return set(unsigned_values(searcher, ROWID, [address for _, address in hits]))


def keyword_hits(keyword: KeywordIndex, kind: IndexKind, query: HistoryQuery, after: int, before: int,
                 limit: int, within: Within | None = None) -> tuple[dict[int, float], dict[int, int]]:
    """The best `limit` rows (rowid → coverage: BM25 divided by what a row holding each keyword
    once would score), best first, and the fingerprint of the text each was indexed with; every
    quoted phrase's words must stand together in the row."""
    found = clauses(query.raw)
    if not found or limit <= 0:
        return {}, {}
    phrases = [tuple(terms) for phrase in query.phrases if (terms := analyze(phrase))]
    searcher = keyword.searcher(kind)
    total = searcher.num_docs
    if total == 0:
        return {}, {}
    main = kind.own or kind.main_field
    ideal = kind.ideal_scale * sum(bm25_idf(total, searcher.doc_freq(main, term)) for clause in found for term in clause) or 1.0
    query_ = tantivy.Query.boolean_query([(tantivy.Occur.Must, _keyword_query(kind, found, phrases)),
                                          *_window(kind, after, before), *narrowed_to(kind, within)])
    hits = searcher.search(query_, limit, count=False).hits
    addresses = [address for _, address in hits]
    rowids = unsigned_values(searcher, ROWID, addresses)
    return ({rowid: score / ideal for (score, _), rowid in zip(hits, rowids, strict=True)},
            dict(zip(rowids, unsigned_values(searcher, FINGERPRINT, addresses), strict=True)))


def bm25_idf(total: int, holding: int) -> float:
    """tantivy's BM25 idf, so a row holding each keyword once at average length scores their sum."""
    return math.log(1 + (total - holding + 0.5) / (holding + 0.5))


def literal_rowids(keyword: KeywordIndex, kind: IndexKind, needle: str, after: int, before: int,
                   limit: int, offset: int = 0, within: Within | None = None) -> list[int] | None:
    """Rowids, newest first, of rows that may hold the folded text `needle` (to be re-checked);
    None when it is too short for trigrams and not CJK (the caller then scans)."""
    searcher = keyword.searcher(kind)
    if len(needle) < TRIGRAM:
        if not is_cjk(needle):
            return None
        terms = analyze(needle)
        match = _any([_match(kind, field, terms) for field in kind.phrase_fields])
    else:
        grams = {needle[i:i + TRIGRAM] for i in range(len(needle) - TRIGRAM + 1)}
        counts = sorted((searcher.doc_freq(LITERAL, gram), gram) for gram in grams)
        if counts[0][0] == 0:
            return []
        match = tantivy.Query.boolean_query([
            (tantivy.Occur.Must, tantivy.Query.term_query(kind.schema, LITERAL, gram, index_option="basic"))
            for _, gram in counts[:MAX_TRIGRAMS]])
    query = tantivy.Query.boolean_query([(tantivy.Occur.Must, match), *_window(kind, after, before),
                                         *narrowed_to(kind, within)])
    hits = searcher.search(query, limit, count=False, order_by_field=AT, offset=offset).hits
    return unsigned_values(searcher, ROWID, [address for _, address in hits])
