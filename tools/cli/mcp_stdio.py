"""The stdio wire of `oneclaw-search mcp`: lines in and out of the process, around the SDK's Server.

The SDK's stdio_server reads and writes the wire itself: its reader drops a line it cannot parse
and its writer cannot write a lone surrogate. So this module owns both ends: it reads each line
bounded in length, lets jsonrpc_edge decide what it becomes, and hands the Server the message
streams it expects.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from oneclaw_search.tools.cli.jsonrpc_edge import MAX_LINE_BYTES, Answer, Forward, TooLong, read_line
from oneclaw_search.tools.cli.mcp_in_flight import InFlight

SKIP_CHUNK = 1 << 16
WRITE_GRACE_SECONDS = 5.0  # for the last replies once the server stops, to a client that may not read them


def next_line(wire: IO[bytes], limit: int = MAX_LINE_BYTES) -> bytes | TooLong | None:
    """The next line (None at the end); one longer than `limit` bytes before its line break is read
    past in chunks, never held whole."""
    line = wire.readline(limit + 2)
    if not line:
        return None
    size = len(line.rstrip(b"\r\n"))
    if size <= limit and (line.endswith(b"\n") or len(line) <= limit):
        return line
    while not line.endswith(b"\n") and (line := wire.readline(SKIP_CHUNK)):
        size += len(line.rstrip(b"\r\n"))
    return TooLong(size)


def encoded(item: SessionMessage | Answer) -> bytes:
    """One line of JSON. A reply holding a lone surrogate (echoed from a request) goes out as its
    \\uXXXX escape, as Python's and JavaScript's encoders write it, where pydantic's refuses it."""
    if isinstance(item, Answer):
        body: Any = item.body
    else:
        try:
            return item.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
        except ValueError:
            body = item.message.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return json.dumps(body, separators=(",", ":")).encode("ascii") + b"\n"


@contextmanager
def claimed_stdio() -> Iterator[tuple[IO[bytes], int]]:
    """The wire as private copies of fds 0 and 1 (the output one non-blocking, written from the event
    loop). While serving, fd 0 reads nothing and fd 1 goes to stderr, so a stray print (ours, a
    library's, a child process's) never lands inside a frame."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.dup2(2, 1)
    os.close(nothing)
    os.set_blocking(wire_out, False)
    try:
        with os.fdopen(wire_in, "rb", closefd=False) as reading:
            yield reading, wire_out
    finally:
        os.set_blocking(wire_out, True)
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


async def serve_lines(server: Any, wire_in: IO[bytes], wire_out: int, stale_seconds: float) -> None:
    """Serve `server` until the client closes its end of `wire_in` and every request handed over is
    answered (or open past `stale_seconds`)."""
    to_server_send, to_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    from_server, to_wire = anyio.create_memory_object_stream[SessionMessage | Answer](0)
    edge, in_flight, written = from_server.clone(), InFlight(stale_seconds), anyio.Event()

    async def read_wire() -> None:
        async with to_server_send, edge:
            while (line := await anyio.to_thread.run_sync(next_line, wire_in)) is not None:
                verdict = read_line(line)
                if isinstance(verdict, Forward):
                    _track(in_flight, verdict.message)
                    await to_server_send.send(SessionMessage(verdict.message))
                    await in_flight.room()
                elif isinstance(verdict, Answer):
                    await edge.send(verdict)
            await in_flight.settled()

    async def write_wire() -> None:
        async with to_wire:
            await _write_all(to_wire, wire_out, in_flight, stale_seconds)
        written.set()

    async with anyio.create_task_group() as group:
        group.start_soon(read_wire)
        group.start_soon(write_wire)
        await server.run(to_server, from_server, server.create_initialization_options())
        await from_server.aclose()
        with anyio.move_on_after(WRITE_GRACE_SECONDS):
            await written.wait()
        group.cancel_scope.cancel()


def _track(in_flight: InFlight, message: Any) -> None:
    if isinstance(message, types.JSONRPCRequest):
        in_flight.opened(message.id)
    elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
        in_flight.answered((message.params or {}).get("requestId"))


async def _write_all(to_wire: Any, wire_out: int, in_flight: InFlight, stall_seconds: float) -> None:
    # A client that closed its end, or read nothing for stall_seconds, is gone: replies are still
    # taken and dropped, so no handler waits on one and the server can see the end of its input.
    gone = False
    async for item in to_wire:
        if not gone:
            try:
                with anyio.fail_after(stall_seconds):
                    await _write(wire_out, encoded(item))
            except (OSError, TimeoutError):
                gone = True
        if isinstance(item, SessionMessage) and isinstance(item.message, (types.JSONRPCResponse, types.JSONRPCError)):
            in_flight.answered(item.message.id)


async def _write(wire_out: int, line: bytes) -> None:
    """All of `line`, waiting in the event loop (never in a thread) while the client's pipe is full."""
    view = memoryview(line)
    while view:
        try:
            view = view[os.write(wire_out, view):]
        except BlockingIOError:
            await anyio.wait_writable(wire_out)
