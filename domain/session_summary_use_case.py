"""GetSessionSummaryUseCase: summaries of one session or of the most recent ones, each made once per
version of the session and kept in a cache (beyond FEAT-032: draagon-forge REQ-016.3).

Turns are masked for secrets before any summarizer sees them, so an LLM endpoint is never sent a
key the history holds; a summary that stood in for a failed LLM is not cached, so the LLM is asked
again next time.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from oneclaw_search.domain.input_text import as_integer
from oneclaw_search.domain.redaction import redact
from oneclaw_search.domain.session_reading import SessionInfo, SessionNotFound, SessionReader
from oneclaw_search.domain.session_summary import (
    SessionDirectory,
    SessionSummary,
    Summarizer,
    SummaryCache,
    Transcript,
)

DEFAULT_LIMIT = 5
MAX_LIMIT = 50  # as max_results
BAD_SESSION_ID = "Parameter 'session_id' must be a non-empty string: {value}"
BAD_LIMIT = "Parameter 'limit' must be an integer: {value}"


class InvalidSummaryRequest(ValueError):
    """A parameter of get_session_summary cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    session_id: str | None = None
    limit: int = DEFAULT_LIMIT


def parse_summary_request(parameters: Mapping[str, object]) -> SummaryRequest:
    """`session_id` absent means the most recent sessions; `limit` is read as max_results is: 0 or
    less gives the default, above the maximum gives the maximum, anything not an integer is refused."""
    session_id = parameters.get("session_id")
    if session_id is not None and (not isinstance(session_id, str) or not session_id.strip()):
        raise InvalidSummaryRequest(BAD_SESSION_ID.format(value=session_id))
    return SummaryRequest(session_id.strip() if isinstance(session_id, str) else None, _limit(parameters.get("limit")))


def _limit(value: object) -> int:
    if value is None:
        return DEFAULT_LIMIT
    number = as_integer(value)
    if number is None:
        raise InvalidSummaryRequest(BAD_LIMIT.format(value=value))
    return DEFAULT_LIMIT if number <= 0 else min(number, MAX_LIMIT)

class GetSessionSummaryUseCase:
    def __init__(self, reader: SessionReader, directory: SessionDirectory, summarizer: Summarizer, cache: SummaryCache,
                 *, method_key: str = "extractive", redact_secrets: bool = True) -> None:
        """`method_key` names the summarizer's configuration in cache keys, so another model or
        endpoint never reuses a summary made by this one."""
        self._reader, self._directory = reader, directory
        self._summarizer, self._cache = summarizer, cache
        self._method_key = method_key
        self._clean = redact if redact_secrets else (lambda text: text)

    def summarize(self, request: SummaryRequest) -> list[SessionSummary]:
        """Raises SessionNotFound when `session_id` names no live session."""
        return [self._summary(info) for info in self._sessions(request)]

    def _sessions(self, request: SummaryRequest) -> Sequence[SessionInfo]:
        if request.session_id is None:
            return self._directory.recent(request.limit)
        info = self._reader.session(request.session_id)
        if info is None:
            raise SessionNotFound(f"No session '{request.session_id}'")
        return [info]

    def _summary(self, info: SessionInfo) -> SessionSummary:
        version = self._directory.version(info.id)  # the turns are read only when no summary is kept
        # The title is read already, with the session: it joins the key here rather than being read again.
        title = hashlib.sha256(info.title.encode()).hexdigest()[:16]
        key = f"{self._method_key}:{version.fingerprint}:{title}"
        digest = self._cache.get(key)
        if digest is None:
            turns = self._directory.all_turns(info.id)
            masked = Transcript(replace(info, title=self._clean(info.title)),
                                tuple(replace(turn, content=self._clean(turn.content)) for turn in turns))
            digest = self._summarizer.summarize(masked)
            if "unavailable" not in digest.method:  # a stand-in for a failed LLM: ask it again next time
                self._cache.put(key, digest)
        started = info.created_at if version.started_at is None else version.started_at
        ended = info.updated_at if version.ended_at is None else version.ended_at
        return SessionSummary(info.id, self._clean(info.title), started, ended, version.turn_count, digest)

