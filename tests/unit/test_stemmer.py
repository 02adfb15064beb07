"""Porter's stemmer on the examples of each of its steps (issue 3, Q-01): the published outputs."""
import pytest

from oneclaw_search.domain.stemmer import porter_stem

pytestmark = pytest.mark.spec("Q-01")


@pytest.mark.parametrize(("word", "expected"), [
    ("caresses", "caress"), ("ponies", "poni"), ("cats", "cat"), ("caress", "caress"),  # step 1a
    ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("motoring", "motor"), ("sing", "sing"),  # 1b
    ("conflated", "conflat"), ("hopping", "hop"), ("falling", "fall"), ("hissing", "hiss"), ("filing", "file"),
    ("happy", "happi"), ("sky", "sky"),  # step 1c
    ("relational", "relat"), ("conditional", "condit"), ("rational", "ration"), ("digitizer", "digit"),  # steps 2-4
    ("triplicate", "triplic"), ("formative", "form"), ("hopeful", "hope"), ("goodness", "good"),
    ("revival", "reviv"), ("adjustment", "adjust"), ("adoption", "adopt"), ("homologous", "homolog"),
    ("probate", "probat"), ("rate", "rate"), ("cease", "ceas"), ("controlling", "control"), ("roll", "roll"),  # 5
    ("generalizations", "gener"), ("oscillators", "oscil"),
])
def test_porter_stems_match_the_published_examples(word, expected):
    assert porter_stem(word) == expected


def test_one_and_two_letter_words_are_kept():
    assert [porter_stem(word) for word in ("a", "is", "as")] == ["a", "is", "as"]


def test_measure_and_vowel_tests_in_one_pass_agree_with_the_letter_by_letter_definition():
    from itertools import product

    from oneclaw_search.domain.stemmer import _consonant, _has_vowel, _measure

    for length in range(6):  # every word of these letters: y after vowels, consonants, at the start
        for word in map("".join, product("ayts", repeat=length)):
            kinds = [_consonant(word, i) for i in range(len(word))]
            assert _measure(word) == sum(1 for i in range(1, len(word)) if kinds[i] and not kinds[i - 1]), word
            assert _has_vowel(word) == (not all(kinds)), word
