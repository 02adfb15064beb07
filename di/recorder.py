"""open_recorder, open_writer and import_bundle: a HistoryRecorder, a writer, or a bundle's rows, over a
SQLite file or, for a postgresql:// URL, a server's tenant (add_tenant adds one). Which writer a location gets is wiring, so
it is chosen here, the one place that sees both backends."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from oneclaw_search.data.history.history_recorder import HistoryRecorder
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.importers.bundle_importer import BundleImporter, ImportSummary
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.domain.clock import Clock, SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.history_location import checked_tenant, is_postgres_url
from oneclaw_search.domain.local_time import resolve_zone
from oneclaw_search.domain.ports import Embedder


def open_recorder(location: str | Path, clock: Clock | None = None, *, background: bool = False,
                  tenant: str | None = None, embedder: Embedder | None = None) -> HistoryRecorder:
    """A recorder over `location`: a SQLite file (created if missing; OneClaw's own database is refused,
    unchanged), or a postgresql:// URL recorded into as `tenant` (which must exist)."""
    if not is_postgres_url(location):
        return HistoryRecorder.open(location, clock, background=background)
    try:
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.schema import check_tenant
        from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
    except ImportError as missing:
        raise HistoryUnavailable(f"a postgresql:// history needs the postgres extra (psycopg): {missing}") from missing
    history = PostgresHistory(str(location), tenant)
    check_tenant(history)
    return HistoryRecorder(history, clock or SystemClock(), background=background,  # type: ignore[arg-type]
                           writer=PostgresHistoryWriter(history, embedder))


@contextmanager
def open_writer(location: str | Path, *, tenant: str | None = None) -> Iterator[HistoryWrites]:
    """A writer over `location` (a SQLite file created if missing, never OneClaw's own; or a
    postgresql:// URL's `tenant`, which must exist), memory chunks embedded with the default
    embedder; closed afterwards. A file it created for a write that failed is removed."""
    if is_postgres_url(location):
        with _server_writer(str(location), tenant) as writer:
            yield writer
        return
    path = Path(location)
    created = not path.exists()
    database = open_writable(path)
    try:
        yield HistoryWriter(database, default_embedder())
    except BaseException:
        database.close()
        if created:
            for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)
        raise
    database.close()


@contextmanager
def _server_writer(url: str, tenant: str | None) -> Iterator[HistoryWrites]:
    try:
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.schema import check_tenant
        from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
    except ImportError as missing:
        raise HistoryUnavailable(f"a postgresql:// history needs the postgres extra (psycopg): {missing}") from missing
    history = PostgresHistory(url, tenant)
    try:
        check_tenant(history)
        writer = PostgresHistoryWriter(history, default_embedder())
        yield writer
        writer.settle()
    finally:
        history.close()


def import_bundle(location: str | Path, lines: Iterable[str], *, tenant: str | None = None, time_zone: str | None = None,
                  now_ms: int | None = None) -> ImportSummary:
    """A JSONL bundle's rows (sessions, messages and memory chunks with their own ids and times,
    docs/importing.md) written into `location`, as `oneclaw-search import bundle` writes them; the
    summary names any line skipped and why."""
    with open_writer(location, tenant=tenant) as writer:
        clock_now = now_ms if now_ms is not None else SystemClock().now_ms()
        return BundleImporter(writer, resolve_zone(time_zone), clock_now, None).import_lines(lines)


def add_tenant(url: str, name: str) -> bool:
    """Add tenant `name` to the PostgreSQL history at `url`, creating whatever of the schema is
    missing first, as `oneclaw-search tenants add` does; False when it was already there."""
    try:
        from oneclaw_search.data.postgres.database import PostgresHistory
        from oneclaw_search.data.postgres.schema import add_tenant as added
        from oneclaw_search.data.postgres.schema import ensure_schema
    except ImportError as missing:
        raise HistoryUnavailable(f"a postgresql:// history needs the postgres extra (psycopg): {missing}") from missing
    admin = PostgresHistory(url, admin=True)
    try:
        ensure_schema(admin)
        return added(admin, checked_tenant(name))
    finally:
        admin.close()
