"""BM25's statistics as a fresh build of the same rows counts them (Q-11: one reply however the history
was written): how many live documents the keyword index holds, how many of them hold each query term
in each field a row is scored on, and those fields' average lengths.

tantivy counts a replaced or deleted document until a merge drops it, and a merge adds up the merged
documents' lengths as its one-byte norms round them, so two builds of one history differ by when they
merged. Each document keeps its own lengths (fast fields); after each commit the writer notes their
live totals beside the index, and a search reads them back when the index it sees is the one noted.
"""
from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tantivy

from oneclaw_search.data.index.schema import EVERY, EVERY_TERM, IndexKind
from oneclaw_search.domain.window_bm25 import Collection

Key = tuple[int, int, int]  # documents live, documents tantivy counts, segments: what an index shows


@dataclass
class Counts:
    """One field a row is scored on, counted over the live documents, beside tantivy's own counts
    (dead documents included) that its scores were computed with."""

    field: str
    length_field: str
    rows: int
    engine_rows: int
    holding: dict[str, int]
    engine_holding: dict[str, int]
    average: float
    engine_average: float | None = None  # read from the engine when a score is held to these counts
    kept_averages: dict[str, float] | None = None  # the noted index's, by field, while it is the one seen

    def collection(self, terms: Sequence[str]) -> Collection:
        """This field's statistics for these terms, for a row scored outside the engine."""
        return Collection(self.rows, self.average, {term: self.holding[term] for term in terms})


class LiveStatistics:
    """The counts of the documents an index shows, from the totals its writer noted after its last
    commit when that is the index a search sees, else counted there and then; the live document
    frequencies of the noted index are kept for as long as it is the one seen."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._lock = threading.Lock()
        self._held: dict[str, _Kept] = {}  # by kind: the noted index's

    def note(self, searcher: tantivy.Searcher, kind: IndexKind) -> None:
        """Note the live totals of the index `searcher` shows (the writer's, after a commit)."""
        key = _key(searcher)
        fields = [length for _, length in kind.scored(True)]
        noted = {"key": key, "lengths": dict(zip(fields, _totals(searcher, fields), strict=True)), "at": os.urandom(8).hex()}
        write_whole(self._path(kind), json.dumps(noted))  # a search reading it meanwhile reads this note or the one before

    def counts(self, searcher: tantivy.Searcher, kind: IndexKind, terms: Sequence[str], words_alone: bool) -> list[Counts]:
        """One Counts per field a row of `kind` is scored on, for `terms`."""
        key = _key(searcher)
        alive, counted, _ = key
        scored = kind.scored(words_alone)
        noted = self._noted(kind, key)
        lengths = noted["lengths"] if noted is not None else dict(zip([f for _, f in scored], _totals(searcher, [f for _, f in scored]),
                                                                        strict=True))
        kept = self._kept(kind, noted)
        held = self._holding(kept, searcher, kind, [field for field, _ in scored], terms, alive == counted)
        averages = kept.averages if kept is not None else None
        return [Counts(field, length, alive, counted, {t: held[field, t] for t in terms},
                       {t: searcher.doc_freq(field, t) for t in terms}, lengths[length] / alive if alive else 0.0,
                       averages.get(field) if averages is not None else None, averages)
                for field, length in scored]

    def _kept(self, kind: IndexKind, noted: dict[str, Any] | None) -> _Kept | None:
        """What is kept of the noted index while it is the one seen; None when the index seen is not noted."""
        if noted is None:
            return None
        with self._lock:
            kept = self._held.get(kind.name)
            if kept is None or kept.at != noted["at"]:
                kept = self._held[kind.name] = _Kept(noted["at"])
            return kept

    @staticmethod
    def _holding(kept: _Kept | None, searcher: tantivy.Searcher, kind: IndexKind, fields: list[str], terms: Sequence[str],
                 exact: bool) -> dict[tuple[str, str], int]:
        """Live document frequencies: tantivy's own when it counts no dead document, else counted
        (kept while the noted index is the one seen)."""
        if exact:
            return {(field, term): searcher.doc_freq(field, term) for field in fields for term in terms}
        found: dict[tuple[str, str], int] = kept.holding if kept is not None else {}
        for field in fields:
            for term in terms:
                if (field, term) not in found:
                    found[field, term] = alive_holding(searcher, kind, field, term)
        return found

    def _noted(self, kind: IndexKind, key: Key) -> dict[str, Any] | None:
        try:
            noted: dict[str, Any] = json.loads(self._path(kind).read_text())
        except (OSError, ValueError):
            return None
        return noted if tuple(noted.get("key", ())) == key else None

    def _path(self, kind: IndexKind) -> Path:
        return self._folder / f"{kind.name}.totals.json"


@dataclass
class _Kept:
    """What searches keep of one noted index (its note's `at`): live document frequencies, and the
    average lengths its scores use, by field (each the same for every term: one read per index)."""

    at: str
    holding: dict[tuple[str, str], int] = dataclasses.field(default_factory=dict)
    averages: dict[str, float] = dataclasses.field(default_factory=dict)


def alive_holding(searcher: tantivy.Searcher, kind: IndexKind, field: str, term: str) -> int:
    """How many live documents hold `term` in `field` (tantivy's document frequency counts the dead too)."""
    if searcher.num_docs == searcher.doc_freq(EVERY, EVERY_TERM):
        return searcher.doc_freq(field, term)
    query = tantivy.Query.term_query(kind.schema, field, term, index_option="basic")
    found: Any = searcher.search(query, 1, count=True)  # the stubs leave out the result's count
    return int(found.count or 0)


def _key(searcher: tantivy.Searcher) -> Key:
    return searcher.num_docs, searcher.doc_freq(EVERY, EVERY_TERM), searcher.num_segments


def _totals(searcher: tantivy.Searcher, fields: Sequence[str]) -> list[float]:
    """The live documents' total of each of these fast fields (each document keeps its own lengths)."""
    if not fields or not searcher.num_docs:
        return [0.0] * len(fields)
    found = searcher.aggregate(tantivy.Query.all_query(), {str(at): {"sum": {"field": name}} for at, name in enumerate(fields)})
    return [float(found[str(at)]["value"] or 0.0) for at in range(len(fields))]


def write_whole(path: Path, text: str) -> None:
    """Write by renaming a finished file into place: another process opening it at the same moment
    reads the whole file or the one before, never a part (the index's format marker, the live note)."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
    partial.write_text(text)
    os.replace(partial, path)
