"""The case files of specs/conformance/: one JSON file per group, read and checked for mistakes up front.

A mistake in a case file (an unknown check, a step of no known kind, a fixture name that is not
there) is a CaseFileError naming the file and the case, never a failure blamed on the implementation.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oneclaw_search.conformance.checks import CHECKS

STEP_KINDS = ("call", "load", "fault", "configure", "set_clock", "tools", "schema", "concurrently")
CASE_KEYS = {"id", "title", "proves", "divergence", "reading", "optional", "requires", "fixture", "now",
             "time_zone", "store_unchanged", "steps", "call", "expect", "why"}
STEP_KEYS = {*STEP_KINDS, "expect", "tool", "why"}


class CaseFileError(ValueError):
    """A case file is not a valid group; the message names the file, the case and the problem."""


@dataclass(frozen=True)
class Case:
    group: str
    id: str
    title: str
    proves: tuple[str, ...]
    steps: tuple[dict[str, Any], ...]
    fixture: dict[str, Any]
    now: str
    time_zone: str
    requires: tuple[str, ...] = ()
    optional: bool = False
    divergence: str | None = None
    reading: str | None = None
    store_unchanged: bool = False


@dataclass
class Group:
    name: str
    title: str
    path: Path
    cases: list[Case] = field(default_factory=list)
    derived: dict[str, str] = field(default_factory=dict)  # ids proven by the whole group passing
    outside: dict[str, str] = field(default_factory=dict)  # ids no tool call can observe, and why


def load_groups(folder: Path) -> list[Group]:
    files = sorted(folder.glob("*.json"))
    if not files:
        raise CaseFileError(f"no case files (*.json) in {folder}")
    groups = [_group(path) for path in files]
    seen: dict[str, str] = {}
    for group in groups:
        for case in group.cases:
            if case.id in seen:
                raise CaseFileError(f"{group.path.name}: case id {case.id!r} is also used in {seen[case.id]}")
            seen[case.id] = group.path.name
    return groups


def _group(path: Path) -> Group:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CaseFileError(f"{path.name}: cannot be read as JSON: {error}") from error
    if not isinstance(document, dict) or not isinstance(document.get("group"), str):
        raise CaseFileError(f"{path.name}: must be an object naming its \"group\"")
    group = Group(document["group"], document.get("title", ""), path, derived=document.get("derived", {}),
                  outside=document.get("outside_protocol", {}))
    defaults = document.get("defaults", {})
    fixtures = document.get("fixtures", {})
    for raw in document.get("cases", []):
        group.cases.append(_case(path.name, group.name, raw, defaults, fixtures))
    return group


def _case(file: str, group: str, raw: dict[str, Any], defaults: dict[str, Any], fixtures: dict[str, Any]) -> Case:
    name = raw.get("id") if isinstance(raw, dict) else None
    where = f"{file}: case {name!r}"
    if not isinstance(name, str) or not name:
        raise CaseFileError(f"{file}: every case needs an \"id\": {str(raw)[:80]}")
    if unknown := set(raw) - CASE_KEYS:
        raise CaseFileError(f"{where}: unknown key(s) {sorted(unknown)}")
    if not raw.get("proves"):
        raise CaseFileError(f"{where}: \"proves\" must list the spec ids it proves")
    steps = raw.get("steps") or [{"call": raw.get("call"), "expect": raw.get("expect", [])}]
    for number, step in enumerate(steps, start=1):
        _check_step(f"{where} step {number}", step)
    fixture = raw.get("fixture", {})
    if isinstance(fixture, str):
        if fixture not in fixtures:
            raise CaseFileError(f"{where}: no fixture named {fixture!r} in this file")
        fixture = fixtures[fixture]
    return Case(group, name, raw.get("title", name), tuple(raw["proves"]), tuple(steps), fixture,
                raw.get("now", defaults.get("now", "2026-03-01T12:00")),
                raw.get("time_zone", defaults.get("time_zone", "UTC")),
                tuple(raw.get("requires", ())), bool(raw.get("optional", False)),
                raw.get("divergence"), raw.get("reading"), bool(raw.get("store_unchanged", False)))


def _check_step(where: str, step: Any) -> None:
    if not isinstance(step, dict):
        raise CaseFileError(f"{where}: a step must be an object")
    kinds = [kind for kind in STEP_KINDS if kind in step]
    if len(kinds) != 1 or set(step) - STEP_KEYS:
        raise CaseFileError(f"{where}: a step has exactly one of {', '.join(STEP_KINDS)} (got {sorted(step)})")
    if kinds[0] in ("call", "concurrently") and step[kinds[0]] is None:
        raise CaseFileError(f"{where}: a case needs \"steps\" or a \"call\"")
    for check in step.get("expect", []):
        named = [key for key in check if key != "why"] if isinstance(check, dict) else []
        if len(named) != 1 or named[0] not in CHECKS:
            raise CaseFileError(f"{where}: {check!r} is not one check of {', '.join(sorted(CHECKS))}")
