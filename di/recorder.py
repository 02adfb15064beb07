"""open_recorder: a HistoryRecorder over a SQLite file or, for a postgresql:// URL, a server's tenant:
which writer a location gets is wiring, so it is chosen here, the one place that sees both backends."""
from __future__ import annotations

from pathlib import Path

from oneclaw_search.data.history.history_recorder import HistoryRecorder
from oneclaw_search.domain.clock import Clock, SystemClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.domain.history_location import is_postgres_url
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
