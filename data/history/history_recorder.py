"""HistoryRecorder: an agent host records each turn as it happens (as draagon's
store_conversation_turn does; beyond FEAT-032), into a history this package owns.

A turn's time comes from the injected clock; a session is created on its first turn, and its
message_count, last_message_preview and updated_at follow every turn (HistoryWriter). Written in
the caller's thread, a turn is searchable as soon as `record` returns; with `background=True` a
single writer thread takes the turns in order and `flush` waits for them. Databases we own are in
WAL mode, so threads and processes can record and search at once.
"""
from __future__ import annotations

import queue
import threading
import uuid
from pathlib import Path

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
from oneclaw_search.data.history.new_rows import ROLES, HistoryWrites
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.domain.clock import Clock, SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.history_location import is_postgres_url
from oneclaw_search.domain.ports import Embedder

TITLE_LENGTH = 60  # a new session without a title is named after its first words
Turns = queue.Queue[tuple[NewMessage, str | None]]  # turns and their session titles, for the writer thread


class HistoryRecorder:
    def __init__(self, database: HistoryDatabase, clock: Clock, embedder: Embedder | None = None, *, background: bool = False,
                 writer: HistoryWrites | None = None) -> None:
        self._database = database  # closed by close(); `writer`, when given, writes through it instead
        self._writer = writer or HistoryWriter(database, embedder)
        self._clock = clock
        self._known: set[str] = set()  # sessions seen to exist: their titles and creation times stay as they are
        self._lock = threading.Lock()
        self._queue: Turns | None = None
        self._failure: BaseException | None = None
        if background:
            self._queue = queue.Queue()
            threading.Thread(target=self._drain, args=(self._queue,), name="history_recorder", daemon=True).start()

    @classmethod
    def open(cls, path: str | Path, clock: Clock | None = None, *, background: bool = False) -> HistoryRecorder:
        """A recorder over the SQLite history at `path`, created if missing; OneClaw's own database is
        refused, unchanged. oneclaw_search.di.open_recorder opens a postgresql:// history too."""
        if is_postgres_url(path):
            raise HistoryUnavailable(f"{path} is a PostgreSQL history: open it with oneclaw_search.di.open_recorder")
        return cls(open_writable(path), clock or SystemClock(), background=background)

    def record(self, session_id: str, role: str, content: str, *, title: str | None = None, tool_name: str | None = None,
               tool_input: str | None = None, tool_output: str | None = None, message_id: str | None = None) -> str:
        """Record one turn now and return its message id. `role` is user, assistant, tool_call,
        tool_result, error or system (or OneClaw's type names); ValueError names a bad one."""
        kind = ROLES.get(str(role).strip().lower())
        if kind is None:
            raise ValueError(f"role must be one of user, assistant, tool_call, tool_result, error, system: {role!r}")
        if not session_id or not isinstance(content, str):
            raise ValueError("a turn needs a session_id and text content")
        turn = NewMessage(message_id or uuid.uuid4().hex, session_id, kind, content, self._clock.now_ms(),
                          tool_name, tool_input, tool_output)
        if self._queue is None:
            self._write(turn, title)
        else:
            self._raise_failure()
            self._queue.put((turn, title))
        return turn.id

    def flush(self) -> None:
        """Wait until every turn recorded so far is written (and raise what writing one raised)."""
        if self._queue is not None:
            self._queue.join()
        self._raise_failure()

    def close(self) -> None:
        self.flush()
        self._database.close()

    def _write(self, turn: NewMessage, title: str | None) -> None:
        with self._lock:  # one writer at a time in this process: the session check and its write go together
            sessions = []
            if turn.session_id not in self._known and not self._writer.existing_session_ids({turn.session_id}):
                name = title or " ".join(turn.content.split())[:TITLE_LENGTH] or turn.session_id
                sessions.append(NewSession(turn.session_id, name, turn.created_at, agent_id="recorded"))
            self._writer.write(sessions, [turn], [])
            self._known.add(turn.session_id)

    def _drain(self, turns: Turns) -> None:
        while True:
            turn, title = turns.get()
            try:
                self._write(turn, title)
            except BaseException as failure:  # noqa: BLE001 - kept for flush(), so no turn fails silently
                self._failure = self._failure or failure
            finally:
                turns.task_done()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
