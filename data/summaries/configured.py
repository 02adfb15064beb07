"""The session summarizer a setting names, its chat model configured from the environment, and the
key a cached summary records of what made it (the summarizer settings of create_injector).

"extractive" (the default, offline), "local" (the extractive summary at once, and a model on this
machine writing its prose in the background: local_model.py), "openai" (any OpenAI-compatible endpoint:
OpenAI, Ollama, llama.cpp's server, vLLM) or "anthropic"; an LLM's base URL, model and key come from
ONECLAW_SEARCH_LLM_BASE_URL, ONECLAW_SEARCH_LLM_MODEL and ONECLAW_SEARCH_LLM_API_KEY (else
OPENAI_API_KEY or ANTHROPIC_API_KEY); the extractive summary stands in whenever one fails.
"""
from __future__ import annotations

import hashlib
import os
from datetime import tzinfo
from pathlib import Path

from oneclaw_search.data.summaries.background import BackgroundSummaries
from oneclaw_search.data.summaries.llm_summarizer import AnthropicSummarizer, OpenAICompatibleSummarizer
from oneclaw_search.data.summaries.local_model import PROMPT, LocalModel, ModelProseSummarizer, model_file
from oneclaw_search.domain import checked_prose
from oneclaw_search.domain.session_summary import Summarizer, SummaryCache, SummaryLater

EXTRACTIVE, LOCAL, OPENAI, ANTHROPIC = "extractive", "local", "openai", "anthropic"
EXTRACTIVE_METHOD = "extractive:yake-topics:prose"  # cached digests of an earlier extractive summary are made anew
DEFAULT_MODELS = {OPENAI: "gpt-4o-mini", ANTHROPIC: "claude-3-5-haiku-latest"}


def chosen_summarizer(chosen: str | object, extractive: Summarizer) -> Summarizer:
    """The summarizer `chosen` names (a host's own object is itself): what answers at once."""
    if chosen in (EXTRACTIVE, LOCAL):
        return extractive
    if chosen in (OPENAI, ANTHROPIC):
        return _from_environment(str(chosen), extractive)
    return chosen  # type: ignore[return-value]  # Settings checked that it has summarize()


def summary_method(chosen: str | object) -> str:
    """What a cached summary was made by: another model or endpoint never reuses it."""
    if chosen in (EXTRACTIVE, LOCAL):
        return EXTRACTIVE_METHOD
    if chosen in (OPENAI, ANTHROPIC):
        model = os.environ.get("ONECLAW_SEARCH_LLM_MODEL") or DEFAULT_MODELS[str(chosen)]
        return f"{chosen}:{os.environ.get('ONECLAW_SEARCH_LLM_BASE_URL', '')}:{model}"
    return type(chosen).__name__  # a host's own summarizer


def later_summaries(chosen: str | object, extractive: Summarizer, cache: SummaryCache, zone: tzinfo) -> SummaryLater | None:
    """The background summarizer `chosen` asks for ("local"), else None. Its cache key names the
    model file and the prompt, so a summary made by another model or prompt is never reused."""
    path = model_file() if chosen == LOCAL else None
    if path is None:
        return None
    summarizer = ModelProseSummarizer(LocalModel(path), extractive, zone)
    # The prompt, the check's rules (its source), the zone the day is written in and the model shape what is kept.
    rules = Path(checked_prose.__file__).read_bytes()
    made_by = hashlib.sha256(f"{PROMPT}:{zone}:{path.name}".encode() + rules).hexdigest()[:8]
    return BackgroundSummaries(summarizer, cache, f"{summarizer.method}:{made_by}:{EXTRACTIVE_METHOD}", summarizer.method)


def _from_environment(kind: str, fallback: Summarizer) -> Summarizer:
    model = os.environ.get("ONECLAW_SEARCH_LLM_MODEL") or DEFAULT_MODELS[kind]
    base_url = os.environ.get("ONECLAW_SEARCH_LLM_BASE_URL")
    key_name = "OPENAI_API_KEY" if kind == OPENAI else "ANTHROPIC_API_KEY"
    api_key = os.environ.get("ONECLAW_SEARCH_LLM_API_KEY") or os.environ.get(key_name) or "none"
    if kind == OPENAI:
        return OpenAICompatibleSummarizer(base_url or "https://api.openai.com/v1", model, api_key, fallback)
    return AnthropicSummarizer(model, api_key, fallback, base_url)
