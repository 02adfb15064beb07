"""The MCP server's edge without a process: what a line becomes, how a long one is read past, and how
a reply holding a lone surrogate is written."""
from __future__ import annotations

import io
import json

import mcp_types as types
from mcp.shared.message import SessionMessage

from oneclaw_search.tools.cli.jsonrpc_edge import Answer, Forward, TooLong, read_line
from oneclaw_search.tools.cli.mcp_stdio import encoded, next_line


def test_a_line_the_sdk_reads_goes_to_it_unchanged():
    verdict = read_line(b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search_history"}}\n')
    assert isinstance(verdict, Forward) and verdict.message.id == 3 and verdict.message.params == {"name": "search_history"}


def test_a_lone_surrogate_is_read_by_python_and_handed_on_as_it_was_sent():
    verdict = read_line(b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "search_history", '
                        b'"arguments": {"query": "a\\ud800b"}}}')
    assert isinstance(verdict, Forward) and verdict.message.params["arguments"]["query"] == "a\ud800b"


def test_a_notification_gets_no_answer_and_blank_lines_are_nothing():
    assert isinstance(read_line(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}'), Forward)
    assert isinstance(read_line(b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"x": "\\udc00"}}'), Forward)
    assert read_line(b"  \r\n") is None
    assert read_line(b'[{"jsonrpc": "2.0", "method": "notifications/initialized"}]') is None


def test_errors_carry_the_id_when_it_can_be_read_and_null_otherwise():
    cases = {
        b'{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": "x"}': ("a", -32602),
        b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}': (None, -32600),
        b'{"jsonrpc": "2.0", "id": true, "method": "ping"}': (None, -32600),
        b'{"jsonrpc": "2.0", "id": 2.5, "method": "ping"}': (2.5, -32600),
        b'"ping"': (None, -32600),
        b'{"jsonrpc": "2.0", "id": 1e400, "method": "ping"}': (None, -32600),
    }
    for line, (request_id, code) in cases.items():
        verdict = read_line(line)
        assert isinstance(verdict, Answer), line
        assert (verdict.body["id"], verdict.body["error"]["code"]) == (request_id, code), line


def test_a_line_over_the_limit_is_skipped_to_its_end_and_the_next_one_read():
    wire = io.BytesIO(b"x" * 50 + b"\n" + b"y" * 1000 + b"\n" + b"z" * 10 + b"\n" + b"w" * 30)
    assert next_line(wire, limit=100) == b"x" * 50 + b"\n"
    skipped = next_line(wire, limit=100)
    assert skipped == TooLong(1000)
    assert next_line(wire, limit=100) == b"z" * 10 + b"\n"
    assert next_line(wire, limit=100) == b"w" * 30  # the last line may end without a newline
    assert next_line(wire, limit=100) is None
    assert "1,000 bytes" in read_line(skipped).body["error"]["message"]


def test_a_line_exactly_at_the_limit_is_read_whatever_its_line_break():
    assert next_line(io.BytesIO(b"a" * 100 + b"\nb"), limit=100) == b"a" * 100 + b"\n"
    assert next_line(io.BytesIO(b"a" * 100 + b"\r\nb"), limit=100) == b"a" * 100 + b"\r\n"
    assert next_line(io.BytesIO(b"a" * 101 + b"\nb"), limit=100) == TooLong(101)
    assert next_line(io.BytesIO(b"a" * 101), limit=100) == TooLong(101)  # cut off by the end of input


def test_the_clients_responses_and_notifications_are_never_answered_even_when_unreadable():
    for line in (b'{"jsonrpc": "2.0", "id": 7, "result": 1, "error": {}}', b'{"id": 7, "result": null}',
                 b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [1]}',
                 b'{"jsonrpc": "2.0", "id": 8, "result": {"x": "\\udc00"}}'):
        verdict = read_line(line)
        assert verdict is None or isinstance(verdict, Forward), line
    found = read_line(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": NaN, "y": "\\ud800"}}')
    assert isinstance(found, Forward)  # NaN is read as the SDK's own reader reads it


def test_a_batch_answer_stays_short_however_many_elements_carry_no_id():
    verdict = read_line(b"[" + b"0," * 50_000 + b'{"jsonrpc": "2.0", "id": 3, "method": "ping"}, {"id": 4, "result": 1}]')
    assert [item["id"] for item in verdict.body] == [3, None]


def test_a_reply_holding_a_lone_surrogate_is_written_as_its_escape():
    reply = types.JSONRPCResponse(jsonrpc="2.0", id="\udc00", result={"text": "Tool '\ud800' not found"})
    line = encoded(SessionMessage(reply))
    assert line.endswith(b"\n") and b"\\udc00" in line and b"\\ud800" in line
    assert json.loads(line) == {"jsonrpc": "2.0", "id": "\udc00", "result": {"text": "Tool '\ud800' not found"}}
    plain = encoded(SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"text": "Sakura 寿司"})))
    assert json.loads(plain)["result"]["text"] == "Sakura 寿司"
