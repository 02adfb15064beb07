"""The LLM summarizers over real HTTP against a loopback chat server: a valid answer becomes the
digest, fenced JSON is accepted, and a malformed answer, a timeout, a refused connection or an HTTP
error hands over to the fallback with the reason in `method`; a long session goes in pieces within
the token budget and the pieces' digests are merged (draagon-forge REQ-016.3)."""
from __future__ import annotations

import json
import math
import re
import socket
import time

import pytest
from loopback_llm import LoopbackLlm, answer, replying, status

from oneclaw_search.data.summaries.llm_summarizer import AnthropicSummarizer, OpenAICompatibleSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Digest, Transcript

MODEL = "gpt-4o-mini"
CLAUDE = "claude-haiku-4-5"
VALID = {"key_topics": ["Postgres migration", "index rebuild"], "key_decisions": ["Migrate on Sunday"],
         "unresolved": ["Who runs the backup"]}
EXTRACTIVE = Digest(("extractive topic",), (), (), "extractive")


class FixedFallback:
    def __init__(self):
        self.calls = 0

    def summarize(self, transcript):
        self.calls += 1
        return EXTRACTIVE


def transcript(*contents, title="Database migration plan"):
    turns = tuple(Turn(f"m{i}", "USER" if i % 2 == 0 else "AI_RESPONSE", text, 1_000 + i) for i, text in enumerate(contents))
    return Transcript(SessionInfo("s-1", title, 1_000, 2_000), turns)


MIGRATION = transcript("Shall we move the notes database to Postgres?", "Yes: migrate on Sunday, rebuild the index after.")


@pytest.fixture
def llm():
    with LoopbackLlm() as server:
        yield server


def openai_summarizer(llm, **options):
    return OpenAICompatibleSummarizer(f"{llm.base_url}/v1", MODEL, "sk-test-key", FixedFallback(), **options)


def anthropic_summarizer(llm, **options):
    return AnthropicSummarizer(CLAUDE, "sk-ant-test-key", FixedFallback(), base_url=llm.base_url, **options)


def test_a_valid_answer_becomes_the_digest_and_the_request_carries_model_key_and_turns(llm):
    llm.then(answer(json.dumps(VALID)))
    digest = openai_summarizer(llm).summarize(MIGRATION)
    assert digest == Digest(("Postgres migration", "index rebuild"), ("Migrate on Sunday",), ("Who runs the backup",),
                            f"llm:{MODEL}")
    [request] = llm.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == MODEL
    assert request.headers["authorization"] == "Bearer sk-test-key"
    assert [message["role"] for message in request.body["messages"]] == ["system", "user"]
    assert "STRICT JSON" in request.body["messages"][0]["content"]
    user = request.body["messages"][1]["content"]
    assert "Database migration plan" in user
    assert "user: Shall we move the notes database to Postgres?" in user
    assert "assistant: Yes: migrate on Sunday, rebuild the index after." in user


def test_a_fenced_answer_is_accepted_and_its_phrases_trimmed_and_capped(llm):
    long_phrase = "word " * 60
    fenced = {**VALID, "key_topics": ["  Postgres   migration ", "postgres MIGRATION", *[f"t{i}" for i in range(6)], long_phrase]}
    llm.then(answer(f"```json\n{json.dumps(fenced)}\n```"))
    digest = openai_summarizer(llm).summarize(MIGRATION)
    assert digest.method == f"llm:{MODEL}"
    assert digest.key_topics == ("Postgres migration", "t0", "t1", "t2", "t3")


@pytest.mark.parametrize("reply", [
    "Here is the summary: the user migrates on Sunday.",
    json.dumps({"key_topics": ["a"], "key_decisions": []}),
    json.dumps({**VALID, "mood": ["calm"]}),
    json.dumps({**VALID, "unresolved": ["", "x"]}),
    json.dumps({**VALID, "key_decisions": "Migrate on Sunday"}),
    json.dumps([VALID]),
    json.dumps({**VALID, "summary": ["They migrate on Sunday."]}),
])
def test_a_malformed_answer_falls_back_naming_the_reason(llm, reply):
    llm.then(answer(reply))
    fallback = FixedFallback()
    digest = OpenAICompatibleSummarizer(f"{llm.base_url}/v1", MODEL, "sk-test-key", fallback).summarize(MIGRATION)
    assert digest == Digest(EXTRACTIVE.key_topics, (), (), f"extractive (llm:{MODEL} unavailable: unparsable answer)")
    assert fallback.calls == 1


