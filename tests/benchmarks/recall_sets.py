"""The retrieval sets recall is measured on, in one shape, and how recall is counted on them.

A set is histories the real tool searches and queries asked both ways (keyword query, question), each
with its gold turns and the fold it belongs to. Two kinds: LoCoMo's dev conversations (locomo_data.py;
a history and a fold per conversation) and coding-agent transcripts (coding_set.py; one history,
folds by transcript).

Recall is counted on what a model reads: a query's gold turns among the first 10 turns the JSON reply
shows, called with scope "sessions", max_results 10 and the tool's other defaults. Results count in
order, a message result as its `context` turns (itself among them) when it has context, else as
itself; a session result is one turn's room; each turn counts once.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from injector import Module, provider, singleton

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.history.session_reader import PeeweeSessionReader
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.di.index_module import IndexParts, SearchBackends
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.domain.ports import MessageSearch, SessionSearch
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.tools import ToolExecutionEngine, ToolResult

FIELDS = ("keyword_query", "question")
SHOWN_TURNS = 10
DAY_MS = 86_400_000


@dataclass(frozen=True)
class History:
    id: str
    path: Path  # the SQLite history, its side index built
    clock: PinnedClock  # "now" for its searches: a day after its newest turn
    fill: Callable[[HistoryWrites], object]  # writes its rows through any backend's writer


@dataclass(frozen=True)
class Query:
    id: str
    fold: str
    history: str  # the History it is asked of
    keyword_query: str
    question: str
    gold: list[str]  # message ids of the turns that answer it

    def text(self, field: str) -> str:
        return self.keyword_query if field == FIELDS[0] else self.question


@dataclass(frozen=True)
class RecallSet:
    name: str
    histories: list[History]
    queries: list[Query]

    @property
    def folds(self) -> list[str]:
        return list(dict.fromkeys(query.fold for query in self.queries))


def sqlite_history(path: Path, fill: Callable[[HistoryWrites], object]) -> int:
    """A SQLite history at `path` holding what `fill` writes, its side index built as `oneclaw-search
    index` builds it; returns the time of its newest message."""
    database = open_writable(path)
    fill(HistoryWriter(database, default_embedder()))
    database.close()
    if not create_injector(path).get(IndexParts).lookup.sync.catch_up():
        raise RuntimeError(f"the side index of {path} was not built")
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT max(created_at) FROM messages").fetchone()[0])


def ask(engine: ToolExecutionEngine, text: str, context: int | None = None) -> ToolResult:
    """The call recall is counted on: scope sessions, max_results 10, JSON, `context` only when given."""
    parameters = {"query": text, "scope": "sessions", "max_results": 10, "format": "json"}
    return engine.execute_tool("search_history", parameters if context is None else {**parameters, "context": context})


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
