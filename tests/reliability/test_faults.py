"""Faults under the keyword index and the history: each is repaired on the next search, or reported
in one clear line, and never answered silently with fewer rows."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from datetime import datetime, timedelta

import peewee as pw
import pytest
from acceptance_helpers import call
from builders import built, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.index.schema import MESSAGES
from oneclaw_search.data.index.side_index import SUFFIX
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts

CLOCK = FixedClock(ms("2026-03-01T12:00"))
INDEXED = "keyword (BM25F, tantivy)"


def note_history(history, count):
    """`count` turns of one session a minute apart, "note N about sushi"."""
    start = datetime(2026, 2, 1, 9)
    rows = [new_message(f"m{n}", "s", f"note {n} about sushi", (start + timedelta(minutes=n)).isoformat()) for n in range(count)]
    return history([new_session("s", "Notes", "2026-02-01T09:00")], rows)


@pytest.fixture
def notes(history):
    return note_history(history, 700)


def search(path, query="sushi", **parameters):
    container = create_injector(path, clock=CLOCK, time_zone="UTC")  # the default embedder, as the CLI
    result = call(container, query=query, format="json", max_results=50, **parameters)
    assert result.is_success, result.error_message
    return json.loads(result.result)


def folder(path):
    return path.with_name(path.name + ".search-index.tantivy")


def damage(path, how):
    files = [file for file in folder(path).rglob("*") if file.is_file() and file.name != "FORMAT"]
    if how == "meta":
        for file in files:
            if file.name == "meta.json":
                file.write_bytes(os.urandom(200))
    elif how == "random":
        for file in files:
            file.write_bytes(os.urandom(max(file.stat().st_size, 1)))
    elif how == "truncated":
        for file in files:
            file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    elif how == "deleted":
        shutil.rmtree(folder(path))
    elif how == "side file":
        path.with_name(path.name + SUFFIX).write_bytes(os.urandom(4096))


@pytest.mark.parametrize("how", ["meta", "random", "truncated", "deleted", "side file"])
def test_a_damaged_or_missing_index_is_built_anew_and_searches_answer_meanwhile(notes, how):
    built(create_injector(notes, clock=CLOCK, time_zone="UTC"))
    before = search(notes)
    assert INDEXED in before["retrievers"] and len(before["results"]) == 50
    damage(notes, how)
    container = create_injector(notes, clock=CLOCK, time_zone="UTC")
    meanwhile = json.loads(call(container, query="sushi", format="json", max_results=50).result)
    assert INDEXED in meanwhile["retrievers"] and meanwhile["complete"] and len(meanwhile["results"]) == 50
    rebuilt = json.loads(call(built(container), query="sushi", format="json", max_results=50).result)
    # The same ranking: all but two turns score alike ("note N about sushi", both neighbours holding
    # sushi), so which of them fill the last places of fifty depends on tantivy's order among ties.
    assert [item["id"] for item in rebuilt["results"]][:45] == [item["id"] for item in before["results"]][:45]
    assert built(container).get(IndexParts).lookup.keyword.searcher(MESSAGES, fresh=True).num_docs == 700


def run_index(path, *options):
    return subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "--db", str(path), "index", *options],
                          capture_output=True, text=True, timeout=120)


def test_the_index_command_rebuilds_a_damaged_index_and_fails_loudly_where_it_cannot_write(notes, tmp_path):
    built(create_injector(notes, clock=CLOCK, time_zone="UTC"))
    damage(notes, "random")
    done = run_index(notes)
    assert done.returncode == 0 and "damaged" in done.stderr and "700 messages" in done.stdout
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the index folder should be")
    refused = run_index(notes, "--index-path", str(blocked / "index.sqlite"))
    assert refused.returncode == 1 and "could not update the index" in refused.stderr


def cut_every_file_in_half(path):
    """As a crash on a full or failing disk can leave a side index: every file of it, the tantivy
    files and the SQLite file with its journals, cut to half its size."""
    side = path.with_name(path.name + SUFFIX)
    files = [file for file in [*folder(path).rglob("*"), *side.parent.glob(side.name + "*")] if file.is_file()]
    for file in files:
        file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    return files


def cli_search(path, query):
    """One `oneclaw-search search` process: a test process holding the index's files mapped must not
    see them cut (the kernel would stop it), so the index is only ever opened in processes of their own."""
    done = subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "search", "--db", str(path), "--json",
                           "--max-results", "50", "--now", "2026-03-01T12:00:00Z", query],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_side_index_cut_in_half_everywhere_is_rebuilt_by_the_next_search_and_by_the_index_command(notes):
    assert run_index(notes).returncode == 0
    before = cli_search(notes, "sushi note")  # both words, in neither order as typed: only keywords find them
    assert INDEXED in before["retrievers"] and len(before["results"]) == 50
    assert any(file.name.endswith(SUFFIX) for file in cut_every_file_in_half(notes))
    found = cli_search(notes, "sushi note")
    assert INDEXED in found["retrievers"] and len(found["results"]) == 50
    rebuilt = run_index(notes)  # waits for the build that search started, then checks it
    assert rebuilt.returncode == 0 and "700 messages" in rebuilt.stdout, rebuilt.stderr
    cut_every_file_in_half(notes)
    done = run_index(notes)
    assert done.returncode == 0 and "damaged" in done.stderr and "700 messages" in done.stdout
    assert len(cli_search(notes, "sushi note")["results"]) == 50


def edit(path, message_id, content):
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content = ? WHERE id = ?", (content, message_id))


def test_an_old_message_edited_in_place_loses_its_old_words_and_gains_its_new_ones(notes):
    assert "m5" in [item["id"] for item in search(notes, "note 5 about")["results"]]
    edit(notes, "m5", "the walrus moved to the aquarium")
    # Its neighbours still hold "note" (and "sushi"), but nothing near it holds "5" any more.
    assert "m5" not in [item["id"] for item in search(notes, "note 5 about")["results"]]
    assert run_index(notes).returncode == 0  # the maintenance build takes in an older row's new words
    assert [item["id"] for item in search(notes, "walrus aquarium")["results"]][0] == "m5"


def test_the_index_command_compares_every_message_with_the_history_once_it_changed(history):
    # Past the newest turns and the slice of older ones a catch-up compares.
    path = note_history(history, 1_200)
    built(create_injector(path, clock=CLOCK, time_zone="UTC"))
    edit(path, "m1050", "the walrus moved to the aquarium")
    done = run_index(path)
    assert done.returncode == 0 and "1 edited messages indexed again" in done.stdout
    assert [item["id"] for item in search(path, "walrus aquarium")["results"]][0] == "m1050"
    again = run_index(path)  # nothing changed since: nothing to compare
    assert again.returncode == 0 and "edited" not in again.stdout


def test_an_index_that_cannot_be_opened_leaves_searches_on_the_scan_saying_so(history, mocker):
    path = note_history(history, 50)
    mocker.patch("oneclaw_search.data.index.keyword_index.KeywordIndex.searcher",
                 side_effect=ValueError("An IO error occurred: 'No space left on device (os error 28)'"))
    result = search(path)
    assert "phrase (LIKE scan)" in result["retrievers"] and INDEXED not in result["retrievers"]
    assert len(result["results"]) == 50 and result["complete"]


def test_with_a_cache_that_cannot_be_written_a_search_still_finds_by_keywords_saying_what_ran(history, mocker):
    start = datetime(2026, 1, 1, 9)
    rows = [new_message(f"m{n}", "s", f"note {n} about sushi", (start + timedelta(minutes=n)).isoformat()) for n in range(20_000)]
    rows[150] = new_message("m150", "s", "a kookaburra laughed all through the meeting", (start + timedelta(minutes=150)).isoformat())
    path = history([new_session("s", "Notes", "2026-01-01T09:00")], rows)
    mocker.patch("oneclaw_search.data.index.side_index.SideIndex.ensure_schema",
                 side_effect=pw.OperationalError("database or disk is full"))
    # The half second the newest rows are read for takes about half of them on a loaded two-core
    # machine: the reach is the first-search tests' subject, finding the row is this one's.
    mocker.patch("oneclaw_search.data.index.lookup.UNINDEXED_SECONDS", 10.0)
    result = search(path, "meeting kookaburra")  # both words, not as typed, in a turn far older than the newest
    assert [item["id"] for item in result["results"] if item["source"] == "message"] == ["m150"]
    assert INDEXED not in result["retrievers"] and any("no usable index" in name for name in result["retrievers"])


SEARCH_THEN_WAIT = """
import sys, time
from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
engine = create_injector(sys.argv[1], embedder=None).get(ToolExecutionEngine)
print(engine.execute_tool("search_history", {"query": "walrus", "format": "json"}).status, flush=True)
time.sleep(600)
"""


def build_processes(path):
    """pids of background builds of this history, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().split(b"\0")
        except OSError:
            continue
        if b"oneclaw_search.data.index.build_process" in command and str(path).encode() in command:
            found.append(int(entry))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_a_host_killed_mid_build_leaves_no_build_process_and_the_next_search_completes(history):
    # Far more than a search catches up itself: built in a process of its own, for many seconds.
    # (Turns past m40000 are dated after the clock.)
    path = note_history(history, 200_000)
    host = subprocess.Popen([sys.executable, "-c", SEARCH_THEN_WAIT, str(path)], stdout=subprocess.PIPE, text=True)
    assert host.stdout.readline().strip() == "success"
    deadline = time.monotonic() + 30
    while not build_processes(path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert build_processes(path), "the search started no build process"
    host.kill()
    host.wait()
    # the batch in hand, then it notices its host is gone: a batch takes well under a second on an
    # idle machine, several on a busy one, so the wait allows for load without waiting for the build's end
    stopped = time.monotonic() + 15
    while build_processes(path) and time.monotonic() < stopped:
        time.sleep(0.2)
    assert build_processes(path) == []
    container = create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None)
    lookup = container.get(IndexParts).lookup
    # Until the index has read the whole history: a reply is complete as soon as the search reads every
    # row the index lacks, which on an idle machine it does long before the build ends.
    built_by = time.monotonic() + 300
    while time.monotonic() < built_by:
        call(container, query="sushi", format="json")
        if lookup.state_now.complete:
            break
        time.sleep(0.2)
    assert lookup.state_now.complete, lookup.describe()
    document = json.loads(call(container, query="note 40000", format="json").result)
    results = document["results"]
    assert document["complete"], document.get("index")
    assert [item["id"] for item in results if item["source"] == "message"][0] == "m40000"


