"""The rows an importer or recorder hands to HistoryWriter, and their column values (P-12, P-13).

NewSession and NewMessage carry what OneClaw's sessions and messages tables need; SessionOrigin
the facts about an imported session that go to our own side table.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from oneclaw_search.domain.models import MemoryChunk, MessageType

# A turn's role as hosts, bundles and peers name it, and the message type OneClaw stores.
ROLES = {"user": "USER", "assistant": "AI_RESPONSE", "tool_call": "TOOL_CALL", "tool_result": "TOOL_RESULT",
         "error": "ERROR", "system": "SYSTEM", **{kind.value.lower(): kind.value for kind in MessageType}}


@dataclass(frozen=True, slots=True)
class NewSession:
    id: str
    title: str
    created_at: int
    updated_at: int | None = None
    deleted_at: int | None = None
    agent_id: str = "imported"
    origin: SessionOrigin | None = None


@dataclass(frozen=True, slots=True)
class SessionOrigin:
    """Facts about an imported session's source that OneClaw's columns have no place for."""

    source_kind: str
    project_path: str | None = None
    agent_type: str | None = None
    parent_session_id: str | None = None
    source_file: str | None = None


@dataclass(frozen=True, slots=True)
class NewMessage:
    id: str
    session_id: str
    type: str
    content: str
    created_at: int
    tool_name: str | None = None
    tool_input: str | None = None
    tool_output: str | None = None


def session_row(session: NewSession) -> dict[str, object]:
    return {
        "id": session.id, "title": session.title, "current_agent_id": session.agent_id,
        "message_count": 0, "last_message_preview": None, "is_active": 0,
        "deleted_at": session.deleted_at, "created_at": session.created_at,
        "updated_at": session.updated_at if session.updated_at is not None else session.created_at,
    }


def origin_row(session: NewSession) -> dict[str, object]:
    origin = session.origin
    if origin is None:  # only imported sessions have a row in the origins table
        raise ValueError(f"session {session.id} has no origin to record")
    return {"session_id": session.id, "source_kind": origin.source_kind, "project_path": origin.project_path,
            "agent_type": origin.agent_type, "parent_session_id": origin.parent_session_id,
            "source_file": origin.source_file}


def message_row(message: NewMessage) -> dict[str, object]:
    return {
        "id": message.id, "session_id": message.session_id, "type": message.type,
        "content": message.content, "created_at": message.created_at, "tool_name": message.tool_name,
        "tool_input": message.tool_input, "tool_output": message.tool_output,
    }


class HistoryWrites(Protocol):
    """What importers and the recorder write through: HistoryWriter (SQLite) or PostgresHistoryWriter."""

    def write(self, sessions: Sequence[NewSession], messages: Sequence[NewMessage], chunks: Sequence[MemoryChunk],
              *, keep_existing: bool = False) -> int: ...

    def sync_chunks(self, prefix: str, chunks: Sequence[MemoryChunk]) -> tuple[int, int]: ...

    def existing_session_ids(self, ids: set[str]) -> set[str]: ...
