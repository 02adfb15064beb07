"""The suite's verdict: one line per case, then per spec id, per group and per known divergence.

A spec id passes when every applicable case proving it passes; ids a group derives (AC-15: the
whole group passes) and ids outside the protocol's reach are listed with their reason.
"""
from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from oneclaw_search.conformance.cases import Group
from oneclaw_search.conformance.runner import FAIL, NOT_APPLICABLE, PASS, Outcome


def verdicts(groups: list[Group], outcomes: list[Outcome]) -> dict[str, Any]:
    by_id: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        for spec_id in outcome.case.proves:
            by_id[spec_id].append(outcome)
    ids = {spec_id: _combined([o.status for o in found]) for spec_id, found in by_id.items()}
    for group in groups:
        members = [o for o in outcomes if o.case.group == group.name and not o.case.optional]
        for spec_id in group.derived:
            ids[spec_id] = _combined([ids.get(spec_id, NOT_APPLICABLE), *(o.status for o in members)])
        for spec_id, reason in group.outside.items():
            ids.setdefault(spec_id, f"{NOT_APPLICABLE}: {reason}")
    divergences: dict[str, list[str]] = defaultdict(list)
    for outcome in outcomes:
        if outcome.case.divergence:
            divergences[outcome.case.divergence].append(outcome.status)
    failed_required = [o for o in outcomes if o.status == FAIL and not o.case.optional]
    return {
        "ids": dict(sorted(ids.items(), key=lambda item: _id_order(item[0]))),
        "groups": {g.name: _counts([o for o in outcomes if o.case.group == g.name]) for g in groups},
        "divergences": {topic: _combined(statuses) for topic, statuses in sorted(divergences.items())},
        "passed": not failed_required,
    }


def _combined(statuses: list[str]) -> str:
    if FAIL in statuses:
        return FAIL
    return PASS if PASS in statuses else NOT_APPLICABLE


def _counts(outcomes: list[Outcome]) -> dict[str, int]:
    return {status: sum(o.status == status for o in outcomes) for status in (PASS, FAIL, NOT_APPLICABLE)}


def _id_order(spec_id: str) -> tuple[int, str, int]:
    prefixes = ["TOOL", "SCOPE", "OUT", "MRG", "AC", "OPT", "BR", "ERR", "FT", "EDGE", "NFR", "SCN", "P", "Q"]
    head, _, number = spec_id.rpartition("-")
    rank = prefixes.index(head) if head in prefixes else len(prefixes)
    return rank, head, int(number) if number.isdigit() else 0


def as_text(hello: dict[str, Any], groups: list[Group], outcomes: list[Outcome], adapter: str) -> str:
    summary = verdicts(groups, outcomes)
    lines = [f"conformance of {hello.get('implementation', 'an implementation')} through the {adapter} adapter", ""]
    for outcome in outcomes:
        mark = {PASS: "PASS", FAIL: "FAIL", NOT_APPLICABLE: "n/a "}[outcome.status]
        optional = " (optional)" if outcome.case.optional else ""
        lines.append(f"{mark}  {outcome.case.group:<9} {outcome.case.id}{optional}  [{' '.join(outcome.case.proves)}]")
        if outcome.detail and outcome.status != PASS:
            lines.append(f"      {outcome.detail}")
    lines += ["", "by spec id:"]
    lines += [f"  {spec_id:<8} {status}" for spec_id, status in summary["ids"].items()]
    lines += ["", "by group:"]
    lines += [f"  {name:<9} {c[PASS]} passed, {c[FAIL]} failed, {c[NOT_APPLICABLE]} not applicable"
              for name, c in summary["groups"].items()]
    if summary["divergences"]:
        lines += ["", "where OneClaw's Kotlin code is known to differ (specs/divergences.md), this run:"]
        lines += [f"  {status:<4} {topic}" for topic, status in summary["divergences"].items()]
    lines += ["", "PASSED: every required case passed" if summary["passed"] else "FAILED: a required case failed"]
    return "\n".join(lines)


def as_json(hello: dict[str, Any], groups: list[Group], outcomes: list[Outcome], adapter: str) -> str:
    cases = [{"id": o.case.id, "group": o.case.group, "proves": list(o.case.proves), "status": o.status,
              "detail": o.detail, "optional": o.case.optional, "divergence": o.case.divergence,
              "seconds": round(o.seconds, 3)} for o in outcomes]
    return json.dumps({"implementation": hello.get("implementation"), "adapter": adapter, "cases": cases,
                       **verdicts(groups, outcomes)}, ensure_ascii=False, indent=1)
