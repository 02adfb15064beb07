"""Caseless folding, match spans and 500-character excerpts (BR-09, BR-10, OPT-1, P-02)."""
import pytest

from oneclaw_search.domain.text import excerpt, find_spans, fold, tokens, word_set


@pytest.mark.spec("P-02", "BR-09")
@pytest.mark.parametrize("upper, lower", [("Über", "über"), ("ÉCOLE", "école"), ("STRASSE", "straße"),
                                          ("ΣΊΣΥΦΟΣ", "σίσυφοσ"), ("e\u0301cole", "école")])
def test_fold_makes_case_and_composition_variants_equal(upper, lower):
    assert fold(upper) == fold(lower)


def test_tokens_keep_letters_of_every_script_and_drop_punctuation():
    assert tokens("Café Über, naïve-test 東京 42!") == ["café", "über", "naïve", "test", "東京", "42"]


def test_word_set_splits_on_whitespace_after_folding():
    assert word_set("Hello  WORLD\nhello") == frozenset({"hello", "world"})


@pytest.mark.spec("OPT-1")
def test_find_spans_locates_every_caseless_occurrence_in_original_coordinates():
    text = "Straße and STRASSE"
    spans = find_spans(text, ["strasse"])
    assert [text[start:end] for start, end in spans] == ["Straße", "STRASSE"]


def test_find_spans_merges_overlaps_and_ignores_blank_needles():
    assert find_spans("aaaa", ["aa", "aaa", " "]) == [(0, 4)]


@pytest.mark.spec("BR-10")
def test_short_text_is_kept_whole():
    cut = excerpt("short text", [(0, 5)])
    assert (cut.text, cut.place([(0, 5)])) == ("short text", ((0, 5),))


@pytest.mark.spec("BR-10", "NFR-5")
@pytest.mark.parametrize("length", [501, 502, 1_000, 20_000])
def test_long_text_is_cut_to_exactly_the_limit_with_an_ellipsis(length):
    cut = excerpt("x" * length, [])
    assert len(cut.text) == 500 and cut.text.endswith("…") and not cut.text.startswith("…")


@pytest.mark.spec("BR-10")
def test_excerpt_keeps_a_late_match_in_view():
    text = "filler " * 300 + "Sakura Sushi" + " filler" * 300
    spans = find_spans(text, ["sakura sushi"])
    cut = excerpt(text, spans)
    placed = cut.place(spans)
    assert len(cut.text) == 500 and cut.text.startswith("…") and cut.text.endswith("…")
    assert [cut.text[start:end] for start, end in placed] == ["Sakura Sushi"]


def test_excerpt_of_a_match_near_the_end_keeps_the_tail_without_a_trailing_ellipsis():
    text = "a" * 1_000 + " needle"
    cut = excerpt(text, find_spans(text, ["needle"]))
    assert len(cut.text) == 500 and cut.text.startswith("…") and cut.text.endswith("needle")


def test_spans_outside_the_window_are_dropped():
    text = "needle " + "x" * 2_000 + " needle"
    spans = find_spans(text, ["needle"])
    assert excerpt(text, spans).place(spans) == ((0, 6),)
