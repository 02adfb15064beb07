"""Bare tantivy, the floor every ranking choice is measured against: the same history's user and
assistant turns in an in-memory index of their own, tantivy's `en_stem` tokenizer and BM25 untuned,
the query's words OR-ed, and the first turns shown counted as the tool's replies are.

The floor is the best of four variants of a turn's own words: the query's stop words kept or dropped
(the package's list), and each hit shown alone or, when it ends in a question, with the turn after it
(its reply). Two older variants are still run for comparison, outside the floor: the turn before as a
second field that can make a turn a hit; and own words required, the turn before only raising the
rank, each hit shown with the turn before and after it.
"""
from __future__ import annotations

import re
import sqlite3
import statistics
from dataclasses import dataclass
from pathlib import Path

import tantivy

from oneclaw_search.domain.stopwords import STOPWORDS


@dataclass(frozen=True)
class Variant:
    label: str
    fields: str = "own"  # "own", "before as a field", "own required, before raising"
    drop_stop_words: bool = False
    shown: str = "alone"  # "alone", "question with its reply", "context 1"
    in_floor: bool = True


FLOOR = (
    Variant("bare: own words, stop words kept"),
    Variant("bare: own words, stop words dropped", drop_stop_words=True),
    Variant("bare: own words, stop words kept, question shown with its reply", shown="question with its reply"),
    Variant("bare: own words, stop words dropped, question shown with its reply", drop_stop_words=True,
            shown="question with its reply"),
)
OUTSIDE_FLOOR = (
    Variant("bare: turn before as a field, context 0", fields="before as a field", in_floor=False),
    Variant("bare: own words required, turn before raising rank, context 1", fields="own required, before raising",
            shown="context 1", in_floor=False),
)
VARIANTS = FLOOR + OUTSIDE_FLOOR
BY_LABEL = {variant.label: variant for variant in VARIANTS}
FLOOR_LABELS = tuple(variant.label for variant in FLOOR)
QUESTION_ENDS = ("?", "？", "؟")  # Latin, full-width (CJK), Arabic; a Spanish question ends in "?" too
_WORD = re.compile(r"\w+")
_TURNS = ("SELECT m.id, m.session_id, m.content FROM messages m JOIN sessions s ON s.id = m.session_id "
          "WHERE s.deleted_at IS NULL AND m.type IN ('USER', 'AI_RESPONSE') ORDER BY m.session_id, m.created_at, m.rowid")


@dataclass
class _Turn:
    id: str
    before: str | None
    after: str | None
    asks: bool  # its text ends in a question mark


class BareTantivy:
    """One history's turns indexed as bare tantivy would index them."""

    def __init__(self, history: Path) -> None:
        with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as connection:
            rows = connection.execute(_TURNS).fetchall()
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("own", stored=False, tokenizer_name="en_stem")
        builder.add_text_field("before", stored=False, tokenizer_name="en_stem")
        builder.add_integer_field("at", stored=True, indexed=False)
        self._index = tantivy.Index(builder.build())
        writer = self._index.writer(heap_size=50_000_000, num_threads=1)
        self._turns: list[_Turn] = []
        for at, (turn_id, session, text) in enumerate(rows):
            previous = rows[at - 1] if at > 0 and rows[at - 1][1] == session else None
            following = rows[at + 1] if at + 1 < len(rows) and rows[at + 1][1] == session else None
            self._turns.append(_Turn(turn_id, previous[0] if previous else None, following[0] if following else None,
                                     (text or "").rstrip().endswith(QUESTION_ENDS)))
            writer.add_document(tantivy.Document(own=text or "", before=(previous[2] or "") if previous else "", at=at))
        writer.commit()
        self._index.reload()
        self._searcher = self._index.searcher()

    def shown(self, label: str, text: str, limit: int = 10) -> list[str]:
        """The ids of the first `limit` turns the variant named `label` shows for the query `text`."""
        variant = BY_LABEL[label]
        words = [word.lower() for word in _WORD.findall(text)]
        if variant.drop_stop_words:
            words = [word for word in words if word not in STOPWORDS]
        if not words:
            return []
        query = self._query(variant, " ".join(words))
        hits = [self._turns[self._searcher.doc(address)["at"][0]] for _, address in self._searcher.search(query, limit).hits]
        if variant.shown == "context 1":
            shown = [turn for hit in hits for turn in (hit.before, hit.id, hit.after) if turn is not None]
        elif variant.shown == "question with its reply":
            shown = [turn for hit in hits for turn in (hit.id, hit.after if hit.asks else None) if turn is not None]
        else:
            shown = [hit.id for hit in hits]
        return list(dict.fromkeys(shown))[:limit]

    def _query(self, variant: Variant, words: str) -> tantivy.Query:
        if variant.fields == "before as a field":
            return self._index.parse_query(words, ["own", "before"])
        if variant.fields == "own required, before raising":
            return tantivy.Query.boolean_query([(tantivy.Occur.Must, self._index.parse_query(words, ["own"])),
                                                (tantivy.Occur.Should, self._index.parse_query(words, ["before"]))])
        return self._index.parse_query(words, ["own"])


Scores = dict[str, tuple[float, float]]  # fold -> (keyword R@10, question R@10)


def best_floor(per_variant: dict[str, Scores], folds: list[str]) -> tuple[tuple[str, str], Scores]:
    """The floor of one set: per kind of query, the floor variant with the best mean R@10 over `folds`;
    its names (keyword queries, questions) and its R@10 on each fold."""
    chosen = []
    for kind in (0, 1):
        chosen.append(max(FLOOR_LABELS, key=lambda label: (statistics.fmean(per_variant[label][f][kind] for f in folds),
                                                           -FLOOR_LABELS.index(label))))
    return (chosen[0], chosen[1]), {fold: (per_variant[chosen[0]][fold][0], per_variant[chosen[1]][fold][1]) for fold in folds}
