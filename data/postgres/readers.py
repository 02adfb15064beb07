"""The threads a message search reads its literal rows on, beside its keyword statement (search.py;
the spec's searches side by side, overview step 3b).

Apart from the pool the sources of a search run on (domain/parallel.py): a source waiting on a task
queued behind other sources could wait for ever.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

# One for each message search under way: as many as the searches the sources' own pool runs at once.
_MAX_THREADS = 4
_pool: tuple[int, ThreadPoolExecutor] | None = None
_lock = threading.Lock()


def literal_readers() -> ThreadPoolExecutor:
    """This process's pool (a forked child inherits the pool but not its threads, so it makes its own)."""
    global _pool
    with _lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (os.getpid(), ThreadPoolExecutor(max_workers=_MAX_THREADS, thread_name_prefix="postgres_literal"))
        return _pool[1]