def test_a_cold_search_of_a_large_unindexed_history_never_claims_to_be_complete(history):
    path = note_history(history, 30_000)
    container = create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None, search_budget_seconds=1.0)
    lookup = container.get(IndexParts).lookup
    # A history larger than a first search indexes, read for 50 ms: far too short for 30,000 rows.
    lookup.first_build_rows, lookup.read_seconds = 10_000, 0.05
    first = json.loads(call(container, query="sushi", format="json").result)
    assert first["complete"] is False
    read = int(first["index"].split("the newest ")[1].split(" messages")[0].replace(",", ""))
    assert first["index"].startswith("building 0 %: the newest ") and 0 < read < 30_000


@pytest.mark.parametrize("index_path", ["auto", None])
def test_a_row_of_broken_utf8_is_shown_with_replacement_characters_not_failing_the_search(history, index_path):
    path = note_history(history, 3)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE messages SET content = CAST(X'6E6F746520312061626F757420737573686920E9' AS TEXT)"
                           " WHERE id = 'm1'")  # "note 1 about sushi " and a Latin-1 é
    container = create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None, index_path=index_path)
    result = call(container, query="sushi", format="json")
    assert result.is_success, result.error_message
    texts = {item["id"]: item["text"] for item in json.loads(result.result)["results"]}
    assert texts["m1"] == "User: note 1 about sushi \ufffd" and "m0" in texts


def test_commits_left_in_a_wal_no_process_holds_are_read_without_writing_beside_the_history(history, tmp_path):
    path = note_history(history, 5)
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    with writer:
        writer.execute("INSERT INTO messages (id, session_id, type, content, created_at) VALUES"
                       " ('late', 's', 'USER', 'the walrus arrived late', ?)", (ms("2026-02-02T09:00"),))
    stranded = tmp_path / "stranded"
    stranded.mkdir()
    for suffix in ("", "-wal"):  # as a crashed writer leaves it: its commits in -wal, no -shm
        shutil.copyfile(f"{path}{suffix}", stranded / f"h.db{suffix}")
    writer.close()
    before = sorted(item.name for item in stranded.iterdir())
    container = create_injector(stranded / "h.db", clock=CLOCK, time_zone="UTC", embedder=None, index_path=None)
    assert [item["id"] for item in json.loads(call(container, query="walrus", format="json").result)["results"]] == ["late"]
    assert sorted(item.name for item in stranded.iterdir()) == before == ["h.db", "h.db-wal"]
