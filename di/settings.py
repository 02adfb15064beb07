"""Settings a host may pass to create_injector, checked up front with clear messages.

The knobs OneClaw hard-codes (device zone, 30 s, 5 s buffer, candidate counts) are settings here.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import tzinfo
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from oneclaw_search.data.index.side_index import AUTO as AUTO_INDEX
from oneclaw_search.data.summaries.local_model import missing as local_model_missing
from oneclaw_search.domain.clock import Clock
from oneclaw_search.domain.history_location import checked_tenant, is_postgres_url
from oneclaw_search.domain.local_time import resolve_zone
from oneclaw_search.domain.ports import Embedder
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.search_settings import DEFAULT_BUDGET_SECONDS, DEFAULT_CANDIDATE_LIMIT, SearchSettings
from oneclaw_search.domain.search_window import RECENT_MESSAGE_BUFFER_MS

DEFAULT_EMBEDDER = "default"


@dataclass(frozen=True)
class Settings:
    """`embedder`: "default", None (lexical only) or any Embedder object.

    `index_path`: "auto" (beside the history, else the user cache), a file path, or None for the
    spec's literal scans with no side index. The keyword index reads the history itself, so a host
    that binds a MessageDao or SessionDao of its own in `modules` sets None to have them searched.

    `database_path` is a file, or a postgresql:// URL (kept as text) for the PostgreSQL backend,
    where `tenant` names whose rows every read and write sees (default "default").
    """

    database_path: Path | str
    time_zone: str | tzinfo | None = None
    search_budget_seconds: float = DEFAULT_BUDGET_SECONDS
    candidate_limit: int = DEFAULT_CANDIDATE_LIMIT
    recent_message_buffer_ms: int = RECENT_MESSAGE_BUFFER_MS
    embedder: Embedder | str | None = DEFAULT_EMBEDDER
    index_path: str | Path | None = AUTO_INDEX
    clock: Clock | None = None
    modules: tuple[Any, ...] = ()
    redact_secrets: bool = True  # API keys, tokens, private keys and passwords masked in every reply
    summarizer: str | object = "extractive"  # or "local", "openai", "anthropic", or a Summarizer (di/summary_module.py)
    tenant: str | None = None
    ranking: RankingSettings = RankingSettings()  # the ranking model's constants (domain/relevance.py)
    # wrap(source, port) -> port for each search source ("memory", "messages", "sessions") the container
    # builds: a host's timing, tracing or fault injection around the sources, the search itself unchanged
    source_wrapper: Callable[[str, Any], Any] | None = None

    @classmethod
    def build(cls, database_path: str | Path, **settings: Any) -> Settings:
        known = {field.name for field in fields(cls)} - {"database_path"}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise TypeError(f"Unknown setting(s): {', '.join(unknown)}. Known: {', '.join(sorted(known))}")
        if "modules" in settings:
            settings["modules"] = tuple(settings["modules"])
        location = str(database_path).strip() if is_postgres_url(database_path) else Path(database_path).expanduser()
        built = cls(location, **settings)
        built._check()
        return built

    @property
    def on_postgres(self) -> bool:
        return is_postgres_url(self.database_path)

    def wrapped(self, source: str, port: Any) -> Any:
        """A search source as the host's source_wrapper returns it (unchanged without one)."""
        return self.source_wrapper(source, port) if self.source_wrapper is not None else port

    def search_settings(self) -> SearchSettings:
        return SearchSettings(self.search_budget_seconds, self.candidate_limit, self.recent_message_buffer_ms,
                              self.redact_secrets, self.ranking)

    def _check(self) -> None:
        if not self.search_budget_seconds > 0:
            raise ValueError(f"search_budget_seconds must be positive: {self.search_budget_seconds}")
        if self.candidate_limit < 1:
            raise ValueError(f"candidate_limit must be at least 1: {self.candidate_limit}")
        if self.recent_message_buffer_ms < 0:
            raise ValueError(f"recent_message_buffer_ms cannot be negative: {self.recent_message_buffer_ms}")
        if isinstance(self.time_zone, str):
            resolve_zone(self.time_zone)  # raises ValueError naming an unknown zone now, not mid-search
        if self.index_path is not None and not isinstance(self.index_path, (str, Path)):
            raise TypeError(f"index_path must be 'auto', a path or None: {self.index_path!r}")
        if isinstance(self.summarizer, str) and self.summarizer not in ("extractive", "local", "openai", "anthropic"):
            raise ValueError(f"Unknown summarizer {self.summarizer!r}: pass 'extractive', 'local', 'openai', 'anthropic' "
                             "or a Summarizer")
        if self.summarizer == "local" and (missing := local_model_missing()) is not None:
            raise ValueError(f"summarizer 'local' needs a local model: {missing}")
        if self.summarizer in ("openai", "anthropic") and find_spec(str(self.summarizer)) is None:
            raise ValueError(f"summarizer {self.summarizer!r} needs its SDK: pip install 'oneclaw-search-history[llm]'")
        if not isinstance(self.summarizer, str) and not callable(getattr(self.summarizer, "summarize", None)):
            raise TypeError(f"summarizer must be a name or have summarize(): {self.summarizer!r}")
        if self.tenant is not None:
            if not self.on_postgres:
                raise ValueError(f"tenant applies to PostgreSQL histories (a postgresql:// URL), not {self.database_path}")
            checked_tenant(self.tenant)
        if not isinstance(self.ranking, RankingSettings):
            raise TypeError(f"ranking must be a RankingSettings: {self.ranking!r}")
        if self.source_wrapper is not None and not callable(self.source_wrapper):
            raise TypeError(f"source_wrapper must be callable as wrap(source, port): {self.source_wrapper!r}")
        if isinstance(self.embedder, str) and self.embedder != DEFAULT_EMBEDDER:
            raise ValueError(f"Unknown embedder {self.embedder!r}: pass 'default', None or an Embedder")
