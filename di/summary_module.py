"""SummaryModule: the get_session_summary tool, its summarizer chosen by settings, and its cache.

`summarizer` "extractive" (the default, offline), "openai" (any OpenAI-compatible endpoint: OpenAI,
Ollama, llama.cpp's server, vLLM), "anthropic", or a Summarizer object. An LLM's base URL, model and
key come from ONECLAW_SEARCH_LLM_BASE_URL, ONECLAW_SEARCH_LLM_MODEL and ONECLAW_SEARCH_LLM_API_KEY
(else OPENAI_API_KEY or ANTHROPIC_API_KEY); the extractive summary stands in whenever one fails.
"""
from __future__ import annotations

import os
from datetime import tzinfo

from injector import Module, provider, singleton

from oneclaw_search.data.summaries.llm_summarizer import AnthropicSummarizer, OpenAICompatibleSummarizer
from oneclaw_search.di.index_module import SearchBackends
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.domain.session_summary import SessionDirectory, Summarizer, SummaryCache
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase
from oneclaw_search.tools.get_session_summary_tool import GetSessionSummaryTool

EXTRACTIVE, OPENAI, ANTHROPIC = "extractive", "openai", "anthropic"
DEFAULT_MODELS = {OPENAI: "gpt-4o-mini", ANTHROPIC: "claude-3-5-haiku-latest"}


def llm_summarizer(kind: str, fallback: Summarizer) -> Summarizer:
    """An LLM summarizer configured from the environment."""
    model = os.environ.get("ONECLAW_SEARCH_LLM_MODEL") or DEFAULT_MODELS[kind]
    base_url = os.environ.get("ONECLAW_SEARCH_LLM_BASE_URL")
    key_name = "OPENAI_API_KEY" if kind == OPENAI else "ANTHROPIC_API_KEY"
    api_key = os.environ.get("ONECLAW_SEARCH_LLM_API_KEY") or os.environ.get(key_name) or "none"
    if kind == OPENAI:
        return OpenAICompatibleSummarizer(base_url or "https://api.openai.com/v1", model, api_key, fallback)
    return AnthropicSummarizer(model, api_key, fallback, base_url)


def method_key(settings: Settings) -> str:
    """What a cached summary was made by: another model or endpoint never reuses it."""
    chosen = settings.summarizer
    if chosen == EXTRACTIVE:
        return EXTRACTIVE
    if chosen in (OPENAI, ANTHROPIC):
        model = os.environ.get("ONECLAW_SEARCH_LLM_MODEL") or DEFAULT_MODELS[str(chosen)]
        return f"{chosen}:{os.environ.get('ONECLAW_SEARCH_LLM_BASE_URL', '')}:{model}"
    return type(chosen).__name__  # a host's own summarizer


class SummaryModule(Module):
    @singleton
    @provider
    def provide_summarizer(self, settings: Settings, backends: SearchBackends) -> Summarizer:
        extractive = ExtractiveSummarizer(backends.vocabulary)
        chosen = settings.summarizer
        if chosen == EXTRACTIVE:
            return extractive
        if chosen in (OPENAI, ANTHROPIC):
            return llm_summarizer(str(chosen), extractive)
        return chosen  # type: ignore[return-value]  # Settings checked that it has summarize()

    @singleton
    @provider
    def provide_get_session_summary_tool(self, reader: SessionReader, directory: SessionDirectory, summarizer: Summarizer,
                                         cache: SummaryCache, settings: Settings, zone: tzinfo) -> GetSessionSummaryTool:
        use_case = GetSessionSummaryUseCase(reader, directory, summarizer, cache, method_key=method_key(settings),
                                            redact_secrets=settings.redact_secrets)
        return GetSessionSummaryTool(use_case, zone)
