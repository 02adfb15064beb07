"""CoreModule: settings, the clock and the user's time zone, for every other module."""
from __future__ import annotations

from datetime import tzinfo

from injector import Module, provider, singleton

from oneclaw_search.data.embedding.static_embedder import StaticEmbedder
from oneclaw_search.di.settings import DEFAULT_EMBEDDER, Settings
from oneclaw_search.domain.clock import Clock, SystemClock
from oneclaw_search.domain.local_time import resolve_zone
from oneclaw_search.domain.ports import Embedder


class CoreModule(Module):
    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    @singleton
    @provider
    def provide_settings(self) -> Settings:
        return self._settings

    @singleton
    @provider
    def provide_clock(self) -> Clock:
        return self._settings.clock or SystemClock()

    @singleton
    @provider
    def provide_zone(self) -> tzinfo:
        return resolve_zone(self._settings.time_zone)


_DEFAULT = StaticEmbedder()  # one table per process, loaded on first use


def default_embedder() -> Embedder:
    """The offline embedder used wherever nobody chose another (search, import, demo)."""
    return _DEFAULT


def chosen_embedder(settings: Settings) -> Embedder | None:
    """The embedder the settings name: our offline default, none at all, or the host's own."""
    if settings.embedder == DEFAULT_EMBEDDER:
        return default_embedder()
    return settings.embedder  # type: ignore[return-value]
