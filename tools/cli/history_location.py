"""Where a command's history is: a SQLite file, or a PostgreSQL URL and the tenant it acts as."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oneclaw_search.domain.history_location import shown

if TYPE_CHECKING:
    from oneclaw_search.di.container import Injector


@dataclass(frozen=True)
class PostgresLocation:
    url: str
    tenant: str

    def __str__(self) -> str:
        return f"{shown(self.url)} (tenant {self.tenant})"


History = Path | PostgresLocation


def open_container(history: History, **settings: Any) -> Injector:
    """create_injector over a file, or over a server as the location's tenant."""
    from oneclaw_search.di import create_injector

    if isinstance(history, PostgresLocation):
        return create_injector(history.url, tenant=history.tenant, **settings)
    return create_injector(history, **settings)
