"""PeeweeFilteredHistory: the rows a narrowed search may return, read from the history
(role, session_id, project and agent_type, beyond FEAT-032).

Implements the domain's FilteredHistory port: sessions chosen by id and by the origin facts an
import kept (oneclaw_search_origins: project path, sub-agent type), and their messages of the asked
roles, tool calls and results with their name, input and output as searchable text.
"""
from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Sequence

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.entities import SessionOriginEntity
from oneclaw_search.data.history.raw_sql import Row, execute_sql
from oneclaw_search.domain.focused_search import FilterUnavailable
from oneclaw_search.domain.message_filter import MessageFilter
from oneclaw_search.domain.models import MessageHit, MessageType

BATCH_ROWS = 2_000
NO_ORIGINS = ("Parameter '{name}' needs the origin facts an import keeps (project paths, sub-agent types), and this"
              " history has none: import a Claude Code history with `oneclaw-search import claude-code` first")
_ORIGINS = SessionOriginEntity._meta.table_name
_IN_LIST = "(SELECT value FROM json_each(?))"  # one parameter however many sessions a project has


class PeeweeFilteredHistory:
    def __init__(self, database: HistoryDatabase) -> None:
        self._database = database

    def session_ids(self, message_filter: MessageFilter) -> frozenset[str] | None:
        if not message_filter.narrows_sessions:
            return None
        sql, params = "SELECT s.id FROM sessions s WHERE s.deleted_at IS NULL", []
        if message_filter.session_id is not None:
            sql, params = sql + " AND s.id = ?", [message_filter.session_id]
        with self._database.connected() as database:
            ids = {row[0] for row in execute_sql(database, sql, params)}
            if message_filter.project is None and message_filter.agent_type is None:
                return frozenset(ids)
            has_table = _ORIGINS in database.get_tables()
            listed = f'SELECT session_id, project_path, agent_type FROM "{_ORIGINS}"'
            origins = execute_sql(database, listed).fetchall() if has_table else []
        return sessions_of_origin(message_filter, ids, origins)

    def messages(self, types: frozenset[str], session_ids: frozenset[str] | None, after: int, before: int,
                 ) -> Iterator[list[MessageHit]]:
        sql = ("SELECT m.id, m.session_id, s.title, m.type, m.content, m.created_at, m.tool_name, m.tool_input,"
               " m.tool_output FROM messages m JOIN sessions s ON s.id = m.session_id"
               f" WHERE s.deleted_at IS NULL AND m.type IN {_IN_LIST} AND m.created_at BETWEEN ? AND ?")
        params: list[object] = [json.dumps(sorted(types)), after, before]
        if session_ids is not None:
            sql, params = sql + f" AND m.session_id IN {_IN_LIST}", [*params, json.dumps(sorted(session_ids))]
        with self._database.connected() as database:
            cursor = execute_sql(database, sql + " ORDER BY m.created_at DESC, m.id", params)
            while rows := cursor.fetchmany(BATCH_ROWS):
                yield [MessageHit(row[0], row[1], row[2], row[3], searchable_text(row), row[5]) for row in rows]


def sessions_of_origin(message_filter: MessageFilter, live: set[str], origins: Sequence[Row]) -> frozenset[str]:
    """The live sessions whose origin (session_id, project_path, agent_type) the filter's project
    and agent_type admit; FilterUnavailable when no import kept origins."""
    if not origins:  # an empty table too: nothing imported kept a project, so no answer would be right
        raise FilterUnavailable(NO_ORIGINS.format(name="project" if message_filter.project else "agent_type"))
    return frozenset(session for session, project, agent in origins
                     if session in live and project_matches(project, message_filter.project)
                     and agent_matches(agent, message_filter.agent_type))


def searchable_text(row: Row) -> str:
    """A tool row's words live beside its content: the call's name and input, the result's output."""
    kind, content, name, tool_input, tool_output = row[3], row[4] or "", row[6], row[7], row[8]
    if kind == MessageType.TOOL_CALL.value:
        call = f"{name or 'tool'}({tool_input or ''})"
        return f"{call}\n{content}" if content.strip() else call
    if kind == MessageType.TOOL_RESULT.value:
        output = tool_output if tool_output is not None else content
        return f"{name}: {output}" if name else output
    return content


def project_matches(path: str | None, wanted: str | None) -> bool:
    """The project's path, a folder above it, or the repository's folder name (claude-history's rule)."""
    if wanted is None:
        return True
    if not path:
        return False
    path, wanted = path.rstrip("/") or "/", wanted.rstrip("/") or "/"
    if "/" not in wanted:
        return posixpath.basename(path).casefold() == wanted.casefold()
    return path == wanted or path.startswith(wanted if wanted.endswith("/") else wanted + "/")


def agent_matches(agent: str | None, wanted: str | None) -> bool:
    return wanted is None or (agent is not None and agent.casefold() == wanted.casefold())
