"""The rows a message search scores by BM25 (Q-01): for each keyword, and for all of them at once, its
newest rows holding it in their own words, CANDIDATES_PER_RESULT per result kept.

Read back along the time index, a word held by one turn in sixty visits sixty turns for each row it
keeps. So a common word's newest rows are read instead among the turns written since the day back to
which enough were written (the counts by day, term_counts.py): its posting list and that span of the
time index meet in a bitmap, and only the rows in both are visited. A span that holds too few of
the word's rows is followed by the reading over the whole window, so the pool is the same either way.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.term_counts import written_since
from oneclaw_search.domain.clock import Deadline

# Rows scored per result a source keeps, for each keyword: its newest (and as many holding every keyword).
# A keyword held by no more rows is scored on all of them, as tantivy scores it on SQLite; a commoner
# one on its newest, since PostgreSQL has no index that yields a word's best rows first, and reading
# all of a common word's rows costs a heap visit each.
CANDIDATES_PER_RESULT = 4
# How many times the turns a word's share of them says hold its pool the span reads: a word seldom
# falls to half its share in the newest turns, and when it does the whole window is read after.
NEWER_MARGIN = 2
# The part's condition, its time window, its size; the same, with a span first.
_WHOLE = "(SELECT p.id FROM messages p WHERE {held} AND p.created_at BETWEEN %s AND %s ORDER BY p.created_at DESC LIMIT {size})"
_SPAN = """(WITH near AS MATERIALIZED (SELECT p.id FROM messages p WHERE {held} AND p.created_at BETWEEN %s AND %s
        ORDER BY p.created_at DESC LIMIT {size})
    SELECT id FROM near UNION (SELECT p.id FROM messages p WHERE {held} AND p.created_at BETWEEN %s AND %s
        AND (SELECT count(*) FROM near) < {size} ORDER BY p.created_at DESC LIMIT {size}))"""


def pool_size(limit: int) -> int:
    return int(limit * CANDIDATES_PER_RESULT)


def spans(history: PostgresHistory, held: Sequence[int | None], turns: int, wanted: int, after: int, before: int,
          deadline: Deadline | None) -> list[int | None]:
    """For each tsquery held by `held` of the tenant's `turns` turns (None: not known), the time its
    newest `wanted` rows are first read from (None: the whole window, where the span would be all of it)."""
    needed = [NEWER_MARGIN * wanted * turns // count if count else turns for count in held]
    asked = [at for at, count in enumerate(needed) if held[at] is not None and count < turns]
    if not asked:
        return [None] * len(held)
    found = dict(zip(asked, written_since(history, [needed[at] for at in asked], after, before, deadline), strict=True))
    return [since if (since := found.get(at)) is not None and since > after else None for at in range(len(held))]


def pool_part(held: str, held_params: list[object], after: int, before: int, since: int | None,
              limit: int) -> tuple[str, list[object]]:
    """SQL for one keyword's newest rows, and its parameters: `held` is the condition a row meets."""
    size = pool_size(limit)
    if since is None:
        return _WHOLE.format(held=held, size=size), [*held_params, after, before]
    return _SPAN.format(held=held, size=size), [*held_params, since, before, *held_params, after, before]
