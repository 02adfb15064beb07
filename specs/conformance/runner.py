"""Runs the cases through one adapter and decides each: pass, fail or not applicable.

An adapter is anything with `request(message) -> reply` in the protocol's terms (PROTOCOL.md), so a
case runs the same way in process, through the command line, or against another program.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from oneclaw_search.conformance.cases import Case, Group
from oneclaw_search.conformance.checks import NEEDS, run_check
from oneclaw_search.conformance.fixtures import Moment, resolve_arguments, resolve_fixture
from oneclaw_search.conformance.replies import read_reply
from oneclaw_search.conformance.structure import compare_schema, compare_tool

PASS, FAIL, NOT_APPLICABLE = "pass", "fail", "n/a"


class Adapter(Protocol):
    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class NotApplicable(Exception):
    """The implementation cannot take part of this case (an op or argument it does not support)."""


class AdapterFailed(Exception):
    """The implementation answered an op with an error, or not in the protocol's shape."""


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: str
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Scene:
    """Where a case stands: its present, and every row loaded so far (to tie results to)."""

    moment: Moment
    rows: dict[str, list[dict[str, Any]]]

    def add(self, more: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
        for table, added in more.items():
            replaced = {row["id"] for row in added}
            self.rows[table] = [row for row in self.rows[table] if row["id"] not in replaced] + added
        return more


class Runner:
    def __init__(self, adapter: Adapter) -> None:
        self._adapter = adapter
        self.hello = self._ask({"op": "hello"})
        self.capabilities = set(self.hello.get("capabilities", []))
        self.claimed = set(self.hello.get("groups", []))

    def run(self, groups: list[Group]) -> list[Outcome]:
        return [self.run_case(case) for group in groups for case in group.cases]

    def run_case(self, case: Case) -> Outcome:
        if case.group not in self.claimed:
            return Outcome(case, NOT_APPLICABLE, f"the implementation does not claim the {case.group} group")
        missing = sorted(set(case.requires) - self.capabilities)
        if missing:
            return Outcome(case, NOT_APPLICABLE, f"needs {', '.join(missing)}")
        started = time.perf_counter()
        try:
            problem = self._play(case)
        except NotApplicable as reason:
            return Outcome(case, NOT_APPLICABLE, str(reason), time.perf_counter() - started)
        except AdapterFailed as failure:
            problem = f"the implementation failed: {failure}"
        return Outcome(case, FAIL if problem else PASS, problem or "", time.perf_counter() - started)

    def _play(self, case: Case) -> str | None:
        moment = Moment(case.now, case.time_zone)
        self._ask({"op": "reset"})
        self._ask({"op": "set_clock", "now_ms": moment.now_ms, "time_zone": moment.zone_name})
        scene = Scene(moment, resolve_fixture(case.fixture, moment))
        self._ask({"op": "load", "fixture": scene.rows})
        watched = case.store_unchanged and "checksum" in self.capabilities
        before = self._ask({"op": "checksum"}).get("checksum") if watched else None
        for number, step in enumerate(case.steps, start=1):
            if problem := self._step(step, scene):
                return f"step {number}: {problem}"
        if watched and (after := self._ask({"op": "checksum"}).get("checksum")) != before:
            return f"the stored history changed while searching (checksum {before} -> {after})"
        return None

    def _step(self, step: dict[str, Any], scene: Scene) -> str | None:
        if "load" in step:
            self._ask({"op": "load", "fixture": scene.add(resolve_fixture(step["load"], scene.moment))})
        elif "set_clock" in step:
            scene.moment = Moment(step["set_clock"].get("now", scene.moment.now.isoformat()),
                                  step["set_clock"].get("time_zone", scene.moment.zone_name))
            self._ask({"op": "set_clock", "now_ms": scene.moment.now_ms, "time_zone": scene.moment.zone_name})
        elif "fault" in step or "configure" in step:
            kind = "fault" if "fault" in step else "configure"
            self._ask({"op": kind, **step[kind]})
        elif "tools" in step:
            return compare_tool(self._ask({"op": "tools"}).get("tools", []), step["tools"])
        elif "schema" in step:
            return compare_schema(self._ask({"op": "schema"}).get("tables", {}), step["schema"])
        else:
            return self._calls(step, scene)
        return None

    def _calls(self, step: dict[str, Any], scene: Scene) -> str | None:
        """One `call`, or the `concurrently` ones, each reply held to the step's checks."""
        together = "concurrently" in step
        calls = [{"tool": step.get("tool", "search_history"), "arguments": resolve_arguments(arguments, scene.moment)}
                 for arguments in (step["concurrently"] if together else [step["call"]])]
        started = time.perf_counter()
        if together:
            answers = self._ask({"op": "call_concurrently", "calls": calls}).get("results", [])
        else:
            answers = [self._ask({"op": "call", **calls[0]}).get("result", {})]
        elapsed = (time.perf_counter() - started) * 1000
        if len(answers) != len(calls):
            return f"{len(calls)} calls, {len(answers)} answers"
        return next((problem for answer in answers if (problem := self._judge(answer, step, scene, elapsed))), None)

    def _judge(self, raw: dict[str, Any], step: dict[str, Any], scene: Scene, elapsed_ms: float) -> str | None:
        reply = read_reply(raw, scene.rows, elapsed_ms)
        for check in step.get("expect", []):
            kind = next(key for key in check if key != "why")
            if kind in NEEDS and NEEDS[kind] not in self.capabilities:
                continue  # e.g. exit codes, which only a command line has
            if problem := run_check(reply, check, scene.moment):
                return f"{kind}: {problem}"
        return None

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = self._adapter.request(message)
        if not isinstance(answer, dict):
            raise AdapterFailed(f"{message['op']}: the answer is not a JSON object: {answer!r}")
        if answer.get("ok"):
            return answer
        if answer.get("unsupported"):
            raise NotApplicable(f"{message['op']}: {answer['unsupported']}")
        raise AdapterFailed(f"{message['op']}: {answer.get('error', answer)}")
