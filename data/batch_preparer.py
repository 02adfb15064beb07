"""BatchPreparer: makes what a batch of message rows needs on its own (term lists and
vectors) off the writing thread: on a second thread for catch-ups, in a second process for big
builds (issue 3).

Preparing is Python that holds the GIL, and SQLite hands the GIL back and takes it again on every
row it steps; sharing one interpreter, the two halved the writer's speed (a 100K-message build
spent 6.1 s in executemany next to a preparing thread, 2.6 s without one). A spawned process
costs about half a second to start, so only a backlog of PROCESS_ROWS or more gets one. The
writer makes a batch itself whenever it has waited for the process as long as a batch takes, so
neither side idles while the other is the slower.
"""
from __future__ import annotations

import gc
import logging
import multiprocessing
import pickle
import sys
import time
import types
import zlib
from collections.abc import Sequence
from contextlib import contextmanager
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import NamedTuple

import numpy as np

from oneclaw_search.data.index_docs import fts_term
from oneclaw_search.data.message_vectors import MESSAGE_DIMENSIONS, quantize
from oneclaw_search.data.postings import SegmentTerms, segment_terms
from oneclaw_search.domain.ports import Embedder
from oneclaw_search.domain.search_terms import index_terms

PROCESS_ROWS = 50_000
_log = logging.getLogger(__name__)


def fingerprint(*texts: str | None) -> int:
    # One text (a message) skips the join: a build fingerprints every message.
    joined = (texts[0] or "").encode() if len(texts) == 1 else "\x00".join(text or "" for text in texts).encode()
    return zlib.crc32(joined) | (len(joined) << 32)


def term_text(text: str | None) -> str:
    return " ".join(stored_terms(text or ""))


def stored_terms(text: str) -> list[str]:
    """The index terms of `text` as the postings store them."""
    terms = index_terms(text)
    return terms if text.isascii() else [fts_term(term) for term in terms]  # ASCII text has ASCII terms


class Prepared(NamedTuple):
    terms: SegmentTerms  # of the batch, one column: each text's own words
    vectors: list[bytes] | None


def prepare(texts: Sequence[str], embedder: Embedder | None) -> Prepared:
    """The batch's term lists and each text's vector: it reads nothing from any database.
    Fingerprints and folded text are the writer's: cheap, and the preparing process is the busier."""
    return Prepared(segment_terms([stored_terms(t) for t in texts], 1), vectors(texts, embedder))


def vectors(texts: Sequence[str], embedder: Embedder | None) -> list[bytes] | None:
    """Messages are embedded once, as they are indexed (None without an embedder)."""
    if embedder is None or not texts:
        return None
    leading = getattr(embedder, "embed_leading", None)  # an embedder that can skip the unkept columns
    made = leading(list(texts), MESSAGE_DIMENSIONS) if leading else embedder.embed(list(texts))
    return quantize(np.asarray(made, dtype=np.float32))


_process_embedder: Embedder | None = None  # the embedder inside a preparing process


def _adopt(embedder: Embedder | None) -> None:
    global _process_embedder
    _process_embedder = embedder
    # The process is ours and only prepares batches, whose lists hold no cycles; collecting
    # cost 5 % of its time.
    gc.disable()


def _prepare_in_process(texts: list[str]) -> Prepared:
    return prepare(texts, _process_embedder)


class Pending(NamedTuple):
    """A batch on its way: `result()` waits for it, or makes it here when it was deferred (no
    future) or the process died on it."""

    preparer: BatchPreparer
    texts: list[str]
    future: Future | None

    def result(self) -> Prepared:
        return self.preparer.finish(self)


class BatchPreparer:
    """Prepares batches in the order given; results are the same wherever they were made."""

    def __init__(self, embedder: Embedder | None, backlog: int) -> None:
        self._embedder = embedder
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="index_prepare")
        self._process: ProcessPoolExecutor | None = None
        # A frozen application's executable is the application itself, not a Python to spawn.
        if backlog >= PROCESS_ROWS and not getattr(sys, "frozen", False) and _picklable(embedder):
            self._process = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_adopt, initargs=(embedder,))
        self._submitted = 0
        # Seconds this process spent waiting for the preparing one, and its own latest batch took:
        # once it has waited as long as a batch takes, it makes the next one itself.
        self._waited, self._cost = 0.0, float("inf")

    @property
    def uses_process(self) -> bool:
        return self._process is not None

    def submit(self, texts: list[str]) -> Pending:
        self._submitted += 1
        if self._process is not None and (self._submitted == 1 or self._waited >= self._cost):
            # Made here when first needed: the first while the process starts, then one each time
            # this process has waited as long as a batch takes (read two batches ahead, the process
            # still has one queued meanwhile). No preparing thread contends with this one's reads.
            self._waited = max(self._waited - self._cost, 0.0)
            return Pending(self, texts, None)
        if self._process is not None:
            try:
                with _no_main_script():
                    return Pending(self, texts, self._process.submit(_prepare_in_process, texts))
            except (BrokenProcessPool, RuntimeError) as error:
                self._give_up_process(error)
        return Pending(self, texts, self._thread.submit(prepare, texts, self._embedder))

    def finish(self, pending: Pending) -> Prepared:
        started = time.perf_counter()  # elapsed time only, to share work: no clock of the domain's
        if pending.future is None:
            prepared = prepare(pending.texts, self._embedder)
            self._cost = time.perf_counter() - started
            return prepared
        try:
            prepared = pending.future.result()
            self._waited += time.perf_counter() - started
            return prepared
        except (BrokenProcessPool, pickle.PicklingError, OSError) as error:
            self._give_up_process(error)
            return prepare(pending.texts, self._embedder)

    def _give_up_process(self, error: BaseException) -> None:
        _log.warning("preparing index batches in this process instead: %s", error)
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)
            self._process = None

    def shutdown(self) -> None:
        # A search out of time never waits on a batch it dropped.
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)


@contextmanager
def _no_main_script():
    """A spawned process re-runs the parent's main script unless it is guarded by `if __name__ ==
    "__main__"`; a host's script must never run twice because it built an index, so the process
    starts (on submit) while `__main__` is an empty module."""
    real = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = real


def _picklable(embedder: Embedder | None) -> bool:
    try:
        pickle.dumps(embedder)
        return True
    except Exception:  # any object may refuse pickling in its own way
        return False
