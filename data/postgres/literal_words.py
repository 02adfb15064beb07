"""The messages' literal reading through their own words (FEAT-032's LIKE, AC-07, Q-04, Q-07): a CJK
needle is looked up by its characters, and a needle of two or more ASCII words that begins and ends
on a word by the phrase of its words, over the `words` tsvector's positions (`<->`); every row found
is checked as written.

CJK characters are words of their own, so every row holding a CJK needle holds the phrase of its
characters: those rows are its reading, paged newest first (a row holding it only in compatibility
forms, which the fold maps onto it, is not found: specs/divergences.md). A needle of words is read so
only when the newest rows holding its phrase show more rows holding it than asked for, as on SQLite
(literal_scan.py): rows holding it inside a longer word are then passed over.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oneclaw_search.data.history.literal_scan import phrase_candidates
from oneclaw_search.data.postgres.database import PostgresHistory, Rows
from oneclaw_search.data.postgres.folded import folded_walk
from oneclaw_search.data.postgres.pools import spans
from oneclaw_search.data.postgres.windows import quoted, tenant_mark
from oneclaw_search.data.text.analyzer import ON_WORDS, analyze
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.search_terms import is_cjk

# Each row read is searched for the needle in its stored fold, which no index answers: a pattern the
# trigram index could take would have it asked, and for a short needle it names every row.
_FOLDED = folded_walk("m.content", ascii_needle=True)
_NEWEST = f"""WITH held AS MATERIALIZED (SELECT m.tenant, m.id, m.session_id, m.type, m.content, m.folded, m.created_at FROM messages m
        WHERE m.words @@ %s::tsquery AND m.created_at BETWEEN %s AND %s{{narrowed}} ORDER BY m.created_at DESC, m.id LIMIT %s),
    found AS (SELECT {{columns}} FROM held m {{sessions}} WHERE {_FOLDED} AND s.deleted_at IS NULL
        ORDER BY m.created_at DESC, m.id LIMIT %s)
    SELECT (SELECT count(*) FROM held), found.* FROM (SELECT 1) one LEFT JOIN found ON true ORDER BY found.created_at DESC, found.id"""
_EVERY = f"""SELECT {{columns}} FROM messages m {{sessions}} WHERE m.words @@ %s::tsquery AND {_FOLDED}
    AND m.created_at BETWEEN %s AND %s{{narrowed}} AND s.deleted_at IS NULL ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s"""


@dataclass(frozen=True)
class Phrase:
    """A needle read by its words: its tsquery, its terms, and whether its rows are the whole reading."""
    tsquery: str
    terms: list[str]
    whole: bool


def phrase_of(query: str, tenant: str) -> Phrase | None:
    """The needle as a phrase of the tenant's lexemes; None when it is not read by its words (one word,
    whose phrase is its stem's rows; a needle beginning or ending inside a word; other scripts, whose
    letters may fold apart from the words')."""
    terms = list(analyze(query))  # as SQLite's phrase: the needle's own words, not the parts of its names
    if is_cjk(query):
        whole = True
    elif query.isascii() and ON_WORDS.fullmatch(query) and len(terms) >= 2:
        whole = False
    else:
        return None
    mark = tenant_mark(tenant)
    return Phrase(" <-> ".join(quoted(mark + term) for term in terms), terms, whole)


class PhraseReading:
    """The rows holding a phrase and the needle, newest first, read first from the time its counts say
    the newest of them begin (pools.py), and over the whole window when that span holds too few."""

    def __init__(self, history: PostgresHistory, phrase: Phrase, text: str, window: Sequence[int],
                 narrowed: tuple[str, list[object]], columns: tuple[str, str], deadline: Deadline | None) -> None:
        self._history, self._phrase, self._text, self._window = history, phrase, text, window
        self._narrowed, self._columns, self._deadline = narrowed, columns, deadline
        self.whole = phrase.whole

    def since(self, wanted: int, held: tuple[int, int] | None) -> int | None:
        """Where `wanted` rows of the phrase begin, `held` (at most how many of how many turns hold it)
        being known; None: the whole window."""
        if held is None:
            return None
        return spans(self._history, [held[0]], held[1], wanted, self._window[0], self._window[1], self._deadline)[0]

    def every(self, since: int | None) -> Callable[[int, int], Rows]:
        """A page reader over every row holding the phrase and the needle."""
        sql = _EVERY.format(columns=self._columns[0], sessions=self._columns[1], narrowed=self._narrowed[0])

        def read(start: int, size: int, skip: int) -> Rows:
            return self._history.rows(sql, [self._phrase.tsquery, self._text, start, self._window[1], *self._narrowed[1],
                                            size, skip], self._deadline)

        def page(size: int, skip: int) -> Rows:
            rows = read(since, size, skip) if since is not None else []
            return rows if len(rows) == size else read(self._window[0], size, skip)
        return page

    def newest(self, limit: int, since: int | None) -> Rows:
        """Among the newest rows holding the phrase (as many as SQLite's reading takes), up to `limit` + 1
        holding the needle."""
        sql = _NEWEST.format(columns=self._columns[0], sessions=self._columns[1], narrowed=self._narrowed[0])

        def read(start: int) -> Rows:
            return self._history.rows(sql, [self._phrase.tsquery, start, self._window[1], *self._narrowed[1],
                                            phrase_candidates(limit), self._text, limit + 1], self._deadline)
        rows = read(since) if since is not None else []
        if not rows or rows[0][0] < phrase_candidates(limit):
            rows = read(self._window[0])
        return [row[1:] for row in rows if row[1] is not None]
