"""`oneclaw-search mcp` given lines no well-behaved client sends, through a real server process on
pipes: every request that carries an id is answered, an unreadable line gets a parse error with a
null id, the server's memory stays bounded and it keeps serving afterwards."""
from __future__ import annotations

import contextlib
import json
import threading
import time

import pytest
from builders import write_history
from conftest import seeded_rows
from mcp_pipe import McpPipe, request


@pytest.fixture
def server(seeded_db):
    raw = McpPipe(seeded_db, "--time-zone", "Asia/Tokyo")
    yield raw
    if raw.process.poll() is None:
        raw.process.kill()


@pytest.fixture(scope="module")
def one_server(tmp_path_factory):
    """One server for every bad line in turn: each must leave it serving the next."""
    raw = McpPipe(write_history(tmp_path_factory.mktemp("hostile") / "seeded.db", *seeded_rows(), None))
    yield raw
    assert raw.close() == 0


def call(request_id, params) -> bytes:
    return request(request_id, "tools/call", params)


LONG = b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"pad": "' + b"x" * 2_000_000 + b'"}}'
HOSTILE = [  # (line, the id the answer carries, its code, what its message says)
    (call(1, [1, 2]), 1, -32602, 'Invalid params: "params" must be an object, not an array'),
    (call(2, {"name": 5}), 2, -32602, "Invalid params: params.name: Input should be a valid string"),
    (call(3, {"name": "search_history", "arguments": [1]}), 3, -32602, "params.arguments: Input should be a valid dictionary"),
    (b'{"jsonrpc": "2.0", "id": 4, "method": 7}', 4, -32600, '"method" must be a string'),
    (b'{"id": 5, "method": "ping"}', 5, -32600, '"jsonrpc" must be "2.0"'),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', 1.5, -32600, '"id" must be a string or an integer'),
    (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', None, -32600, '"id" must be a string or an integer'),
    (b'{broken', None, -32700, "Parse error: not JSON"),
    (b'\xff\xfe{"jsonrpc": "2.0", "id": 7, "method": "ping"}', None, -32700, "not UTF-8 (byte 0xff at offset 0)"),
    (b"[" * 100_000 + b"]" * 100_000, None, -32700, "nested too deeply"),
    (LONG, None, -32700, f"a line of {len(LONG):,} bytes is longer than the 1,048,576 this server reads"),
    (b"42", None, -32600, "a message is a JSON object, not a number"),
    (b"[]", None, -32600, "an empty batch"),
]


@pytest.mark.parametrize(("line", "request_id", "code", "says"), HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_a_bad_line_gets_a_json_rpc_error_with_its_id_when_readable(one_server, line, request_id, code, says):
    one_server.send(line)
    answer = one_server.reply()
    assert answer["id"] == request_id and answer["error"]["code"] == code and says in answer["error"]["message"]
    one_server.send(b'{"jsonrpc": "2.0", "id": "after", "method": "ping"}')  # still serving
    assert one_server.reply() == {"jsonrpc": "2.0", "id": "after", "result": {}}


@pytest.mark.spec("ERR-1")
def test_a_lone_surrogate_reaches_the_tool_and_comes_back_as_its_validation_error(server):
    server.send(call(9, {"name": "search_history", "arguments": {"query": "a\ud800b"}}))  # json.dumps writes \ud800
    answer = server.reply()
    assert answer["id"] == 9 and answer["result"]["isError"] is True
    assert answer["result"]["structuredContent"]["error"] == {
        "type": "validation_error",
        "message": "Parameter 'query' holds an invalid character (a lone UTF-16 surrogate at position 1)"}


def test_a_lone_surrogate_anywhere_else_is_answered_and_echoed_as_its_escape(server):
    server.send(b'{"jsonrpc": "2.0", "id": 10, "method": "ping", "params": {"x": "\\udc00"}}')
    assert server.reply() == {"jsonrpc": "2.0", "id": 10, "result": {}}
    server.send(call("\udc00", {"name": "\ud800", "arguments": {}}))
    raw_answer = server.reply()
    assert raw_answer["id"] == "\udc00" and raw_answer["result"]["content"][0]["text"] == "tool_not_found: Tool '\ud800' not found"


def test_a_batch_is_refused_request_by_request_and_its_notifications_get_nothing(server):
    server.send(b'[{"jsonrpc": "2.0", "id": 11, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}, 3]')
    answer = server.reply()
    assert [item["id"] for item in answer] == [11, None]
    assert {item["error"]["code"] for item in answer} == {-32600}
    assert "batches are not supported" in answer[0]["error"]["message"]
    server.send(b'[{"jsonrpc": "2.0", "method": "notifications/initialized"}]')
    assert server.quiet()


def test_a_line_far_past_the_limit_is_skipped_without_being_held(server):
    before = server.peak_kib()
    server.send(b'{"jsonrpc": "2.0", "id": 12, "params": {"pad": "' + b"y" * 64_000_000 + b'"}}')
    assert server.reply()["error"]["code"] == -32700
    grown = server.peak_kib() - before
    assert grown < 16_000, f"the server's peak memory grew by {grown:,} KiB over a 64 MB line"


def test_requests_on_either_side_of_bad_lines_are_each_answered_once(server):
    lines = [call(20, {"name": "search_history", "arguments": {"query": "Roppongi"}}), b"{", call(21, [1]),
             b'{"jsonrpc": "2.0", "id": 22, "method": "ping"}', b"", b"   "]
    for line in lines:
        server.send(line)
    answers = [server.reply() for _ in range(4)]
    assert sorted(str(answer["id"]) for answer in answers) == ["20", "21", "22", "None"]
    assert server.quiet(), "a blank line is no message and gets no answer"
    started = time.monotonic()
    assert server.close() == 0 and time.monotonic() - started < 10


def test_requests_still_running_when_stdin_closes_are_all_answered_before_the_server_exits(server):
    lines = [call(n, {"name": "search_history", "arguments": {"query": f"sushi {n}"}}) if n % 3 == 0
             else json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}).encode() for n in range(300)]
    replies: list[bytes] = []
    reader = threading.Thread(target=lambda: replies.extend(server.process.stdout.read().splitlines()))
    reader.start()
    server.process.stdin.write(b"\n".join(lines) + b"\n")
    assert server.close() == 0
    reader.join(30)
    answered = [json.loads(line)["id"] for line in replies]
    assert sorted(answered) == list(range(300))  # the SDK cancels what still runs when its input ends


def test_a_clients_own_response_is_never_answered_even_under_a_taken_id(server):
    server.send(call(7, {"name": "search_history", "arguments": {"query": "Roppongi"}}))
    server.send(b'{"jsonrpc": "2.0", "id": 7, "result": null}')
    server.send(b'{"id": 7, "error": "x"}')
    assert "result" in server.reply() and server.quiet()


def test_a_client_that_closed_its_reading_end_leaves_a_clean_exit(server):
    server.process.stdout.close()
    server.send(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}')
    server.send(call(2, {"name": "search_history", "arguments": {"query": "Roppongi"}}))
    assert server.close() == 0
    assert server.process.stderr.read() == b""


def test_a_client_that_stops_reading_holds_the_server_to_a_bounded_memory(server):
    before = server.peak_kib()
    flood = b"".join(json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/list"}).encode() + b"\n" for n in range(20_000))

    def write() -> None:
        with contextlib.suppress(OSError, ValueError):  # the server is killed with the write still blocked
            server.process.stdin.write(flood)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    writer.join(15)
    assert writer.is_alive(), "the server went on reading requests it could not answer"
    grown = server.peak_kib() - before
    assert grown < 40_000, f"peak memory grew by {grown:,} KiB with replies unread"
