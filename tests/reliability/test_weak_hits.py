"""Weak hits stay out of the way: a memory chunk sharing no word with the query counts
only above the calibrated similarity floor, so a lone chunk is not lifted to the top of every
search by per-source normalisation, and a verbatim hit is not outranked by one holding none of its words."""
import json

import pytest
from acceptance_helpers import call
from builders import chunk, ms, new_message, new_session, write_history
from fakes import FixedClock

from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder


def tools(path):
    return create_injector(path, clock=FixedClock(ms("2026-03-01T12:00")), time_zone="UTC")  # the default embedder


def ids(container, query):
    return [item["id"] for item in json.loads(call(container, query=query, format="json").result)["results"]]


@pytest.mark.parametrize("query", ["zeppelin", "find me please", "kubectl logs", "temple trip"])
def test_a_lone_memory_chunk_is_no_answer_to_a_query_it_shares_no_word_with(tmp_path, query):
    chunks = [chunk("c1", "Went to Kamakura and saw the Great Buddha.", "2026-02-24")]
    path = write_history(tmp_path / "h.db", chunks=chunks, embedder=default_embedder())  # chunks with vectors
    assert ids(tools(path), query) == []
    assert ids(tools(path), "Buddha") == ["c1"]


def test_a_verbatim_message_outranks_a_daily_log_holding_none_of_its_words(tmp_path):
    path = write_history(
        tmp_path / "h.db", [new_session("s", "Cluster", "2026-02-27T09:00")],
        [new_message("m", "s", "kubectl logs shows CrashLoopBackOff for the api pod", "2026-02-20T09:00")],
        [chunk("c", "Restarted the cluster after the outage; pods came back healthy.", "2026-02-28")], default_embedder())
    assert ids(tools(path), "kubectl logs")[0] == "m"
