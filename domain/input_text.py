"""Parameters as a tool receives them from JSON: what text is refused and what is cleaned (EDGE-03's
special characters, down to those only JSON can deliver), and integers given as numbers or digits.

JSON can carry a lone UTF-16 surrogate (no character at all, and unencodable as UTF-8) and NUL or
other control characters. A surrogate is refused by name, as a validation error; a control
character separates words like a space does, so "a\\u0000b" searches for "a b".
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Days a search can be bounded by: a day's end in any time zone must stay a datetime.
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)
BAD_CHARACTER = "Parameter '{name}' holds an invalid character (a lone UTF-16 surrogate at position {position})"
DAY_OUT_OF_RANGE = "Date out of the supported range ({first} to {last}): {value}"


class InvalidText(ValueError):
    """A text parameter no search could use; the message names the parameter."""


def clean_text(value: str, name: str) -> str:
    """`value` with control characters turned into spaces; raises InvalidText on a lone surrogate."""
    found = _SURROGATE.search(value)
    if found is not None:
        raise InvalidText(BAD_CHARACTER.format(name=name, position=found.start()))
    return _CONTROL.sub(" ", value)


def check_day(day: date, value: object) -> date:
    """`day` when a search can be bounded by it; raises InvalidText naming `value` otherwise."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise InvalidText(DAY_OUT_OF_RANGE.format(first=FIRST_DAY, last=LAST_DAY, value=value))
    return day


def clean_parameters(parameters: Mapping[str, object]) -> dict[str, object]:
    """Every text parameter (and text item of a list) cleaned by clean_text, named by its key."""
    cleaned: dict[str, object] = {}
    for name, value in parameters.items():
        if isinstance(value, str):
            value = clean_text(value, str(name))
        elif isinstance(value, list):
            value = [clean_text(item, str(name)) if isinstance(item, str) else item for item in value]
        cleaned[name] = value
    return cleaned


def failure_text(failure: BaseException, limit: int = 200) -> str:
    """An internal failure in one short line for a reply: no row's text in full, no surrogates."""
    text = str(failure).strip().splitlines()[0] if str(failure).strip() else type(failure).__name__
    text = _SURROGATE.sub("\ufffd", text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def as_integer(value: object) -> int | None:
    """An integer given as a number or as digits ("15"), as the spec's edge cases allow; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        return int(value.strip())
    return None
