"""The postgres adapter: the in-process adapter over the PostgreSQL backend, each case in a tenant
of its own, so cases never see each other's rows and nothing needs dropping between them.

It offers faults, a checksum (a digest of every row the tenant owns) and concurrent calls; the
side-index switch and SQLite's table layout have no meaning on a server.
"""
from __future__ import annotations

import hashlib
import uuid
from typing import Any

from injector import Injector, provider, singleton

from oneclaw_search.conformance.faults import FaultModule
from oneclaw_search.conformance.history_file import fixture_rows
from oneclaw_search.conformance.in_process import InProcessAdapter
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.schema import TENANT_TABLES, add_tenant, ensure_schema
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.di.index_module import SearchBackends
from oneclaw_search.di.postgres_module import PostgresModule

CAPABILITIES = ["faults", "checksum", "concurrent_calls"]
TENANT_PREFIX = "conformance-"


class PostgresFaultModule(FaultModule):
    """FaultModule over the PostgreSQL backend's searches."""

    @singleton
    @provider
    def provide_backends(self, history: PostgresHistory) -> SearchBackends:  # type: ignore[override]
        return self.faulty(PostgresModule(history).provide_backends(history))


class PostgresAdapter(InProcessAdapter):
    name = "postgres"

    def __init__(self, url: str) -> None:
        super().__init__()
        self._url = url
        self._admin = PostgresHistory(url, admin=True)
        ensure_schema(self._admin)
        self._run = f"{TENANT_PREFIX}{uuid.uuid4().hex[:12]}"
        self._made: set[str] = set()
        self._opened: list[Injector] = []

    @property
    def tenant(self) -> str:
        return f"{self._run}-{self._generation}"

    def close(self) -> None:
        for container in list(self._opened):
            self._release(container)
        super().close()
        self._admin.run("DELETE FROM oneclaw_tenants WHERE name LIKE %s", (f"{self._run}-%",))  # cascades to their rows
        self._admin.close()

    def _container_now(self) -> Injector:
        if self._container is None:  # a new one stands in for every earlier one, none of them busy
            for container in list(self._opened):
                self._release(container)
        return super()._container_now()

    def _op_call_concurrently(self, message: dict[str, Any]) -> dict[str, Any]:
        before = set(self._opened)
        try:
            return super()._op_call_concurrently(message)
        finally:
            for container in [c for c in self._opened if c not in before]:
                self._release(container)

    def _release(self, container: Injector | None) -> None:
        """Hand a finished container's connections back to the server."""
        if container is not None and container in self._opened:
            self._opened.remove(container)
            container.get(PostgresHistory).close()

    def _op_hello(self, message: dict[str, Any]) -> dict[str, Any]:
        return {**super()._op_hello(message), "capabilities": CAPABILITIES}

    def _op_load(self, message: dict[str, Any]) -> None:
        self._ensure_database()
        history = PostgresHistory(self._url, self.tenant)
        try:
            PostgresHistoryWriter(history, default_embedder()).write(*fixture_rows(message["fixture"]))
        finally:
            history.close()

    def _op_configure(self, message: dict[str, Any]) -> None:
        if "keyword_index" in message:
            raise ValueError("the PostgreSQL backend has no side index to switch")
        self._container = None

    def _op_checksum(self, _: dict[str, Any]) -> dict[str, Any]:
        digest = hashlib.sha256()
        for table in TENANT_TABLES:
            rows = self._admin.rows(f"SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM {table} t WHERE tenant = %s",
                                    (self.tenant,))
            digest.update(f"{table}:{rows[0][0]}".encode())
        return {"checksum": digest.hexdigest()}

    def _new_container(self) -> Injector:
        self._ensure_database()
        container = create_injector(self._url, tenant=self.tenant, clock=self._clock, time_zone=self._zone,
                                    modules=[PostgresFaultModule(self._faults)], **self._settings)
        self._opened.append(container)
        return container

    def _ensure_database(self) -> None:
        if self.tenant not in self._made:
            add_tenant(self._admin, self.tenant)
            self._made.add(self.tenant)
