"""SnapshotKeeper: the memory snapshot a search scores, built away from the searches when memory is
large (Q-11's promise for messages, kept for memory too).

A memory of up to the store's `in_thread_rows` chunks is modelled in the search that first needs it.
A larger one is modelled on a thread of its own while searches score as many of its newest chunks and
say so; the finished snapshot is kept in the store for the next process. With no store (PostgreSQL,
or no side index) every model is built in the search, as a one-shot command would otherwise never
search every chunk.
"""
from __future__ import annotations

import json
import logging
import threading
from datetime import tzinfo

from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot, SnapshotStore
from oneclaw_search.domain.clock import Deadline, PerSearch
from oneclaw_search.domain.ports import MemoryIndexDao

_log = logging.getLogger(__name__)
SNAPSHOT_FORMAT = 2  # bump when MemorySnapshot.parts or index terms change: stored snapshots of other formats are rebuilt


class SnapshotKeeper:
    def __init__(self, dao: MemoryIndexDao, zone: tzinfo, dimension: int, store: SnapshotStore | None = None) -> None:
        self._dao, self._zone, self._dimension, self._store = dao, zone, dimension, store
        self._lock = threading.Lock()
        self._whole: MemorySnapshot | None = None  # every chunk of the version it was built at
        self._newest: MemorySnapshot | None = None  # the newest chunks only, while the whole one is built
        self._building: threading.Thread | None = None
        self._saving: threading.Thread | None = None
        self._notes: PerSearch[str | None] = PerSearch()
        self.first_build_chunks = store.in_thread_rows if store is not None else 0  # chunks a search models itself

    @property
    def latest(self) -> MemorySnapshot | None:
        return self._whole or self._newest

    def current(self, deadline: Deadline | None) -> MemorySnapshot:
        """The snapshot for memory_index as it is now: rebuilt only when the table changed, read back
        from the store when another process built it, or its newest chunks while it is built."""
        version = self._dao.version(deadline=deadline)
        whole = self._whole
        if whole is not None and version is not None and whole.version == version:
            return self._forget(deadline, whole)
        if version is None or self._store is None:
            # A store that cannot tell a change is read afresh every time; with nowhere to keep a model
            # built apart, a one-shot command would never see one: both are modelled in the search.
            self._whole = MemorySnapshot.build(version, self._dao.get_all(deadline=deadline), self._dimension, self._zone)
            return self._whole
        stored = self._store.load(self._key(version))
        if stored is not None:
            whole = MemorySnapshot.from_parts(version, stored, self._dimension)
            self._keep_whole(whole)
            return self._forget(deadline, whole)
        return self._newest_of(version, deadline)

    def describe(self, deadline: Deadline | None = None) -> str | None:
        """What the search with this deadline searched of memory, when not every chunk (told once)."""
        with self._lock:
            return self._notes.pop(deadline, None) if deadline is not None else None

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the whole snapshot being built, then for every save (each waits for the one before)."""
        building = self._building
        if building is not None:
            building.join(timeout)
        with self._lock:
            saving = self._saving
        if saving is not None:
            saving.join(timeout)

    def _newest_of(self, version: object, deadline: Deadline | None) -> MemorySnapshot:
        newest = self._newest
        if newest is None or newest.version != version:
            chunks = self._dao.get_newest(self.first_build_chunks + 1, deadline=deadline)
            if len(chunks) <= self.first_build_chunks:  # all of memory: modelled here and now
                self._whole = MemorySnapshot.build(version, chunks, self._dimension, self._zone)
                self._save_later(self._key(version), self._whole)
                return self._forget(deadline, self._whole)
            newest = self._newest = MemorySnapshot.build(version, chunks[1:], self._dimension, self._zone)
        self._build_whole()
        if deadline is not None:
            with self._lock:
                self._notes.put(deadline, f"building: only its newest {len(newest.chunks):,} chunks were searched")
        return newest

    def _forget(self, deadline: Deadline | None, snapshot: MemorySnapshot) -> MemorySnapshot:
        """The whole model answered: no note, even from an earlier try of the same search."""
        if deadline is not None:
            with self._lock:
                self._notes.pop(deadline, None)
        return snapshot

    def _key(self, version: object) -> str:
        return json.dumps([SNAPSHOT_FORMAT, version, self._dimension, str(self._zone)], default=str)

    def _build_whole(self) -> None:
        """Start modelling every chunk unless a build runs. The thread is no daemon: a one-shot
        command that answered from the newest chunks still leaves the whole model for the next one."""
        with self._lock:
            if self._building is not None and self._building.is_alive():
                return

            def build() -> None:
                try:  # the version read before the rows: a write meanwhile only makes the next search build again
                    version = self._dao.version()
                    whole = MemorySnapshot.build(version, self._dao.get_all(), self._dimension, self._zone)
                except Exception as error:  # noqa: BLE001 - a failed build is retried by the next search
                    _log.warning("memory model not built: %s", error)
                    return
                self._keep_whole(whole)
                self._save_later(self._key(version), whole)
            self._building = threading.Thread(target=build, name="oneclaw-memory-build")
            self._building.start()

    def _keep_whole(self, whole: MemorySnapshot) -> None:
        """The whole model for its version: the newest chunks' model of that version is no longer read."""
        self._whole = whole
        newest = self._newest
        if newest is not None and newest.version == whole.version:
            self._newest = None

    def _save_later(self, key: str, snapshot: MemorySnapshot) -> None:
        """Keep the snapshot for the next process once this search has its answer: writing tens of
        megabytes must not hold the reply up. The thread is no daemon, so a one-shot command still
        writes it before it exits."""
        store = self._store
        if store is None:
            return
        with self._lock:
            earlier = self._saving

            def save() -> None:
                if earlier is not None:
                    earlier.join()  # saves land in the order the snapshots were built: the newest is kept
                store.save(key, snapshot.parts())
            self._saving = threading.Thread(target=save, name="oneclaw-memory-snapshot")
            self._saving.start()
