"""The PostgreSQL tests' server and tenants come from tests/postgres_server.py, shared with the
contract suites."""
