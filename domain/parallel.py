"""Runs the sources of one search side by side and keeps whatever finished within the budget.

The spec asks for parallel searches and partial results on timeout (overview step 3b, ERR-5);
OneClaw's code runs them one after another and returns nothing when time runs out.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TypeVar

from oneclaw_search.domain.clock import Deadline, SearchTimedOut

K = TypeVar("K")
T = TypeVar("T")


# Threads live from one search to the next: each thread keeps its own SQLite connections and their
# page caches, which a thread started per search would begin without, slowing every large search
# (docs/performance.md). A pool only starts a thread when none is idle, so searches from several host
# threads, or a source still winding down after its search timed out, get threads of their own.
_MAX_THREADS = 12  # each may hold a connection's page cache: four searches at once, then they queue


class ProcessPool:
    """A thread pool made on first use in each process: a forked child inherits the pool but not its threads."""

    def __init__(self, name: str, max_workers: int | None = None) -> None:
        self._name, self._max_workers = name, max_workers
        self._pool: tuple[int, ThreadPoolExecutor] | None = None
        self._lock = threading.Lock()

    def executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None or self._pool[0] != os.getpid():
                self._pool = (os.getpid(), ThreadPoolExecutor(max_workers=self._max_workers, thread_name_prefix=self._name))
            return self._pool[1]


_SOURCES = ProcessPool("search_history", _MAX_THREADS)


def run_in_parallel(tasks: Mapping[K, Callable[[], T]], deadline: Deadline) -> tuple[dict[K, T], list[K]]:
    """Results of the tasks that finished in time, and the keys of those that did not.

    A task that fails for any other reason fails the whole search: a broken database is an error
    to report, not a partial result.
    """
    executor = _SOURCES.executor()
    futures = {key: executor.submit(task) for key, task in tasks.items()}
    wait(futures.values(), timeout=deadline.remaining())
    finished: dict[K, T] = {}
    unfinished: list[K] = []
    for key, future in futures.items():
        if not future.done():
            future.cancel()
            unfinished.append(key)
            continue
        try:
            finished[key] = future.result()
        except SearchTimedOut:
            unfinished.append(key)
    return finished, unfinished
