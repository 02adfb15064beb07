"""iso_time_ms (one ISO time read per imported line): its fast path for naive times gives
exactly what the plain datetime reading gives, across DST gaps and folds and in any tzinfo."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

import pytest

from oneclaw_search.domain.local_time import iso_time_ms


class HalfHourAhead(tzinfo):
    """A tzinfo of the caller's own making: it takes the slow path."""

    def utcoffset(self, moment):
        return timedelta(minutes=30)

    def dst(self, moment):
        return timedelta(0)


def plainly(text: str, zone: tzinfo) -> int:
    moment = datetime.fromisoformat(text.strip())
    return int((moment if moment.tzinfo else moment.replace(tzinfo=zone)).timestamp() * 1000)


ZONES = [ZoneInfo("America/New_York"), ZoneInfo("Australia/Lord_Howe"), ZoneInfo("Asia/Kolkata"),
         timezone(timedelta(hours=-3, minutes=-30)), HalfHourAhead()]
TIMES = ["2025-03-09T02:30", "2025-11-02T01:30:00.001", "2025-04-06T01:45", "2025-10-05T02:15",
         "1969-12-31T23:59:59.999", " 2026-02-25 19:03 ", "2026-02-25T10:01:00Z", "2026-02-25T19:02+09:00",
         "0001-01-01T00:00", "9999-12-31T23:59:59.999999"]


@pytest.mark.parametrize("zone", ZONES, ids=str)
def test_every_time_reads_as_the_plain_datetime_reading_gives(zone):
    assert [iso_time_ms(text, zone) for text in TIMES] == [plainly(text, zone) for text in TIMES]


def test_a_naive_time_is_read_in_the_zone_and_an_offset_wins_over_it():
    tokyo = ZoneInfo("Asia/Tokyo")
    assert iso_time_ms("2026-02-25T18:00", tokyo) == 1772010000000
    assert iso_time_ms("2026-02-25T09:00Z", tokyo) == iso_time_ms("2026-02-25T18:00+09:00", UTC) == 1772010000000


@pytest.mark.parametrize("text", ["", "yesterday", "2026-13-01T00:00", "2026-02-25T25:00"])
def test_what_is_no_iso_time_reads_as_none(text):
    assert iso_time_ms(text, ZoneInfo("UTC")) is None
