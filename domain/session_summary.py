"""Session summaries for quick orientation: the entities, the Summarizer port and its cache's port.

Beyond FEAT-032, from draagon-forge's conversation memory (REQ-016.3 `get_session_summary`): key
topics, key decisions and unresolved items of a past session, with which summarizer made them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from oneclaw_search.domain.session_reading import SessionInfo, Turn

EXTRACTIVE = "extractive"


@dataclass(frozen=True, slots=True)
class Transcript:
    """One live session and its user and assistant turns, oldest first."""

    session: SessionInfo
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class SessionVersion:
    """What a summary of a session depends on, read without reading the turns themselves: a
    fingerprint that changes whenever any turn's text changes, is added or removed."""

    fingerprint: str
    turn_count: int
    started_at: int | None  # the first and last turns' times; None for a session without turns
    ended_at: int | None


@dataclass(frozen=True, slots=True)
class Digest:
    """What a summarizer says of a session. `method` names it: `llm:<model>` or `extractive`, and
    says so when an LLM was asked but the extractive summary stands in for it."""

    key_topics: tuple[str, ...]
    key_decisions: tuple[str, ...]
    unresolved: tuple[str, ...]
    method: str
    summary: str = ""  # a short prose summary: the session's most central sentences, in order


@dataclass(frozen=True, slots=True)
class SessionSummary:
    session_id: str
    title: str
    started_at: int  # epoch ms of the first turn (the session's creation when it has none)
    ended_at: int  # epoch ms of the last turn (its last activity when it has none)
    turn_count: int
    digest: Digest


class Summarizer(Protocol):
    def summarize(self, transcript: Transcript) -> Digest:
        """Never raises for a session it cannot summarise well: it says so in `method` instead."""


class TopicFinder(Protocol):
    def topics(self, turns: Sequence[Turn], limit: int) -> tuple[str, ...]:
        """At most `limit` key topics of the turns, most central first: short phrases or names."""


class SummaryCache(Protocol):
    def get(self, key: str) -> Digest | None:
        """The digest stored under `key`, if any."""

    def put(self, key: str, digest: Digest) -> None:
        """Keep `digest` under `key`, replacing what was there."""


class SummaryLater(Protocol):
    """A slower summarizer (a local model) working in the background: a call never waits for it."""

    name: str  # what a reply calls it while its summary is being made
    method_key: str  # what names its summaries in the cache's keys

    def ask(self, session_id: str, key: str, read: Callable[[], Transcript]) -> None:
        """Summarise the session `read` returns, soon, and keep the digest in the cache under `key`,
        the session's key as it stands; a key asked for and not yet done is not asked again, and a
        session asked for again under a newer key is made under that key alone."""

    def summarize_now(self, key: str, transcript: Transcript) -> bool:
        """Summarise it in this thread and keep the digest under `key`; whether one was kept."""

    def why_not(self, key: str) -> str | None:
        """Why the model lately failed on `key` (it is not asked again for a while), else None."""


class SessionDirectory(Protocol):
    def recent(self, limit: int) -> Sequence[SessionInfo]:
        """The live sessions most recently active, newest first, at most `limit`."""

    def all_turns(self, session_id: str) -> Sequence[Turn]:
        """Every user and assistant turn of the session, oldest first, in one read."""

    def version(self, session_id: str) -> SessionVersion:
        """The session's version as it stands."""
