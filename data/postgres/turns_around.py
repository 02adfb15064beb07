"""Words lent by the turns around a message, as the SQLite backend's keyword index lends them
through each message's window of neighbouring turns (Q-01).

A turn holds each query word it holds itself at full weight, a word of the turn just before it at
BEFORE_SHARE and a word of another turn within NEIGHBOURS at AROUND_SHARE. A turn holding none of
the words itself is a hit only when the turns around it hold two or more of them between them (one
word lends nothing): the answer to a question that named the words, the reply after it.
"""
from __future__ import annotations

from collections.abc import Mapping

from oneclaw_search.data.postgres.daos import MESSAGE_COLUMNS, TURN_TYPES, message_conditions
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit

NEIGHBOURS = 3
# The keyword index repeats a turn 3 times in its window, the one before twice and others once;
# BM25 saturating those counts (k1 1.2) weighs them about 1 : 0.87 : 0.64.
BEFORE_SHARE, AROUND_SHARE = 0.85, 0.6
MAX_LEXEMES = 16
Held = dict[str, float]  # query lexeme -> the share of its weight a turn holds

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


def windows(history: PostgresHistory, own: Mapping[str, frozenset[str]], deadline: Deadline | None) -> dict[str, Held]:
    """What each hit, and each turn within NEIGHBOURS of one, holds of the query's words, its own
    and its neighbours' (a turn that is no hit holds only what they lend it)."""
    held: dict[str, Held] = {turn: dict.fromkeys(words, 1.0) for turn, words in own.items()}
    if not own:
        return held
    ids = list(own)
    for hit, near, distance in history.rows(_AROUND, (ids, TURN_TYPES, ids), deadline):
        share = BEFORE_SHARE if distance == 1 else AROUND_SHARE  # distance 1: `hit` is the turn just before `near`
        shares = held.setdefault(near, {})
        for word in own[hit]:
            shares[word] = max(shares.get(word, 0.0), share)
    return held


def lent_turns(history: PostgresHistory, ids: list[str], after: int, before: int, within: Within | None,
               deadline: Deadline | None) -> list[MessageHit]:
    """The live turns among `ids` in the window (and `within`)."""
    if not ids:
        return []
    narrowed, params = message_conditions(within)
    rows = history.rows(
        f"SELECT {MESSAGE_COLUMNS} FROM messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
        f"WHERE m.id = ANY(%s) AND m.created_at BETWEEN %s AND %s{narrowed}",
        [ids, after, before, *params], deadline)
    return [MessageHit(*row) for row in rows]
