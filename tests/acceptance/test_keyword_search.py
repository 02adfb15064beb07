"""Keyword search (Q-01..Q-10), asked of real SQLite histories through the production container.

Each message sits in a session of its own, so no message is found through the turn before it.
Containers run lexical only (`embedder=None`) unless a test asks for the default embedder, so
the keyword rules are seen without neighbours in meaning.
"""
import json
import random
import sqlite3

import pytest
from acceptance_helpers import call, found, ids
from builders import chunk, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.di import create_injector
from oneclaw_search.domain.ranking import DUPLICATE_OVERLAP, jaccard
from oneclaw_search.domain.text import fold, word_set

CLOCK = FixedClock(ms("2026-03-01T12:00"))


def write(history, contents, *, chunks=(), titles=None):
    """contents: {message id: text or (text, "YYYY-MM-DD")}, each in its own session."""
    sessions, messages = [], []
    for number, (message_id, content) in enumerate(contents.items()):
        text, day = content if isinstance(content, tuple) else (content, "2026-02-20")
        sessions.append(new_session(f"s{number}", (titles or {}).get(message_id, f"Chat {number}"), f"{day}T09:00"))
        messages.append(new_message(message_id, f"s{number}", text, f"{day}T09:00"))
    return history(sessions, messages, chunks)


def open_path(path, **settings):
    return create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", **{"embedder": None, **settings})


def open_history(history, contents, *, chunks=(), titles=None, **settings):
    return open_path(write(history, contents, chunks=chunks, titles=titles), **settings)


def messages(container, **parameters):
    return [row_id for source, row_id in found(container, **parameters) if source == "message"]


def reply(container, **parameters):
    outcome = call(container, format="json", **parameters)
    assert outcome.is_success, outcome.error_message
    return json.loads(outcome.result)


@pytest.mark.spec("Q-01")
def test_words_far_apart_are_found_and_holding_both_ranks_above_holding_one(history):
    filler = "we walked along the river for an hour talking about the weekend and the weather, then"
    others = {f"other{i}": f"Unrelated note number {i} about the garden" for i in range(8)}
    container = open_history(history, {
        "one": "Our favourite restaurant closed early on Tuesday because the chef was ill, so we went home and cooked.",
        "both": f"The restaurant was closed, so {filler} we ate sushi.",
        **others,
    })
    assert messages(container, query="sushi restaurant", scope="sessions") == ["both", "one"]


@pytest.mark.spec("Q-01")
def test_a_rare_word_weighs_more_than_a_common_one(history):
    common = {f"c{i}": (f"Coffee break number {i} at the office", "2026-02-25") for i in range(6)}
    container = open_history(history, {**common, "rare": ("A walrus at the zoo", "2026-02-05")})
    assert messages(container, query="walrus coffee", scope="sessions")[0] == "rare"


@pytest.mark.spec("Q-01")
def test_memory_chunks_and_session_titles_are_found_by_their_words_in_any_order(history):
    chunks = [chunk("both", "Restaurant booked for Friday; the user wants sushi.", "2026-02-20"),
              chunk("one", "The sushi place on the corner closed.", "2026-02-20"),
              chunk("none", "Went hiking in Hakone.", "2026-02-20")]
    container = open_history(history, {"m": "nothing relevant here"}, chunks=chunks,
                             titles={"m": "Restaurant ideas for a sushi night"})
    assert [row for _, row in found(container, query="sushi restaurant", scope="memory")] == ["both", "one"]
    assert ("session", "s0") in found(container, query="sushi restaurant", scope="sessions")


@pytest.mark.spec("Q-02")
def test_the_whole_phrase_ranks_above_a_newer_message_with_the_words_scattered(history):
    container = open_history(history, {
        "scattered": ("The station was crowded, and the sushi there was cheap at the restaurant", "2026-02-28"),
        "phrase": ("We found a sushi restaurant near the station", "2026-02-10"),
    }, embedder="default")
    assert messages(container, query="sushi restaurant", scope="sessions") == ["phrase", "scattered"]


