"""`oneclaw-search index`: build or catch up the side index now, instead of on the first search.

Prints where the index lives, how many rows it holds and how long the work took (issue 3).
"""
from __future__ import annotations

import time
from pathlib import Path

from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS


def run_index(db: Path, time_zone: str | None, index_path: str | None) -> int:
    settings = {"time_zone": time_zone} if index_path is None else {"time_zone": time_zone, "index_path": index_path}
    lookup = create_injector(db, **settings).get(IndexParts).lookup
    if lookup is None:
        print("no side index: search runs the spec's scans")
        return 0
    started = time.perf_counter()
    if not lookup.ensure_fresh(None):
        print(f"could not update the side index at {lookup.index.path} (see the log); searches will scan")
        return 1
    seconds = time.perf_counter() - started
    counts = [lookup.index.execute(f"SELECT count(*) FROM {kind.table('docs')}")[0][0] for kind in (MESSAGES, SESSIONS)]
    size = sum(path.stat().st_size for path in lookup.index.path.parent.glob(lookup.index.path.name + "*"))
    print(f"side index {lookup.index.path}: {counts[0]} messages, {counts[1]} sessions, "
          f"{size / 1e6:.1f} MB, up to date in {seconds:.2f} s")
    return 0
