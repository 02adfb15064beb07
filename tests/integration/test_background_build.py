"""A search never waits for an index build: a large backlog is built in the background while searches
read the last commit and the newest rows it has not taken in, and say how far it has come; a killed
build resumes; a second writer only reads (Q-11, Q-12)."""
import json
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta

import pytest
from acceptance_helpers import call
from builders import ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.index.background import BackgroundBuild
from oneclaw_search.data.index.schema import MESSAGES
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts

CLOCK = FixedClock(ms("2026-03-01T12:00"))


def chat_history(history, count, needle_every=50):
    """One session of notes, every `needle_every`-th about the walrus colony. The session's first turn is
    no needle: with a turn on each side alike, identical needles differ in age alone."""
    start = datetime(2026, 2, 1, 9)
    rows = [new_message(f"m{i}", "s", f"note {i} about the walrus colony" if i and i % needle_every == 0 else f"note {i} on lunch",
                        (start + timedelta(seconds=i)).isoformat()) for i in range(count)]
    return history([new_session("s", "Notes", "2026-02-01T09:00")], rows)


def open_container(path):
    return create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)


def no_reads(container):
    """The first search builds nothing itself and reads no unindexed message for keywords (only for the phrase)."""
    lookup = container.get(IndexParts).lookup
    lookup.first_build_rows, lookup.read_seconds = -1, 0.0
    return container


def document(container, **parameters):
    return json.loads(call(container, format="json", **parameters).result)


@pytest.mark.spec("Q-11")
def test_a_large_backlog_is_built_in_the_background_and_the_reply_says_how_far_it_came(history, monkeypatch):
    started = []
    monkeypatch.setattr(BackgroundBuild, "start", lambda self: started.append(self))  # held back until asked below
    container = no_reads(open_container(chat_history(history, 400)))
    first = document(container, query="walrus colony", scope="sessions", max_results=50)
    assert first["complete"] is False and started
    assert first["index"] == "building 0 %: no message it has not taken in was read directly"
    # The whole query is still found in the rows the index has not reached, newest first.
    assert [item["id"] for item in first["results"] if item["why"]["phrase"]] == [f"m{i}" for i in range(350, 0, -50)]
    text = call(container, query="walrus colony", scope="sessions").result
    assert "Note: partial results; the search index is building 0 %" in text
    monkeypatch.undo()
    build = started[-1]
    build.start()
    build.wait(60)
    done = document(container, query="walrus colony", scope="sessions", max_results=50)
    assert done["complete"] is True and done["index"] is None
    assert [item["id"] for item in done["results"] if item["why"]["phrase"]] == [
        item["id"] for item in first["results"] if item["why"]["phrase"]
    ]
    assert "Note:" not in call(container, query="walrus colony", scope="sessions").result


@pytest.mark.spec("Q-11")
def test_a_search_during_another_writers_build_reads_what_is_committed(history, monkeypatch):
    path = chat_history(history, 100)
    holder = open_container(path).get(IndexParts).lookup
    holder.sync.prepare()
    writer = holder.keyword.writer(MESSAGES)  # another "process" holds the message index's lock
    try:
        container = no_reads(open_container(path))
        found = document(container, query="walrus", scope="sessions")
        assert found["complete"] is False and {item["id"] for item in found["results"]} == {"m50"}
        container.get(IndexParts).lookup.builder.wait(30)
        assert container.get(IndexParts).lookup.keyword.searcher(MESSAGES, fresh=True).num_docs == 0  # it lost the lock, wrote nothing
    finally:
        writer.rollback()
        del writer


KILLED_BUILD = textwrap.dedent("""
    import os, signal, sys
    from oneclaw_search.data.index import sync
    from oneclaw_search.di import create_injector
    from oneclaw_search.di.index_module import IndexParts
    sync.BATCH_ROWS, sync.COMMIT_ROWS = 50, 200
    index = create_injector(sys.argv[1], embedder=None).get(IndexParts).lookup.sync
    asked = []
    def stop():  # asked before each batch: the second time after the first commit, a batch is added, never committed
        if index.read_up_to() > 0:
            asked.append(True)
        if len(asked) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return False
    index.catch_up(stop)
""")


