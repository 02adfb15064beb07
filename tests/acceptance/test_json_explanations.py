"""JSON explanations through the production container (P-10 and beyond): why each result matched, its score
parts, and what each source did; the text format shows none of it."""
import itertools
import json
import math

from acceptance_helpers import call
from builders import ms
from fakes import FixedClock

from oneclaw_search.di import create_injector

WEIGHTS = {"memory": 1.0, "daily_log": 1.0, "message": 0.6, "session": 0.5}


def document(container, **parameters):
    return json.loads(call(container, format="json", **parameters).result)


def test_each_result_names_the_terms_it_holds_and_whether_it_holds_the_whole_query(container):
    results = {item["id"]: item["why"] for item in document(container, query="sushi restaurant")["results"]}
    assert results["m-sushi"]["phrase"] is True  # "...good sushi restaurant near..."
    assert results["m-sakura"]["phrase"] is False  # "Sakura Sushi is a restaurant": both words, not the phrase
    assert results["m-sakura"]["terms"] == ["sushi", "restaur"] and not results["m-sakura"]["fuzzy"]
    assert results["m-sakura"]["vector"] is None  # messages are ranked by their words, not by meaning


def test_score_parts_multiply_to_the_final_score_with_the_spec_weights_and_decay(container):
    now = ms("2026-03-01T12:00")
    for item in document(container, query="sushi restaurant")["results"]:
        parts = item["score_parts"]
        assert parts["weight"] == WEIGHTS[item["source"]]
        # each part is rounded to six significant digits (decay to six decimals): the product is exact to about that
        assert math.isclose(parts["final"], parts["normalised"] * parts["weight"] * parts["decay"], rel_tol=1e-4, abs_tol=1e-6)
        assert 0 < parts["normalised"] <= 1 and math.isclose(parts["final"], item["score"], abs_tol=1e-4)
    sushi = next(item for item in document(container, query="sushi restaurant")["results"] if item["id"] == "m-sushi")
    age_days = (now - ms("2026-02-25T19:00")) / 86_400_000
    assert math.isclose(sushi["score_parts"]["decay"], math.exp(-0.01 * age_days), rel_tol=1e-5)


def test_a_respelled_search_marks_its_results_fuzzy(container):
    found = document(container, query="resturant")
    assert found["corrected_query"] == "restaurant"
    assert found["results"] and all(item["why"]["fuzzy"] for item in found["results"])


class TickingClock(FixedClock):
    """Wall time pinned; monotonic time moves one millisecond each time it is read, and only then."""

    def __init__(self, now: int) -> None:
        super().__init__(now)
        self.reads = itertools.count(1)  # thread-safe: the sources read it at once

    def monotonic(self) -> float:
        return next(self.reads) / 1000


def test_each_source_reports_its_candidates(container):
    found = document(container, query="sushi restaurant")
    assert set(found["sources"]) == {"memory", "messages", "sessions"}
    by_source = {"message": "messages", "session": "sessions", "memory": "memory", "daily_log": "memory"}
    for source, report in found["sources"].items():
        shown = sum(1 for item in found["results"] if by_source[item["source"]] == source)
        assert report["candidates"] >= shown
    assert set(document(container, query="sushi", scope="memory")["sources"]) == {"memory"}


def test_each_source_reports_its_time_as_the_hosts_clock_measured_it(container, clock, seeded_db):
    clock.frozen_monotonic = 100.0  # a clock standing still: no source took any time by it
    assert {report["ms"] for report in document(container, query="sushi restaurant")["sources"].values()} == {0.0}
    ticking = TickingClock(clock.now)
    found = document(create_injector(seeded_db, clock=ticking, time_zone="Asia/Tokyo"), query="sushi restaurant")
    read = next(ticking.reads) - 1  # the milliseconds the whole search took by this clock
    assert all(report["ms"].is_integer() and 1 <= report["ms"] < read for report in found["sources"].values())


def test_the_text_format_shows_no_explanations(container):
    text = call(container, query="sushi restaurant").result
    assert "score_parts" not in text and "why" not in text and "candidates" not in text
