"""JSON-RPC 2.0's rules for one message read by Python: its kind, the id an answer carries, what is
wrong with its envelope, and errors worded for the client. Used by the MCP server's edge."""
from __future__ import annotations

import math
from typing import Any

import mcp_types as types

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = types.PARSE_ERROR, types.INVALID_REQUEST, types.INVALID_PARAMS


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def is_notification(value: Any) -> bool:
    """A message nobody answers, sound or not: JSON-RPC never replies to a notification."""
    return isinstance(value, dict) and "method" in value and "id" not in value


def is_response(value: Any) -> bool:
    """The client's reply to a request of the server's: answering it could collide with the client's own ids."""
    return isinstance(value, dict) and "method" not in value and ("result" in value or "error" in value)


def readable_id(value: Any) -> Any:
    """The id to answer with: a string or a number as sent; None (JSON null) when there is none to read."""
    found = value.get("id") if isinstance(value, dict) else None
    if isinstance(found, float):
        return found if math.isfinite(found) else None  # 1e400 reads as infinity, which JSON cannot write back
    return found if isinstance(found, (str, int)) and not isinstance(found, bool) else None


def envelope_problem(value: dict[str, Any]) -> tuple[int, str] | None:
    """What makes a request no request, as (code, message); None when the envelope is sound."""
    if value.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    if not (isinstance(value.get("id"), (str, int)) and not isinstance(value.get("id"), bool)):
        return INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer'
    if "method" not in value:
        return INVALID_REQUEST, 'Invalid Request: no "method"'
    if not isinstance(value["method"], str):
        return INVALID_REQUEST, 'Invalid Request: "method" must be a string'
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        return INVALID_PARAMS, f'Invalid params: "params" must be an object, not {kind(params)}'
    return None


def describe(problem: ValueError, root: str = "") -> str:
    """pydantic's first complaint as `where: what`, e.g. `params.name: Input should be a valid string`."""
    found = problem.errors()[0] if hasattr(problem, "errors") and problem.errors() else None
    if found is None:
        return str(problem).splitlines()[0]
    where = ".".join([root] * bool(root) + [str(part) for part in found["loc"]])
    return f"{where}: {found['msg']}" if where else found["msg"]


def kind(value: Any) -> str:
    names = {list: "an array", dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")
