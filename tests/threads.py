"""Threads started together for the concurrency tests: each call of a target in its own thread, all
started before any is joined, and what each raised gathered for the test to assert on."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable


def run_at_once(target: Callable[..., object], calls: Iterable[tuple[object, ...]]) -> list[str]:
    """Run `target(*arguments)` for each of `calls` in a thread of its own, all at once; returns the
    failures, as reprs (none when every call returned)."""
    failures: list[str] = []

    def guarded(*arguments: object) -> None:
        try:
            target(*arguments)
        except Exception as failure:  # noqa: BLE001 - gathered, then asserted on by the caller
            failures.append(repr(failure))

    threads = [threading.Thread(target=guarded, args=arguments) for arguments in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures
