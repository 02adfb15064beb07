"""Index terms, query parsing and the typo fallback, on plain strings.

Covers the term rules behind Q-01, Q-03, Q-05, Q-06, Q-07 and Q-08: accent-free caseless words,
Snowball stems (the keyword index's, data/text/analyzer.py), split identifiers, CJK grams, quoted
phrases, and respelling of long unknown words.
"""

from collections import Counter

import pytest

from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.search_terms import index_terms, plain, query_terms
from oneclaw_search.domain.spelling import (
    SummedVocabulary,
    correct_query,
    correct_word,
    one_edit_away,
    respell,
)


def counts(**known):
    """A frequency function over index terms: each known word counts under its stem, 0 for anything unknown."""
    by_stem = Counter()
    for word, count in known.items():
        by_stem[stem(word)] += count
    return lambda term: by_stem.get(term, 0)


@pytest.mark.spec("Q-05")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("École", "ecole"),
        ("ÉCOLE", "ecole"),
        ("e\u0301cole", "ecole"),
        ("Über", "uber"),
        ("Straße", "strasse"),
        ("Ελληνικά", "ελληνικα"),
        ("Ёлка", "елка"),
        ("Café Crème", "cafe creme"),
    ],
)
def test_plain_drops_case_and_accents_of_latin_greek_and_cyrillic(text, expected):
    assert plain(text) == expected


@pytest.mark.spec("Q-06")
@pytest.mark.parametrize("text", ["で", "が", "ガイド", "東京で寿司を食べた", "서울에서"])
def test_plain_keeps_japanese_voicing_marks_and_hangul_as_written(text):
    assert plain(text) == text


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize(
    ("words", "root"),
    [
        (["adopted", "adopting", "adopts", "adopt"], "adopt"),
        (["parties", "party"], "parti"),
        (["running", "runs"], "run"),
        (["loved", "loves", "love"], "love"),
        (["married", "marry", "marries"], "marri"),
        (["paintings", "painted", "painting", "paint"], "paint"),
    ],
)
def test_stem_gives_inflections_one_stem(words, root):
    assert {stem(word) for word in words} == {root}


@pytest.mark.parametrize("word", ["class", "go", "is", "2024s", "café", "東京"])
def test_stem_leaves_short_non_alphabetic_non_latin_and_double_s_words_alone(word):
    assert stem(word) == word


@pytest.mark.spec("Q-07")
@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("memorySearch", ["memorysearch", "memori", "search"]),
        ("max_results", ["max_results", "max", "result"]),
        ("HTTPServer", ["httpserver", "http", "server"]),
    ],
)
def test_index_terms_keep_an_identifier_whole_and_add_its_parts(identifier, expected):
    assert index_terms(identifier, stem) == expected


@pytest.mark.spec("Q-07")
def test_index_terms_split_paths_into_their_segments():
    assert index_terms("src/main/kotlin", stem) == ["src", "main", "kotlin"]


@pytest.mark.spec("Q-01")
def test_index_terms_drop_stopwords_and_fold_every_word():
    terms = index_terms("Where did THE Cafés go, and why?", stem)
    assert terms == index_terms("cafe go", stem) and len(terms) == 2


@pytest.mark.spec("Q-06")
def test_index_terms_give_cjk_runs_unigrams_and_bigrams():
    assert index_terms("東京都", stem) == ["東", "京", "都", "東京", "京都"]
    assert {"서울", "서", "울"} <= set(index_terms("서울에서", stem))


@pytest.mark.spec("Q-07")
def test_query_terms_keep_identifiers_as_typed():
    assert query_terms("memorySearch max_results", stem) == ["memorysearch", "max_results"]


@pytest.mark.spec("Q-06")
def test_query_terms_give_cjk_words_as_bigrams_and_single_characters_as_themselves():
    assert query_terms("東京都", stem) == ["東京", "京都"]
    assert query_terms("寿", stem) == ["寿"]


@pytest.mark.spec("Q-01")
def test_query_terms_stem_drop_stopwords_and_repeat_nothing():
    assert query_terms("the restaurants and a Restaurant", stem) == ["restaur"]


