"""The Clock port's promises (System.currentTimeMillis() in SearchHistoryUseCase.kt; the search
budget), proven alike by FixedClock, PinnedClock and SystemClock: epoch milliseconds as an int, a
monotonic reading that never goes back, and a Deadline that runs on it.

Outside the contract: whether wall time moves (only the system clock's does) and freezegun.
"""
from __future__ import annotations

import time

import pytest
from fakes import FixedClock

from oneclaw_search.domain.clock import Deadline, PinnedClock, SearchTimedOut, SystemClock


def epoch_ms() -> int:
    return time.time_ns() // 1_000_000


@pytest.fixture(params=["fixed", "fixed, monotonic frozen", "pinned", "system"])
def clock(request):
    """A clock made now: a pinned one pinned at this moment."""
    return {
        "fixed": lambda: FixedClock(epoch_ms()),
        "fixed, monotonic frozen": lambda: FixedClock(epoch_ms(), frozen_monotonic=1_000.0),
        "pinned": lambda: PinnedClock(epoch_ms()),
        "system": SystemClock,
    }[request.param]()


def test_now_ms_is_an_int_of_epoch_milliseconds(clock):
    assert isinstance(clock.now_ms(), int)
    assert abs(clock.now_ms() - epoch_ms()) < 60_000


def test_the_monotonic_reading_never_goes_back(clock):
    readings = [clock.monotonic() for _ in range(1_000)]
    assert all(isinstance(reading, float) for reading in readings)
    assert readings == sorted(readings)


def test_a_deadline_on_the_clock_is_spent_only_once_its_budget_is(clock):
    ample = Deadline.after(clock, 60)
    assert not ample.expired() and 59 < ample.remaining() <= 60
    ample.check()
    spent = Deadline.after(clock, 0)
    assert spent.expired() and spent.remaining() == 0
    with pytest.raises(SearchTimedOut):
        spent.check()