@pytest.mark.spec("Q-02")
def test_every_message_holding_the_phrase_ranks_above_one_with_the_words_scattered(history):
    long = " ".join(f"word{i}" for i in range(120))
    container = open_history(history, {
        "strong": "Sushi restaurant. Sushi restaurant!", "weak": f"{long} and a sushi restaurant somewhere {long}",
        "scattered": "The restaurant had sushi", **{f"other{i}": f"Unrelated garden note {i}" for i in range(8)},
    })
    assert messages(container, query="sushi restaurant", scope="sessions") == ["strong", "weak", "scattered"]


@pytest.fixture
def flowerpots(history):
    return open_path(write(history, {
        "phrase": "The key is under the blue flowerpot by the door",
        "scattered": "A blue key lies next to the flowerpot",
        "key": "Lost my key again",
        "phrase-only": "Blue flowerpots are on sale",
    }, chunks=[chunk("c-phrase", "The spare key: blue flowerpot.", "2026-02-20"),
               chunk("c-scattered", "Blue pots and a flowerpot key ring", "2026-02-20")]), embedder="default")


@pytest.mark.spec("Q-03")
def test_a_quoted_phrase_must_appear_as_written_in_every_message_and_session_result(flowerpots):
    results = reply(flowerpots, query='"blue flowerpot" key', scope="sessions")["results"]
    assert {item["id"] for item in results if item["source"] == "message"} == {"phrase", "phrase-only"}
    assert all("blue flowerpot" in fold(item["text"]) for item in results)


@pytest.mark.spec("Q-03")
def test_a_quoted_phrase_must_appear_as_written_in_every_memory_result(flowerpots):
    results = reply(flowerpots, query='"blue flowerpot" key', scope="memory")["results"]
    assert [item["id"] for item in results] == ["c-phrase"]


WORDS = ["purple", "elephant", "garden", "river", "market", "coffee", "window", "rocket", "silver", "orange", "paper", "music"]
WORDS += [f"{a}{b}lo" for a in "bdfgkmpst" for b in "aeiou"]


def random_history(history, seed=7):
    rng = random.Random(seed)
    sessions = [new_session(f"s{i}", " ".join(rng.sample(WORDS, 2)), "2026-01-05T09:00") for i in range(6)]
    rows = []
    for i in range(60):
        words = rng.choices(WORDS, k=rng.randint(3, 12))
        if i % 13 == 0:
            words.insert(rng.randint(0, len(words)), "Purple Elephant")
        at = f"2026-02-{1 + rng.randrange(27):02}T{rng.randrange(24):02}:{i:02}"
        rows.append(new_message(f"m{i:02}", f"s{rng.randrange(6)}", " ".join(words), at, rng.choice(["USER", "AI_RESPONSE"])))
    chunks = [chunk(f"c{i}", " ".join(rng.choices(WORDS[:12], k=8)), f"2026-02-{1 + i:02}") for i in range(8)]
    return history(sessions, rows, chunks)


def spec_like_rows(path):
    """(id, text as shown) of every live row the spec's phrase LIKE looks at."""
    with sqlite3.connect(path) as connection:
        prefix = {"USER": "User: ", "AI_RESPONSE": "Assistant: "}
        rows = [(i, prefix[t] + c) for i, t, c in connection.execute("SELECT id, type, content FROM messages")]
        rows += [(i, f"{t}\n{p or ''}") for i, t, p in connection.execute("SELECT id, title, last_message_preview FROM sessions")]
    return rows


@pytest.mark.spec("Q-04")
@pytest.mark.parametrize("seed", [7, 13])
def test_every_hit_of_the_specs_phrase_like_is_kept_when_they_fit(history, seed):
    path = random_history(history, seed)
    rows = spec_like_rows(path)
    container = open_path(path, embedder="default")
    checked = 0
    for query in ["purple elephant", "PURPLE ELEPHANT", "ple eleph", "e ele", "silver orange", "rocket music", "ffee"]:
        literal = {row_id: text for row_id, text in rows if fold(query) in fold(text)}
        if not 0 < len(literal) < 10:
            continue
        shown = {item["id"]: item["text"] for item in reply(container, query=query, max_results=10)["results"]}
        missing = [row_id for row_id, text in literal.items() if row_id not in shown
                   and not any(jaccard(word_set(text), word_set(other)) > DUPLICATE_OVERLAP for other in shown.values())]
        assert missing == [], query
        checked += 1
    assert checked >= 4


