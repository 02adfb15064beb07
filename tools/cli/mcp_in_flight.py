"""The requests the MCP server was handed and has not answered yet, by id.

The wire reads no further while MAX_IN_FLIGHT are open (a client that stops reading replies holds
the server's memory to that many), and at the end of input waits for the open ones to be answered:
the SDK cancels whatever is still running when its input closes, and a cancelled request gets no
answer at all. A request open longer than `stale_seconds` (the longest tool budget and a margin) is
given up, so neither wait can last for ever.
"""
from __future__ import annotations

import time
from typing import Any

import anyio

MAX_IN_FLIGHT = 64
POLL_SECONDS = 1.0


class InFlight:
    def __init__(self, stale_seconds: float) -> None:
        self._open: dict[Any, list[float]] = {}  # id -> when each request with it was handed over
        self._stale = stale_seconds
        self._changed = anyio.Event()

    def __len__(self) -> int:
        return sum(len(started) for started in self._open.values())

    def opened(self, request_id: Any) -> None:
        self._open.setdefault(_key(request_id), []).append(time.monotonic())

    def answered(self, request_id: Any) -> None:
        """An answer went out (or a cancel came in, which MCP answers with nothing)."""
        started = self._open.get(_key(request_id))
        if started:
            started.pop(0)
            if not started:
                del self._open[_key(request_id)]
            self._changed.set()
            self._changed = anyio.Event()

    async def room(self) -> None:
        """Return once fewer than MAX_IN_FLIGHT requests are open."""
        while len(self) >= MAX_IN_FLIGHT:
            await self._wait()

    async def settled(self) -> None:
        """Return once every open request is answered or given up."""
        while len(self):
            await self._wait()

    async def _wait(self) -> None:
        with anyio.move_on_after(POLL_SECONDS):
            await self._changed.wait()
        given_up = time.monotonic() - self._stale
        for request_id, started in list(self._open.items()):
            self._open[request_id] = [at for at in started if at > given_up]
            if not self._open[request_id]:
                del self._open[request_id]


def _key(request_id: Any) -> tuple[str, Any]:
    return type(request_id).__name__, request_id  # 1 and "1" are two ids
