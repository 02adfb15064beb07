"""The probe's lines: 50 hostile ones (broken, oversized, mistyped, with lone surrogates) and 30 valid
calls, each with the answer it must get: a result, a JSON-RPC error code, or nothing (a notification)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp_pipe import request, tool

RESULT = "result"


@dataclass(frozen=True)
class ProbeLine:
    kind: str
    line: bytes
    sent_id: Any  # the id to find on the answer; None: a null id
    expects: str | int | None  # RESULT, an error code, or None for no answer at all
    has_id: bool = True


def _hostile() -> list[ProbeLine]:
    unreadable = [  # no id can be read: a parse error or an invalid request, with a null id
        ("broken JSON", b"{", -32700), ("truncated call", tool(0, "search_history", {"query": "x"})[:40], -32700),
        ("trailing garbage", tool(0, "search_history", {"query": "x"}) + b"}}", -32700),
        ("invalid UTF-8", b'\xff\xfe{"jsonrpc": "2.0", "id": 1, "method": "ping"}', -32700),
        ("invalid UTF-8 in a string", b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\xc3\x28"}}', -32700),
        ("nesting 100,000 deep", b"[" * 100_000 + b"]" * 100_000, -32700),
        ("object nesting 50,000 deep", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, -32700),
        ("2 MB line", request(1, "ping", {"pad": "x" * 2_000_000}), -32700),
        ("20 MB line", request(1, "ping", {"pad": "y" * 20_000_000}), -32700),
        ("a number", b"42", -32600), ("a string", b'"tools/call"', -32600), ("null", b"null", -32600),
        ("batch of 500,000 zeros", b"[" + b"0," * 500_000 + b"0]", -32600),
        ("empty batch", b"[]", -32600), ("NUL bytes", b"\x00\x00\x00", -32700),
        ("id null", request(None, "ping"), -32600), ("id true", request(True, "ping"), -32600),
        ("id an object", request({"a": 1}, "ping"), -32600),
    ]
    lines = [ProbeLine(kind, line, None, code, has_id=False) for kind, line, code in unreadable]
    with_id = [
        ("params an array", request(101, "tools/call", [1, 2]), -32602),
        ("params a string", request(102, "tools/call", "search_history"), -32602),
        ("params a number", request(103, "ping", 7), -32602),
        ("name a number", request(104, "tools/call", {"name": 5}), -32602),
        ("name missing", request(105, "tools/call", {"arguments": {"query": "x"}}), -32602),
        ("arguments an array", request(106, "tools/call", {"name": "search_history", "arguments": [1]}), -32602),
        ("arguments a string", request(107, "tools/call", {"name": "search_history", "arguments": "q"}), -32602),
        ("jsonrpc 1.0", request(108, "ping", jsonrpc="1.0"), -32600),
        ("no jsonrpc", b'{"id": 109, "method": "ping"}', -32600),
        ("method a number", b'{"jsonrpc": "2.0", "id": 110, "method": 7}', -32600),
        ("id 1.5", request(1.5, "ping"), -32600),
        ("unknown method", request(112, "resources/read", {"uri": "file:///etc/passwd"}), -32601),
        ("method with a surrogate", request(113, "pi\udc00ng"), -32601),
        ("batch of a call", b"[" + request(114, "ping") + b"]", -32600),
        ("string id with a surrogate", request("a\ud800", "ping"), RESULT),
        ("surrogate in the query", tool(116, "search_history", {"query": "a\ud800b"}), RESULT),
        ("surrogate in a ping", request(117, "ping", {"x": "\udc00"}), RESULT),
        ("surrogate in the tool name", tool(118, "\ud800", {}), RESULT),
        ("surrogate in scope", tool(119, "search_history", {"query": "x", "scope": "\udfff"}), RESULT),
        ("NUL in the query", tool(120, "search_history", {"query": "a\u0000b"}), RESULT),
        ("query an object", tool(121, "search_history", {"query": {"a": 1}}), RESULT),
        ("max_results huge", tool(122, "search_history", {"query": "x", "max_results": 10**40}), RESULT),
        ("max_results NaN", request(123, "tools/call", {"name": "search_history", "arguments": {"query": "x"}})
         .replace(b'"query": "x"', b'"query": "x", "max_results": NaN'), RESULT),
        ("unknown tool", tool(124, "drop_tables", {}), RESULT),
        ("unknown argument", tool(125, "search_history", {"query": "x", "sql": "DROP TABLE messages"}), RESULT),
        ("query of 100,000 characters", tool(126, "search_history", {"query": "sushi " * 16_667}), RESULT),
        ("date_from not a date", tool(127, "search_history", {"query": "x", "date_from": "\ud800-01-01"}), RESULT),
        ("read_session of nothing", tool(128, "read_session", {"session_id": "\udc00"}), RESULT),
        ("duplicate keys", b'{"jsonrpc": "2.0", "id": 129, "id": 130, "method": "ping"}', RESULT),
        ("cancel of nothing", b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}}', None),
        ("notification with array params", b'{"jsonrpc": "2.0", "method": "notifications/initialized", "params": [1]}', None),
        ("a response nobody asked for", b'{"jsonrpc": "2.0", "id": 131, "result": null}', None),
    ]
    lines += [ProbeLine(kind, line, _id_of(line), expects, has_id=expects is not None and _id_of(line) is not None)
              for kind, line, expects in with_id]
    return lines


def _id_of(line: bytes) -> Any:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    found = value[0].get("id") if isinstance(value, list) else value.get("id") if isinstance(value, dict) else None
    return None if isinstance(found, (bool, dict)) else found


def _valid() -> list[ProbeLine]:
    calls = [tool(200 + n, "search_history", arguments) for n, arguments in enumerate([
        {"query": "sushi"}, {"query": "sushi restaurant", "scope": "memory"}, {"query": "restaurant", "format": "json"},
        {"query": "Roppongi", "max_results": 3}, {"query": "dinner", "scope": "sessions"}, {"query": "\"Sakura Sushi\""},
        {"query": "italian", "date_range": "last 30 days"}, {"query": "ramen", "context": 1}, {"query": "tokyo", "role": "user"},
        {"query": "budget", "scope": "daily_log"}, {"query": "寿司"}, {"query": "Café"}, {"query": "resturant"},
        {"query": "plans for the weekend"}, {"query": "sushi", "date_from": "2020-01-01", "date_to": "2030-12-31"},
        {"query": "   "}, {"query": "x", "scope": "web"}, {"query": "sushi", "max_results": 50},
        {"query": "what did I say about dinner?"}, {"query": "a" * 500},
    ])]
    calls += [request(300 + n, method) for n, method in enumerate(["ping", "tools/list", "ping", "tools/list", "ping"])]
    calls += [tool(310, "read_session", {"session_id": "nope"}), tool(311, "get_session_summary", {}),
              tool(312, "search_history", {"query": "sushi", "format": "text"}),
              tool(313, "search_history", {"query": "memory", "scope": "all"}), tool(314, "search_history", {"query": "ok"})]
    return [ProbeLine(f"valid {json.loads(line)['method']}", line, json.loads(line)["id"], RESULT) for line in calls]


HOSTILE, VALID = _hostile(), _valid()
assert len(HOSTILE) == 50 and len(VALID) == 30, (len(HOSTILE), len(VALID))
