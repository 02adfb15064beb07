"""ToolModule: the use cases, the search_history and read_session tools, and the registry every tool lands in.

Mirrors di/ToolModule.kt. Tools arrive through a `list[Tool]` multiprovider, so a host's own
module can add tools beside search_history without touching this file.
"""
from __future__ import annotations

from datetime import tzinfo

from injector import Module, multiprovider, provider, singleton

from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.di.index_module import SearchBackends
from oneclaw_search.di.settings import Settings
from oneclaw_search.domain.clock import Clock
from oneclaw_search.domain.focused_search import FocusedSearch
from oneclaw_search.domain.local_time import local_date
from oneclaw_search.domain.ports import MemorySearchEngine, MessageSearch, SessionSearch
from oneclaw_search.domain.search_history_use_case import SearchAids, SearchHistoryUseCase, SearchSources
from oneclaw_search.domain.session_reading import ReadSessionUseCase, SessionReader
from oneclaw_search.domain.spelling import SummedVocabulary
from oneclaw_search.tools import ReadSessionTool, SearchHistoryTool, Tool, ToolExecutionEngine, ToolRegistry
from oneclaw_search.tools.get_session_summary_tool import GetSessionSummaryTool


class ToolModule(Module):
    @singleton
    @provider
    def provide_search_history_use_case(
        self, engine: MemorySearchEngine, memory: HybridSearchEngine, messages: MessageSearch, sessions: SessionSearch,
        backends: SearchBackends, clock: Clock, zone: tzinfo, settings: Settings, focused: FocusedSearch, turns: SessionReader,
    ) -> SearchHistoryUseCase:
        vocabulary = SummedVocabulary([memory, backends.vocabulary])
        return SearchHistoryUseCase(
            SearchSources(engine, messages, sessions), clock, zone, settings.search_settings(),
            SearchAids(vocabulary, focused, turns, backends.progress, memory),
        )

    @singleton
    @provider
    def provide_search_history_tool(self, use_case: SearchHistoryUseCase, clock: Clock, zone: tzinfo) -> SearchHistoryTool:
        return SearchHistoryTool(use_case, today=lambda: local_date(clock.now_ms(), zone), stem=stem)

    @singleton
    @provider
    def provide_read_session_tool(self, reader: SessionReader, zone: tzinfo, settings: Settings) -> ReadSessionTool:
        return ReadSessionTool(ReadSessionUseCase(reader, zone, settings.redact_secrets))

    @multiprovider
    def provide_builtin_tools(self, search_history: SearchHistoryTool, read_session: ReadSessionTool,
                              summaries: GetSessionSummaryTool) -> list[Tool]:
        return [search_history, read_session, summaries]

    @singleton
    @provider
    def provide_tool_registry(self, tools: list[Tool]) -> ToolRegistry:
        return ToolRegistry(tools)

    @singleton
    @provider
    def provide_tool_execution_engine(self, registry: ToolRegistry) -> ToolExecutionEngine:
        return ToolExecutionEngine(registry)
