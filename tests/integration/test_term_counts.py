"""TermCounter (data/text/term_counts.py): a query's terms counted in a batch of texts without
analyzing each whole, equal to what the words analyzer makes of each text (Q-01, Q-05, Q-07)."""
from __future__ import annotations

import random

import pytest

from oneclaw_search.data.text.analyzer import analyze, text_terms
from oneclaw_search.data.text.term_counts import TermCounter
from oneclaw_search.domain.text_evidence import bag_of
from oneclaw_search.domain.window_bm25 import NO_TEXT

TEXTS = [
    "We talked about the weather all afternoon.", "東京で寿司を食べた and then café École", "",
    "memorySearch calls resolveSessionTitle in src/main/kotlin", "x" * 60 + " a token too long to index",
    "a" * 39 + " kept at the limit, " + "b" * 40 + " dropped at it", "getHTTPServer snake_case v2.1.0-rc3 #42!",
    "a" * 38 + "B" + "c" * 3 + " a camelCase name whose whole is too long", "aé B, éA: no hump across an accent",
    "Meetings, MEETING and meet-ups: we met at the meeting.", "She was lying; they're dying to know, tying knots",
    "Straße, naïve façade, über-cool, Ünïcödé", "great😀meeting tomorrow 🎉🎉", "user_id and userId and USER-ID",
    "the sushiRestaurant near Shibuya; sushi again?", "数据库迁移计划 database migration plan", "\n\t  \n",
    "relational databases' conditional migrations, hopefully", "3f2c9a7e-51b4 config.max_results=10",
]
QUERIES = ["meeting", "sushi restaurant", "lie die tie", "database migration plan", "数据库", "ecole uber strasse",
           "user_id", "resolveSessionTitle", "3f2c9a7e", "a", "the", "x" * 60, "relate condition hope"]


def expected(terms: list[str], texts: list[str | None]) -> list:
    return [NO_TEXT if text is None else bag_of(text_terms(text), terms) for text in texts]


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("query", QUERIES)
def test_counts_and_lengths_equal_the_analyzers_for_every_kind_of_text(query):
    terms = list(dict.fromkeys(analyze(query)))
    texts = [*TEXTS, None, *TEXTS[::-1]]
    assert TermCounter(terms).bags(texts) == expected(terms, texts)


@pytest.mark.spec("Q-01")
def test_the_exceptional_forms_whose_stem_is_not_their_start_are_counted():
    bag = TermCounter(["lie", "die", "tie"]).bags(["lying dying tying lies dies ties"])[0]
    assert bag.counts == {"lie": 2, "die": 2, "tie": 2} and bag.length == 6


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("text", ["Teams were vying for the prize", "vying vie vies vyings", "hying pying 0ying"])
def test_any_character_and_ying_stems_to_that_character_and_ie_and_is_counted(text):
    for term in ("vie", "hie", "pie", "0ie"):
        assert TermCounter([term]).bags([text]) == expected([term], [text]), term


@pytest.mark.spec("Q-05")
def test_a_word_holding_an_accent_or_a_cjk_character_is_counted_as_the_index_counts_it():
    bags = TermCounter(["ecol", "東", "京"]).bags(["L'École, ecole", "東京 and 東", "no match here"])
    assert [bag.counts for bag in bags] == [{"ecol": 2}, {"東": 2, "京": 1}, {}]


def test_random_texts_of_mixed_scripts_agree_with_the_analyzer():
    rng = random.Random(7)
    pieces = ["meeting", "Meetings", "sushi", "restaurants", "memorySearch", "getHTTPServer", "über", "École", "東京",
              "寿司", "数据库", "lying", "tied", "😀", "x" * 45, "a_b", "v2.1", "API", "apiKey", "naïveté", "-", ",", "\n"]
    texts = [" ".join(rng.choice(pieces) + rng.choice(["", " ", ".", "!", "_", "é"]) for _ in range(rng.randint(0, 30)))
             for _ in range(300)]
    for query in ["meeting sushi", "search server", "uber ecole", "寿司", "lie tie", "api key", "naivet"]:
        terms = list(dict.fromkeys(analyze(query)))
        assert TermCounter(terms).bags(texts) == expected(terms, texts), query


def test_every_character_the_analyzer_spaces_apart_is_a_word_exactly_when_the_counter_says_so():
    from oneclaw_search.data.text.analyzer import CJK_RANGES
    chars = [chr(code) for low, high in CJK_RANGES for code in range(low, high + 1)]
    texts = [" ".join(chars[at:at + 500]) for at in range(0, len(chars), 500)]
    assert [bag.length for bag in TermCounter(["東"]).bags(texts)] == [len(text_terms(text)) for text in texts]


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("planted", ["0zqxjq0", "0ZQXJQ0", "café—0zqxjq0", "naïve 0zqxjq0 über"])
def test_texts_analyzed_in_one_call_come_apart_right_even_when_one_holds_the_word_set_between_them(planted):
    """Text outside ASCII is analyzed for many rows in one call, with a word set between rows: a row
    holding that word itself must still get its own words, not its neighbours'."""
    texts = ["Straße naïve", f"über {planted} façade", "Ünïcödé x", "École", "naïve naïve über"]
    for query in ("uber naive", "0zqxjq0 facade", "strasse"):
        terms = list(dict.fromkeys(analyze(query)))
        assert TermCounter(terms).bags(texts) == expected(terms, texts), query


@pytest.mark.spec("Q-01")
def test_a_text_that_comes_twice_gets_the_same_bag_both_times():
    text = "the meeting after the meeting"
    first, _, second = TermCounter(["meet"]).bags([text, None, text])
    assert first == second == bag_of(text_terms(text), ["meet"]) and first.counts == {"meet": 2}
