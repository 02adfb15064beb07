"""Questions put to the keyword index: a keyword search's best rows, ranked by the ranking model as
tantivy computes it (BM25 over each message's window and its own words, each session's title), with
the statistics the model needs for rows it scores itself (Q-01, Q-02).

Answers are history rowids; callers re-read those rows from the history and re-check them, so the
index narrows a search but never invents a hit.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import tantivy

from oneclaw_search.data.index.keyword_index import KeywordIndex
from oneclaw_search.data.index.live_scores import rescored, spread, statistics
from oneclaw_search.data.index.schema import AT, FINGERPRINT, MESSAGES, ROLE, ROWID, SESSION, IndexKind, rows_query, unsigned_values
from oneclaw_search.data.text.analyzer import analyze
from oneclaw_search.data.text.keywords import Clause, clause_terms, clauses
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.ports import NO_UPPER_BOUND
from oneclaw_search.domain.window_bm25 import Statistics

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
    """A clause keeping rows to the window, adding nothing to any row's score (a range scores 1 alone)."""
    if after <= 0 and before >= NO_UPPER_BOUND:
        return []
    window = tantivy.Query.range_query(kind.schema, AT, tantivy.FieldType.Integer, after, before)
    return [(tantivy.Occur.Must, tantivy.Query.boost_query(window, 0.0))]


def narrowed_to(kind: IndexKind, within: Within | None) -> list[Subquery]:
    """Clauses keeping a search inside `within` (its sessions; for messages, its types), adding
    nothing to any row's score."""
    if within is None:
        return []
    wanted = [(SESSION, within.sessions), (ROLE, within.types if kind is MESSAGES else None)]
    return [(tantivy.Occur.Must, tantivy.Query.boost_query(tantivy.Query.term_set_query(kind.schema, field, sorted(values)), 0.0))
            for field, values in wanted if values is not None]


@dataclass(frozen=True)
class Ranked:
    """What one ranked question to the index found: each row's score (the ranking model as the engine
    computes it: BM25 over a message's window and own words, or a session's title, over the live
    documents' statistics) and the fingerprint of the text it was written with; and those statistics
    for the query's terms, for rows the model scores itself."""

    scores: dict[int, float]
    fingerprints: dict[int, int]
    statistics: Callable[[], Statistics]
    whole: bool = False  # no row left unread could tie with the last row kept: the same rows on every build


def ranked_rowids(keyword: KeywordIndex, kind: IndexKind, query: HistoryQuery, window: tuple[int, int], limit: int,
                  within: Within | None = None, hidden: Sequence[str] = (), among: Sequence[int] | None = None) -> Ranked:
    """The best `limit` rows by the ranking model's BM25, each holding a query term in its own words
    (and every quoted phrase), in the window and `within`, not of the `hidden` sessions; with `among`,
    those rows' scores instead, whether or not they hold a term."""
    found = clauses(query.raw)
    searcher = keyword.searcher(kind)
    terms = clause_terms(found)
    fields = keyword.live.counts(searcher, kind, terms, keyword.layout.words_alone)
    if (not found and among is None) or limit <= 0 or searcher.num_docs == 0:
        return Ranked({}, {}, partial(statistics, fields, terms))
    own = tantivy.Query.boolean_query([(tantivy.Occur.Should, words_match(kind, clause)) for clause in found])
    scored = [(tantivy.Occur.Should, tantivy.Query.term_query(kind.schema, counts.field, term, index_option="freq"))
              for counts in fields for term in terms]
    rescore = partial(rescored, searcher, kind, terms, fields=fields)
    if among is not None:
        chosen = rows_query(kind, among)
        question = tantivy.Query.boolean_query([(tantivy.Occur.Must, tantivy.Query.boost_query(chosen, 0.0)),
                                                (tantivy.Occur.Should, tantivy.Query.boost_query(own, 0.0)), *scored])
        hits = rescore(searcher.search(question, max(len(among), 1), count=False).hits)
    else:
        phrases = [(tantivy.Occur.Must, tantivy.Query.boost_query(_anywhere(kind, words), 0.0))
                   for phrase in query.phrases if (words := analyze(phrase))]
        hidden_rows = [(tantivy.Occur.MustNot, tantivy.Query.term_set_query(kind.schema, SESSION, list(hidden)))] if hidden else []
        question = tantivy.Query.boolean_query([(tantivy.Occur.Must, tantivy.Query.boost_query(own, 0.0)), *scored, *phrases,
                                                *window_clauses(kind, *window), *narrowed_to(kind, within), *hidden_rows])
        hits, whole = _best(searcher, question, limit, rescore, partial(spread, searcher, kind, fields, terms))
    addresses = [address for _, address in hits]
    rowids = unsigned_values(searcher, ROWID, addresses)
    scores = {rowid: score for rowid, (score, _) in zip(rowids, hits, strict=True)}
    fingerprints = dict(zip(rowids, unsigned_values(searcher, FINGERPRINT, addresses), strict=True))
    return Ranked(scores, fingerprints, partial(statistics, fields, terms), among is not None or whole)


