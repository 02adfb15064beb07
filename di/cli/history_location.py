"""Where a command's history is: a SQLite file, or a PostgreSQL URL and the tenant it acts as."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from injector import Injector

from oneclaw_search.data.postgres.location import shown
from oneclaw_search.di import create_injector


@dataclass(frozen=True)
class PostgresLocation:
    url: str
    tenant: str

    def __str__(self) -> str:
        return f"{shown(self.url)} (tenant {self.tenant})"


History = Path | PostgresLocation


def open_container(history: History, **settings: Any) -> Injector:
    """create_injector over a file, or over a server as the location's tenant."""
    if isinstance(history, PostgresLocation):
        return create_injector(history.url, tenant=history.tenant, **settings)
    return create_injector(history, **settings)
