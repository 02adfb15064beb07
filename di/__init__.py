"""The one place that wires everything: create_injector(database_path, **settings) builds the container,
open_recorder(location) a recorder for a host's own history.

Imported on first use (PEP 562), so a command that needs neither (`oneclaw-search --version`) loads
none of the libraries behind them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oneclaw_search.di.container import create_injector
    from oneclaw_search.di.recorder import open_recorder
    from oneclaw_search.di.settings import Settings

__all__ = ["Settings", "create_injector", "open_recorder"]
_HOMES = {"create_injector": "container", "open_recorder": "recorder", "Settings": "settings"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return vars(import_module(f"{__name__}.{_HOMES[name]}"))[name]
