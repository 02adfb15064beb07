"""IndexLookup: lets the DAOs answer the spec's LIKE test from the side index's trigrams.

MessageDao.search_content and SessionDao.search_by_title_or_preview keep their meaning (AC-07,
AC-08); with a fresh index they look candidates up instead of scanning every row, and re-check
each one against the history. Catch-up runs at most once per search, whichever source asks first.
"""
from __future__ import annotations

import logging
import threading
from contextlib import closing

import numpy as np
import peewee as pw

from oneclaw_search.data.index_queries import literal_pages
from oneclaw_search.data.postings_lookups import ids_in_order
from oneclaw_search.data.index_sync import IndexSync
from oneclaw_search.data.index_docs import DocKind
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.clock import Deadline

_log = logging.getLogger(__name__)
# Candidates read beyond the hits wanted: trigram candidates rarely fail the re-check, and the
# second, larger page keeps "newest first" exact unless a text is nearly everywhere.
_SLACK, _CANDIDATES_PER_HIT, _MIN_CANDIDATES = 50, 4, 1_000


class IndexLookup:
    def __init__(self, index: SideIndex, sync: IndexSync) -> None:
        self.index = index
        self._sync = sync
        self._lock = threading.Lock()
        self._fresh_for: Deadline | None = None
        self._broken = False
        self.usable = True  # whether the latest search could use the index

    def ensure_fresh(self, deadline: Deadline | None) -> bool:
        """Catch up with the history; False when that could not finish (the caller then scans).

        The sources of one search share one deadline, and so one catch-up.
        """
        with self._lock:
            self.usable = self._catch_up(deadline)
            return self.usable

    def _catch_up(self, deadline: Deadline | None) -> bool:
        if self._broken:
            return False
        if deadline is not None and deadline is self._fresh_for:
            return True
        # Indexing may take half of what is left; the search itself needs the rest.
        share = None if deadline is None else Deadline(deadline.clock, deadline.clock.monotonic() + deadline.remaining() / 2)
        try:
            if not self._sync.catch_up(share):
                return False
        except (OSError, pw.DatabaseError) as error:
            # An index we cannot write (read-only folder, full disk) must not fail the search.
            _log.warning("side index %s unusable, scanning instead: %s", self.index.path, error)
            self._broken = "locked" not in str(error)  # another process busy indexing is no fault
            return False
        self._fresh_for = deadline
        return True

    def verified_literal(self, kind: DocKind, needle: str, after: int, before: int, limit: int,
                         deadline: Deadline | None, fetch, holds) -> list | None:
        """Up to `limit` rows holding `needle`, newest first: index candidates, re-read by `fetch`
        and re-checked by `holds`. A first small page usually suffices; a larger one follows only
        when too many candidates failed the check. None when the index cannot say."""
        first, most = limit + _SLACK, max(limit * _CANDIDATES_PER_HIT, _MIN_CANDIDATES)
        pages = literal_pages(self.index, kind, needle, after, before, (first, most - first)) if self.ensure_fresh(deadline) else None
        if pages is None:
            return None

        def checked(page: np.ndarray) -> list:  # a page's rows become history ids only when it is read
            return [hit for hit in fetch(ids_in_order(self.index, kind, page), after, before, deadline=deadline) if holds(hit)]

        with closing(pages):  # an unread second page leaves no statement open
            page = next(pages)
            hits = checked(page)
            if len(hits) < limit and len(page) == first:
                hits += checked(next(pages))
        return sorted(hits, key=lambda hit: (-hit.at_ms, hit.id))[:limit]
