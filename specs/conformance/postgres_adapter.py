"""The postgres adapter: the in-process adapter over the PostgreSQL backend, a tenant per case, driving
the package through its public faces only (add_tenant, import_bundle, create_injector, close_container).

The checksum (a digest of the tenant's rows in every table with a tenant column) and the clean-up
talk to the server directly; the side-index switch and SQLite's table layout mean nothing there.
"""
from __future__ import annotations

import hashlib
import uuid
from typing import Any

import psycopg

from oneclaw_search.conformance.history_file import import_fixture
from oneclaw_search.conformance.in_process import InProcessAdapter
from oneclaw_search.di import add_tenant, close_container, create_injector

CAPABILITIES = ["faults", "checksum", "concurrent_calls"]
TENANT_PREFIX = "conformance-"
TENANT_TABLES_SQL = ("SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant'"
                     " AND table_schema = current_schema() ORDER BY table_name")


class PostgresAdapter(InProcessAdapter):
    name = "postgres"

    def __init__(self, url: str) -> None:
        super().__init__()
        self._url = url
        self._run = f"{TENANT_PREFIX}{uuid.uuid4().hex[:12]}"
        self._made: set[str] = set()
        self._opened: list[Any] = []

    @property
    def tenant(self) -> str:
        return f"{self._run}-{self._generation}"

    def close(self) -> None:
        for container in list(self._opened):
            self._release(container)
        super().close()
        with psycopg.connect(self._url, autocommit=True) as server:  # a tenant's rows go with it
            server.execute("DELETE FROM oneclaw_tenants WHERE name LIKE %s", (f"{self._run}-%",))

    def _container_now(self) -> Any:
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

    def _release(self, container: Any) -> None:
        """Hand a finished container's connections back to the server."""
        if container is not None and container in self._opened:
            self._opened.remove(container)
            close_container(container)

    def _op_hello(self, message: dict[str, Any]) -> dict[str, Any]:
        return {**super()._op_hello(message), "capabilities": CAPABILITIES}

    def _op_load(self, message: dict[str, Any]) -> None:
        self._ensure_database()
        import_fixture(self._url, message["fixture"], self.tenant)

    def _op_configure(self, message: dict[str, Any]) -> None:
        if "keyword_index" in message:
            raise ValueError("the PostgreSQL backend has no side index to switch")
        self._container = None

    def _op_checksum(self, _: dict[str, Any]) -> dict[str, Any]:
        digest = hashlib.sha256()
        with psycopg.connect(self._url, autocommit=True) as server:
            tables = [row[0] for row in server.execute(TENANT_TABLES_SQL).fetchall()]
            for table in tables:
                row = server.execute(f"SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM {table} t"
                                     " WHERE tenant = %s", (self.tenant,)).fetchone()
                digest.update(f"{table}:{row[0] if row else None}".encode())
        return {"checksum": digest.hexdigest()}

    def _new_container(self) -> Any:
        self._ensure_database()
        container = create_injector(self._url, tenant=self.tenant, clock=self._clock, time_zone=self._zone,
                                    source_wrapper=self._faults.wrap, **self._settings)
        self._opened.append(container)
        return container

    def _ensure_database(self) -> None:
        if self.tenant not in self._made:
            add_tenant(self._url, self.tenant)
            self._made.add(self.tenant)
