"""Checks on the results a reply lists: which rows, in what order, from which sources, with what
scores and dates. Each returns None when it holds, else a sentence saying what was seen instead.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oneclaw_search.conformance.fixtures import Moment
from oneclaw_search.conformance.replies import ROLE_PREFIX, Reply


def shown(reply: Reply) -> str:
    return ", ".join(f"{r.id or '?'}({r.source} {r.score:g})" for r in reply.results) or "no results"


def _count(reply: Reply, wanted: int | dict[str, int], _: Moment) -> str | None:
    n = len(reply.results)
    low, high = (wanted, wanted) if isinstance(wanted, int) else (wanted.get("min", 0), wanted.get("max", n))
    return None if low <= n <= high else f"expected {wanted} results, got {n}: {shown(reply)}"


def _ids(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    return None if reply.ids() == wanted else f"expected exactly {wanted}, got {shown(reply)}"


def _first(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    return None if reply.ids()[:len(wanted)] == wanted else f"expected {wanted} first, got {shown(reply)}"


def _order(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    ids = reply.ids()
    missing = [row for row in wanted if row not in ids]
    if missing:
        return f"{missing} missing from {shown(reply)}"
    ranks = [ids.index(row) for row in wanted]
    return None if ranks == sorted(ranks) else f"expected the order {wanted}, got {shown(reply)}"


def _among_first(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    top = reply.ids()[:wanted["k"]]
    missing = [row for row in wanted["ids"] if row not in top]
    return f"{missing} not among the first {wanted['k']}: {shown(reply)}" if missing else None


def _includes(reply: Reply, wanted: list[str], _: Moment) -> str | None:
    missing = [row for row in wanted if row not in reply.ids()]
    return f"{missing} missing from {shown(reply)}" if missing else None


def _excludes(reply: Reply, unwanted: list[str], _: Moment) -> str | None:
    present = [row for row in unwanted if row in reply.ids()]
    return f"{present} must never appear: {shown(reply)}" if present else None


def _only(reply: Reply, allowed: list[str], _: Moment) -> str | None:
    extra = [row for row in reply.ids() if row not in allowed]
    return f"unexpected results {extra}: {shown(reply)}" if extra else None


def _sources(reply: Reply, wanted: dict[str, list[str]], _: Moment) -> str | None:
    seen = {result.source for result in reply.results}
    missing = [source for source in wanted.get("present", []) if source not in seen]
    if missing:
        return f"no result from {missing}: {shown(reply)}"
    extra = sorted(seen - set(wanted.get("only", seen)))
    return f"results from {extra}, which must not appear: {shown(reply)}" if extra else None


def _score_of(reply: Reply, row: str) -> float:
    result = reply.by_id(row)
    if result is None:
        raise LookupError(f"{row} missing from {shown(reply)}")
    return result.score


def _higher(reply: Reply, pair: list[str], _: Moment) -> str | None:
    above, below = _score_of(reply, pair[0]), _score_of(reply, pair[1])
    return None if above > below else f"{pair[0]} scores {above:g}, not above {pair[1]}'s {below:g}"


def _above(reply: Reply, pair: list[str], _: Moment) -> str | None:
    ids = reply.ids()
    if pair[0] not in ids:
        return f"{pair[0]} missing from {shown(reply)}"
    if pair[1] in ids and ids.index(pair[1]) < ids.index(pair[0]):
        return f"{pair[1]} ranks above {pair[0]}: {shown(reply)}"
    return None


def _best_of(reply: Reply, source: str) -> float:
    scores = [result.score for result in reply.results if result.source == source]
    if not scores:
        raise LookupError(f"no {source} result in {shown(reply)}")
    return max(scores)


def _score(reply: Reply, wanted: dict[str, Any], _: Moment) -> str | None:
    """A row's score, or with `best_of` the best score of a source's results, whichever row holds it."""
    value = _best_of(reply, wanted["best_of"]) if "best_of" in wanted else _score_of(reply, wanted["id"])
    tolerance = wanted.get("tolerance", 0.005)
    low = wanted.get("min", wanted.get("equals", value) - tolerance)
    high = wanted.get("max", wanted.get("equals", value) + tolerance)
    named = f"the best {wanted['best_of']}" if "best_of" in wanted else wanted["id"]
    return None if low <= value <= high else f"{named} scores {value:g}, expected {wanted}"


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
        excerpt = ROLE_PREFIX.sub("", result.text.split("\nContext (")[0], count=1)
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
        return f"{wanted['id']} missing from {shown(reply)}"
    return None if result.date == day else f"{wanted['id']} is dated {result.date}, expected {day}"


def _distinct(reply: Reply, wanted: bool, _: Moment) -> str | None:
    ids = [row for row in reply.ids() if row is not None]
    return None if (len(ids) == len(set(ids))) == bool(wanted) else f"a row is shown twice: {shown(reply)}"


RESULT_CHECKS: dict[str, Callable[[Reply, Any, Moment], str | None]] = {
    "count": _count, "ids": _ids, "first": _first, "order": _order, "among_first": _among_first,
    "includes": _includes, "excludes": _excludes, "only": _only, "sources": _sources, "higher": _higher,
    "above": _above, "score": _score, "ratio": _ratio, "sorted": _sorted, "max_excerpt": _max_excerpt,
    "dates_within": _dates_within, "date_of": _date_of, "distinct": _distinct,
}