@pytest.mark.spec("Q-05")
@pytest.mark.parametrize(("query", "expected"), [("ecole", "accented"), ("uber", "umlaut"), ("ÉCOLE", "plain")])
def test_keywords_match_whatever_the_case_and_accents(history, query, expected):
    container = open_history(history, {"accented": "Une École primaire", "umlaut": "Über den Wolken", "plain": "back to ecole"})
    assert expected in messages(container, query=query, scope="sessions")


@pytest.mark.spec("Q-06")
@pytest.mark.parametrize(("query", "expected"), [("東京", ["ja"]), ("寿司", ["ja"]), ("寿", ["ja"]), ("서울", ["ko"])])
def test_chinese_japanese_and_korean_are_found_by_one_and_two_character_words(history, query, expected):
    container = open_history(history, {"ja": "東京で寿司を食べた", "ko": "서울에서 만나요", "en": "sushi in Tokyo"})
    assert messages(container, query=query, scope="sessions") == expected


@pytest.mark.spec("Q-07")
@pytest.mark.parametrize(("query", "expected"), [
    ("search", "camel"), ("memory search", "camel"), ("memorySearch", "camel"), ("results", "snake"),
    ("kotlin", "path"), ("src/main/kotlin", "path"), ("3f2a9c1e", "uuid"), ("9fceb02", "hash"),
])
def test_identifiers_are_found_by_their_parts_and_as_typed(history, query, expected):
    container = open_history(history, {
        "camel": "Call memorySearch first", "snake": "Set max_results to 20", "path": "Edit src/main/kotlin/App.kt",
        "uuid": "Session 3f2a9c1e-1b2c-4d5e-8f90-123456789abc failed", "hash": "Reverted 9fceb02d0ae598e95dc970b74767f19372d61af8",
    })
    assert messages(container, query=query, scope="sessions") == [expected]


@pytest.fixture
def ramen_history(history):
    return open_history(history, {"r": "The best restaurant for ramen", "x": "Tea at noon"})


@pytest.mark.spec("Q-08")
def test_a_misspelt_long_word_is_retried_at_one_edit_and_the_reply_says_so(ramen_history):
    assert "No exact match for 'resturant'; showing results for 'restaurant'" in call(ramen_history, query="resturant").result
    document = reply(ramen_history, query="resturant")
    assert document["corrected_query"] == "restaurant" and "r" in {item["id"] for item in document["results"]}


@pytest.mark.spec("Q-08")
def test_a_short_word_is_never_respelled_and_an_exact_match_is_not_corrected(ramen_history):
    assert (reply(ramen_history, query="ramn")["corrected_query"], reply(ramen_history, query="ramn")["results"]) == (None, [])
    assert "No exact match" not in call(ramen_history, query="ramn").result
    assert reply(ramen_history, query="restaurant")["corrected_query"] is None


@pytest.mark.spec("Q-08")
def test_a_typo_is_respelled_as_the_history_spells_the_word(ramen_history):
    assert reply(ramen_history, query="ramne", scope="sessions")["corrected_query"] == "ramen"


@pytest.mark.spec("Q-10")
def test_a_reply_without_results_names_the_retrievers_that_ran(history):
    container = open_history(history, {"m": "Tea at noon"})
    text = call(container, query="zeppelin").result
    assert "Searched with:" in text and "lexical only: no embedder" in text
    assert reply(container, query="zeppelin")["retrievers"] and reply(container, query="tea")["retrievers"]


@pytest.mark.spec("Q-15")
def test_without_a_side_index_a_phrase_query_finds_the_same_rows(history):
    path = write(history, {f"t{i}": f"Reminder {i}: quarterly tax filing is due" for i in range(4)} | {"x": "Tea at noon"})
    indexed, scanning = open_path(path), open_path(path, index_path=None)
    assert ids(scanning, query="quarterly tax filing") == ids(indexed, query="quarterly tax filing") != []
    assert reply(scanning, query="zeppelin")["retrievers"][-1] == "phrase (LIKE scan)"
