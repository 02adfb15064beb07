"""The call of a tool that reads sessions (read_session, get_session_summary): check the arguments,
run, and report every failure as a ToolResult, as OneClaw's Tool.execute contract asks (FEAT-004).

validation_error for arguments, not_found for a session or turn that is not there, and
`<failure_type>` with the failure's text for anything else; never an exception.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from oneclaw_search.domain.input_text import InvalidText, clean_parameters, failure_text
from oneclaw_search.domain.search_request import InvalidSearchRequest
from oneclaw_search.domain.session_reading import SessionNotFound
from oneclaw_search.tools.result_formatter import OutputFormat, parse_output_format
from oneclaw_search.tools.tool import ToolResult

R = TypeVar("R")


def run_session_tool(parameters: object, parse: Callable[[Mapping[str, object]], R], invalid: type[Exception],
                     run: Callable[[R, OutputFormat], str], failure: tuple[str, str]) -> ToolResult:
    """`parse` raises `invalid` for a bad argument; `run` renders the answer in the asked format;
    `failure` is the error type and message prefix of anything else that goes wrong."""
    if not isinstance(parameters, Mapping):  # any JSON value may arrive from a model
        return ToolResult.error("validation_error", "Tool parameters must be a JSON object")
    try:
        cleaned = clean_parameters(parameters)
        request = parse(cleaned)
        output_format = parse_output_format(cleaned.get("format"))
    except (invalid, InvalidSearchRequest, InvalidText) as problem:
        return ToolResult.error("validation_error", str(problem))
    try:
        return ToolResult.success(run(request, output_format))
    except SessionNotFound as missing:
        return ToolResult.error("not_found", str(missing.args[0]))
    except Exception as problem:  # noqa: BLE001 - any failure is reported to the model, never raised
        return ToolResult.error(failure[0], f"{failure[1]}: {failure_text(problem)}")
