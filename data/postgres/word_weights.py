"""What the ranking model needs to know of a tenant's rows (domain/relevance.py's Collection): how many,
their average length in terms and how many hold each query term, read from the server's GIN indexes;
and the pool of rows a keyword search ranks.

Messages' counts are exact, read from the table the server keeps (term_counts.py). Sessions' are
counted from their GIN postings and stop at DF_CAP rows: past that a word is common whatever its
exact count, and counting further would cost a search more than the ranking gains. The row total and the average length are read again
every RECOUNT_AFTER searches (or sooner, when a count shows them out of date): they move the weights
little, and reading them costs more than the rest of a search on a large tenant.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

from oneclaw_search.data.postgres.daos import TURN_TYPES
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.term_counts import message_counts
from oneclaw_search.data.text.analyzer import text_terms
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.window_bm25 import Collection

DF_CAP = 2_000
RECOUNT_AFTER = 200
LENGTH_SAMPLE = 500  # the newest rows whose average length in terms stands for all of them
_COUNTS = """SELECT l, (SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {column} @@ l::tsquery LIMIT {cap}) x)
    FROM unnest(%s::text[]) AS l"""


def lexeme(term: str, weight: str | None = None) -> str:
    """A term of the keyword index's analyzer as a tsquery lexeme (both stem with Snowball's English),
    optionally only where it carries `weight` (a session's title is weight A)."""
    return "'" + term.replace("'", "''") + "'" + (f":{weight}" if weight else "")


def tsquery(clause: Sequence[str], weight: str | None = None) -> str:
    """A keyword as a tsquery: its one term, or its terms side by side (a typed identifier, a path)."""
    return " <-> ".join(lexeme(term, weight) for term in clause)


def document_counts(history: PostgresHistory, table: str, column: str, lexemes: Sequence[str],
                    deadline: Deadline | None = None, cap: int = DF_CAP) -> dict[str, int]:
    """How many of the tenant's rows hold each tsquery lexeme in `column`, counted up to `cap`, in one statement."""
    if not lexemes:
        return {}
    rows = history.rows(_COUNTS.format(table=table, column=column, cap=int(cap)), (list(lexemes),), deadline)
    return {found: int(count) for found, count in rows}


def candidate_pool(table: str, column: str, lexemes: list[str], weights: list[float], after: int, before: int,
                   within: Within | None, size: int) -> tuple[str, list[object]]:
    """SQL for the messages a keyword search ranks (id, created_at and score: the weights of the
    keywords each holds), and its parameters: the newest `size` holding every keyword (each a
    tsquery), and the newest `size` holding each. Ranking every row that holds any would cost a
    common word's whole posting list, every search; the best rows hold the rare words, or all of them.
    Each row is scored as it is read, so the pool needs no second reading."""
    types = sorted(set(TURN_TYPES) & within.types) if within is not None and within.types is not None else TURN_TYPES
    sessions, narrowed = "", list[object]()
    if within is not None and within.sessions is not None:
        sessions, narrowed = " AND p.session_id = ANY(%s)", [sorted(within.sessions)]
    queries = [" & ".join(f"({match})" for match in lexemes)] + (lexemes if len(lexemes) > 1 else [])
    score = " + ".join([f"%s * (p.{column} @@ %s::tsquery)::int"] * len(lexemes))
    scored = [v for pair in zip(weights, lexemes, strict=True) for v in pair]
    part = (f"(SELECT p.id, p.created_at, {score} AS score FROM {table} p WHERE p.{column} @@ %s::tsquery "
            f"AND p.created_at BETWEEN %s AND %s AND p.type = ANY(%s){sessions} ORDER BY p.created_at DESC LIMIT %s)")
    return " UNION ".join([part] * len(queries)), [v for q in queries for v in (*scored, q, after, before, types,
                                                                                  *narrowed, size)]


class WordWeights:
    def __init__(self, history: PostgresHistory, table: str, column: str, text: str, weight: str | None = None) -> None:
        self._history = history
        self._table, self._column, self._weight = table, column, weight
        # Messages count as the keyword index counts them: the user and assistant turns, not tool rows.
        order, kept = ("seq DESC", "WHERE type = ANY(%s)") if table == "messages" else ("updated_at DESC", "")
        self._totals_params = [list(TURN_TYPES)] * 2 if kept else []
        self._totals_sql = f"SELECT count(*), (SELECT array_agg({text}) FROM (SELECT {text} FROM {table} {kept} " \
                           f"ORDER BY {order} LIMIT {LENGTH_SAMPLE}) newest) FROM {table} {kept}"
        self._totals: tuple[int, float, int] | None = None  # (rows, average length, searches since read)
        self._lock = threading.Lock()

    def collection(self, terms: list[str], deadline: Deadline | None) -> Collection:
        """The tenant's rows as BM25 sees them, for these query terms: messages' counts from the table the
        server keeps (term_counts.py), sessions' (a table a hundredth the size) from their GIN postings."""
        if self._table == "messages":
            counts = message_counts(self._history, terms, deadline)
        else:
            lexemes = {term: lexeme(term, self._weight) for term in terms}
            counted = document_counts(self._history, self._table, self._column, list(lexemes.values()), deadline)
            counts = {term: counted.get(found, 0) for term, found in lexemes.items()}
        rows, average = self._rows(max(counts.values(), default=0), deadline)
        return Collection(rows, average, {term: counts.get(term, 0) for term in terms})

    def _rows(self, at_least: int, deadline: Deadline | None) -> tuple[int, float]:
        with self._lock:
            known = self._totals
            if known is not None and known[0] >= at_least and known[2] < RECOUNT_AFTER:
                self._totals = (known[0], known[1], known[2] + 1)
                return known[0], known[1]
        count, texts = self._history.rows(self._totals_sql, self._totals_params, deadline)[0]
        lengths = [len(text_terms(text)) for text in texts or [] if text]
        average = sum(lengths) / len(lengths) if lengths else 0.0
        with self._lock:
            self._totals = (int(count), average, 0)
        return max(int(count), at_least, 1), average
