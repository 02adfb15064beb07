"""Why a result matched and how its score was made, and what each source did (issue 4's JSON
explanations): hosts read these from the JSON format; the spec's text output never shows them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatchReasons:
    """`terms`: the query's index terms the row holds; `phrase`: it holds the whole query as written
    (what the spec's LIKE finds); `vector`: cosine similarity when meaning was compared."""

    terms: tuple[str, ...] = ()
    phrase: bool = False
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
