"""Where session summaries are kept between calls: a table of the side index file, never the history.

The SummaryCache port of domain/session_summary.py; keys carry the session's content fingerprint,
so a summary is reused until the session changes. Without a side index, a process keeps its own.
"""
from __future__ import annotations

import json
import threading

from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.domain.session_summary import Digest

_TABLE = "session_summaries"


class SideSummaryCache:
    def __init__(self, side: SideIndex) -> None:
        self._side = side

    def get(self, key: str) -> Digest | None:
        self._create()
        rows = self._side.execute(f"SELECT digest FROM {_TABLE} WHERE key = ?", (key,))
        return _digest(rows[0][0]) if rows else None

    def put(self, key: str, digest: Digest) -> None:
        self._create()
        with self._side.peewee.atomic("IMMEDIATE"):
            self._side.execute(f"INSERT OR REPLACE INTO {_TABLE} (key, digest) VALUES (?, ?)", (key, _text(digest)))

    def _create(self) -> None:
        # Every time: a side file started over for another history or format drops its tables.
        self._side.path.parent.mkdir(parents=True, exist_ok=True)
        self._side.execute(f"CREATE TABLE IF NOT EXISTS {_TABLE} (key TEXT PRIMARY KEY, digest TEXT NOT NULL)")


class MemorySummaryCache:
    """For a search without a side index (`index_path=None`): summaries last as long as the process."""

    def __init__(self) -> None:
        self._digests: dict[str, Digest] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Digest | None:
        with self._lock:
            return self._digests.get(key)

    def put(self, key: str, digest: Digest) -> None:
        with self._lock:
            self._digests[key] = digest


def _text(digest: Digest) -> str:
    return json.dumps({"key_topics": digest.key_topics, "key_decisions": digest.key_decisions,
                       "unresolved": digest.unresolved, "method": digest.method, "summary": digest.summary}, ensure_ascii=False)


def _digest(text: str) -> Digest:
    stored = json.loads(text)
    return Digest(tuple(stored["key_topics"]), tuple(stored["key_decisions"]), tuple(stored["unresolved"]), stored["method"],
                  stored.get("summary", ""))  # digests kept before summaries had none
