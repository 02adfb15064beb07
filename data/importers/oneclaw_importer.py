"""OneClawImporter: a OneClaw backup zip or oneclaw.db merged into a history we own
(`import oneclaw`, beyond FEAT-032; BackupManager.kt makes the zip).

A backup is searchable as it is (`--db` takes the zip); importing it copies its sessions,
messages and memory beside histories from elsewhere (squidbot, memory folders, bundles). The
source is only read. Rows keep their ids, so importing twice adds nothing; memory chunks are
embedded anew, since OneClaw's vectors (when there are any) are not ours.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.history.raw_sql import Row, execute_sql
from oneclaw_search.data.importers.backup_archive import open_history
from oneclaw_search.domain.models import MemoryChunk

BATCH = 20_000
_SESSIONS = "SELECT id, title, created_at, updated_at, deleted_at, current_agent_id FROM sessions"
_MESSAGES = ("SELECT rowid, id, session_id, type, content, created_at, tool_name, tool_input, tool_output"
             " FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?")
_CHUNKS = "SELECT id, source_type, source_date, chunk_text, created_at, updated_at FROM memory_index"


@dataclass
class OneClawImportSummary:
    sessions: int = 0
    messages: int = 0  # newly written
    already: int = 0  # messages the history held already
    chunks: int = 0


class OneClawImporter:
    def __init__(self, writer: HistoryWrites, progress: Callable[[int], None] | None = None,
                 expect: Callable[[int], None] | None = None) -> None:
        self._writer, self._progress = writer, progress  # progress hears the rows copied so far, a page at a time
        self._expect = expect  # hears how many rows there are, before they are copied

    def import_history(self, path: Path) -> OneClawImportSummary:
        source = open_history(path, HistoryDatabase.open_read_only)
        summary = OneClawImportSummary()
        try:
            with source.connected() as database:
                sessions = [NewSession(i, title, created, updated, deleted, agent or "imported")
                            for i, title, created, updated, deleted, agent in execute_sql(database, _SESSIONS)]
                chunks = [MemoryChunk(i, kind, day, text, None, created, updated)
                          for i, kind, day, text, created, updated in execute_sql(database, _CHUNKS)]
                if self._expect is not None:
                    total: int = execute_sql(database, "SELECT count(*) FROM messages").fetchone()[0]
                    self._expect(len(sessions) + len(chunks) + total)
            self._writer.write(sessions, [], chunks)
            summary.sessions, summary.chunks = len(sessions), len(chunks)
            self._report(summary)
            after = 0
            while rows := self._page(source, after):
                after = rows[-1][0]
                messages = {row[1]: NewMessage(*row[1:]) for row in rows}
                already = self._writer.write([], list(messages.values()), [], keep_existing=True)
                summary.messages += len(messages) - already
                summary.already += already
                self._report(summary)
        finally:
            source.close()
        return summary

    def _report(self, summary: OneClawImportSummary) -> None:
        if self._progress is not None:
            self._progress(summary.sessions + summary.chunks + summary.messages + summary.already)

    def _page(self, source: HistoryDatabase, after: int) -> list[Row]:
        with source.connected() as database:
            return execute_sql(database, _MESSAGES, (after, BATCH)).fetchall()
