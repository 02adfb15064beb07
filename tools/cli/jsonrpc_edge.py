"""The MCP server's edge: what each line a client writes becomes before the SDK sees it.

The SDK's stdio transport parses a line with pydantic's JSON reader and silently drops one it
cannot read (broken JSON, a lone-surrogate escape, params that are not an object), so a client
waits forever on a request that carried an id. Here such a line gets the JSON-RPC 2.0 answer
instead: a parse error with a null id, or an error carrying the request's id whenever it can be read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import mcp_types as types

from oneclaw_search.tools.cli.jsonrpc_checks import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    describe,
    envelope_problem,
    error,
    is_notification,
    is_response,
    kind,
    readable_id,
)

MAX_LINE_BYTES = 1 << 20  # a hundred times the longest query the tool takes (10,000 characters)


@dataclass(frozen=True)
class Forward:
    """A message the SDK can take as it is."""

    message: Any


@dataclass(frozen=True)
class Answer:
    """What the edge answers itself: one JSON-RPC error, or a batch's errors as a list."""

    body: dict[str, Any] | list[dict[str, Any]]


@dataclass(frozen=True)
class TooLong:
    """A line past MAX_LINE_BYTES, read past unkept; `size` counts its bytes."""

    size: int


def read_line(line: bytes | TooLong) -> Forward | Answer | None:
    """What to do with one line: hand it to the SDK, answer it here, or nothing (a blank line, a
    notification or a response of the client's that cannot be read)."""
    if isinstance(line, TooLong):
        return Answer(error(None, PARSE_ERROR, f"Parse error: a line of {line.size:,} bytes is longer than the "
                                               f"{MAX_LINE_BYTES:,} this server reads; it was skipped unread"))
    line = line.strip()
    if not line:
        return None
    # Only an object can be a message; pydantic's reader, refusing a long array, keeps a copy of it all.
    message = _sdk_message(line) if line.startswith(b"{") else None
    if message is not None and not isinstance(message, types.JSONRPCNotification):
        return _checked_call(message)
    # else the SDK would drop it, or reads a request whose id is null, true or 1.5 as a notification,
    # which gets no answer: Python's own reader finds out which
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as bad:
        return Answer(error(None, PARSE_ERROR, f"Parse error: the line is not UTF-8 (byte 0x{line[bad.start]:02x} "
                                               f"at offset {bad.start})"))
    try:
        value = json.loads(text)
    except RecursionError:
        return Answer(error(None, PARSE_ERROR, "Parse error: the JSON is nested too deeply to read"))
    except ValueError as bad:
        return Answer(error(None, PARSE_ERROR, f"Parse error: not JSON ({bad})"))
    return _batch(value) if isinstance(value, list) else _single(value)


def _sdk_message(line: bytes) -> Any:
    try:
        return types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        return None


def _single(value: Any) -> Forward | Answer | None:
    """A message Python reads but the SDK's reader does not: one holding a lone surrogate, or a bad envelope."""
    if not isinstance(value, dict):
        return Answer(error(None, INVALID_REQUEST, f"Invalid Request: a message is a JSON object, not {kind(value)}"))
    if is_notification(value) or is_response(value):
        try:
            return Forward(types.jsonrpc_message_adapter.validate_python(value, by_name=False))
        except ValueError:
            return None
    problem = envelope_problem(value)
    if problem is not None:
        code, complaint = problem
        return Answer(error(readable_id(value), code, complaint))
    try:
        message = types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValueError as bad:
        return Answer(error(readable_id(value), INVALID_REQUEST, f"Invalid Request: {describe(bad)}"))
    return _checked_call(message)


def _batch(values: list[Any]) -> Answer | None:
    """MCP sends one message per line. A batch's requests are refused each by its id, and whatever in
    it carries no id shares one error, so the answer is never much longer than the line."""
    if not values:
        return Answer(error(None, INVALID_REQUEST, "Invalid Request: an empty batch"))
    refused = "Invalid Request: batches are not supported; send one message per line"
    requests = [value for value in values if not (is_notification(value) or is_response(value))]
    answers = [error(readable_id(value), INVALID_REQUEST, refused) for value in requests if readable_id(value) is not None]
    if any(readable_id(value) is None for value in requests):
        answers.append(error(None, INVALID_REQUEST, refused))
    return Answer(answers) if answers else None


def _checked_call(message: Any) -> Forward | Answer:
    """A tools/call whose params the SDK would refuse without saying why is refused here, naming the field."""
    if not isinstance(message, types.JSONRPCRequest) or message.method != "tools/call":
        return Forward(message)
    try:
        types.CallToolRequestParams.model_validate(message.params or {}, by_name=False)
    except ValueError as bad:
        return Answer(error(message.id, INVALID_PARAMS, f"Invalid params: {describe(bad, 'params')}"))
    return Forward(message)
