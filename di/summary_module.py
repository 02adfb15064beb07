"""SummaryModule: the get_session_summary tool, its summarizer chosen by settings, its cache, and the
watch a long-running host starts so a model summarises sessions as they go quiet.

`summarizer` "extractive" (the default, offline), "local" (extractive at once, a local model's prose in
the background), "openai", "anthropic", or a Summarizer object (data/summaries/configured.py reads an
LLM's endpoint, model and key from the environment).
"""
from __future__ import annotations

from datetime import tzinfo

from injector import Module, provider, singleton

from oneclaw_search.data.summaries.configured import chosen_summarizer, later_summaries, summary_method
from oneclaw_search.data.summaries.keyphrases import YakeTopics
from oneclaw_search.data.summaries.quiet_watch import QUIET_SECONDS, QuietSessionWatch
from oneclaw_search.di.index_module import SearchBackends
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.clock import Clock
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionReader
from oneclaw_search.domain.session_summary import SessionDirectory, Summarizer, SummaryCache
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase
from oneclaw_search.tools.get_session_summary_tool import GetSessionSummaryTool


class SummaryModule(Module):
    @singleton
    @provider
    def provide_summarizer(self, settings: Settings, backends: SearchBackends) -> Summarizer:
        return chosen_summarizer(settings.summarizer, ExtractiveSummarizer(backends.vocabulary, topics=YakeTopics()))

    @singleton
    @provider
    def provide_get_session_summary_use_case(self, reader: SessionReader, directory: SessionDirectory, summarizer: Summarizer,
                                             cache: SummaryCache, settings: Settings, zone: tzinfo) -> GetSessionSummaryUseCase:
        return GetSessionSummaryUseCase(reader, directory, summarizer, cache, method_key=summary_method(settings.summarizer),
                                        redact_secrets=settings.redact_secrets,
                                        later=later_summaries(settings.summarizer, summarizer, cache, zone))

    @singleton
    @provider
    def provide_quiet_session_watch(self, use_case: GetSessionSummaryUseCase, clock: Clock) -> QuietSessionWatch:
        return QuietSessionWatch(lambda: use_case.ask_later_for_quiet(clock.now_ms(), int(QUIET_SECONDS * 1000)))

    @singleton
    @provider
    def provide_get_session_summary_tool(self, use_case: GetSessionSummaryUseCase, zone: tzinfo) -> GetSessionSummaryTool:
        return GetSessionSummaryTool(use_case, zone)
