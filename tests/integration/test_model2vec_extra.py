"""model2vec is the optional `models` extra: a folder holding more than a plain table of token
vectors needs it, and names the extra to install when it is missing."""
import json
import sys

import numpy as np
import pytest

from oneclaw_search.data.embedding.static_embedder import MODEL_DIR, StaticEmbedder


def save_tensors(path, tensors):
    """The safetensors layout by hand (header size, JSON header, raw data): no model2vec needed to write it."""
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        blob = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": {"int8": "I8", "float64": "F64"}[array.dtype.name], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        offset, blobs = offset + len(blob), [*blobs, blob]
    encoded = json.dumps(header).encode()
    path.write_bytes(len(encoded).to_bytes(8, "little") + encoded + b"".join(blobs))


def test_a_folder_with_weights_names_the_extra_when_model2vec_is_missing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "model2vec", None)  # `import model2vec` now raises ImportError
    for name in ("config.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((MODEL_DIR / name).read_bytes())
    save_tensors(tmp_path / "model.safetensors", {"embeddings": np.zeros((4, 384), dtype=np.int8), "weights": np.ones(4)})
    with pytest.raises(ImportError, match=r"needs model2vec: pip install 'oneclaw-search-history\[models\]'"):
        StaticEmbedder(tmp_path).embed(["restaurant"])