def test_a_server_slower_than_the_timeout_falls_back_in_well_under_its_delay(llm):
    llm.then(answer(json.dumps(VALID), delay=2.0))
    started = time.monotonic()
    digest = openai_summarizer(llm, timeout_seconds=0.5).summarize(MIGRATION)
    assert time.monotonic() - started < 1.5
    assert digest.method == f"extractive (llm:{MODEL} unavailable: timed out)"


def test_an_unreachable_server_falls_back():
    with socket.socket() as probe:  # a port that was free a moment ago, so nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    summarizer = OpenAICompatibleSummarizer(f"http://127.0.0.1:{port}/v1", MODEL, "sk-test-key", FixedFallback(),
                                            timeout_seconds=2.0)
    assert summarizer.summarize(MIGRATION).method == f"extractive (llm:{MODEL} unavailable: unreachable)"


def test_an_http_error_falls_back_with_its_status(llm):
    llm.then(status(500))
    assert openai_summarizer(llm).summarize(MIGRATION).method == f"extractive (llm:{MODEL} unavailable: HTTP 500)"
    assert len(llm.requests) == 1  # no retries


def piece_digest(request):
    """The turn labels a piece carries become its topics; every piece repeats one decision in its own case."""
    labels = re.findall(r"turn-\d\d", request.body["messages"][1]["content"])
    part = re.search(r"part (\d+) of", request.body["messages"][1]["content"]).group(1)
    decision = "Use SQLite" if int(part) % 2 else "use sqlite"
    return json.dumps({"key_topics": sorted(set(labels)), "key_decisions": [decision], "unresolved": [f"open in part {part}"],
                       "summary": f"They wrote {min(labels, default='more')}."})


def test_a_long_session_goes_in_pieces_within_the_budget_and_their_digests_merge(llm):
    budget = 1000
    long_session = transcript(*(f"turn-{i:02d} " + "lorem ipsum dolor " * 40 for i in range(12)))
    llm.default = replying(piece_digest)
    digest = openai_summarizer(llm, token_budget=budget).summarize(long_session)
    assert len(llm.requests) >= 3
    for request in llm.requests:
        assert sum(math.ceil(len(message["content"]) / 4) for message in request.body["messages"]) <= budget
    sent = "".join(request.body["messages"][1]["content"] for request in llm.requests)
    assert re.findall(r"turn-\d\d", sent) == [f"turn-{i:02d}" for i in range(12)]  # every turn, once, in order
    pieces = len(llm.requests)
    assert digest.method == f"llm:{MODEL}"
    assert len(digest.key_topics) == 5 and digest.key_topics[0] == "turn-00"
    assert digest.key_decisions == ("Use SQLite",)
    assert digest.unresolved[0] == f"open in part {pieces}"  # the latest piece's open items first
    firsts = [min(re.findall(r"turn-\d\d", request.body["messages"][1]["content"])) for request in llm.requests]
    assert digest.summary == " ".join(f"They wrote {label}." for label in firsts)  # each piece's prose, in order


def test_a_turn_longer_than_a_piece_is_split_across_pieces(llm):
    llm.default = replying(piece_digest)
    digest = openai_summarizer(llm, token_budget=700).summarize(transcript("turn-00 " + "x" * 5000))
    assert len(llm.requests) >= 3 and digest.method == f"llm:{MODEL}"
    assert "user (continued): " in llm.requests[1].body["messages"][1]["content"]


def test_a_budget_with_no_room_for_turns_is_refused_at_construction(llm):
    with pytest.raises(ValueError, match="token_budget"):
        openai_summarizer(llm, token_budget=100)


