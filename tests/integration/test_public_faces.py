"""The faces oneclaw_search.di offers beside create_injector, which the conformance runner drives the
package through: source_wrapper around each search source, import_bundle, close_container."""
import json

import pytest
from acceptance_helpers import call
from builders import ms
from fakes import FixedClock

from oneclaw_search.di import close_container, create_injector, import_bundle
from oneclaw_search.di.index_module import IndexParts

CLOCK = FixedClock(ms("2026-03-01T12:00"))
BUNDLE = [
    {"kind": "session", "id": "s1", "title": "Dinner Planning", "created_at": "2026-02-25T19:00:00+09:00"},
    {"kind": "message", "id": "m1", "session_id": "s1", "type": "USER", "content": "a good sushi place near Shibuya?",
     "created_at": "2026-02-25T19:00:00+09:00"},
    {"kind": "memory", "id": "c1", "text": "The user loves sushi.", "created_at": "2026-02-20T09:00:00+09:00"},
]


def lines(rows):
    return [json.dumps(row) for row in rows]


def test_import_bundle_writes_rows_with_their_own_ids_and_names_what_it_skipped(tmp_path):
    path = tmp_path / "history.db"
    summary = import_bundle(path, [*lines(BUNDLE), "{not json"])
    assert (summary.sessions, summary.messages, summary.chunks) == (1, 1, 1)
    assert [number for number, _ in summary.skipped] == [4]
    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)
    found = json.loads(call(container, query="sushi", format="json").result)["results"]
    assert {item["id"] for item in found} >= {"m1", "c1"}


def test_a_source_wrapper_sees_each_source_and_its_port_does_the_searching(tmp_path):
    path = tmp_path / "history.db"
    import_bundle(path, lines(BUNDLE))
    searched = []

    class Counting:
        def __init__(self, name, port):
            self._name, self._port = name, port

        def search(self, *args, **kwargs):
            searched.append(self._name)
            return self._port.search(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self._port, name)

    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None, source_wrapper=Counting)
    found = json.loads(call(container, query="sushi", format="json").result)["results"]
    assert set(searched) == {"memory", "messages", "sessions"} and {item["id"] for item in found} >= {"m1", "c1"}
    assert searched.count("messages") == 1


def test_a_source_wrapper_that_cannot_be_called_is_refused_by_name(tmp_path):
    path = tmp_path / "history.db"
    import_bundle(path, lines(BUNDLE))
    with pytest.raises(TypeError, match="source_wrapper"):
        create_injector(path, source_wrapper="not callable")


def test_close_container_stops_its_build_and_closes_its_files(tmp_path):
    path = tmp_path / "history.db"
    import_bundle(path, lines(BUNDLE))
    container = create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)
    call(container, query="sushi")
    parts = container.get(IndexParts)
    close_container(container)
    assert parts.side.peewee.is_closed() and not parts.lookup.builder.running
