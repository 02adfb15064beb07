"""Secrets pasted into a chat never come back in a reply: search text and JSON, context
turns, memory chunks and read_session all show them masked by default; a host may turn that off."""
import json

import pytest
from acceptance_helpers import call
from builders import chunk, ms, new_message, new_session, write_history
from fakes import FixedClock

from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine

ANTHROPIC = "sk-ant-api03-" + "Qw3_" * 12
AWS = "AKIA" + "QWERTYUIOP234567"


@pytest.fixture
def leaky(tmp_path):
    messages = [
        new_message("q", "s", "How do I call the API from the deploy script?", "2026-02-20T09:00"),
        new_message("m", "s", f"Use this key: {ANTHROPIC} and the AWS one {AWS}", "2026-02-20T09:01", "AI_RESPONSE"),
        new_message("p", "s", "the staging database password=Tr0ub4dor&3 for the deploy", "2026-02-20T09:02"),
    ]
    chunks = [chunk("c", f"Deploy credentials: {AWS}", "2026-02-20")]
    title = f"Deploy with {AWS}"  # a session titled with a secret: shown beside every hit of the session
    return write_history(tmp_path / "leaky.db", [new_session("s", title, "2026-02-20T09:00")], messages, chunks)


def open_tools(path, **settings):
    return create_injector(path, clock=FixedClock(ms("2026-03-01T12:00")), time_zone="UTC", embedder=None, **settings)


@pytest.mark.parametrize("query", ["sk-ant-api03", "AKIA", "deploy", "password"])
def test_no_reply_shows_a_secret_whatever_is_searched(leaky, query):
    container = open_tools(leaky)
    for output in ("text", "json"):
        reply = call(container, query=query, format=output, context=2)
        assert reply.is_success and reply.result.count("[REDACTED") >= 1
        assert ANTHROPIC not in reply.result and AWS not in reply.result and "Tr0ub4dor" not in reply.result


def test_json_replies_stay_valid_and_read_session_masks_too(leaky):
    container = open_tools(leaky)
    document = json.loads(call(container, query="AWS key", format="json").result)
    assert any("[REDACTED:anthropic key]" in item["text"] for item in document["results"])
    turns = container.get(ToolExecutionEngine).execute_tool("read_session", {"session_id": "s"}).result
    assert "[REDACTED:aws key]" in turns and AWS not in turns and "password=[REDACTED]" in turns


def test_a_host_can_turn_masking_off(leaky):
    reply = call(open_tools(leaky, redact_secrets=False), query="AKIA", format="text")
    assert AWS in reply.result
