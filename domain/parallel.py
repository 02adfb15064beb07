"""Runs the sources of one search side by side and keeps whatever finished within the budget.

The spec asks for parallel searches and partial results on timeout (overview step 3b, ERR-5);
OneClaw's code runs them one after another and returns nothing when time runs out.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor, wait
from typing import TypeVar

from oneclaw_search.domain.clock import Deadline, SearchTimedOut

K = TypeVar("K")
T = TypeVar("T")


def run_in_parallel(
    tasks: Mapping[K, Callable[[], T]], executor: Executor, deadline: Deadline
) -> tuple[dict[K, T], list[K]]:
    """Results of the tasks that finished in time, and the keys of those that did not.

    A task that fails for any other reason fails the whole search: a broken database is an
    error to report, not a partial result.
    """
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
