"""A case's fixture, from the relative form the case files use to the absolute rows `load` sends.

Times in a case are relative to a frozen "now" in a named zone ("now-3d@19:00", "today-2d"), so a
case reads the same in any year; the protocol speaks epoch milliseconds and OneClaw's columns, with
the derived session columns (count, preview, last activity) filled in as OneClaw keeps them.
"""
from __future__ import annotations

import re
from datetime import datetime, time, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

_OFFSET = re.compile(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")
_RELATIVE = re.compile(r"^(now|today)(?:([+-])(\S+?))?(?:@(\d\d:\d\d(?::\d\d)?))?$")
PREVIEW_LENGTH = 100
SEARCHABLE_TYPES = ("USER", "AI_RESPONSE")


class FixtureError(ValueError):
    """A case file's fixture or argument cannot be read; the message names the value."""


class Moment:
    """The frozen present of one case: resolves the case files' time and day expressions."""

    def __init__(self, now: str, zone: str) -> None:
        self.zone: tzinfo = ZoneInfo(zone)
        self.zone_name = zone
        self.now = _aware(datetime.fromisoformat(now), self.zone)

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    def at(self, value: Any) -> int:
        """Epoch ms of "now-3d", "now-2h30m", "now-3d@19:00", "today-1d@08:00", an ISO time or ms."""
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if not isinstance(value, str):
            raise FixtureError(f"a time must be a string or epoch ms: {value!r}")
        if match := _RELATIVE.match(value.strip()):
            anchor, sign, offset, clock = match.groups()
            moment = self.now if anchor == "now" else datetime.combine(self.now.date(), time.min, self.zone)
            moment = _shift(moment, sign, offset, value)
            if clock:
                moment = datetime.combine(moment.date(), time.fromisoformat(clock), self.zone)
            return int(moment.timestamp() * 1000)
        try:
            return int(_aware(datetime.fromisoformat(value), self.zone).timestamp() * 1000)
        except ValueError as error:
            raise FixtureError(f"not a time: {value!r}") from error

    def day(self, value: Any) -> str:
        """YYYY-MM-DD of "today", "today-3d", "now-2d" or a literal day."""
        if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", value.strip()):
            return value.strip()
        return datetime.fromtimestamp(self.at(value) / 1000, self.zone).date().isoformat()


def _aware(moment: datetime, zone: tzinfo) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _shift(moment: datetime, sign: str | None, offset: str | None, value: str) -> datetime:
    if not sign:
        return moment
    parts = _OFFSET.fullmatch(offset or "")
    if not parts or not any(parts.groups()):
        raise FixtureError(f"not an offset such as 3d, 2h30m or 10s: {value!r}")
    days, hours, minutes, seconds = (int(part or 0) for part in parts.groups())
    step = timedelta(hours=hours, minutes=minutes, seconds=seconds)
    # Whole days move the calendar date at the same wall time, as a person counts "three days ago".
    shifted = datetime.combine(moment.date() + timedelta(days=days if sign == "+" else -days), moment.timetz())
    return shifted + step if sign == "+" else shifted - step


def resolve_fixture(fixture: dict[str, Any], moment: Moment) -> dict[str, list[dict[str, Any]]]:
    """The `load` payload: OneClaw's three tables as absolute rows."""
    messages = [_message(row, moment) for row in _rows(fixture, "messages")]
    sessions = [_session(row, moment, messages) for row in _rows(fixture, "sessions")]
    memory = [_chunk(row, moment) for row in _rows(fixture, "memory_index")]
    return {"sessions": sessions, "messages": messages, "memory_index": memory}


def _rows(fixture: dict[str, Any], table: str) -> list[dict[str, Any]]:
    rows = list(fixture.get(table, []))
    for spec in fixture.get("generate", {}).get(table, []):
        count = int(spec["count"])
        rows += [{key: value.replace("{i}", str(i)) if isinstance(value, str) else value
                  for key, value in spec["row"].items()} for i in range(count)]
    return rows


def _message(row: dict[str, Any], moment: Moment) -> dict[str, Any]:
    return {"id": row["id"], "session_id": row["session_id"], "type": row.get("type", "USER"),
            "content": row.get("content", ""), "created_at": moment.at(row.get("created_at", "now-1d")),
            "tool_name": row.get("tool_name"), "tool_input": row.get("tool_input"), "tool_output": row.get("tool_output")}


def _session(row: dict[str, Any], moment: Moment, messages: list[dict[str, Any]]) -> dict[str, Any]:
    own = sorted((m for m in messages if m["session_id"] == row["id"]), key=lambda m: m["created_at"])
    created = moment.at(row["created_at"]) if "created_at" in row else (own[0]["created_at"] if own else moment.now_ms)
    updated = moment.at(row["updated_at"]) if "updated_at" in row else created
    shown = [m for m in own if m["type"] in SEARCHABLE_TYPES and m["content"]]
    return {"id": row["id"], "title": row["title"], "created_at": created,
            "updated_at": max([updated, *(m["created_at"] for m in own)]),
            "deleted_at": moment.at(row["deleted_at"]) if row.get("deleted_at") else None,
            "message_count": len(own),
            "last_message_preview": shown[-1]["content"][:PREVIEW_LENGTH] if shown else row.get("last_message_preview")}


def _chunk(row: dict[str, Any], moment: Moment) -> dict[str, Any]:
    day = moment.day(row["source_date"]) if row.get("source_date") else None
    kind = row.get("source_type") or ("daily_log" if day else "long_term")
    written = moment.at(row["created_at"]) if "created_at" in row else (
        moment.at(f"{day}T12:00") if day else moment.now_ms)
    updated = moment.at(row["updated_at"]) if "updated_at" in row else written
    return {"id": row["id"], "source_type": kind, "source_date": day, "chunk_text": row["chunk_text"],
            "created_at": written, "updated_at": updated}


def resolve_arguments(arguments: dict[str, Any], moment: Moment) -> dict[str, Any]:
    """A call's arguments with {"$day": "today-3d"} and {"$repeat": [text, n]} written out."""
    return {key: _argument(value, moment) for key, value in arguments.items()}


def _argument(value: Any, moment: Moment) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        (kind, spec), = value.items()
        if kind == "$day":
            return moment.day(spec)
        if kind == "$repeat":
            text, times = spec
            return str(text) * int(times)
    return value