@pytest.mark.spec("Q-03")
def test_parse_reads_quoted_phrases_folded_beside_the_whole_literal_and_terms():
    query = HistoryQuery.parse('"Blue Flowerpot" key')
    assert query.phrases == ("blue flowerpot",)
    assert query.literal == '"blue flowerpot" key'
    assert query.terms == ("blue", "flowerpot", "key")  # whole words: stemming is the index's


@pytest.mark.spec("Q-03")
def test_admits_only_texts_holding_every_quoted_phrase():
    query = HistoryQuery.parse('"blue flowerpot" key "red door"')
    assert query.admits("The RED DOOR key is under the Blue Flowerpot")
    assert not query.admits("The red door key is under the blue pot")
    assert not query.admits("a flowerpot that is blue, and a red door")
    assert HistoryQuery.parse("no quotes here").admits("anything at all")


@pytest.mark.spec("Q-08")
def test_one_edit_away_covers_deletes_swaps_replaces_and_inserts_but_not_the_word():
    edits = one_edit_away("abc")
    assert {"ab", "ac", "bc", "bac", "acb", "abd", "xbc", "abcd", "zabc"} <= edits
    assert "abc" not in edits and "cba" not in edits


@pytest.mark.spec("Q-08")
def test_correct_word_respells_an_unknown_five_letter_word_to_a_known_one():
    assert correct_word("resturant", counts(restaurant=3), stem) == "restaurant"
    assert correct_word("sushu", counts(sushi=1), stem) == "sushi"


@pytest.mark.spec("Q-08")
def test_correct_word_picks_the_most_frequent_candidate():
    assert correct_word("blant", counts(plant=5, bland=2, slant=9), stem) == "slant"


@pytest.mark.spec("Q-08")
@pytest.mark.parametrize(
    ("word", "known"),
    [
        ("ramn", {"ramen": 4}),  # four letters: never changed
        ("restaurant", {"restaurant": 1, "restaurants": 9}),  # a known word stays
        ("a" * 25, {"a" * 24: 1}),  # longer than 24: an id, not a typo
        ("abc12", {"abc123": 1}),  # not a word
        ("zzzzzz", {"restaurant": 1}),  # nothing known one edit away
    ],
)
def test_correct_word_leaves_short_long_known_and_hopeless_words_alone(word, known):
    assert correct_word(word, counts(**known), stem) is None


@pytest.mark.spec("Q-08")
def test_correct_word_accepts_twenty_four_letters_and_compares_stems():
    assert correct_word("b" * 23 + "x", counts(**{"b" * 24: 1}), stem) == "b" * 24
    assert correct_word("resturants", counts(restaurant=1), stem) == "restaurants"


@pytest.mark.spec("Q-08")
def test_correct_query_respells_only_unknown_long_words_and_keeps_the_rest_as_typed():
    frequency = counts(restaurant=2, sushi=1, ramen=1)
    assert correct_query('Sushi "resturant", ramn!', frequency, stem) == 'Sushi "restaurant", ramn!'
    assert correct_query("sushi ramn", frequency, stem) is None


@pytest.mark.spec("Q-08")
def test_summed_vocabulary_knows_a_spelling_any_source_uses():
    class Part:
        def __init__(self, **known):
            self.frequency = counts(**known)

    vocabulary = SummedVocabulary([Part(sushi=2), None, Part(sushi=1, ramen=4)])
    assert (vocabulary.frequency("sushi"), vocabulary.frequency("ramen"), vocabulary.frequency("udon")) == (3, 4, 0)


@pytest.mark.spec("Q-08")
def test_respell_asks_for_close_spellings_of_unknown_words_only_and_takes_the_most_used(mocker):
    class Words:
        """A vocabulary offering the words it knows that lie one edit away."""

        known = {"sushi": 3, "restaurant": 2, "restaurants": 5}
        stem = staticmethod(lambda word: word)

        def frequencies(self, terms):
            return {term: self.known.get(term, 0) for term in terms}

        def spellings_near(self, word):
            return {known for known in self.known if known in one_edit_away(word)}

    vocabulary = Words()
    near = mocker.spy(vocabulary, "spellings_near")
    assert respell("sushi resturants", vocabulary) == "sushi restaurants"
    assert [call.args for call in near.call_args_list] == [("resturants",)]
    assert respell("sushi ramen", vocabulary) is None
