"""Runs the sources of one search side by side and keeps whatever finished within the budget.

The spec asks for parallel searches and partial results on timeout (overview step 3b, ERR-5);
OneClaw's code runs them one after another and returns nothing when time runs out.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TypeVar

from oneclaw_search.domain.clock import Deadline, SearchTimedOut

K = TypeVar("K")
T = TypeVar("T")


def run_in_parallel(tasks: Mapping[K, Callable[[], T]], deadline: Deadline) -> tuple[dict[K, T], list[K]]:
    """Results of the tasks that finished in time, and the keys of those that did not.

    Each call owns its threads, so a source still winding down after a timeout never delays the
    next search. A task that fails for any other reason fails the whole search: a broken database
    is an error to report, not a partial result.
    """
    executor = ThreadPoolExecutor(max_workers=max(1, len(tasks)), thread_name_prefix="search_history")
    futures = {key: executor.submit(task) for key, task in tasks.items()}
    wait(futures.values(), timeout=deadline.remaining())
    executor.shutdown(wait=False)
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