@pytest.mark.spec("Q-11")
def test_a_build_killed_midway_resumes_and_ends_complete_without_duplicates(history):
    path = chat_history(history, 600)
    killed = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(path)], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    lookup = open_container(path).get(IndexParts).lookup
    read, top = lookup.sync.backlog()
    assert 0 < read < top  # the first commit survived
    assert lookup.sync.catch_up()
    assert lookup.keyword.searcher(MESSAGES, fresh=True).num_docs == 600
    found = document(open_container(path), query="walrus colony", scope="sessions", max_results=50)
    ids = [item["id"] for item in found["results"]]
    assert found["complete"] is True and len(ids) == len(set(ids))
    assert [i for i, item in zip(ids, found["results"], strict=False) if item["why"]["phrase"]] == [f"m{i}" for i in range(550, 0, -50)]


@pytest.mark.spec("Q-12")
def test_a_build_that_lost_the_lock_is_not_started_again_by_every_search():
    from oneclaw_search.data.index.keyword_index import WriterBusy

    class Busy:
        calls = 0

        def catch_up(self, stop):
            Busy.calls += 1
            raise WriterBusy("another process holds the lock")

    build = BackgroundBuild(Busy())
    build.start()
    build.wait(10)
    build.start()  # a search right after: the other process is still building
    build.wait(10)
    assert Busy.calls == 1 and not build.running


@pytest.mark.spec("Q-11", "Q-12")
def test_a_build_that_caught_up_is_followed_at_once_when_the_history_changed_again():
    class Done:
        calls = 0

        def catch_up(self, stop):
            Done.calls += 1
            return True

    build = BackgroundBuild(Done())
    for _ in range(3):  # each a search that found rows written after the last build looked
        build.start()
        build.wait(10)
    assert Done.calls == 3 and not build.running


@pytest.mark.spec("Q-11")
def test_rows_written_right_after_a_build_started_are_indexed_by_the_next_search_build(history):
    path = chat_history(history, 300)
    container = open_container(path)
    lookup = container.get(IndexParts).lookup
    assert lookup.sync.catch_up()
    writer = HistoryWriter(open_writable(path), None)
    for turn in range(3):  # a busy agent: rows written, a search, rows written again before the build is done
        writer.write([], [new_message(f"w{turn}", "s", f"walrus census {turn}", f"2026-02-01T12:0{turn}")], [])
        call(container, query="walrus census", scope="sessions")
        lookup.builder.wait(30)
    call(container, query="walrus census", scope="sessions")
    lookup.builder.wait(30)
    found = document(container, query="walrus census", scope="sessions")
    assert lookup.state_now.settled and found["complete"] is True
    assert {"w0", "w1", "w2"} <= {item["id"] for item in found["results"][:4]}  # the whole query's rows first


@pytest.mark.spec("Q-11")
def test_a_catch_up_that_saw_the_history_written_while_it_read_goes_once_more(history, monkeypatch):
    from oneclaw_search.domain.errors import HistoryChanged
    lookup = open_container(chat_history(history, 50)).get(IndexParts).lookup
    tries, original = [], lookup.sync._catch_up

    def written_meanwhile(stop, progress):  # a writer committed during the first: its unit of work raises
        tries.append(len(tries))
        if len(tries) == 1:
            raise HistoryChanged("written to while it was read")
        return original(stop, progress)
    monkeypatch.setattr(lookup.sync, "_catch_up", written_meanwhile)
    assert lookup.sync.catch_up() and tries == [0, 1]
    assert lookup.keyword.searcher(MESSAGES, fresh=True).num_docs == 50

    def always_written(stop, progress):
        tries.append(len(tries))
        raise HistoryChanged("written to while it was read")
    monkeypatch.setattr(lookup.sync, "_catch_up", always_written)
    with pytest.raises(HistoryChanged):  # once more, not forever: a later search's build tries again
        lookup.sync.catch_up()
    assert len(tries) == 4
