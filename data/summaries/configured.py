"""The session summarizer a setting names, its chat model configured from the environment, and the
key a cached summary records of what made it (the summarizer settings of create_injector).

"extractive" (the default, offline); "local" (a model on this machine writing the prose: local_model.py),
"openai" (any OpenAI-compatible endpoint: OpenAI, Ollama, llama.cpp's server, vLLM) or "anthropic"
(the whole digest in one call: llm_summarizer.py), each answering with the extractive summary at once
and writing its own in the background; an LLM's base URL, model and key come from
ONECLAW_SEARCH_LLM_BASE_URL, ONECLAW_SEARCH_LLM_MODEL and ONECLAW_SEARCH_LLM_API_KEY (else
OPENAI_API_KEY or ANTHROPIC_API_KEY); the extractive summary stands in whenever one fails.
"""
from __future__ import annotations

import hashlib
import os
from datetime import tzinfo
from pathlib import Path
from types import ModuleType

from oneclaw_search.data.summaries import digest_answer, llm_summarizer, local_model, summary_prompt
from oneclaw_search.data.summaries.background import BackgroundSummaries
from oneclaw_search.data.summaries.llm_summarizer import AnthropicSummarizer, OpenAICompatibleSummarizer
from oneclaw_search.data.summaries.local_model import LocalModel, ModelProseSummarizer, model_file
from oneclaw_search.domain import checked_prose, prose_summary
from oneclaw_search.domain.session_summary import Summarizer, SummaryCache, SummaryLater

EXTRACTIVE, LOCAL, OPENAI, ANTHROPIC = "extractive", "local", "openai", "anthropic"
EXTRACTIVE_METHOD = "extractive:yake-topics:prose"  # cached digests of an earlier extractive summary are made anew
DEFAULT_MODELS = {OPENAI: "gpt-4o-mini", ANTHROPIC: "claude-3-5-haiku-latest"}


def chosen_summarizer(chosen: str | object, extractive: Summarizer) -> Summarizer:
    """What answers at once: the extractive summary for every named summarizer (a model writes in the
    background: later_summaries), a host's own object itself."""
    if isinstance(chosen, str):
        return extractive
    return chosen  # type: ignore[return-value]  # Settings checked that it has summarize()


def summary_method(chosen: str | object) -> str:
    """What a cached summary that answers at once was made by."""
    return EXTRACTIVE_METHOD if isinstance(chosen, str) else type(chosen).__name__  # a host's own summarizer


def later_summaries(chosen: str | object, extractive: Summarizer, cache: SummaryCache, zone: tzinfo) -> SummaryLater | None:
    """The model `chosen` names, writing in the background ("local", "openai", "anthropic"), else None.
    Its cache key names the model, its endpoint and its prompt, so another's summary is never reused."""
    if chosen in (OPENAI, ANTHROPIC):
        model = os.environ.get("ONECLAW_SEARCH_LLM_MODEL") or DEFAULT_MODELS[str(chosen)]
        endpoint = os.environ.get("ONECLAW_SEARCH_LLM_BASE_URL", "")
        made_by = _made_by(f"{chosen}:{endpoint}:{model}", llm_summarizer, digest_answer, summary_prompt)
        return BackgroundSummaries(_from_environment(str(chosen), model, extractive), cache,
                                   f"{chosen}:{model}:{made_by}:{EXTRACTIVE_METHOD}", f"llm:{model}")
    path = model_file() if chosen == LOCAL else None
    if path is None:
        return None
    summarizer = ModelProseSummarizer(LocalModel(path), extractive, zone)
    # The zone the day is written in and the model shape what is kept, beside the prompt in its module.
    made_by = _made_by(f"{zone}:{path.name}", local_model)
    return BackgroundSummaries(summarizer, cache, f"{summarizer.method}:{made_by}:{EXTRACTIVE_METHOD}", summarizer.method)


def _made_by(what: str, *modules: ModuleType) -> str:
    """A short hash of what shapes a model's summary: `what`, and the sources of the modules that ask
    the model and read its answer, of the check's rules and of the prose its answer is joined to."""
    rules = b"".join(Path(str(module.__file__)).read_bytes() for module in (*modules, checked_prose, prose_summary))
    return hashlib.sha256(what.encode() + rules).hexdigest()[:8]


def _from_environment(kind: str, model: str, fallback: Summarizer) -> Summarizer:
    base_url = os.environ.get("ONECLAW_SEARCH_LLM_BASE_URL")
    key_name = "OPENAI_API_KEY" if kind == OPENAI else "ANTHROPIC_API_KEY"
    api_key = os.environ.get("ONECLAW_SEARCH_LLM_API_KEY") or os.environ.get(key_name) or "none"
    if kind == OPENAI:
        return OpenAICompatibleSummarizer(base_url or "https://api.openai.com/v1", model, api_key, fallback)
    return AnthropicSummarizer(model, api_key, fallback, base_url)
