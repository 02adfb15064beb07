"""LoCoMo's dev split as histories the real tool searches, and how recall is counted (shared by
bench_locomo.py and bench_cross_validation.py).

Recall is counted on what a model reads: a query's gold turns among the first 10 turns the JSON reply
shows, called with scope "sessions", max_results 10 and the tool's other defaults. Results count in
order, a message result as its `context` turns (itself among them) when it has context, else as
itself; a session result is one turn's room; each turn counts once.
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from injector import Module, provider, singleton

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.history.session_reader import PeeweeSessionReader
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.di.index_module import IndexParts, SearchBackends
from oneclaw_search.domain.models import MemoryChunk
from oneclaw_search.domain.ports import MessageSearch, SessionSearch
from oneclaw_search.domain.session_reading import SessionReader

# CC BY-NC data: read where it lies, never copied into this repository.
DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo"
FIELDS = ("keyword_query", "question")
SHOWN_TURNS = 10
MINUTE_MS, DAY_MS = 60_000, 86_400_000


class FixedClock:
    """Search "now" pinned after the conversation; budgets still run on the real monotonic clock."""

    def __init__(self, now_ms: int) -> None:
        self._now_ms = now_ms

    def now_ms(self) -> int:
        return self._now_ms

    def monotonic(self) -> float:
        return time.monotonic()


def load(dataset: Path = DATASET) -> tuple[list[dict], list[dict]]:
    """The dev conversations and their graded queries (those with gold evidence)."""
    samples = json.loads((dataset / "locomo10-dev.json").read_text(encoding="utf-8"))
    queries = json.loads((dataset / "locomo10-dev.queries.json").read_text(encoding="utf-8"))["queries"]
    return samples, [q for q in queries if q["gold_message_ids"]]


def epoch_ms(stamp: str) -> int:
    moment = datetime.strptime(stamp, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def session_starts(conversation: dict) -> dict[int, int]:
    # conv-26 lists date_times for sessions that have no turns; only real sessions count.
    numbers = [int(m[1]) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))]
    return {n: epoch_ms(conversation[f"session_{n}_date_time"]) for n in sorted(numbers)}


def history_rows(sample: dict) -> tuple[list[NewSession], list[NewMessage], list[MemoryChunk]]:
    """The dataset README's mapping: a session per LoCoMo session, a message per turn (speaker_a's the
    user's), summaries as daily logs and observations as MEMORY.md chunks."""
    conv, cid = sample["conversation"], sample["sample_id"]
    a, b = conv["speaker_a"], conv["speaker_b"]
    starts = session_starts(conv)
    sessions = [NewSession(f"{cid}:S{n}", f"Session {n} with {a} and {b}", start) for n, start in starts.items()]
    messages = []
    for n, start in starts.items():
        for i, turn in enumerate(conv[f"session_{n}"]):
            text = turn["text"] + (f" [image: {turn['blip_caption']}]" if turn.get("blip_caption") else "")
            kind = "USER" if turn["speaker"] == a else "AI_RESPONSE"
            messages.append(NewMessage(f"{cid}:{turn['dia_id']}", f"{cid}:S{n}", kind, text, start + i * MINUTE_MS))
    return sessions, messages, memory_chunks(sample, starts)


def memory_chunks(sample: dict, starts: dict[int, int]) -> list[MemoryChunk]:
    cid, chunks = sample["sample_id"], []
    for n, start in starts.items():
        day = datetime.fromtimestamp(start / 1000, UTC).date().isoformat()
        summary = sample["session_summary"].get(f"session_{n}_summary")
        if summary:
            chunks.append(MemoryChunk(f"{cid}:sum:{n}", "daily_log", day, summary, None, start, start))
        facts = sample["observation"].get(f"session_{n}_observation", {}).values()
        for k, (fact, _evidence) in enumerate((f for speaker in facts for f in speaker), start=1):
            chunks.append(MemoryChunk(f"{cid}:obs:{n}:{k}", "long_term", None, fact, None, start, start))
    return chunks


def write_history(sample: dict, folder: Path) -> tuple[Path, FixedClock]:
    """The conversation as a SQLite history in `folder`, its side index built as `oneclaw-search index`
    builds it, and a clock a day after its last session."""
    rows = history_rows(sample)
    path = folder / f"{sample['sample_id']}.db"
    database = open_writable(path)
    HistoryWriter(database, default_embedder()).write(*rows)
    database.close()
    if not create_injector(path).get(IndexParts).lookup.sync.catch_up():
        raise RuntimeError(f"the side index of {path} was not built")
    return path, FixedClock(max(s.created_at for s in rows[0]) + DAY_MS)


def shown_turns(results: list[dict], limit: int = SHOWN_TURNS) -> list[str]:
    """The ids of the first `limit` turns a JSON reply shows, each once."""
    shown: list[str] = []
    for result in results:
        shown += [turn["id"] for turn in result["context"]] if result.get("context") else [result["id"]]
    return list(dict.fromkeys(shown))[:limit]


def recall(shown: list[str], gold: list[str]) -> float:
    return len(set(gold).intersection(shown)) / len(gold)


class _Memo:
    """A source port that answers a question it was asked before from memory: the ranking model's
    constants do not change what a source finds, only how it is scored, so a grid of constants asks
    each source each question once."""

    def __init__(self, port: Any, cache: dict) -> None:
        self._port, self._cache = port, cache

    @property
    def retrievers(self) -> tuple[str, ...]:
        return tuple(self._port.retrievers)

    def search(self, query: Any, after: int, before: int, limit: int, **options: Any) -> Any:
        key = (query.raw, after, before, limit, options.get("within"))  # the deadline differs every time
        if key not in self._cache:
            self._cache[key] = self._port.search(query, after, before, limit, **options)
        return self._cache[key]


class _MemoReader:
    """A SessionReader answering `turns_around` from memory (the turns shown around hits), else as
    the history's own reader."""

    def __init__(self, reader: Any, cache: dict) -> None:
        self._reader, self._cache = reader, cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)

    def turns_around(self, ids: Any, span: int) -> Any:
        key = (tuple(ids), span)
        if key not in self._cache:
            self._cache[key] = self._reader.turns_around(ids, span)
        return self._cache[key]


def memo_module(cache: dict) -> Callable[[], Module]:
    """An injector module binding each source port, and the reader of the turns around hits, to a memo
    of the backend's (`cache` shared by every container over one history)."""

    class MemoModule(Module):
        @singleton
        @provider
        def provide_session_reader(self, database: HistoryDatabase) -> SessionReader:
            return _MemoReader(PeeweeSessionReader(database), cache.setdefault("turns", {}))  # type: ignore[return-value]

        @singleton
        @provider
        def provide_message_search(self, backends: SearchBackends) -> MessageSearch:
            return _Memo(backends.messages, cache.setdefault("messages", {}))  # type: ignore[return-value]

        @singleton
        @provider
        def provide_session_search(self, backends: SearchBackends) -> SessionSearch:
            return _Memo(backends.sessions, cache.setdefault("sessions", {}))  # type: ignore[return-value]

    return MemoModule
