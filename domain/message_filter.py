"""The peers' optional narrowing parameters of search_history: role, session_id, project and agent_type
(taken from claude-history and the draagon/squidbot tools; not in FEAT-032). `context` only
shapes the reply, so search_request reads it.

With none of them given there is no filter at all, and the search is the spec's, byte for byte.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from oneclaw_search.domain.models import MessageType

ROLE_TYPES: dict[str, tuple[MessageType, ...]] = {
    "user": (MessageType.USER,),
    "assistant": (MessageType.AI_RESPONSE,),
    "tool": (MessageType.TOOL_CALL, MessageType.TOOL_RESULT),
}
DEFAULT_ROLES = ("user", "assistant")
MAX_FILTER_TEXT = 1_000
INVALID_ROLE = "Invalid role '{value}'. Must be one or more of: user, assistant, tool (a list, or separated by commas)"
BAD_TEXT = "Parameter '{name}' must be a non-empty string of at most 1000 characters"


@dataclass(frozen=True, slots=True)
class Within:
    """What a narrowed message or session search may return: messages of these types (None: the
    spec's user and assistant turns) in these sessions (None: any live session)."""

    types: frozenset[str] | None = None
    sessions: frozenset[str] | None = None

    @staticmethod
    def narrows(within: Within | None) -> bool:
        """Whether `within` keeps a search to some types or sessions, not every turn of every live session."""
        return within is not None and (within.types is not None or within.sessions is not None)


class InvalidFilter(ValueError):
    """A filter parameter the tool cannot accept; reported as a validation_error."""


@dataclass(frozen=True, slots=True)
class MessageFilter:
    """Which messages and sessions a search may return. `roles` name message types; the other
    fields, when set, keep a search inside matching sessions, where memory has no place."""

    roles: tuple[str, ...] = DEFAULT_ROLES
    session_id: str | None = None
    project: str | None = None
    agent_type: str | None = None

    @property
    def types(self) -> frozenset[str]:
        return frozenset(kind.value for role in self.roles for kind in ROLE_TYPES[role])

    @property
    def narrows_sessions(self) -> bool:
        return any(value is not None for value in (self.session_id, self.project, self.agent_type))

    def describe(self) -> str:
        """The filter in words for the reply's header, e.g. "role: user, tool; project: api"."""
        parts = [] if self.roles == DEFAULT_ROLES else [f"role: {', '.join(self.roles)}"]
        named = (("session_id", self.session_id), ("project", self.project), ("agent_type", self.agent_type))
        return "; ".join(parts + [f"{name}: {value}" for name, value in named if value is not None])


def parse_message_filter(parameters: Mapping[str, object]) -> MessageFilter | None:
    """The filter the parameters ask for, or None when they name none (the spec's search)."""
    names = ("role", "session_id", "project", "agent_type")
    if all(parameters.get(name) is None for name in names):
        return None
    roles = _parse_roles(parameters.get("role"))
    texts = [_parse_text(parameters.get(name), name) for name in names[1:]]
    return MessageFilter(roles, *texts)


def _parse_roles(value: object) -> tuple[str, ...]:
    if value is None:
        return DEFAULT_ROLES
    items = value if isinstance(value, (list, tuple)) else str(value).split(",")
    roles = [str(item).strip().lower() for item in items]
    unknown = [role for role in roles if role not in ROLE_TYPES]
    if unknown or not roles:
        raise InvalidFilter(INVALID_ROLE.format(value=unknown[0] if unknown else value))
    return tuple(role for role in ROLE_TYPES if role in roles)  # one fixed order, each once


def _parse_text(value: object, name: str) -> str | None:
    if value is None:
        return None
    text = value.strip() if isinstance(value, str) else ""
    if not text or len(text) > MAX_FILTER_TEXT:
        raise InvalidFilter(BAD_TEXT.format(name=name))
    return text
