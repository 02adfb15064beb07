"""The spec's literal reading on the keyword index (Q-04, Q-11): the rows that may hold a folded text,
newest first, for the history to re-read and re-check. A needle of three characters or more is looked
up by its trigrams, a shorter CJK one by its characters as a phrase; a needle that begins and ends on
a word may also be looked up as a phrase of its words, which finds the rows holding it between words.
"""
from __future__ import annotations

import tantivy

from oneclaw_search.data.index.keyword_index import KeywordIndex
from oneclaw_search.data.index.keyword_search import narrowed_to, window_clauses, words_match
from oneclaw_search.data.index.schema import AT, LITERAL, ROWID, IndexKind, unsigned_values
from oneclaw_search.data.text.analyzer import ON_WORDS, TRIGRAM, analyze
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.search_terms import is_cjk

MAX_TRIGRAMS = 16  # tantivy intersects lists from the rarest up: more trigrams cost little, and cut look-alikes


def literal_rowids(keyword: KeywordIndex, kind: IndexKind, needle: str, after: int, before: int, limit: int,
                   offset: int = 0, within: Within | None = None, by_words: bool = False) -> list[int] | None:
    """Rowids, newest first, of rows that may hold the folded text `needle` (to be re-checked);
    None when it is too short for trigrams and, not being CJK, cannot be looked up by its words
    instead (the caller then scans). `by_words`: the rows whose words hold the needle's words in a
    row instead, which leaves out rows holding it only inside a longer word; None when it does not
    begin and end on a word."""
    searcher = keyword.searcher(kind)
    found = _as_words(searcher, kind, needle) if by_words else _lookup(searcher, kind, needle)
    if found is None or not found[1]:
        return None if found is None else []
    clauses = [(tantivy.Occur.Must, found[0]), *window_clauses(kind, after, before), *narrowed_to(kind, within)]
    hits = searcher.search(tantivy.Query.boolean_query(clauses), limit, count=False, order_by_field=AT, offset=offset).hits
    return unsigned_values(searcher, ROWID, [address for _, address in hits])


def literal_share(keyword: KeywordIndex, kind: IndexKind, needle: str) -> float | None:
    """At most what share of the rows hold the folded `needle`: that of its rarest gram (or CJK
    character); None where literal_rowids cannot look it up."""
    searcher = keyword.searcher(kind)
    found = _lookup(searcher, kind, needle)
    return None if found is None else found[1] / max(searcher.num_docs, 1)


def _as_words(searcher: tantivy.Searcher, kind: IndexKind, needle: str) -> tuple[tantivy.Query, int] | None:
    """The phrase of the needle's words in any field holding a row's words, and 1 (whether any row
    holds it is for the search to say). Only for ASCII: the index takes its words from a row's text as
    written, and some letters fold apart from it (a final sigma, a dotted capital I), so a phrase of the
    folded needle's words would pass over rows holding it. Not for one word, whose rows are its stem's,
    most of them holding another word of that stem."""
    if not needle.isascii() or not ON_WORDS.fullmatch(needle) or len(terms := analyze(needle)) < 2:
        return None
    return _in_words(kind, terms), 1


def _in_words(kind: IndexKind, terms: tuple[str, ...]) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, words_match(kind, terms, field)) for field in kind.literal_words])


def _lookup(searcher: tantivy.Searcher, kind: IndexKind, needle: str) -> tuple[tantivy.Query, int] | None:
    """The query for rows that may hold `needle`, and how many rows hold its rarest part."""
    if len(needle) < TRIGRAM:
        if not is_cjk(needle):
            return None
        terms = analyze(needle)
        holding = (sum(searcher.doc_freq(field, term) for field in kind.literal_words) for term in terms)
        return _in_words(kind, terms), min(holding, default=0)
    grams = {needle[i:i + TRIGRAM] for i in range(len(needle) - TRIGRAM + 1)}
    counts = sorted((searcher.doc_freq(LITERAL, gram), gram) for gram in grams)
    match = tantivy.Query.boolean_query([
        (tantivy.Occur.Must, tantivy.Query.term_query(kind.schema, LITERAL, gram, index_option="basic"))
        for _, gram in counts[:MAX_TRIGRAMS]])
    return match, counts[0][0]
