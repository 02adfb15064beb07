"""The literal reading's SQL conditions (FEAT-032's LIKE, AC-07, Q-04): a column holding the query as
folded text, through the tenant-marked trigram indexes (schema.py) or checked row by row, and whether
a tenant holds enough of the messages to read those indexes without its mark. A message's folded text
is stored beside it (`folded`); a session's title and preview are folded as their indexes fold them.
"""
from __future__ import annotations

from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.domain.clock import Deadline


def folded_like(column: str, marked: bool = True) -> str:
    """SQL: `column` (`alias.name`) holds the query (the next parameter) as the literal reading reads
    it, in the form the tenant-marked trigram indexes hold. Unless `marked`, the pattern leaves the
    tenant's mark out: the index then reads the needle's trigrams only, not also the mark's, which every
    row of the tenant holds (the policy still keeps the rows to the tenant's)."""
    pattern = "oneclaw_search_like(%s)" if marked else _UNMARKED
    return f"{_folded(column)} LIKE {pattern} ESCAPE '\\'"


def _folded(column: str) -> str:
    alias, name = column.split(".")
    return f"{alias}.folded" if name == "content" else f"oneclaw_search_marked({alias}.tenant, {column})"


_PAST_MARK = "(SELECT length(oneclaw_search_like('')) - 1)"  # where the text begins, behind the mark and its space
_UNMARKED = f"substr(oneclaw_search_like(%s), {_PAST_MARK})"
_MESSAGES_HELD = "SELECT reltuples FROM pg_class WHERE oid = 'messages'::regclass"


def alone(history: PostgresHistory, turns: int | None, deadline: Deadline | None) -> bool:
    """Whether the other tenants hold no more messages than the tenant's `turns`, as the planner's
    statistics count them: read without the tenant's mark, the trigram index then names at most as many
    of their rows as of its own, where the mark's trigrams cost a reading of every one of its rows'
    postings."""
    held = history.rows(_MESSAGES_HELD, (), deadline)[0][0] if turns else None
    return bool(turns and held is not None and held - turns <= turns)


def folded_walk(column: str, ascii_needle: bool) -> str:
    """SQL: `column` holds the query (the next parameter), checked row by row, never through an index, its
    pattern made once a statement. A message's stored fold is searched for the folded needle; otherwise
    the fold behind no tenant mark, which for ASCII text is its lower case (SQL's own, where the fold is a function call a row),
    and a needle that is not ASCII is looked for only in text that is not either (the fold of ASCII
    text is ASCII), so most rows of an English history cost no fold."""
    if column.endswith(".content"):  # a position in the stored fold past the tenant's mark, which no index answers
        return f"strpos(substr({_folded(column)}, {_PAST_MARK}), (SELECT oneclaw_search_fold(%s))) > 0"
    pattern = f"(SELECT {_UNMARKED})"
    ascii_text = f"octet_length({column}) = char_length({column})"
    if not ascii_needle:
        return f"(NOT {ascii_text} AND oneclaw_search_fold({column}) LIKE {pattern} ESCAPE '\\')"
    return f"(CASE WHEN {ascii_text} THEN lower({column}) ELSE oneclaw_search_fold({column}) END) LIKE {pattern} ESCAPE '\\'"
