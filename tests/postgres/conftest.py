"""The PostgreSQL tests' server and tenants come from tests/postgres_server.py, shared with the
contract suites."""

import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema


@pytest.fixture
def fresh_database(postgres_url):
    """A database of its own, schema made and one tenant added: no other test's rows or statistics in it."""
    name = f"stats_{uuid.uuid4().hex[:8]}"
    server = PostgresHistory(postgres_url, admin=True)
    server.run(f"CREATE DATABASE {name}")
    url = urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}"))
    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    add_tenant(admin, "owner")
    yield url, admin
    admin.close()
    server.run(f"DROP DATABASE {name} WITH (FORCE)")
    server.close()
