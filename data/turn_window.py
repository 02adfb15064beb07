"""Which keyword candidates count as hits, and how the turns around a message score it (issue 3, Q-01).

A conversational answer rarely repeats its question: the side index links each message to the turn
before it in its session (data/postings.py), and these classes read a few turns either way.
"""
from __future__ import annotations

import numpy as np

from oneclaw_search.data.term_lists import RowTable, TermList, counts_of

MAX_PAIRED_TERMS = 8  # the turns around a row must hold two query terms; pairs among the first eight suffice
# Turns after (+) and before (-) a message whose own words count towards it, and by how much; the
# turn just before is the context column, weighted by the caller.
NEIGHBOURS = ((1, 0.3), (-2, 0.3), (2, 0.3), (-3, 0.1), (3, 0.1))


class Admission:
    """Which rows count as hits: a loose term in the row's own text (for sessions, in either
    column), two of the first eight loose terms among the turns around it (three either side),
    or a compound's words in the row's own text (`sure` is False for rows only a compound admits)."""

    def __init__(self, loose: list[TermList], compounds: list[TermList], with_context: bool) -> None:
        self._loose, self._compounds, self._with_context = loose, compounds, with_context

    def __call__(self, docs: np.ndarray, neighbours: list[tuple[np.ndarray, np.ndarray]],
                 around: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """`neighbours`: TurnWindow.neighbours(docs), or nothing for rows without turns; `around`:
        per loose term then compound, counts_around(docs, those neighbours), when already found."""
        def counts(position: int, found: TermList) -> np.ndarray:  # [docs, then each neighbour's rows]
            return around[position] if around is not None else counts_of(found, docs)[None]

        own = np.zeros(len(docs), dtype=bool)
        paired = np.zeros(len(docs), dtype=np.int8)
        for position, found in enumerate(self._loose):
            mine, *nearby = counts(position, found)
            if not self._with_context:
                own |= mine.any(axis=1)
                continue
            own |= mine[:, 0] > 0
            near = mine[:, 1] > 0
            if position < MAX_PAIRED_TERMS:
                for (_rows, alive), theirs in zip(neighbours, nearby):
                    near |= alive & (theirs[:, 0] > 0)
            paired += near
        sure = own | (paired >= 2)
        by_compound = np.zeros(len(docs), dtype=bool)
        for position, found in enumerate(self._compounds, len(self._loose)):
            by_compound |= counts(position, found)[0][:, 0] > 0
        return sure | by_compound, sure


def counts_around(found: TermList, docs: np.ndarray, neighbours: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The list's counts for `docs` and for each neighbour's rows of them, [entry, row, column]:
    one lookup for all, where one per entry and again for the admission check cost 1.6 ms a search."""
    rows = np.concatenate([docs, *(near for near, _ in neighbours)])
    counts = counts_of(found, rows)
    return counts.reshape(len(neighbours) + 1, len(docs), counts.shape[1])


class TurnWindow:
    """The turns around a row lend it their own words' scores, scaled down with distance: an
    answer's subject is often named only in the question before it or the reply after it (on
    LoCoMo, R@10 0.68 with the turn before alone, 0.71 with two turns either side, 0.72 with three)."""

    def __init__(self, table: RowTable, scorer, lists: list[TermList], eligible) -> None:
        self._table, self._scorer, self._lists, self._eligible = table, scorer, lists, eligible

    def neighbours(self, docs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per entry of NEIGHBOURS, its row for each of `docs` (0: none) and whether it still exists."""
        walked = {0: docs}
        for steps in range(1, max((abs(steps) for steps, _ in NEIGHBOURS), default=0) + 1):
            for sign, links in ((1, self._table.nexts), (-1, self._table.prevs)):
                walked[sign * steps] = links[walked[sign * (steps - 1)]]  # one hop on from the nearer turn
        return [(walked[steps], self._table.alive[walked[steps]]) for steps, _ in NEIGHBOURS]

    def widen(self, top: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]], list[np.ndarray]]:
        """`top` and the eligible turns around them, each scored with its neighbours' words, those
        neighbours, and each list's counts_around them (for the admission check)."""
        around = np.concatenate([top, *(rows for rows, _ in self.neighbours(top))])
        pool = np.unique(around[around > 0])
        pool = pool[self._eligible(pool)]
        neighbours = self.neighbours(pool)
        counts = [counts_around(found, pool, neighbours) for found in self._lists]
        weights = [alive * weight for (_rows, alive), (_steps, weight) in zip(neighbours, NEIGHBOURS)]
        return pool, sum(self._scorer.windowed(found, pool, found_counts, weights)
                         for found, found_counts in zip(self._lists, counts)), neighbours, counts
