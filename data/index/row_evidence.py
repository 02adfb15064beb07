"""Evidence for the rows a keyword search hands the ranking model (Q-01, Q-02, P-17): for a row the
index holds as it is, the engine's score read as its coverage; for the few it does not (rows it has
not taken in yet, or edited since), the same model computed here from the row's window, over the
index's statistics. Only these rows' texts are read: whether each holds the whole query as written,
and how often as whole words.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.relevance import Evidence
from oneclaw_search.domain.text_evidence import evidence
from oneclaw_search.domain.window_bm25 import Bag, Collection, Statistics, Window, WindowLayout, coverage

Texts = tuple[list[str], list[str]]  # the turns before and after a row, nearest first


@dataclass(frozen=True)
class Scoring:
    """What the rows of one search are scored with: the engine's scores of the rows it holds as they
    are, and the statistics for the rest (read only when a row needs them)."""

    engine: Mapping[int, float]
    statistics: Callable[[], Statistics]
    layout: WindowLayout


def row_evidence(query: HistoryQuery, terms: QueryTerms, rows: Sequence[tuple[int, str]], scoring: Scoring,
                 windows: Callable[[list[int]], list[Texts]], owns: Sequence[str] | None = None,
                 every: bool = False) -> list[Evidence]:
    """Each row's evidence, in order (`rows`: rowid and the text the whole query is looked for in;
    `owns`: the text its own words are counted in, when not that one; `every`: whether its own words
    hold every query term is measured, which only a session's rule reads); `windows` reads the turns
    beside the rows the engine did not score."""
    own_texts = list(owns) if owns is not None else [text for _, text in rows]
    mine = [at for at, (rowid, _) in enumerate(rows) if rowid not in scoring.engine]
    known = cache(scoring.statistics)
    computed = dict(zip(mine, _computed(terms, [(rows[at][0], own_texts[at]) for at in mine], known(), scoring.layout,
                                        windows) if mine else [], strict=True))
    ideal = known().ideal if len(mine) < len(rows) else 0.0
    measured = [computed[at] if at in computed else (scoring.engine[rowid] / ideal if ideal > 0 else 0.0, True)
                for at, (rowid, _) in enumerate(rows)]
    return evidence(query, [text for _, text in rows], [coverage for coverage, _ in measured], [held for _, held in measured],
                    own_texts, every)


def _computed(terms: QueryTerms, rows: list[tuple[int, str]], known: Statistics, layout: WindowLayout,
              windows: Callable[[list[int]], list[Texts]]) -> list[tuple[float, bool]]:
    """Coverage, and whether its own words hold a query term, of rows the engine did not score."""
    beside = windows([rowid for rowid, _ in rows])
    owns = terms.bags([text for _, text in rows])
    others = iter(terms.bags([text for before, after in beside for text in (*before, *after)]))
    made = [Window(own, tuple(next(others) for _ in before), tuple(next(others) for _ in after))
            for own, (before, after) in zip(owns, beside, strict=True)]
    if not known.window.average_length:  # no statistics at all: these rows' own lengths
        known = Statistics(_averaged(known.window, [window.weighed(layout) for window in made]),
                           known.own and _averaged(known.own, [[(1, window.own)] for window in made]))
    return [(coverage(window, known, layout), terms.holds(text, window.own)) for window, (_, text) in zip(made, rows, strict=True)]


def _averaged(found: Collection, weighed: list[list[tuple[int, Bag]]]) -> Collection:
    lengths = [sum(times * bag.length for times, bag in texts) for texts in weighed]
    return Collection(found.rows, sum(lengths) / len(lengths), found.holding)