Hits = list[tuple[float, tantivy.DocAddress]]


def _held(read: Hits, done: int, limit: int, rescore: Callable[[Hits], Hits],
          spread: tuple[float, float] | None) -> list[tuple[float, tantivy.DocAddress] | None]:
    """The rows of `read` past the first `done`, held to the live statistics; None for a row that
    cannot reach the best `limit` rows: its live score stays within `spread` of the engine's, so a row
    the engine scores far enough below the `limit`-th cannot rise to meet that row's."""
    fresh = read[done:]
    floor = 0.0 if spread is None or len(read) <= limit else spread[0] * read[limit - 1][0] / spread[1]
    at = [n for n, (score, _) in enumerate(fresh) if score >= floor]
    found: list[tuple[float, tantivy.DocAddress] | None] = [None] * len(fresh)
    for n, hit in zip(at, rescore([fresh[n] for n in at]), strict=True):
        found[n] = hit
    return found


def _best(searcher: tantivy.Searcher, question: tantivy.Query, limit: int, rescore: Callable[[Hits], Hits],
          bounds: Callable[[], tuple[float, float] | None]) -> tuple[Hits, bool]:
    """The best `limit` rows with their scores over the live statistics; among rows tied at the cut, the
    newest. The engine's order is read as far past the cut as ties are looked for (searching again on a
    tie cost more than reading further at once), and, where its statistics are not the live ones,
    further while a row past what was read could still score above the cut once held to them
    (`bounds`: the least and most ratio of a live score to the engine's, None where the engine's scores
    are the live ones). A row that could at most equal the cut is not read: among equals, those read
    are kept, as the engine's own order keeps them. Also whether no row left unread could tie with the
    last row kept (the rows kept are then the same on every build)."""
    wanted = limit * TIED_READS
    scored: list[tuple[float, tantivy.DocAddress] | None] = []  # each row read, held to the live statistics
    spread = bounds()
    while True:
        read = searcher.search(question, wanted, count=False).hits  # the rows read before, then more
        scored += _held(read, len(scored), limit, rescore, spread)
        hits = sorted((hit for hit in scored if hit is not None), key=lambda hit: -hit[0])
        # every row read: nothing past them to bound
        most = None if spread is None or len(read) < wanted else max(1.0, spread[1])
        if most is None or (len(hits) >= limit and hits[limit - 1][0] >= most * read[-1][0]):
            break
        wanted *= 2
    whole = len(read) < wanted or len(hits) < limit or hits[limit - 1][0] > (1.0 if most is None else most) * read[-1][0]
    if len(hits) <= limit or hits[limit - 1][0] != hits[limit][0]:
        return hits[:limit], whole
    cut = hits[limit - 1][0]
    above = [hit for hit in hits if hit[0] > cut]
    tied = [hit for hit in hits if hit[0] == cut]
    newest = sorted(zip(unsigned_values(searcher, ROWID, [address for _, address in tied]), range(len(tied)), strict=True),
                    reverse=True)
    return above + [tied[at] for _, at in newest[:limit - len(above)]], whole
