"""What a case says must hold of a reply: one function per check kind of specs/conformance/PROTOCOL.md.

Each returns None when the check holds, else a sentence saying what was seen instead.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oneclaw_search.di.conformance.fixtures import Moment
from oneclaw_search.di.conformance.replies import Reply

_ROLE_PREFIX = re.compile(r"^(User|Assistant): ")
Check = Callable[[Reply, Any, Moment], "str | None"]


def _shown(reply: Reply) -> str:
    return ", ".join(f"{r.id or '?'}({r.source} {r.score:g})" for r in reply.results) or "no results"


def _success(reply: Reply, wanted: Any, _: Moment) -> str | None:
    if reply.success == bool(wanted):
        return None
    return f"expected {'success' if wanted else 'an error'}, got " + (
        "success" if reply.success else f"{reply.error_type}: {reply.error_message}")


def _error(reply: Reply, wanted: dict[str, str], _: Moment) -> str | None:
    if reply.success:
        return f"expected {wanted.get('type')}, got success with {_shown(reply)}"
    if "type" in wanted and reply.error_type != wanted["type"]:
        return f"expected error type {wanted['type']}, got {reply.error_type}: {reply.error_message}"
    if "message" in wanted and reply.error_message != wanted["message"]:
        return f"expected message {wanted['message']!r}, got {reply.error_message!r}"
    if "pattern" in wanted and not re.search(wanted["pattern"], reply.error_message or ""):
        return f"message {reply.error_message!r} does not match /{wanted['pattern']}/"
    return None


def _text(reply: Reply, wanted: str, _: Moment) -> str | None:
    return None if reply.text == wanted else f"expected the reply {wanted!r}, got {reply.text!r}"


def _header(reply: Reply, wanted: str, _: Moment) -> str | None:
    first = reply.lines[0]
    return None if first == wanted else f"expected the first line {wanted!r}, got {first!r}"


def _contains(reply: Reply, wanted: str | list[str], _: Moment) -> str | None:
    missing = [part for part in ([wanted] if isinstance(wanted, str) else wanted) if part not in (reply.text or "")]
    return f"the reply lacks {missing!r}" if missing else None


def _not_contains(reply: Reply, unwanted: str | list[str], _: Moment) -> str | None:
    present = [part for part in ([unwanted] if isinstance(unwanted, str) else unwanted) if part in (reply.text or "")]
    return f"the reply holds {present!r}" if present else None


def _line(reply: Reply, pattern: str, _: Moment) -> str | None:
    return None if any(re.fullmatch(pattern, line) for line in reply.lines) else f"no line matches /{pattern}/"


def _no_line(reply: Reply, pattern: str, _: Moment) -> str | None:
    hit = next((line for line in reply.lines if re.fullmatch(pattern, line)), None)
    return None if hit is None else f"the line {hit!r} matches /{pattern}/"


def _count(reply: Reply, wanted: int | dict[str, int], _: Moment) -> str | None:
    n = len(reply.results)
    low, high = (wanted, wanted) if isinstance(wanted, int) else (wanted.get("min", 0), wanted.get("max", n))
    return None if low <= n <= high else f"expected {wanted} results, got {n}: {_shown(reply)}"


def _ids(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    return None if reply.ids() == wanted else f"expected exactly {wanted}, got {_shown(reply)}"


def _first(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    return None if reply.ids()[:len(wanted)] == wanted else f"expected {wanted} first, got {_shown(reply)}"


def _order(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    ids = reply.ids()
    missing = [row for row in wanted if row not in ids]
    if missing:
        return f"{missing} missing from {_shown(reply)}"
    ranks = [ids.index(row) for row in wanted]
    return None if ranks == sorted(ranks) else f"expected the order {wanted}, got {_shown(reply)}"


def _among_first(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    top = reply.ids()[:wanted["k"]]
    missing = [row for row in wanted["ids"] if row not in top]
    return f"{missing} not among the first {wanted['k']}: {_shown(reply)}" if missing else None


def _includes(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    missing = [row for row in wanted if row not in reply.ids()]
    return f"{missing} missing from {_shown(reply)}" if missing else None


def _excludes(reply: Reply, unwanted: list[str], _: Moment) -> str | None:
    present = [row for row in unwanted if row in reply.ids()]
    return f"{present} must never appear: {_shown(reply)}" if present else None


def _only(reply: Reply, allowed: list[str], _: Moment) -> str | None:
    extra = [row for row in reply.ids() if row not in allowed]
    return f"unexpected results {extra}: {_shown(reply)}" if extra else None


def _sources(reply: Reply, wanted: dict[str, list[str]], _: Moment) -> str | None:
    seen = {result.source for result in reply.results}
    missing = [source for source in wanted.get("present", []) if source not in seen]
    if missing:
        return f"no result from {missing}: {_shown(reply)}"
    extra = sorted(seen - set(wanted.get("only", seen)))
    return f"results from {extra}, which must not appear: {_shown(reply)}" if extra else None


def _score_of(reply: Reply, row: str) -> float:
    result = reply.by_id(row)
    if result is None:
        raise LookupError(f"{row} missing from {_shown(reply)}")
    return result.score


def _higher(reply: Reply, pair: list[str], _: Moment) -> str | None:
    above, below = _score_of(reply, pair[0]), _score_of(reply, pair[1])
    return None if above > below else f"{pair[0]} scores {above:g}, not above {pair[1]}'s {below:g}"


def _above(reply: Reply, pair: list[str], _: Moment) -> str | None:
    ids = reply.ids()
    if pair[0] not in ids:
        return f"{pair[0]} missing from {_shown(reply)}"
    if pair[1] in ids and ids.index(pair[1]) < ids.index(pair[0]):
        return f"{pair[1]} ranks above {pair[0]}: {_shown(reply)}"
    return None


def _score(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    value = _score_of(reply, wanted["id"])
    tolerance = wanted.get("tolerance", 0.005)
    low = wanted.get("min", wanted.get("equals", value) - tolerance)
    high = wanted.get("max", wanted.get("equals", value) + tolerance)
    return None if low <= value <= high else f"{wanted['id']} scores {value:g}, expected {wanted}"


def _ratio(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    top, bottom = (_score_of(reply, row) for row in wanted["ids"])
    ratio = top / bottom if bottom else float("inf")
    ok = abs(ratio - wanted["equals"]) <= wanted.get("tolerance", 0.02)
    return None if ok else f"{wanted['ids'][0]}/{wanted['ids'][1]} = {ratio:.3f}, expected {wanted['equals']}"


def _sorted(reply: Reply, wanted: bool, _: Moment) -> str | None:
    scores = [result.score for result in reply.results]
    ordered = all(a >= b for a, b in zip(scores, scores[1:], strict=False))
    return None if ordered == bool(wanted) else f"scores {scores} are {'not ' if wanted else ''}in descending order"


def _max_excerpt(reply: Reply, limit: int, _: Moment) -> str | None:
    for result in reply.results:
        excerpt = _ROLE_PREFIX.sub("", result.text.split("\nContext (")[0], count=1)
        if result.source != "session" and len(excerpt) > limit:
            return f"result {result.rank} shows {len(excerpt)} characters, more than {limit}"
    return None


def _dates_within(reply: Reply, bounds: dict[str, Any], moment: Moment) -> str | None:
    low = moment.day(bounds["from"]) if "from" in bounds else "0000-01-01"
    high = moment.day(bounds["to"]) if "to" in bounds else "9999-12-31"
    outside = [f"{r.id or r.rank}: {r.date}" for r in reply.results if r.date is None or not low <= r.date <= high]
    return f"results outside {low}..{high}: {outside}" if outside else None


def _date_of(reply: Reply, wanted: dict[str, Any], moment: Moment) -> str | None:
    result = reply.by_id(wanted["id"])
    day = moment.day(wanted["equals"])
    if result is None:
        return f"{wanted['id']} missing from {_shown(reply)}"
    return None if result.date == day else f"{wanted['id']} is dated {result.date}, expected {day}"


def _elapsed_below(reply: Reply, limit_ms: float, _: Moment) -> str | None:
    return None if reply.elapsed_ms < limit_ms else f"took {reply.elapsed_ms:.0f} ms, limit {limit_ms} ms"


def _json(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    if reply.document is None:
        return "the reply is not a JSON document"
    value: Any = reply.document
    for step in str(wanted["path"]).split(".") if wanted["path"] else []:
        try:
            value = value[int(step)] if isinstance(value, list) else value[step]
        except (KeyError, IndexError, ValueError, TypeError):
            return None if wanted.get("absent") else f"{wanted['path']} is absent"
    if wanted.get("absent"):
        return f"{wanted['path']} is present: {value!r}"
    if "equals" in wanted and value != wanted["equals"]:
        return f"{wanted['path']} is {value!r}, expected {wanted['equals']!r}"
    if "keys" in wanted and not set(wanted["keys"]) <= set(value):
        return f"{wanted['path']} lacks {sorted(set(wanted['keys']) - set(value))}"
    if "length" in wanted and len(value) != wanted["length"]:
        return f"{wanted['path']} has {len(value)} items, expected {wanted['length']}"
    return None


def _exit_code(reply: Reply, wanted: int, _: Moment) -> str | None:
    return None if reply.exit_code == wanted else f"exit code {reply.exit_code}, expected {wanted}"


def _distinct(reply: Reply, wanted: bool, _: Moment) -> str | None:
    ids = [row for row in reply.ids() if row is not None]
    return None if (len(ids) == len(set(ids))) == bool(wanted) else f"a row is shown twice: {_shown(reply)}"


CHECKS: dict[str, Check] = {
    "success": _success, "error": _error, "text": _text, "header": _header, "contains": _contains,
    "not_contains": _not_contains, "line": _line, "no_line": _no_line, "count": _count, "ids": _ids,
    "first": _first, "order": _order, "among_first": _among_first, "includes": _includes, "excludes": _excludes,
    "only": _only, "sources": _sources, "higher": _higher, "above": _above, "score": _score, "ratio": _ratio,
    "sorted": _sorted, "max_excerpt": _max_excerpt, "dates_within": _dates_within, "date_of": _date_of,
    "elapsed_ms_below": _elapsed_below, "json": _json, "exit_code": _exit_code, "distinct": _distinct,
}
NEEDS = {"exit_code": "exit_codes"}  # check kinds only some adapters can answer, by capability


def run_check(reply: Reply, check: dict[str, Any], moment: Moment) -> str | None:
    (kind, wanted), = ((k, v) for k, v in check.items() if k != "why")
    try:
        return CHECKS[kind](reply, wanted, moment)
    except LookupError as missing:
        return str(missing).strip("'\"")
