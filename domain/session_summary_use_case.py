"""GetSessionSummaryUseCase: summaries of one session or of the most recent ones, each made once per
version of the session and kept in a cache (beyond FEAT-032: draagon-forge REQ-016.3).

Turns are masked for secrets before any summarizer sees them, so an LLM endpoint is never sent a
key the history holds; a summary that stood in for a failed LLM is not cached, so the LLM is asked
again next time.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from oneclaw_search.domain.input_text import as_integer
from oneclaw_search.domain.redaction import redact
from oneclaw_search.domain.session_reading import SessionInfo, SessionNotFound, SessionReader
from oneclaw_search.domain.session_summary import (
    Digest,
    SessionDirectory,
    SessionSummary,
    SessionVersion,
    Summarizer,
    SummaryCache,
    SummaryLater,
    Transcript,
)

DEFAULT_LIMIT = 5
MAX_LIMIT = 50  # as max_results
BAD_SESSION_ID = "Parameter 'session_id' must be a non-empty string: {value}"
BAD_LIMIT = "Parameter 'limit' must be an integer: {value}"
PENDING = " ({} summary being made)"


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
                 *, method_key: str = "extractive", redact_secrets: bool = True, later: SummaryLater | None = None) -> None:
        """`method_key` names the summarizer's configuration in cache keys, so another model or
        endpoint never reuses a summary made by this one. With `later`, its summary is returned once
        it is kept, and until then `summarizer`'s, while `later` makes its own in the background."""
        self._reader, self._directory = reader, directory
        self._summarizer, self._cache = summarizer, cache
        self._method_key = method_key
        self._later = later
        self._handled: dict[str, SessionInfo] = {}  # sessions whose model summary was found kept, as they stood
        self._clean = redact if redact_secrets else (lambda text: text)

    def summarize(self, request: SummaryRequest) -> list[SessionSummary]:
        """Raises SessionNotFound when `session_id` names no live session."""
        return [self._summary(info) for info in self._sessions(request)]

    def make_later_now(self, request: SummaryRequest, done: Callable[[int, int], None] = lambda made, total: None) -> int:
        """Has the background summarizer make, in this thread, the summary of each of the request's
        sessions it has not kept yet (the `summarize` command); how many it could not make (the
        model failed). `done(n, total)` after each session."""
        later = self._later
        if later is None:
            raise InvalidSummaryRequest("no background summarizer is configured: choose one with the summarizer setting")
        sessions, failed = self._sessions(request), 0
        for number, info in enumerate(sessions, start=1):
            key = f"{later.method_key}:{self._key(info, self._directory.version(info.id))}"
            if self._cache.get(key) is None and not later.summarize_now(key, self._masked(info)):
                failed += 1
            done(number, len(sessions))
        return failed

    def ask_later_for_quiet(self, now_ms: int, quiet_ms: int, limit: int = MAX_LIMIT) -> int:
        """Has the background summarizer start on each of the `limit` most recent sessions whose last
        turn is `quiet_ms` old or older and whose summary it has not kept; how many it was asked for.
        A session found summarised is not read again until its title or last activity moves."""
        later, asked = self._later, 0
        if later is None:
            return 0
        for info in self._directory.recent(limit):
            if self._handled.get(info.id) == info:
                continue  # its summary was kept and its title and last activity are as they were then
            version = self._directory.version(info.id)
            if version.ended_at is None or now_ms - version.ended_at < quiet_ms:
                continue
            key = f"{later.method_key}:{self._key(info, version)}"
            if self._cache.get(key) is not None:
                self._handled[info.id] = info
            elif later.why_not(key) is None:  # one the model failed on lately waits for a later look
                later.ask(info.id, key, partial(self._masked, info))
                asked += 1
        return asked

    @staticmethod
    def _key(info: SessionInfo, version: SessionVersion) -> str:
        """What a summary of the session as it stands is kept under, after the summarizer's name."""
        # The title is read already, with the session: it joins the key here rather than being read again.
        return f"{version.fingerprint}:{hashlib.sha256(info.title.encode()).hexdigest()[:16]}"

    def _sessions(self, request: SummaryRequest) -> Sequence[SessionInfo]:
        if request.session_id is None:
            return self._directory.recent(request.limit)
        info = self._reader.session(request.session_id)
        if info is None:
            raise SessionNotFound(f"No session '{request.session_id}'")
        return [info]

    def _summary(self, info: SessionInfo) -> SessionSummary:
        version = self._directory.version(info.id)  # the turns are read only when no summary is kept
        key, later, digest = self._key(info, version), self._later, None
        if later is not None:
            digest = self._cache.get(f"{later.method_key}:{key}")
        if digest is None:
            digest = self._made_now(info, f"{self._method_key}:{key}")
            if later is not None:
                why_not = later.why_not(f"{later.method_key}:{key}")
                if why_not is None:
                    later.ask(info.id, f"{later.method_key}:{key}", partial(self._masked, info))
                note = PENDING.format(later.name) if why_not is None else f" ({why_not})"
                digest = replace(digest, method=digest.method + note)
        started = info.created_at if version.started_at is None else version.started_at
        ended = info.updated_at if version.ended_at is None else version.ended_at
        return SessionSummary(info.id, self._clean(info.title), started, ended, version.turn_count, digest)

    def _made_now(self, info: SessionInfo, key: str) -> Digest:
        digest = self._cache.get(key)
        if digest is None:
            digest = self._summarizer.summarize(self._masked(info))
            if "unavailable" not in digest.method:  # a stand-in for a failed LLM: ask it again next time
                self._cache.put(key, digest)
        return digest

    def _masked(self, info: SessionInfo) -> Transcript:
        """The session's turns as a summarizer may read them: secrets masked."""
        turns = self._directory.all_turns(info.id)
        return Transcript(replace(info, title=self._clean(info.title)),
                          tuple(replace(turn, content=self._clean(turn.content)) for turn in turns))

