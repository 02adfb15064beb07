"""Calibrates the similarity a memory chunk sharing no word with the query needs to count as a hit.

    python tests/benchmarks/calibrate_vector_floor.py

On the LoCoMo dev split (read where it lies), every keyword query is compared with every memory
chunk (session summaries and observations) that shares no index term with it. Chunks of another
conversation cannot answer the query: their similarities are the noise a floor must clear. The
script prints their percentiles, and how many chunks of the query's own gold sessions clear each.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo_data import DATASET, memory_chunks, session_starts  # noqa: E402

from oneclaw_search.data.text.analyzer import memory_terms, query_terms  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402

PERCENTILES = (90, 95, 99, 99.9)


def unit_rows(embedder, texts: list[str]) -> np.ndarray:
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def main() -> int:
    samples = json.loads((DATASET / "locomo10-dev.json").read_text())
    queries = json.loads((DATASET / "locomo10-dev.queries.json").read_text())["queries"]
    embedder = default_embedder()
    chunks = [(sample["sample_id"], chunk) for sample in samples
              for chunk in memory_chunks(sample, session_starts(sample["conversation"]))]
    chunk_vectors = unit_rows(embedder, [chunk.chunk_text for _, chunk in chunks])
    chunk_terms = [set(memory_terms(chunk.chunk_text)) for _, chunk in chunks]
    query_vectors = unit_rows(embedder, [query["keyword_query"] for query in queries])
    noise, gold = [], []
    for query, vector in zip(queries, query_vectors, strict=True):
        terms = set(query_terms(query["keyword_query"]))
        similarity = np.maximum(chunk_vectors @ vector, 0.0)
        sessions = {session.rsplit(":S", 1)[1] for session in query["gold_session_ids"]}
        for (conversation, chunk), held, score in zip(chunks, chunk_terms, similarity, strict=True):
            if terms & held:
                continue
            if conversation != query["conversation_id"]:
                noise.append(score)
            elif chunk.id.split(":")[2] in sessions:
                gold.append(score)
    noise_array, gold_array = np.asarray(noise), np.asarray(gold)
    print(f"{len(queries)} queries; {len(noise_array)} pairs from other conversations, {len(gold_array)} from gold sessions")
    for percentile in PERCENTILES:
        floor = float(np.percentile(noise_array, percentile))
        share = float((gold_array >= floor).mean()) if len(gold_array) else 0.0
        print(f"noise p{percentile}: {floor:.3f}   gold-session chunks at or above it: {share:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
