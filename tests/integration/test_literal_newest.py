"""The literal reading of a needle most rows hold (literal_scan.py): read back from the newest rows by
time instead of ordering every match through the index, with the same answer as the scan of every
row, whatever order the rows were written in (AC-07, Q-04)."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from builders import new_message, new_session

from oneclaw_search.data.history import literal_scan
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.literal_index import Newest
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex


def shuffled_history(history, texts, seed=3, same_minute=False):
    """One session whose rows are written in a random order of time (an import writes sessions, not
    time, in order); with `same_minute`, many rows share a time."""
    rng = random.Random(seed)
    start = datetime(2026, 2, 1, 9)
    minutes = [at // 3 if same_minute else at for at in range(len(texts))]
    order = list(range(len(texts)))
    rng.shuffle(order)
    rows = [new_message(f"m{at:04d}", "s", texts[at], (start + timedelta(minutes=minutes[at])).isoformat()) for at in order]
    return history([new_session("s", "Notes", "2026-02-01T09:00")], rows)


def daos(path, tmp_path):
    database = HistoryDatabase.open_read_only(path)
    lookup = KeywordLookup.open(database, SideIndex(tmp_path / "side.sqlite"))
    assert lookup.sync.catch_up()
    return PeeweeMessageDao(database, lookup), PeeweeMessageDao(database)


def spy_reading(mocker, name):
    """What each call of one of literal_scan's readings returned (None: it did not answer)."""
    returned, original = [], getattr(literal_scan, name)

    def recording(*args, **kwargs):
        returned.append(original(*args, **kwargs))
        return returned[-1]
    mocker.patch.object(literal_scan, name, side_effect=recording)
    return returned


def spy_newest(mocker):
    """What each read from the newest rows returned (None: it did not answer, the index did)."""
    return spy_reading(mocker, "_from_the_newest")


def test_a_common_needle_is_read_from_the_newest_rows_and_answers_as_the_scan(history, tmp_path, mocker):
    texts = [f"the note number {at}" if at % 5 else f"a plain line {at}" for at in range(400)]
    indexed, scanned = daos(shuffled_history(history, texts), tmp_path)
    returned = spy_newest(mocker)
    for needle, limit in (("the note", 10), ("note number 1", 3), ("a plain", 7)):
        assert [hit.id for hit in indexed.search_content(needle, limit=limit)] == \
               [hit.id for hit in scanned.search_content(needle, limit=limit)]
    assert returned[0] is not None  # "the note": four rows in five hold it, read from the newest back


def test_rows_sharing_the_time_of_the_last_row_read_are_read_too(history, tmp_path):
    texts = ["the note"] * 300
    indexed, scanned = daos(shuffled_history(history, texts, same_minute=True), tmp_path)
    for limit in (1, 2, 10, 40):
        assert [hit.id for hit in indexed.search_content("the note", limit=limit)] == \
               [hit.id for hit in scanned.search_content("the note", limit=limit)]


def test_a_needle_few_rows_hold_is_looked_up_through_the_index(history, tmp_path, mocker):
    texts = [f"a line {at}" for at in range(300)] + ["the quokka photo"]
    indexed, scanned = daos(shuffled_history(history, texts), tmp_path)
    holding = mocker.spy(indexed, "_holding")
    assert [hit.id for hit in indexed.search_content("quokka")] == ["m0300"] == \
           [hit.id for hit in scanned.search_content("quokka")]
    assert not any(isinstance(call.args[-1], Newest) for call in holding.call_args_list)


def test_too_few_hits_among_the_newest_rows_falls_back_to_the_index(history, tmp_path, mocker):
    # Every row holds "line" and "note" apart, few hold "line note": the counts promise more than the rows give.
    texts = [f"note {at} line" for at in range(300)] + ["a line note"] * 3
    indexed, scanned = daos(shuffled_history(history, texts), tmp_path)
    returned = spy_newest(mocker)
    assert [hit.id for hit in indexed.search_content("line note", limit=5)] == \
           [hit.id for hit in scanned.search_content("line note", limit=5)]
    assert returned == [None]


def between_and_inside(between: int, filler: int = 300) -> list[str]:
    """`filler` rows, `between` rows holding "api config" between words, and the newest row holding it
    only inside longer words."""
    texts = [f"a line {at}" for at in range(filler)] + [f"the api config of run {at}" for at in range(between)]
    return [*texts, "the rapi configs entry"]


def test_a_needle_more_rows_hold_between_words_than_asked_for_is_read_by_its_words(history, tmp_path, mocker):
    texts = between_and_inside(60, filler=3000)  # too few for the newest rows to be read instead
    indexed, scanned = daos(shuffled_history(history, texts), tmp_path)
    returned = spy_reading(mocker, "_between_words")
    scan = [hit.id for hit in scanned.search_content("api config", limit=100)]
    assert scan[0] == f"m{len(texts) - 1:04d}" and len(scan) == 61  # the newest row holds it inside words
    for limit in (10, 30, 59):
        assert [hit.id for hit in indexed.search_content("API config", limit=limit)] == scan[1:limit + 1]
    assert len(returned) == 3 and all(found is not None for found in returned)


@pytest.mark.parametrize("between", [0, 3, 10, 11])
def test_a_needle_no_more_rows_hold_between_words_than_asked_for_is_read_as_the_scan(history, tmp_path, mocker, between):
    indexed, scanned = daos(shuffled_history(history, between_and_inside(between)), tmp_path)
    returned = spy_reading(mocker, "_between_words")
    for limit in (limit for limit in (10, 11, 40) if limit >= between):
        expected = [hit.id for hit in scanned.search_content("api config", limit=limit)]
        assert [hit.id for hit in indexed.search_content("api config", limit=limit)] == expected
        assert returned[-1] is None


def test_a_needle_not_beginning_and_ending_on_a_word_is_not_read_by_its_words(history, tmp_path):
    indexed, scanned = daos(shuffled_history(history, between_and_inside(60)), tmp_path)
    for needle in ("api config ", "pi config", "api confi", "_api"):
        assert [hit.id for hit in indexed.search_content(needle, limit=10)] == \
               [hit.id for hit in scanned.search_content(needle, limit=10)], needle


@pytest.mark.parametrize(("common", "newest", "needle", "limit"), [
    # A word's phrase is its stem's rows: the newest row holds "config" only inside "reconfigured".
    ("the config file", "we reconfigured it", "config", 10),
    # The index lowercases "ΦΙΛΟΣ" to a medial sigma; the fold keeps the final one of "φιλος".
    ("ΚΑΛΟΣ ΦΙΛΟΣ", "ο καλος φιλος μου", "καλος φιλος", 5),
])
def test_a_needle_of_one_word_or_not_ascii_is_read_by_its_trigrams_and_answers_as_the_scan(history, tmp_path, common,
                                                                                          newest, needle, limit):
    texts = [f"a line {at}" for at in range(3000)] + [f"{common} {at}" for at in range(60)] + [newest]
    indexed, scanned = daos(shuffled_history(history, texts), tmp_path)
    expected = [hit.id for hit in scanned.search_content(needle, limit=limit)]
    assert expected[0] == f"m{len(texts) - 1:04d}"  # the newest row, which the needle's phrase would not find
    assert [hit.id for hit in indexed.search_content(needle, limit=limit)] == expected
