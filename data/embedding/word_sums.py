"""WordSums: mean-of-token vectors pooled word by word, the same vectors as model2vec's
StaticModel.encode made faster for building the side index's message vectors (Q-09, Q-11).

The tokenizer is the costliest step of building the side index: a large history holds tens of
millions of tokens, but far fewer distinct words. An ASCII text with no control characters splits into
words exactly as the model's BERT normaliser and pre-tokenizer split it; any other text splits at
ASCII spaces, tabs and line breaks, across which the normaliser (character by character) and the
pre-tokenizer never join anything. A word always becomes the same word pieces, so each distinct
word is tokenized once and its pieces' rows are summed once; a text's vector is then the sum of
its words' sums over its count of known pieces. Integer sums of an int8 table are exact, so the
vectors equal model2vec's to the bit.
"""
from __future__ import annotations

import re
import threading
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # the embedder imports tokenizers late, on first use
    from tokenizers import Tokenizer

_WORD_OR_MARK = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")  # BERT: every ASCII non-alphanumeric is a word
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # the normaliser drops these, joining words
_BETWEEN_SPACES = re.compile(r"[^ \t\n\r]+")  # other text, cut where nothing is joined; the tokenizer does the rest
_MAX_BYTES = 100 * 1024 * 1024  # of word sums remembered: 400K words at 128 columns, 136K at 384
_WORD_LIMIT = np.iinfo(np.int16).max  # a word's summed rows are kept as int16
_EXACT_PIECES = np.iinfo(np.int32).max // 128  # a text of more pieces could sum past int32
_TEXTS_PER_GATHER = 1_024  # bounds the temporary rows one gather makes


def pooled_by_words(text: str) -> bool:
    return _CONTROL.search(text) is None


def _words(text: str) -> list[str]:
    return _WORD_OR_MARK.findall(text.lower()) if text.isascii() else _BETWEEN_SPACES.findall(text)


class WordSums:
    """Per distinct word: the sum of its known pieces' rows of an int8 table, and its counts.

    A word's sums are int16 and a text's are int32: gathering half the bytes of float32 makes
    pooling faster, and a word of up to 255 pieces always fits (128 × 255 < 2**15). A
    rarer, longer word (a space-free run of CJK or punctuation) whose sums leave int16 counts as
    too many pieces, so the texts holding it take the tokenizer's own path.
    """

    def __init__(self, tokenizer: Tokenizer, table: npt.NDArray[np.number[Any]], unknown: int | None,
                 max_tokens: int | None) -> None:
        self._tokenizer = tokenizer
        self._table = table
        self._unknown = unknown
        self._max_tokens = max_tokens
        self._lock = threading.Lock()  # the index build's thread and a search may embed at once
        self._clear()

    def _clear(self) -> None:
        self._rows: dict[str, int] = {}
        # Word by column, transposed: a gather then reads each column's words from one short row.
        self._sums = np.zeros((self._table.shape[1], 1024), dtype=np.int16)
        self._known = np.zeros(1024, dtype=np.int32)  # pieces that are not the unknown token
        self._pieces = np.zeros(1024, dtype=np.int64)  # all pieces, for the tokenizer's truncation

    def encode(self, texts: list[str]) -> tuple[npt.NDArray[np.float64], list[int]]:
        """Mean vectors (float64) for `texts`, all of them `pooled_by_words`, and the positions of
        those this way cannot pool exactly (more pieces than the tokenizer keeps)."""
        words = list(map(_words, texts))
        with self._lock:
            return self._encode(words)

    def _encode(self, words: list[list[str]]) -> tuple[npt.NDArray[np.float64], list[int]]:
        seen = set(chain.from_iterable(words))
        new = seen - self._rows.keys()
        if len(self._rows) + len(new) > _MAX_BYTES // self._sums.itemsize // self._table.shape[1]:
            self._clear()
            new = seen
        self._learn(new)
        out = np.zeros((len(words), self._table.shape[1]), dtype=np.float64)
        rest: list[int] = []
        for start in range(0, len(words), _TEXTS_PER_GATHER):
            rest += self._pool(words[start:start + _TEXTS_PER_GATHER], out[start:start + _TEXTS_PER_GATHER], start)
        return out, rest

    def _pool(self, words: list[list[str]], out: npt.NDArray[np.float64], offset: int) -> list[int]:
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        rows = np.fromiter(map(self._rows.__getitem__, chain.from_iterable(words)), dtype=np.int64, count=int(lengths.sum()))
        present = np.flatnonzero(lengths)
        if not len(present):
            return []
        starts = np.r_[0, np.cumsum(lengths)[:-1]][present]
        known = np.add.reduceat(self._known[rows], starts)
        pieces = np.add.reduceat(self._pieces[rows], starts)
        sums = np.add.reduceat(np.take(self._sums, rows, axis=1), starts, axis=1, dtype=np.int32).T
        fits = pieces <= min(self._max_tokens or _EXACT_PIECES, _EXACT_PIECES)
        pooled = fits & (known > 0)
        out[present[pooled]] = sums[pooled] / known[pooled, None]
        return cast(list[int], (present[~fits] + offset).tolist())

    def _learn(self, new: set[str]) -> None:
        """Tokenizes the new words together and sums all their rows in one gather: word by word,
        this would be a large share of a fresh batch's embedding (a batch meets thousands of new words)."""
        if not new:
            return
        words = sorted(new)
        first, end = len(self._rows), len(self._rows) + len(words)
        self._grow(end)
        ids = [encoding.ids for encoding in self._tokenizer.encode_batch_fast(words, add_special_tokens=False)]
        pieces = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(pieces.sum()))
        owner = np.repeat(np.arange(len(words)), pieces)
        if self._unknown is not None:
            kept = flat != self._unknown
            flat, owner = flat[kept], owner[kept]
        known = np.bincount(owner, minlength=len(words))
        sums = np.zeros((len(words), self._table.shape[1]), dtype=np.int64)
        counted = np.flatnonzero(known)
        if len(counted):
            starts = np.r_[0, np.cumsum(known[counted])[:-1]]
            sums[counted] = np.add.reduceat(self._table[flat], starts, axis=0, dtype=np.int64)
        wide = np.abs(sums).max(axis=1, initial=0) > _WORD_LIMIT
        sums[wide] = 0
        self._sums[:, first:end] = sums.T
        self._known[first:end] = known
        self._pieces[first:end] = np.where(wide, _EXACT_PIECES + 1, pieces)
        self._rows.update(zip(words, range(first, end), strict=True))

    def _grow(self, size: int) -> None:
        if size <= len(self._known):
            return
        capacity = max(size, 2 * len(self._known))
        sums = np.zeros((self._sums.shape[0], capacity), dtype=self._sums.dtype)
        sums[:, :self._sums.shape[1]] = self._sums
        self._sums = sums
        self._known, self._pieces = np.resize(self._known, capacity), np.resize(self._pieces, capacity)
