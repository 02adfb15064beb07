"""PostgresHistory: peewee's PostgreSQL database over psycopg, every connection bound to one tenant.

The tenant is part of each connection's startup options (the `oneclaw.tenant` setting and the
tenant role), so row-level security applies to every statement, ours or a host's, from the first.
"""
from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import peewee as pw
import psycopg
from playhouse.pool import MaxConnectionsExceeded, PooledPostgresqlDatabase

from oneclaw_search.domain.clock import Deadline, SearchTimedOut
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.history_location import checked_tenant, shown

TENANT_ROLE = "oneclaw_search_tenant"  # holds no rights past its own rows: the policies' subject
TENANT_SETTING = "oneclaw.tenant"
Rows = list[tuple[Any, ...]]
MAX_CONNECTIONS = 32  # per history object: a thread holds one only for a unit of work
POOL_WAIT_SECONDS = 10  # how long a unit of work waits for a free connection when all are lent
IDLE_SECONDS = 300  # a pooled connection unused this long is closed rather than reused
SERIAL_PLANS = "-c max_parallel_workers_per_gather=0"


def execute(database: pw.Database, sql: str, params: Sequence[object] = ()) -> psycopg.Cursor[Any]:
    """`database.execute_sql`, typed as the psycopg cursor it returns."""
    cursor = database.execute_sql(sql, tuple(params))  # type: ignore[no-untyped-call]  # unannotated in peewee
    return cast("psycopg.Cursor[Any]", cursor)


def connection_of(database: pw.Database) -> psycopg.Connection[Any]:
    """This thread's open psycopg connection (for a server-side cursor)."""
    return cast("psycopg.Connection[Any]", database.connection())  # type: ignore[no-untyped-call]


def cursor_of(database: pw.Database) -> psycopg.Cursor[Any]:
    """A new cursor on this thread's connection, for executemany."""
    return cast("psycopg.Cursor[Any]", database.cursor())  # type: ignore[no-untyped-call]


class PostgresHistory:
    """One server database seen as one tenant (or, with `admin`, as the URL's own user, for setup)."""

    def __init__(self, url: str, tenant: str | None = None, *, admin: bool = False) -> None:
        self.url = url.replace("postgres://", "postgresql://", 1) if url.startswith("postgres://") else url
        self.tenant = checked_tenant(tenant)
        # A search's statements read a few hundred to a few thousand rows each, newest first: parallel
        # workers cost a tenant more to start than they save, and split a backward scan that stops
        # early into several that each read on (docs/postgresql.md has the figures).
        options = "" if admin else f"-c role={TENANT_ROLE} -c {TENANT_SETTING}={self.tenant} {SERIAL_PLANS}"
        # Pooled: a unit of work borrows a connection and hands it back, so threads and containers that
        # come and go do not each keep one open on the server.
        pooling = {"max_connections": MAX_CONNECTIONS, "stale_timeout": IDLE_SECONDS, "timeout": POOL_WAIT_SECONDS,
                   # never prepared: a prepared statement may get a generic plan, blind to the query's
                   # pattern and tsquery, which scans where the trigram and text indexes would serve
                   "prepare_threshold": None}
        self.peewee = PooledPostgresqlDatabase(self.url, prefer_psycopg3=True, **pooling,
                                               **({"options": options} if options else {}))
        self.admin = admin
        self._depth = threading.local()  # units of work open in this thread: the outermost one connects
        self._limited: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()  # those with a timeout set

    @property
    def name(self) -> str:
        """The URL without its password, and the tenant: how messages name this history."""
        return shown(self.url) if self.admin else f"{shown(self.url)} (tenant {self.tenant})"

    @contextmanager
    def connected(self, deadline: Deadline | None = None) -> Iterator[pw.PostgresqlDatabase]:
        """This thread's connection for one unit of work; an expired deadline cancels the statement
        running (the server's statement_timeout), and any failure names this history."""
        with self._unit(deadline) as (database, limit):
            if limit is not None:
                execute(database, *limit)
            yield database

    def rows(self, sql: str, params: Sequence[object] = (), deadline: Deadline | None = None, *,
             without: Sequence[str] = ()) -> Rows:
        """The statement's rows; `without` names planner methods (enable_* settings) it may not use. Without
        them, the statement goes to the server in one round trip with the timeout its deadline sets."""
        with self._unit(deadline) as (database, limit):
            if without:
                if limit is not None:
                    execute(database, *limit)
                with database.atomic():  # set_config(..., true) holds to the end of this transaction only
                    execute(database, "SELECT " + ", ".join(["set_config(%s, 'off', true)"] * len(without)), tuple(without))
                    return list(execute(database, sql, tuple(params)).fetchall())
            if limit is None:
                return list(execute(database, sql, tuple(params)).fetchall())
            connection = connection_of(database)
            with connection.pipeline():
                connection.execute(*limit)
                cursor = connection.execute(sql, tuple(params))
            return list(cursor.fetchall())

    @contextmanager
    def _unit(self, deadline: Deadline | None) -> Iterator[tuple[pw.PostgresqlDatabase, tuple[str, tuple[str]] | None]]:
        """The connection, and the statement setting its timeout that must run first (None: none must)."""
        depth = getattr(self._depth, "value", 0)
        try:
            if depth == 0 and self.peewee.is_closed():
                self.peewee.connect()
            self._depth.value = depth + 1
            try:
                yield self.peewee, self._timeout(deadline)
            finally:
                self._depth.value = depth
                if depth == 0 and not self.peewee.is_closed():
                    self.peewee.close()  # back to the pool
        except (psycopg.errors.QueryCanceled, pw.OperationalError) as error:
            # the server's timeout is the deadline's, and its clock may run out a moment before ours
            if deadline is not None and (deadline.expired() or _cancelled(error)):
                raise SearchTimedOut() from error
            raise HistoryUnavailable(f"{self.name}: {_first_line(error)}") from error
        except (psycopg.Error, pw.DatabaseError, pw.InterfaceError, MaxConnectionsExceeded) as error:
            raise HistoryUnavailable(f"{self.name}: {_first_line(error)}") from error

    def run(self, sql: str, params: Sequence[object] = ()) -> int:
        """A statement that returns no rows; how many rows it touched."""
        with self.connected() as database:
            return int(execute(database, sql, tuple(params)).rowcount)

    def close(self) -> None:
        """Close this thread's connection and every idle one in the pool."""
        if not self.peewee.is_closed():
            self.peewee.close()
        self.peewee.close_all()

    def _timeout(self, deadline: Deadline | None) -> tuple[str, tuple[str]] | None:
        """The statement setting the server's statement_timeout as the deadline leaves, or none without
        one. A connection keeps its last timeout when it goes back to the pool: it is cleared only when
        a unit of work with no deadline borrows it, so a statement with no deadline costs nothing more."""
        connection = connection_of(self.peewee)
        if deadline is None and connection not in self._limited:
            return None
        if deadline is not None:
            deadline.check()
        timeout = "0" if deadline is None else str(max(math.ceil(deadline.remaining() * 1000), 1))
        if deadline is None:
            self._limited.discard(connection)
        else:
            self._limited.add(connection)
        return "SELECT set_config('statement_timeout', %s, false)", (timeout,)


def _cancelled(error: BaseException) -> bool:
    """A statement the server cancelled (peewee wraps psycopg's error)."""
    return any(isinstance(cause, psycopg.errors.QueryCanceled) for cause in (error, error.__cause__, error.__context__))


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
