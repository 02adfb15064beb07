"""The stdio wire of `oneclaw-search mcp`: lines in and out of the process, around the SDK's Server.

The SDK's stdio_server reads and writes the wire itself: its reader drops a line it cannot parse
and its writer fails on a reply holding a lone surrogate. So this module owns both ends, reads each
line bounded in length, lets jsonrpc_edge decide what it becomes, and hands the Server the message
streams it expects.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import anyio
from mcp.shared.message import SessionMessage

from oneclaw_search.tools.cli.jsonrpc_edge import MAX_LINE_BYTES, Answer, Forward, TooLong, read_line

SKIP_CHUNK = 1 << 16


def next_line(wire: IO[bytes], limit: int = MAX_LINE_BYTES) -> bytes | TooLong | None:
    """The next line (None at the end); a longer one than `limit` is read past in chunks, never held whole."""
    line = wire.readline(limit + 1)
    if not line:
        return None
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    size = len(line)
    while chunk := wire.readline(SKIP_CHUNK):
        size += len(chunk)
        if chunk.endswith(b"\n"):
            break
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
def claimed_stdio() -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """The wire as private copies of fds 0 and 1. While serving, fd 0 reads nothing and fd 1 goes to
    stderr, so a stray print (ours, a library's, a child process's) never lands inside a frame."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.dup2(2, 1)
    os.close(nothing)
    try:
        with os.fdopen(wire_in, "rb", closefd=False) as reading, os.fdopen(wire_out, "wb", closefd=False) as writing:
            yield reading, writing
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        # not closed: a reader thread may still be blocked on the descriptor when the server stops


async def serve_lines(server: Any, wire_in: IO[bytes], wire_out: IO[bytes]) -> None:
    """Serve `server` over the two binary streams until the client closes its end of `wire_in`."""
    to_server_send, to_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    from_server, to_wire = anyio.create_memory_object_stream[SessionMessage | Answer](0)
    edge = from_server.clone()

    async def read_wire() -> None:
        async with to_server_send, edge:
            while (line := await anyio.to_thread.run_sync(next_line, wire_in)) is not None:
                verdict = read_line(line)
                if isinstance(verdict, Forward):
                    await to_server_send.send(SessionMessage(verdict.message))
                elif isinstance(verdict, Answer):
                    await edge.send(verdict)

    async def write_wire() -> None:
        gone = False  # a client that stopped reading: replies are still taken, so no handler blocks on one
        async with to_wire:
            async for item in to_wire:
                if not gone:
                    try:
                        await anyio.to_thread.run_sync(_write, wire_out, encoded(item))
                    except OSError:
                        gone = True

    async with anyio.create_task_group() as group:
        group.start_soon(read_wire)
        group.start_soon(write_wire)
        await server.run(to_server, from_server, server.create_initialization_options())


def _write(wire: IO[bytes], line: bytes) -> None:
    wire.write(line)
    wire.flush()
