"""StaticEmbedder: the default offline embedder, a model2vec table distilled from all-MiniLM-L6-v2 (Q-09).

Ships inside the package (data/embedding/static_model, Apache-2.0, see its NOTICE) in model2vec's format: no
torch, no network. The table is read on first use with `tokenizers` and numpy, the libraries model2vec
itself uses, which spares a one-shot search the cost of importing model2vec; the vectors equal
model2vec's StaticModel.encode (tested), and any other folder still goes through it.
"""
from __future__ import annotations

import json
import os
import threading
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from oneclaw_search.data.embedding.word_sums import WordSums, pooled_by_words

if TYPE_CHECKING:  # imported late at run time: most processes never need it
    from model2vec import StaticModel

MODEL_DIR = Path(__file__).resolve().parent / "static_model"
MODEL_NAME = "minilm-l6-static-int8-v1"  # names the vector space: stored vectors must come from it
_DTYPES = {"I8": np.int8, "F16": np.float16, "F32": np.float32, "F64": np.float64}
Table = npt.NDArray[np.number[Any]]  # token vectors, row by token id, of the dtype the file stores (_DTYPES)


class StaticEmbedder:
    name = MODEL_NAME
    dimension = 384

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self._model_dir = model_dir
        self._model: _StaticTable | StaticModel | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Path]:
        return {"model_dir": self._model_dir}  # another process reads the folder itself

    def __setstate__(self, state: dict[str, Path]) -> None:
        type(self).__init__(self, state["model_dir"])

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One unit float32 vector per text (a text with no known token gives zeros)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.asarray(self._loaded().encode(list(texts), use_multiprocessing=False), dtype=np.float32)

    def _loaded(self) -> _StaticTable | StaticModel:
        with self._lock:
            if self._model is None:
                try:
                    self._model = _StaticTable(self._model_dir)
                except _NotPlainTable:
                    self._model = _through_model2vec(self._model_dir)
            return self._model


def _through_model2vec(folder: Path) -> StaticModel:
    """model2vec's own reader, for a folder holding more than a plain table; model2vec is the
    optional `models` extra, since the shipped table never needs it."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder never needs the hub
    try:
        from model2vec import StaticModel
    except ImportError as missing:
        raise ImportError(f"the embedding folder {folder} holds more than a plain table of token vectors and"
                          " needs model2vec: pip install 'oneclaw-search-history[models]'") from missing
    return StaticModel.from_pretrained(str(folder))


class _NotPlainTable(Exception):
    """The folder holds more than one table of token vectors (weights, a token mapping)."""


class _StaticTable:
    """model2vec's mean-of-token-vectors over its folder: config.json, tokenizer.json, model.safetensors."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer  # late, like the table itself

        tensors = _read_safetensors(folder / "model.safetensors")
        if set(tensors) != {"embeddings"}:
            raise _NotPlainTable(sorted(tensors))
        config = json.loads((folder / "config.json").read_text())
        self._table = tensors["embeddings"]
        self._normalize = bool(config.get("normalize", False))
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokens = self._tokenizer.get_vocab()
        max_length = config.get("max_length", 512)
        self._max_chars = None if max_length is None else max_length * int(np.median([len(token) for token in tokens]))
        if max_length is None:
            self._tokenizer.no_truncation()
        else:
            self._tokenizer.enable_truncation(max_length)
        self._sums: WordSums | None = None
        self._max_length = max_length
        unknown = getattr(self._tokenizer.model, "unk_token", None)
        self._unknown = None if unknown is None else self._tokenizer.token_to_id(unknown)

    def encode(self, texts: list[str], **_options: object) -> npt.NDArray[np.floating[Any]]:
        table = self._table
        if self._max_chars is not None:
            texts = [text[:self._max_chars] for text in texts]
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32 if table.dtype == np.int8 else table.dtype)
        by_pieces = list(range(len(texts)))
        if table.dtype == np.int8:  # integer sums are exact, so pooling by words changes no bit
            plain = [row for row, text in enumerate(texts) if pooled_by_words(text)]
            out[plain], long = self._word_sums().encode([texts[row] for row in plain])
            by_pieces = sorted(set(by_pieces).difference(plain).union(plain[i] for i in long))
        self._pool_pieces([texts[row] for row in by_pieces], table, out, by_pieces)
        if self._normalize:
            unit = out.astype(np.float32)
            norms = np.linalg.norm(unit, axis=1, keepdims=True)  # typed Any by numpy, so the cast below
            return cast(npt.NDArray[np.floating[Any]], (unit / (norms + 1e-32)).astype(out.dtype))
        return out

    def _pool_pieces(self, texts: list[str], table: Table, out: npt.NDArray[np.floating[Any]], rows: list[int]) -> None:
        ids = [_known(encoding.ids, self._unknown) for encoding in self._tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
        by_length: dict[int, list[int]] = defaultdict(list)
        for row, token_ids in zip(rows, ids, strict=True):
            if token_ids:
                by_length[len(token_ids)].append(row)
        by_row = dict(zip(rows, ids, strict=True))
        for same in by_length.values():  # equal lengths stack into one matrix: one gather, one mean
            out[same] = table[np.array([by_row[row] for row in same], dtype=np.int64)].mean(axis=1)

    def _word_sums(self) -> WordSums:
        if self._sums is None:
            self._sums = WordSums(self._tokenizer, self._table, self._unknown, self._max_length)
        return self._sums


def _known(ids: list[int], unknown: int | None) -> list[int]:
    """The ids without the unknown token's, scanning in C first: most texts have none."""
    return [i for i in ids if i != unknown] if unknown in ids else ids


def _read_safetensors(path: Path) -> dict[str, Table]:
    """The safetensors layout: an 8-byte little-endian header size, a JSON header, then raw tensors."""
    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        begin, end = spec["data_offsets"]
        dtype = np.dtype(_DTYPES[spec["dtype"]])
        raw = np.frombuffer(data, dtype=dtype, count=(end - begin) // dtype.itemsize, offset=8 + size + begin)
        tensors[name] = raw.reshape(spec["shape"])
    return tensors
