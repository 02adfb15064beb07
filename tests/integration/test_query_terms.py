"""QueryTerms (data/text/keywords.py): a query's terms as the keyword index splits them, and a row's
text and the turns beside it counted against them (Q-01)."""
from __future__ import annotations

import re

import pytest

from oneclaw_search.data.text import term_counts
from oneclaw_search.data.text.analyzer import indexed_text, name_parts, stem, text_terms
from oneclaw_search.data.text.ascii_words import has_hump, runs_and_words
from oneclaw_search.data.text.keywords import QueryTerms
from oneclaw_search.data.text.term_counts import indexed_lengths
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.text_evidence import bag_of
from oneclaw_search.domain.window_bm25 import NO_TEXT, Bag

# Words whose Snowball stem is not their own start: an ending changed ("tri" for "try"), an "e"
# added ("hope" for "hoping"), a suffix rewritten ("relat" for "relational").
INFLECTED = ("try", "trying", "tried", "hoping", "happy", "happily", "studies", "cried", "flies", "agreed",
             "relational", "conditional", "hopefulness", "running", "digitizer", "sensitivity", "generously",
             "meetings", "databases", "migrations", "company", "companies", "using", "shy")


def terms_of(raw: str) -> QueryTerms:
    return QueryTerms(HistoryQuery.parse(raw, stem))


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("word", INFLECTED)
def test_a_text_holding_a_query_word_in_any_form_is_never_skipped(word):
    for form in INFLECTED:
        if stem(form) == stem(word):
            text = f"Earlier I said {form} twice, {form.upper()}."
            assert terms_of(word).bag(text).counts == {stem(word): 2}, (word, form)


@pytest.mark.spec("Q-01")
def test_a_turn_beside_a_candidate_brings_its_length_and_its_terms():
    terms = terms_of("sushi restaurant")
    assert terms.bag("We talked about the weather all afternoon.") == Bag({}, 7)  # its length weighs in the window
    assert terms.bags([None, "x"])[0] == NO_TEXT
    beside = terms.bag("That sushi place again?")
    assert beside.counts == {"sushi": 1} and beside.length == 4


@pytest.mark.spec("Q-05")
def test_a_turn_that_is_not_ascii_is_always_analyzed_so_accents_never_hide_a_word():
    terms = terms_of("ecole")
    assert terms.bag("Rendez-vous à l'École demain").counts == {"ecol": 1}
    assert terms.bag("東京の寿司").counts == {}  # analyzed, and it holds none of the terms


@pytest.mark.spec("Q-01")
def test_a_rows_bag_is_the_analyzers_terms_counted_against_the_query():
    text = "memorySearch finds the meetings; meeting notes in MEMORY.md"
    terms = terms_of("meeting search")
    assert terms.bag(text) == bag_of(text_terms(text), terms.terms)
    assert terms.bag(text).counts == {"meet": 2, "search": 1}
    assert terms.bag(text).length == len(text_terms(text))


@pytest.mark.spec("Q-07")
def test_a_typed_identifier_is_found_only_with_its_parts_side_by_side():
    terms = terms_of("user_id")
    assert terms.found_in(["the user_id column", "the id of the user"]) == [terms.bag("the user_id column"), None]


TURNS = [
    "We talked about the weather all afternoon.", "東京で寿司を食べた and then café École",
    "memorySearch calls resolveSessionTitle in src/main/kotlin", "x" * 60 + " a token too long to index", "",
    "a" * 39 + " kept at the limit, " + "b" * 40 + " dropped at it", "getHTTPServer snake_case v2.1.0-rc3 #42!",
    "a" * 38 + "B" + "c" * 3 + " a camelCase name whose whole is too long", "aé B, éA: no hump across an accent",
]


@pytest.mark.parametrize("text", TURNS)
def test_a_turns_length_is_counted_as_the_analyzer_makes_its_terms(text):
    assert terms_of("sushi").bag(text).length == len(text_terms(text))
    if text.isascii() and not has_hump(text):
        assert runs_and_words([text, text], [])[0] == [len(text_terms(text))] * 2


def test_a_batch_of_turns_is_indexed_and_counted_as_each_alone_would_be():
    batch = [*TURNS, "0zqxjq0 between fooBar é", "ǅemo Ａｂｃ अनुच्छेद", "fooBar", *TURNS[:3], "aB" * 30]
    indexed, lengths = indexed_lengths(batch)
    assert indexed == [indexed_text(text) for text in batch]
    assert lengths == [len(text_terms(text)) for text in batch]
    assert indexed_lengths([]) == ([], [])


@pytest.mark.parametrize("piece", [1, 40, 400])
def test_a_batch_measured_in_pieces_is_measured_as_whole(monkeypatch, piece):
    batch = [*TURNS, "0zqxjq0 between fooBar é", "東京 tokyoTower", "", *TURNS]
    whole = indexed_lengths(batch)
    monkeypatch.setattr(term_counts, "MEASURED_CHARS", piece)
    assert indexed_lengths(batch) == whole == ([indexed_text(text) for text in batch], [len(text_terms(text)) for text in batch])


@pytest.mark.parametrize("text", ["aB", "fooBar", "a\u00e9B", "\u00e9A", "AB ab", "a B", "", "\u4e1cA", "x\udc80Y"])
def test_a_hump_is_found_exactly_where_the_regex_finds_one(text):
    assert has_hump(text) == (re.search("[a-z][A-Z]", text) is not None)


@pytest.mark.parametrize("text", ["fooBar fooBar", "memorySearchIndex and getHTTPServer", "xaBcD_eF-gH.iJ", "_aB_ a\tbC\nd",
                                  "x" * 50 + "yZ" + "w" * 50, "no humps Here", "é fooBar, barBaz é", ""])
def test_camelcase_names_are_split_as_the_regex_over_every_name_splits_them(text):
    names = [name for name in re.findall(r"\w+", text) if re.search("[a-z][A-Z]", name)]
    expected = " ".join(part for name in names for part in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name))
    assert name_parts(text) == expected
