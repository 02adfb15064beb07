"""Why a result matched and how its score was made, and what each source did: the explanations the
JSON format (P-10) adds for hosts; the spec's text output never shows them.
"""
from __future__ import annotations

from dataclasses import dataclass

from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import index_terms
from oneclaw_search.domain.text import fold


@dataclass(frozen=True, slots=True)
class MatchReasons:
    """`phrase`: the row holds the whole query as written (what the spec's LIKE finds; None: not
    checked while searching, see `holds_phrase`); `vector`: cosine similarity when meaning was
    compared. The terms it holds come from `held_terms`."""

    phrase: bool | None = False
    vector: float | None = None


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """The merge's steps for one result: final = normalised × weight × decay, where normalised is
    the raw score over its source's best (FEAT-032 merge steps 2-4)."""

    normalised: float
    weight: float
    decay: float


@dataclass(frozen=True, slots=True)
class SourceReport:
    """One source of one search: how many candidates it ranked and how long it took (None: it did
    not finish within the budget)."""

    source: str
    candidates: int | None
    seconds: float


def held_terms(query: HistoryQuery, text: str) -> tuple[str, ...]:
    """Which of the query's index terms `text` holds, in their order. Named only when a host asks
    for JSON: most searches print text, and splitting each shown row again would cost them."""
    held = set(index_terms(text, query.stem))
    return tuple(term for term in query.all_terms if term in held)


def holds_phrase(query: str, text: str) -> bool:
    return fold(query) in fold(text)
