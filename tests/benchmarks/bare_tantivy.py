"""Bare tantivy, the floor every ranking choice is measured against: the same history's user and
assistant turns in an in-memory index of their own, tantivy's `en_stem` tokenizer and BM25 untuned,
the query's words OR-ed, and the first turns shown counted as the tool's replies are.

Three variants: the turn's own words (context 0); the turn before as a second field that can make a
turn a hit (context 0); and own words required, the turn before only raising the rank, each hit
shown with the turn before and after it (context 1).
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import tantivy

VARIANTS = ("bare: own words, context 0", "bare: turn before as a field, context 0",
            "bare: own words required, turn before raising rank, context 1")
_WORD = re.compile(r"\w+")
_TURNS = ("SELECT m.id, m.session_id, m.content FROM messages m JOIN sessions s ON s.id = m.session_id "
          "WHERE s.deleted_at IS NULL AND m.type IN ('USER', 'AI_RESPONSE') ORDER BY m.session_id, m.created_at, m.rowid")


@dataclass
class _Turn:
    id: str
    before: str | None
    after: str | None


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
            self._turns.append(_Turn(turn_id, previous[0] if previous else None, following[0] if following else None))
            writer.add_document(tantivy.Document(own=text or "", before=(previous[2] or "") if previous else "", at=at))
        writer.commit()
        self._index.reload()
        self._searcher = self._index.searcher()

    def shown(self, variant: str, text: str, limit: int = 10) -> list[str]:
        """The ids of the first `limit` turns the variant shows for the query `text`."""
        words = " ".join(word.lower() for word in _WORD.findall(text))
        if not words:
            return []
        if variant == VARIANTS[1]:
            query = self._index.parse_query(words, ["own", "before"])
        elif variant == VARIANTS[2]:
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, self._index.parse_query(words, ["own"])),
                                                 (tantivy.Occur.Should, self._index.parse_query(words, ["before"]))])
        else:
            query = self._index.parse_query(words, ["own"])
        hits = [self._turns[self._searcher.doc(address)["at"][0]] for _, address in self._searcher.search(query, limit).hits]
        if variant != VARIANTS[2]:
            return [hit.id for hit in hits]
        shown = [turn for hit in hits for turn in (hit.before, hit.id, hit.after) if turn is not None]
        return list(dict.fromkeys(shown))[:limit]
