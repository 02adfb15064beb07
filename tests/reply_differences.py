"""The tool's whole replies to the same questions of two histories (a replayed one and a fresh build of
the same file, replay_writes.py), and where they differ beyond a score's rounding (Q-11).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from replay_writes import engine

from oneclaw_search.domain.clock import PinnedClock


@dataclass
class Difference:
    """How the replies to one query differ between a replayed history and its fresh build."""

    query: str
    order: bool  # the same rows, in another order
    rows: bool  # other rows
    worst_score_gap: float  # the largest relative difference of a row's raw score, over rows both hold


def replies(path: Path, index: Path, queries: Sequence[str], clock: PinnedClock, **settings: object) -> list[dict]:
    searching = engine(path, index, clock, **settings)
    found = []
    for query in queries:
        reply = searching.execute_tool("search_history", {"query": query, "max_results": 10, "format": "json"})
        found.append(json.loads(reply.result) if reply.is_success else {"error": reply.error_message})
    return found


def compared(queries: Sequence[str], ours: Sequence[dict], fresh: Sequence[dict]) -> list[tuple[Difference, bool]]:
    """Each query's reply against the fresh build's, and whether all but the scores are the same."""
    found = []
    for query, mine, theirs in zip(queries, ours, fresh, strict=True):
        a, b = mine.get("results", []), theirs.get("results", [])
        ids_a, ids_b = [r["id"] for r in a], [r["id"] for r in b]
        raw_b = {r["id"]: r["score_parts"]["raw"] for r in b}
        gaps = [abs(r["score_parts"]["raw"] - raw_b[r["id"]]) / max(abs(raw_b[r["id"]]), 1e-300)
                for r in a if r["id"] in raw_b]
        found.append((Difference(query, ids_a != ids_b and set(ids_a) == set(ids_b), set(ids_a) != set(ids_b),
                                 max(gaps, default=0.0)), _without_scores(mine) == _without_scores(theirs)))
    return found


def differences(queries: Sequence[str], ours: Sequence[dict], fresh: Sequence[dict]) -> list[Difference]:
    """Every query whose whole reply differs beyond a score's rounding (0.1 %)."""
    return [found for found, same_rest in compared(queries, ours, fresh)
            if found.order or found.rows or found.worst_score_gap > 1e-3 or not same_rest]


def _without_scores(reply: object) -> object:
    """A reply with its scores and timings left out, to compare everything else exactly."""
    if isinstance(reply, dict):
        return {key: _without_scores(value) for key, value in reply.items() if key not in ("score", "score_parts", "ms")}
    if isinstance(reply, list):
        return [_without_scores(value) for value in reply]
    return reply
