"""Calendar days in the user's time zone, as epoch-millisecond bounds (BR-5, BR-6, BR-7).

OneClaw uses the device zone (ZoneId.systemDefault()); here it is the host's zone, honouring TZ,
unless the host configures one.
"""
from __future__ import annotations

import os
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MS_PER_DAY = 86_400_000
_NAIVE_EPOCH = datetime(1970, 1, 1)
_WALL_TIME_ZONES = (ZoneInfo, timezone)  # utcoffset(naive) reads the wall time; other tzinfo classes may not
_LOCALTIME = Path("/etc/localtime")


def resolve_zone(name: str | tzinfo | None = None) -> tzinfo:
    """The configured zone, else TZ, else /etc/localtime, else UTC.

    Raises ValueError naming the zone when a configured name is unknown.
    """
    if isinstance(name, tzinfo):
        return name
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"Unknown time zone: {name!r}") from error
    return _host_zone()


def _host_zone() -> tzinfo:
    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        try:
            return ZoneInfo(env)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    try:
        with _LOCALTIME.open("rb") as handle:
            return ZoneInfo.from_file(handle, key="localtime")
    except OSError:
        return ZoneInfo("UTC")


def start_of_day_ms(day: date, zone: tzinfo) -> int:
    """Epoch ms of the first instant of `day` in `zone` (DST-aware, unlike a fixed 24 h)."""
    return int(datetime.combine(day, time.min, tzinfo=zone).timestamp() * 1000)


def end_of_day_ms(day: date, zone: tzinfo) -> int:
    """Epoch ms of the last millisecond of `day` in `zone`."""
    return start_of_day_ms(day + timedelta(days=1), zone) - 1


def local_date(epoch_ms: int, zone: tzinfo) -> date:
    return datetime.fromtimestamp(epoch_ms / 1000, tz=zone).date()


def local_minute(epoch_ms: int, zone: tzinfo) -> str:
    """'YYYY-MM-DD HH:MM' in `zone`."""
    return datetime.fromtimestamp(epoch_ms / 1000, tz=zone).strftime("%Y-%m-%d %H:%M")


def iso_time_ms(text: str, zone: tzinfo) -> int | None:
    """Epoch ms of an ISO-8601 time (a trailing Z included); one without an offset is read in
    `zone`, as the peers' histories write local times. None when it is no such time."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None and type(zone) in _WALL_TIME_ZONES:
        # What replace(tzinfo=zone).timestamp() computes, at a fraction of its cost (an import reads
        # one time per line): these zones give a naive time the offset its aware twin gets.
        offset = zone.utcoffset(moment) or timedelta(0)
        return int((moment - _NAIVE_EPOCH - offset).total_seconds() * 1000)
    return int((moment if moment.tzinfo else moment.replace(tzinfo=zone)).timestamp() * 1000)


def parse_iso_day(value: str | None) -> date | None:
    """A stored YYYY-MM-DD label as a date, or None when absent or unreadable."""
    if not value:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def content_time_ms(source_date: str | None, fallback_ms: int, zone: tzinfo) -> int:
    """When a memory chunk's content is from: its daily-log day, else when the row was written."""
    day = parse_iso_day(source_date)
    return start_of_day_ms(day, zone) if day else fallback_ms
