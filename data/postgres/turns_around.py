"""Turns found through the turns around them, as the SQLite backend's keyword index finds them
through each message's window of neighbouring turns (Q-01).

A turn holding none of the query's words is still a hit when the turns within NEIGHBOURS of it
hold two or more of them between them (one word alone lends nothing): the answer to a question
that named the words, the reply after it. It ranks below every turn holding words of its own.
"""
from __future__ import annotations

from collections.abc import Mapping

from oneclaw_search.data.postgres.daos import MESSAGE_COLUMNS, TURN_TYPES, message_conditions
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit

NEIGHBOURS = 3
LENT_WEIGHT = 0.25  # the most a lent turn scores, against 1 for the best turn holding the words
BEFORE_WEIGHT = 2.0  # the turn just before counts double, as in the keyword index's window
MAX_LEXEMES = 16
Lent = Mapping[str, tuple[float, frozenset[str]]]  # hit id -> (keyword rank over the best, query lexemes it holds)

_LEXEMES = ("SELECT coalesce(array_agg(DISTINCT l ORDER BY l), '{}') FROM "
            "unnest(tsvector_to_array(to_tsvector('english', oneclaw_search_words(%s)))) AS l")
_AROUND = f"""WITH hit AS (SELECT DISTINCT session_id FROM messages WHERE id = ANY(%s)),
    turns AS (SELECT m.id, m.session_id, row_number() OVER (PARTITION BY m.session_id ORDER BY m.created_at, m.seq) AS n
              FROM messages m WHERE m.session_id IN (SELECT session_id FROM hit) AND m.type = ANY(%s))
    SELECT a.id, b.id, b.n - a.n FROM turns a JOIN turns b ON b.session_id = a.session_id
        AND b.n BETWEEN a.n - {NEIGHBOURS} AND a.n + {NEIGHBOURS} AND b.id <> a.id
    WHERE a.id = ANY(%s)"""


def query_lexemes(history: PostgresHistory, raw: str, deadline: Deadline | None) -> list[str]:
    """The query's words as the messages' tsvectors hold them."""
    return list(history.rows(_LEXEMES, (raw,), deadline)[0][0])[:MAX_LEXEMES]


def holding(lexemes: list[str], tsvector: str = "m.content_tsv") -> tuple[str, list[object]]:
    """SQL for an array saying which of `lexemes` a tsvector holds, and its parameters."""
    if not lexemes:
        return "ARRAY[]::boolean[]", []
    quoted = ["'" + lexeme.replace("'", "''") + "'" for lexeme in lexemes]
    return "ARRAY[" + ", ".join([f"{tsvector} @@ %s::tsquery"] * len(lexemes)) + "]", list(quoted)


def lent_turns(history: PostgresHistory, hits: Lent, after: int, before: int, within: Within | None,
               deadline: Deadline | None) -> list[tuple[MessageHit, float]]:
    """Live turns in the window (and `within`) that the hits around them lend two or more words."""
    if not hits:
        return []
    ids = list(hits)
    lent: dict[str, tuple[float, set[str]]] = {}
    for hit_id, near, distance in history.rows(_AROUND, (ids, TURN_TYPES, ids), deadline):
        if near in hits:
            continue
        rank, words = hits[hit_id]
        weight = BEFORE_WEIGHT if distance == 1 else 1.0  # the hit is the turn just before `near`
        score, held = lent.get(near, (0.0, set()))
        lent[near] = (score + weight * rank, held | words)
    chosen = {near: min(score / BEFORE_WEIGHT, 1.0) * LENT_WEIGHT for near, (score, held) in lent.items() if len(held) >= 2}
    if not chosen:
        return []
    narrowed, params = message_conditions(within)
    rows = history.rows(
        f"SELECT {MESSAGE_COLUMNS} FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
        f"WHERE m.id = ANY(%s) AND m.created_at BETWEEN %s AND %s{narrowed}",
        [list(chosen), after, before, *params], deadline)
    return [(MessageHit(*row), chosen[row[0]]) for row in rows]
