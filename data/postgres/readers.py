"""The threads a message search reads its literal rows on, beside its keyword statement (search.py;
the spec's searches side by side, overview step 3b).

Apart from the pool the sources of a search run on (domain/parallel.py): a source waiting on a task
queued behind other sources could wait for ever. The pool starts a thread only when none is idle.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from oneclaw_search.domain.parallel import ProcessPool

_READERS = ProcessPool("postgres_literal")


def literal_readers() -> ThreadPoolExecutor:
    """This process's pool of literal readers."""
    return _READERS.executor()
