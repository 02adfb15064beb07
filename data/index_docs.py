"""What the side index holds per history row: the kinds of rows and one row as indexed (issue 3).

Shared by the writer (data/side_index.py, data/index_sync.py) and the readers of the index.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True, slots=True)
class DocKind:
    """A kind of history row: its table prefix, its columns of terms and of text for trigrams.

    With `context_from_prevs`, the last word column is not stored: it holds the words of the row's
    turn before, which the postings already hold as that turn's own words, and readers derive it.
    """

    prefix: str
    word_columns: tuple[str, ...]
    gram_columns: tuple[str, ...]
    context_from_prevs: bool = False

    @property
    def stored_columns(self) -> int:
        return len(self.word_columns) - self.context_from_prevs

    def table(self, role: str) -> str:
        return f"{self.prefix}_{role}"

    @property
    def gram_word_columns(self) -> tuple[int, ...]:
        """Positions among the word columns of the columns whose text also goes into trigrams."""
        return tuple(self.word_columns.index(column) for column in self.gram_columns)


MESSAGES = DocKind("m", ("body", "context"), ("body",), context_from_prevs=True)
SESSIONS = DocKind("s", ("title", "preview"), ("title", "preview"))


class IndexedDoc(NamedTuple):
    """One history row as indexed: `terms` and `folded` hold one text per column of its kind.
    A tuple: a build makes one per message, and a frozen dataclass cost 5 s of a million."""

    source_rowid: int
    id: str
    at: int
    fingerprint: int
    terms: tuple[str, ...]  # one space-separated string of terms per stored word column (or none, given apart)
    folded: tuple[str, ...]  # one folded text per trigram column
    vector: bytes | None = None
    previous: int = 0  # source rowid of the turn before it in its session (0: none)


TRIGRAM = 3  # the shortest text a trigram index can look up


def trigrams(text: str) -> list[str]:
    return [text[i:i + TRIGRAM] for i in range(len(text) - TRIGRAM + 1)]


def fts_term(term: str) -> str:
    """Index terms as stored: non-ASCII terms hex-coded, so every stored term is one ASCII word."""
    return term if term.isascii() else "u_" + term.encode().hex()
