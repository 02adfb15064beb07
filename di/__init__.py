"""The one place that wires everything: create_injector(database_path, **settings) builds the container
(close_container hands back what it holds open); open_recorder(location) a recorder for a host's own
history, open_writer(location) a writer over it, import_bundle(location, lines) a bundle's rows into it,
add_tenant(url, name) a tenant to a PostgreSQL history.

Imported on first use (PEP 562), so a command that needs neither (`oneclaw-search --version`) loads
none of the libraries behind them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oneclaw_search.di.container import close_container, create_injector
    from oneclaw_search.di.recorder import add_tenant, import_bundle, open_recorder, open_writer
    from oneclaw_search.di.settings import Settings

__all__ = ["Settings", "add_tenant", "close_container", "create_injector", "import_bundle", "open_recorder", "open_writer"]
_HOMES = {"create_injector": "container", "close_container": "container", "open_recorder": "recorder",
          "open_writer": "recorder", "import_bundle": "recorder", "add_tenant": "recorder", "Settings": "settings"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return vars(import_module(f"{__name__}.{_HOMES[name]}"))[name]
