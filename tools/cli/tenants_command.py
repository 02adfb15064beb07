"""`oneclaw-search tenants add NAME | list --db postgresql://...`: a PostgreSQL history's tenants.

Runs as the URL's own user (the schema's owner): adding a tenant creates whatever of the schema is
missing first, so the first `tenants add` on an empty database sets it up.
"""
from __future__ import annotations

import sys
from pathlib import Path

from oneclaw_search.domain.history_location import checked_tenant
from oneclaw_search.tools.cli.history_location import PostgresLocation


def run_tenants(db: Path | PostgresLocation, action: str, name: str | None) -> int:
    if not isinstance(db, PostgresLocation):
        raise ValueError("tenants belong to PostgreSQL histories: pass --db postgresql://...")
    try:
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.schema import (
            SEARCH_FUNCTIONS,
            add_tenant,
            ensure_schema,
            search_functions_marked,
            tenants,
        )
    except ImportError as missing:
        raise ValueError(f"a postgresql:// history needs the postgres extra (psycopg): {missing}") from missing
    admin = PostgresHistory(db.url, admin=True)
    try:
        if action == "list":
            for tenant in tenants(admin):
                print(tenant)
            return 0
        if name is None:
            raise ValueError("tenants add needs the tenant's NAME")
        ensure_schema(admin)
        added = add_tenant(admin, checked_tenant(name))
        print(f"{'Added' if added else 'Already there:'} tenant {name} in {admin.name}")
        if not search_functions_marked(admin):
            print("Warning: search reads whole tables under row-level security until a superuser marks the search's"
                  f" functions LEAKPROOF: ALTER FUNCTION ... LEAKPROOF for {', '.join(SEARCH_FUNCTIONS)}"
                  " (docs/postgresql.md)", file=sys.stderr)
        return 0
    finally:
        admin.close()
