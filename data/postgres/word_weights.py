"""How rare each of a query's words is among a tenant's rows: the inverse document frequencies
keyword coverage weighs words by, as BM25 does (ts_rank_cd has none), read from the GIN indexes.
The idf is the keyword index's own (bm25_idf, tantivy's formula): only the counts come from the
server, where the rows are, so neither tantivy nor rank-bm25 can count them.

Counts stop at DF_CAP rows: past that a word is common whatever its exact count, and counting
further would cost a search more than the ranking gains. The tenant's row total is counted once
every RECOUNT_AFTER searches (or sooner, when a word's count shows it is out of date): it moves
the weights little, and counting a large tenant's rows costs more than the rest of a search.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

from oneclaw_search.data.index.keyword_search import bm25_idf
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.domain.clock import Deadline

DF_CAP = 2_000
RECOUNT_AFTER = 200
_COUNTS = """SELECT l, (SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {column} @@ quote_literal(l)::tsquery LIMIT {cap}) x)
    FROM unnest(%s::text[]) AS l"""


def document_counts(history: PostgresHistory, table: str, column: str, lexemes: Sequence[str],
                    deadline: Deadline | None = None, cap: int = DF_CAP) -> dict[str, int]:
    """How many of the tenant's rows hold each lexeme in `column`, counted up to `cap`, in one statement."""
    if not lexemes:
        return {}
    rows = history.rows(_COUNTS.format(table=table, column=column, cap=int(cap)), (list(lexemes),), deadline)
    return {lexeme: int(count) for lexeme, count in rows}


class WordWeights:
    def __init__(self, history: PostgresHistory, table: str, column: str) -> None:
        self._history = history
        self._table, self._column = table, column
        self._total_sql = f"SELECT count(*) FROM {table}"
        self._total: tuple[int, int] | None = None  # (rows, searches since counted)
        self._lock = threading.Lock()

    def idf(self, lexemes: list[str], deadline: Deadline | None) -> dict[str, float]:
        """Each lexeme's BM25 idf among the rows this tenant sees."""
        if not lexemes:
            return {}
        counts = document_counts(self._history, self._table, self._column, lexemes, deadline)
        total = self._rows(max(counts.values()), deadline)
        return {lexeme: bm25_idf(total, df) for lexeme, df in counts.items()}

    def _rows(self, at_least: int, deadline: Deadline | None) -> int:
        with self._lock:
            known = self._total
            if known is not None and known[0] >= at_least and known[1] < RECOUNT_AFTER:
                self._total = (known[0], known[1] + 1)
                return known[0]
        rows = int(self._history.rows(self._total_sql, (), deadline)[0][0])
        with self._lock:
            self._total = (rows, 0)
        return max(rows, at_least, 1)


def coverage(weights: dict[str, float], held: dict[str, float]) -> float:
    """The share of the query's weight a row holds, each word counted by where it stands (1 for
    the row's own text, less for a session's preview): 1 when it holds every word."""
    total = sum(weights.values())
    return sum(weights[word] * share for word, share in held.items() if word in weights) / total if total else 0.0