def test_anthropic_a_valid_answer_becomes_the_digest(llm):
    llm.then(answer(json.dumps(VALID)))
    digest = anthropic_summarizer(llm).summarize(MIGRATION)
    assert digest.key_decisions == ("Migrate on Sunday",) and digest.method == f"llm:{CLAUDE}"
    [request] = llm.requests
    assert request.path == "/v1/messages"
    assert request.body["model"] == CLAUDE and request.body["max_tokens"] > 0
    # older SDKs send the key as x-api-key, newer ones as a bearer token
    assert "sk-ant-test-key" in (request.headers.get("x-api-key"), request.headers.get("authorization", "").removeprefix("Bearer "))
    assert "STRICT JSON" in request.body["system"]
    assert "assistant: Yes: migrate on Sunday" in request.body["messages"][0]["content"]


def test_anthropic_a_malformed_answer_falls_back(llm):
    llm.then(answer("{not json"))
    digest = anthropic_summarizer(llm).summarize(MIGRATION)
    assert digest.method == f"extractive (llm:{CLAUDE} unavailable: unparsable answer)"


def test_anthropic_an_http_error_falls_back(llm):
    llm.then(status(500))
    assert anthropic_summarizer(llm).summarize(MIGRATION).method == f"extractive (llm:{CLAUDE} unavailable: HTTP 500)"


def test_a_session_without_turns_is_left_to_the_fallback(llm):
    digest = openai_summarizer(llm).summarize(transcript())
    assert digest == EXTRACTIVE and llm.requests == []


def test_the_answers_schema_goes_along_and_a_server_refusing_it_is_asked_plainly_from_then_on(llm):
    llm.then(answer(json.dumps(VALID)), status(400), answer(json.dumps(VALID)), answer(json.dumps(VALID)))
    summarizer = openai_summarizer(llm)
    assert summarizer.summarize(MIGRATION).method == f"llm:{MODEL}"
    schema = llm.requests[0].body["response_format"]
    assert schema["type"] == "json_object" and schema["schema"]["required"] == ["key_topics", "key_decisions", "unresolved", "summary"]
    assert summarizer.summarize(MIGRATION).method == f"llm:{MODEL}"  # refused with the schema, answered without it
    assert summarizer.summarize(MIGRATION).method == f"llm:{MODEL}"
    assert ["response_format" in request.body for request in llm.requests] == [True, True, False, False]


class ProseFallback(FixedFallback):
    def summarize(self, transcript):
        self.calls += 1
        return Digest(("extractive topic",), (), (), "extractive", "The offline prose.")


def test_the_answers_prose_is_checked_against_the_session_and_the_offline_prose_stands_in_for_none(llm):
    llm.then(answer(json.dumps({**VALID, "summary": "They chose  Postgres\nfor the notes. Bob from Oracle runs it."})),
             answer(json.dumps({**VALID, "summary": "Bob from Oracle runs it."})), answer(json.dumps(VALID)))
    summarizer = OpenAICompatibleSummarizer(f"{llm.base_url}/v1", MODEL, "sk-test-key", ProseFallback())
    first, made_up, without = (summarizer.summarize(MIGRATION) for _ in range(3))
    assert first.summary == "They chose Postgres for the notes." and first.method == f"llm:{MODEL}"
    assert made_up.summary == without.summary == "The offline prose."
    assert made_up.key_decisions == without.key_decisions == ("Migrate on Sunday",)  # the lists are still the model's


NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def test_a_long_sessions_prose_keeps_each_pieces_first_sentences_within_the_summarys_words(llm):
    def long_prose(request):
        part = int(re.search(r"part (\d+) of", request.body["messages"][1]["content"]).group(1))
        said = " ".join(f"In part {NAMES[part]} sentence {NAMES[n]} says lorem ipsum dolor again." for n in range(4))
        return json.dumps({**VALID, "summary": said})

    llm.default = replying(long_prose)
    long_session = transcript(*(f"turn-{i:02d} " + "lorem ipsum dolor says again here " * 30 for i in range(16)))
    digest = openai_summarizer(llm, token_budget=1000).summarize(long_session)
    pieces = len(llm.requests)
    assert 4 <= pieces <= 12 and len(digest.summary.split()) <= 120
    said = [(NAMES.index(part), NAMES.index(n)) for part, n in re.findall(r"part (\w+) sentence (\w+)", digest.summary)]
    assert {(part, 0) for part in range(1, pieces + 1)} <= set(said)  # every piece's first sentence, before later ones
    assert len(said) < 4 * pieces and said == sorted(said)  # not all of them; told in the pieces' order
