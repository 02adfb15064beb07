"""The first search on a history never indexed: a small history is indexed by that search and answered
from the index, so it answers as every later search does; a larger one is read newest first for as
long as the budget allows, and the reply says how far (Q-11, Q-15)."""
import json
import random
import shutil
import subprocess
from datetime import datetime, timedelta

import peewee as pw
import pytest
from acceptance_helpers import call
from builders import ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.data.index.background import build_command
from oneclaw_search.data.index.lookup import FIRST_BUILD_ROWS
from oneclaw_search.data.index.side_index import default_index_path
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts

CLOCK = FixedClock(ms("2026-03-01T12:00"))
WORDS = ["garden", "river", "coffee", "ticket", "window", "market", "station", "engine", "letter", "summer", "harbor",
         "violin", "pepper", "lantern", "meadow", "copper", "signal", "basket", "thunder", "pocket"]
NEEDLE = "dfbbcfhknx"
QUERIES = (f"{NEEDLE} garden", "garden", "river market", '"coffee ticket"', "violins in the harbor")


def fresh_history(history, count):
    """`count` turns in sessions of 500, random words from a small vocabulary; the needle in one turn
    6,420 from the newest, far past any fixed number of newest rows read."""
    rng, start = random.Random(count), datetime(2025, 6, 1, 9)
    def at(n):
        return (start + timedelta(minutes=n)).isoformat()
    rows = [new_message(f"m{n}", f"s{n // 500}", " ".join(rng.choices(WORDS, k=rng.randint(4, 14))), at(n),
                        "USER" if n % 2 == 0 else "AI_RESPONSE") for n in range(count)]
    needle = count - 6_420
    rows[needle] = new_message(f"m{needle}", f"s{needle // 500}", f"the {NEEDLE} grows in the garden", at(needle))
    sessions = [new_session(f"s{k}", " ".join(rng.choices(WORDS, k=2)), at(k * 500)) for k in range(count // 500 + 1)]
    return history(sessions, rows)


def open_container(path):
    return create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", embedder=None)


def answer(container, query):
    document = json.loads(call(container, query=query, format="json").result)
    return document["complete"], document["index"], [(item["source"], item["id"], item["score"]) for item in document["results"]]


def indexed_first(path, copy):
    """A copy of the history whose index was built before any search, as `oneclaw-search index` builds it."""
    shutil.copyfile(path, copy)
    container = open_container(copy)
    assert container.get(IndexParts).lookup.sync.catch_up()
    return open_container(copy)  # a new process on the indexed history


@pytest.mark.spec("Q-11")
@pytest.mark.parametrize("count", [20_000, 50_000])
def test_the_first_search_of_a_fresh_history_answers_as_the_built_index_does(history, tmp_path, count):
    path = fresh_history(history, count)
    reference = indexed_first(path, tmp_path / "indexed.db")
    first = open_container(path)
    answers = [answer(first, query) for query in QUERIES]
    assert answers == [answer(reference, query) for query in QUERIES]
    assert all(complete and note is None for complete, note, _ in answers)
    assert answers[0][2][0][:2] == ("message", f"m{count - 6_420}")
    lookup = first.get(IndexParts).lookup
    assert lookup.state_now.settled and not lookup.builder.running  # answered from the index it had built


@pytest.mark.spec("Q-12")
def test_a_first_search_beside_another_processs_first_build_waits_for_it_and_answers_from_the_index(history):
    path = fresh_history(history, 20_000)
    other = subprocess.Popen(build_command(path, default_index_path(path)))  # started first: most often it holds the writer
    try:
        container = open_container(path)
        complete, note, results = answer(container, f"{NEEDLE} garden")
        assert complete and note is None and results[0][1] == "m13580"
        assert container.get(IndexParts).lookup.state_now.settled
    finally:
        other.wait(120)


@pytest.mark.spec("Q-11")
def test_past_the_first_build_size_the_first_search_reads_the_newest_rows_and_says_how_far(history):
    assert FIRST_BUILD_ROWS >= 50_000  # a fresh history of that size is indexed by its first search
    path = fresh_history(history, 8_000)
    container = open_container(path)
    lookup = container.get(IndexParts).lookup
    lookup.first_build_rows = 1_000  # stands for a history larger than the first search may index
    lookup.builder.start = lambda: None  # and a background build that has not committed yet
    complete, note, results = answer(container, f"{NEEDLE} garden")
    assert complete and note is None and results[0][1] == "m1580"  # every row read within the budget
    lookup.read_seconds = 0.0  # a budget spent before any row is read
    complete, note, results = answer(container, NEEDLE)
    assert not complete and note == "building 0 %: no message it has not taken in was read directly"
    assert results[0][1] == "m1580"  # the whole query is still scanned for


@pytest.mark.spec("Q-15")
def test_without_a_usable_index_the_search_reads_by_the_same_rule_and_says_how_far(history, mocker):
    path = fresh_history(history, 8_000)
    mocker.patch("oneclaw_search.data.index.side_index.SideIndex.ensure_schema",
                 side_effect=pw.OperationalError("database or disk is full"))
    container = open_container(path)
    complete, note, results = answer(container, f"{NEEDLE} garden")
    assert complete and note is None and results[0][1] == "m1580"
    container.get(IndexParts).lookup.read_seconds = 0.0
    complete, note, _ = answer(container, "river market")
    assert not complete and note == "unusable: no message it has not taken in was read directly"
