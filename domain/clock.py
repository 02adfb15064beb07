"""Where time comes from: the Clock port, the system clock, the search deadline, and what a part
keeps for each search by its deadline.

OneClaw reads System.currentTimeMillis() inline; here every reading goes through an injected
Clock so tests (and freezegun) control it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    def now_ms(self) -> int:
        """Wall-clock time in epoch milliseconds."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes backwards, for budgets."""


class SystemClock:
    """Reads the real time at each call (never at import), so freezegun can freeze it."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def monotonic(self) -> float:
        return time.monotonic()


class SearchTimedOut(Exception):
    """A source noticed that the search budget ran out before it finished."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment a search must stop, on the clock's monotonic scale."""

    clock: Clock
    expires_at: float

    @classmethod
    def after(cls, clock: Clock, seconds: float) -> Deadline:
        return cls(clock, clock.monotonic() + seconds)

    def remaining(self) -> float:
        return max(0.0, self.expires_at - self.clock.monotonic())

    def expired(self) -> bool:
        return self.clock.monotonic() >= self.expires_at

    def check(self) -> None:
        """Raise SearchTimedOut once the budget is spent; sources call this between steps."""
        if self.expired():
            raise SearchTimedOut()


class PerSearch(Generic[T]):
    """A value kept for each search, found by its deadline (the sources of one search share one), for
    as long as that deadline has not expired. Deadlines are kept by identity, and kept themselves so
    no id is reused while its value is; callers hold their own lock."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Deadline, T]] = {}

    def put(self, deadline: Deadline, value: T) -> None:
        live = {key: kept for key, kept in self._kept.items() if not kept[0].expired()}
        self._kept = {**live, id(deadline): (deadline, value)}

    def get(self, deadline: Deadline, default: T) -> T:
        return self._kept.get(id(deadline), (deadline, default))[1]

    def pop(self, deadline: Deadline, default: T) -> T:
        return self._kept.pop(id(deadline), (deadline, default))[1]


@dataclass
class PinnedClock:
    """Wall time pinned at one instant until moved (reproducible runs, conformance cases); budgets
    still run on the real monotonic clock."""

    now: int

    def now_ms(self) -> int:
        return self.now

    def monotonic(self) -> float:
        return time.monotonic()
