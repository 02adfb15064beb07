"""ReadSessionUseCase: a bounded window of one session's turns, for an agent following up a hit.

The use case behind read_session, a second tool beyond FEAT-032 with no Kotlin counterpart:
search_history finds a turn, and the agent then needs the conversation around it. Turns are the
user and assistant messages of a live session, in the order they were written; a soft-deleted
session is not there, as in search.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import tzinfo
from typing import Protocol

from oneclaw_search.domain.input_text import as_integer
from oneclaw_search.domain.local_time import local_minute
from oneclaw_search.domain.redaction import redact, unchanged

DEFAULT_SPAN, MAX_SPAN = 5, 50  # turns shown before and after the one asked about
BAD_SESSION_ID = "Parameter 'session_id' is required and cannot be empty"
BAD_MESSAGE_ID = "Parameter 'around_message_id' must be a message id"
BAD_SPAN = "Parameter '{name}' must be an integer from 0 to {limit}: {value}"


class InvalidReadRequest(ValueError):
    """A read_session parameter the tool cannot accept; the message is shown to the model."""


class SessionNotFound(LookupError):
    """No live session with that id, or no such turn in it."""


@dataclass(frozen=True, slots=True)
class ReadSessionRequest:
    session_id: str
    around_message_id: str | None = None
    before: int = DEFAULT_SPAN
    after: int = DEFAULT_SPAN


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    title: str
    created_at: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class Turn:
    id: str
    role: str  # messages.type: USER or AI_RESPONSE
    content: str
    created_at: int


@dataclass(frozen=True, slots=True)
class SessionWindow:
    """Turns `first` … `first + len(turns) - 1` (from 1) of the session's `total`, with local times."""

    session: SessionInfo
    turns: tuple[Turn, ...]
    first: int
    total: int
    around_message_id: str | None
    zone: tzinfo

    def local_time(self, epoch_ms: int) -> str:
        return local_minute(epoch_ms, self.zone)


class SessionReader(Protocol):
    def session(self, session_id: str) -> SessionInfo | None:
        """The live (not soft-deleted) session with this id."""

    def turn_ids(self, session_id: str) -> list[str]:
        """Ids of its user and assistant messages, oldest first (ties in the order written)."""

    def turns(self, ids: Sequence[str]) -> list[Turn]:
        """These messages, in the order of `ids`."""

    def turns_around(self, ids: Sequence[str], span: int) -> dict[str, list[Turn]]:
        """For each of `ids` that is a turn of its session: that session's turns from `span` before it
        to `span` after it, in order, itself among them (one read for a whole reply)."""


def parse_read_session_request(parameters: Mapping[str, object]) -> ReadSessionRequest:
    session_id = parameters.get("session_id")
    if not isinstance(session_id, str) or not session_id.strip():
        raise InvalidReadRequest(BAD_SESSION_ID)
    around = parameters.get("around_message_id")
    if around is not None and (not isinstance(around, str) or not around.strip()):
        raise InvalidReadRequest(BAD_MESSAGE_ID)
    return ReadSessionRequest(session_id.strip(), around.strip() if around else None,
                              _span(parameters, "before"), _span(parameters, "after"))


def _span(parameters: Mapping[str, object], name: str) -> int:
    value = parameters.get(name)
    if value is None:
        return DEFAULT_SPAN
    number = as_integer(value)
    if number is None or not 0 <= number <= MAX_SPAN:
        raise InvalidReadRequest(BAD_SPAN.format(name=name, limit=MAX_SPAN, value=value))
    return number


class ReadSessionUseCase:
    def __init__(self, reader: SessionReader, zone: tzinfo, redact_secrets: bool = True) -> None:
        self._reader = reader
        self._zone = zone
        self._clean = redact if redact_secrets else unchanged

    def read(self, request: ReadSessionRequest) -> SessionWindow:
        """`before` turns, the one asked about and `after` turns; without one asked about, the
        session's last `before + after + 1` turns, where a conversation ends up."""
        session = self._reader.session(request.session_id)
        if session is None:
            raise SessionNotFound(f"No session '{request.session_id}'")
        ids = self._reader.turn_ids(session.id)
        if request.around_message_id is None:
            end = len(ids)
            start = max(0, end - request.before - request.after - 1)
        elif request.around_message_id in ids:
            at = ids.index(request.around_message_id)
            start, end = max(0, at - request.before), min(len(ids), at + request.after + 1)
        else:
            raise SessionNotFound(f"No message '{request.around_message_id}' among the turns of session '{session.id}'")
        turns = tuple(replace(turn, content=self._clean(turn.content)) for turn in self._reader.turns(ids[start:end]))
        session = replace(session, title=self._clean(session.title))
        return SessionWindow(session, turns, start + 1, len(ids), request.around_message_id, self._zone)
