"""The MCP server's edge: what each line a client writes becomes before the SDK sees it.

The SDK's stdio transport parses a line with pydantic's JSON reader and silently drops one it
cannot read (broken JSON, a lone-surrogate escape, params that are not an object), so a client
waits forever on a request that carried an id. Here such a line gets the JSON-RPC 2.0 answer
instead: a parse error with a null id, or an error carrying the request's id whenever it can be read.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import mcp_types as types

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = types.PARSE_ERROR, types.INVALID_REQUEST, types.INVALID_PARAMS
MAX_LINE_BYTES = 1 << 20  # far above any real call (a query is capped at a few thousand characters)


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


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def read_line(line: bytes | TooLong) -> Forward | Answer | None:
    """What to do with one line: hand it to the SDK, answer it here, or (a blank line) nothing."""
    if isinstance(line, TooLong):
        return Answer(error(None, PARSE_ERROR, f"Parse error: a line of {line.size:,} bytes is longer than the "
                                               f"{MAX_LINE_BYTES:,} this server reads; it was skipped unread"))
    line = line.strip()
    if not line:
        return None
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        pass  # the SDK would drop it: find out why, by Python's own reader
    else:
        if not isinstance(message, types.JSONRPCNotification):
            return _checked_call(message)
        # the SDK reads a request whose id is null, true or 1.5 as a notification, which gets no answer
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as bad:
        return Answer(error(None, PARSE_ERROR, f"Parse error: the line is not UTF-8 (byte 0x{line[bad.start]:02x} "
                                               f"at offset {bad.start})"))
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        return Answer(error(None, PARSE_ERROR, "Parse error: the JSON is nested too deeply to read"))
    except ValueError as bad:
        return Answer(error(None, PARSE_ERROR, f"Parse error: not JSON ({bad})"))
    return _batch(value) if isinstance(value, list) else _single(value)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _single(value: Any) -> Forward | Answer | None:
    """A message Python reads but the SDK's reader does not: one holding a lone surrogate, or a bad envelope."""
    if not isinstance(value, dict):
        return Answer(error(None, INVALID_REQUEST, f"Invalid Request: a message is a JSON object, not {_kind(value)}"))
    problem = _envelope_problem(value)
    if problem is not None:
        code, complaint = problem
        return Answer(error(readable_id(value), code, complaint))
    try:
        message = types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValueError as bad:
        return Answer(error(readable_id(value), INVALID_REQUEST, f"Invalid Request: {describe(bad)}"))
    return _checked_call(message)


def _batch(values: list[Any]) -> Answer | None:
    """MCP sends one message per line: a batch's requests are each refused by their own id."""
    if not values:
        return Answer(error(None, INVALID_REQUEST, "Invalid Request: an empty batch"))
    refused = "Invalid Request: batches are not supported; send one message per line"
    answers = [error(readable_id(v), INVALID_REQUEST, refused) for v in values if not _notification(v)]
    return Answer(answers) if answers else None


def _notification(value: Any) -> bool:
    return isinstance(value, dict) and "method" in value and "id" not in value


def _envelope_problem(value: dict[str, Any]) -> tuple[int, str] | None:
    if value.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    if "id" in value and not (isinstance(value["id"], (str, int)) and not isinstance(value["id"], bool)):
        return INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer'
    if "method" not in value:
        both_or_neither = ("result" in value) == ("error" in value)
        return (INVALID_REQUEST, 'Invalid Request: no "method" (and not a response)') if both_or_neither else None
    if not isinstance(value["method"], str):
        return INVALID_REQUEST, 'Invalid Request: "method" must be a string'
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        return INVALID_PARAMS, f'Invalid params: "params" must be an object, not {_kind(params)}'
    return None


def _checked_call(message: Any) -> Forward | Answer:
    """A tools/call whose params the SDK would refuse without saying why is refused here, naming the field."""
    if not isinstance(message, types.JSONRPCRequest) or message.method != "tools/call":
        return Forward(message)
    try:
        types.CallToolRequestParams.model_validate(message.params or {}, by_name=False)
    except ValueError as bad:
        return Answer(error(message.id, INVALID_PARAMS, f"Invalid params: {describe(bad, 'params')}"))
    return Forward(message)


def readable_id(value: Any) -> Any:
    """The id to answer with: a string or a number as sent; None (JSON null) when there is none to read."""
    found = value.get("id") if isinstance(value, dict) else None
    if isinstance(found, float):
        return found if math.isfinite(found) else None  # 1e400 reads as infinity, which JSON cannot write back
    return found if isinstance(found, (str, int)) and not isinstance(found, bool) else None


def describe(problem: ValueError, root: str = "") -> str:
    """pydantic's first complaint as `where: what`, e.g. `params.name: Input should be a valid string`."""
    found = problem.errors()[0] if hasattr(problem, "errors") and problem.errors() else None
    if found is None:
        return str(problem).splitlines()[0]
    where = ".".join([root] * bool(root) + [str(part) for part in found["loc"]])
    return f"{where}: {found['msg']}" if where else found["msg"]


def _kind(value: Any) -> str:
    names = {list: "an array", dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")
