"""What a case says must hold of a reply: one function per check kind of specs/conformance/README.md.

This module holds the checks on the reply as a whole (success, error, text, JSON); result_checks.py
those on the results it lists. Each returns None when it holds, else what was seen instead.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oneclaw_search.conformance.fixtures import Moment
from oneclaw_search.conformance.replies import Reply
from oneclaw_search.conformance.result_checks import RESULT_CHECKS, shown

Check = Callable[[Reply, Any, Moment], "str | None"]


def _success(reply: Reply, wanted: Any, _: Moment) -> str | None:
    if reply.success == bool(wanted):
        return None
    return f"expected {'success' if wanted else 'an error'}, got " + (
        "success" if reply.success else f"{reply.error_type}: {reply.error_message}")


def _error(reply: Reply, wanted: dict[str, str], _: Moment) -> str | None:
    if reply.success:
        return f"expected {wanted.get('type')}, got success with {shown(reply)}"
    if "type" in wanted and reply.error_type != wanted["type"]:
        return f"expected error type {wanted['type']}, got {reply.error_type}: {reply.error_message}"
    if "message" in wanted and reply.error_message != wanted["message"]:
        return f"expected message {wanted['message']!r}, got {reply.error_message!r}"
    if "pattern" in wanted and not re.search(wanted["pattern"], reply.error_message or ""):
        return f"message {reply.error_message!r} does not match /{wanted['pattern']}/"
    return None


def _text(reply: Reply, wanted: str, _: Moment) -> str | None:
    return None if reply.text == wanted else f"expected the reply {wanted!r}, got {reply.text!r}"


def _starts_with(reply: Reply, wanted: str, _: Moment) -> str | None:
    text = reply.text or ""
    return None if text.startswith(wanted) else f"the reply does not begin {wanted!r}: {text[:len(wanted) + 40]!r}"


def _header(reply: Reply, wanted: str, _: Moment) -> str | None:
    first = reply.lines[0]
    return None if first == wanted else f"expected the first line {wanted!r}, got {first!r}"


def _contains(reply: Reply, wanted: str | list[str], _: Moment) -> str | None:
    missing = [part for part in ([wanted] if isinstance(wanted, str) else wanted) if part not in (reply.text or "")]
    return f"the reply lacks {missing!r}" if missing else None


def _not_contains(reply: Reply, unwanted: str | list[str], _: Moment) -> str | None:
    present = [part for part in ([unwanted] if isinstance(unwanted, str) else unwanted) if part in (reply.text or "")]
    return f"the reply holds {present!r}" if present else None


def _line(reply: Reply, pattern: str, _: Moment) -> str | None:
    return None if any(re.fullmatch(pattern, line) for line in reply.lines) else f"no line matches /{pattern}/"


def _no_line(reply: Reply, pattern: str, _: Moment) -> str | None:
    hit = next((line for line in reply.lines if re.fullmatch(pattern, line)), None)
    return None if hit is None else f"the line {hit!r} matches /{pattern}/"


def _elapsed_below(reply: Reply, limit_ms: float, _: Moment) -> str | None:
    return None if reply.elapsed_ms < limit_ms else f"took {reply.elapsed_ms:.0f} ms, limit {limit_ms} ms"


def _json(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    if reply.document is None:
        return "the reply is not a JSON document"
    value: Any = reply.document
    for step in str(wanted["path"]).split(".") if wanted["path"] else []:
        try:
            value = value[int(step)] if isinstance(value, list) else value[step]
        except (KeyError, IndexError, ValueError, TypeError):
            return None if wanted.get("absent") else f"{wanted['path']} is absent"
    if wanted.get("absent"):
        return f"{wanted['path']} is present: {value!r}"
    if "equals" in wanted and value != wanted["equals"]:
        return f"{wanted['path']} is {value!r}, expected {wanted['equals']!r}"
    if "keys" in wanted and not set(wanted["keys"]) <= set(value):
        return f"{wanted['path']} lacks {sorted(set(wanted['keys']) - set(value))}"
    if "length" in wanted and len(value) != wanted["length"]:
        return f"{wanted['path']} has {len(value)} items, expected {wanted['length']}"
    return None


def _exit_code(reply: Reply, wanted: int, _: Moment) -> str | None:
    return None if reply.exit_code == wanted else f"exit code {reply.exit_code}, expected {wanted}"


CHECKS: dict[str, Check] = {
    "success": _success, "error": _error, "text": _text, "starts_with": _starts_with, "header": _header, "contains": _contains,
    "not_contains": _not_contains, "line": _line, "no_line": _no_line, "elapsed_ms_below": _elapsed_below,
    "json": _json, "exit_code": _exit_code, **RESULT_CHECKS,
}
NEEDS = {"exit_code": "exit_codes"}  # check kinds only some adapters can answer, by capability


def run_check(reply: Reply, check: dict[str, Any], moment: Moment) -> str | None:
    (kind, wanted), = ((k, v) for k, v in check.items() if k != "why")
    try:
        return CHECKS[kind](reply, wanted, moment)
    except LookupError as missing:
        return str(missing).strip("'\"")
