"""StaticEmbedder: the default offline embedder, a model2vec table distilled from all-MiniLM-L6-v2.

Ships inside the package (data/static_model, Apache-2.0, see its NOTICE) and loads with
model2vec alone: no torch, no network (issue 3). The table is read on first use, not at import.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "static_model"
MODEL_NAME = "minilm-l6-static-int8-v1"  # names the vector space: stored vectors must come from it


class StaticEmbedder:
    name = MODEL_NAME
    dimension = 384

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self._model_dir = model_dir
        self._model = None
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit float32 vector per text (a text with no known token gives zeros)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.asarray(self._loaded().encode(list(texts), use_multiprocessing=False), dtype=np.float32)

    def _loaded(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder never needs the hub
                from model2vec import StaticModel  # imported late: it costs a quarter second

                self._model = StaticModel.from_pretrained(str(self._model_dir))
            return self._model
