"""The words keyword search sees: one tantivy analyzer for messages and sessions, and the same
Snowball stemmer (PyStemmer) for memory chunks and spelling, so every side stems alike.

Beyond FEAT-032's phrase-only LIKE: case, accents and word endings are ignored ("École" by
"ecole", "married" by "marry"), CJK text is found by its characters and identifiers by their parts
(Q-05, Q-06, Q-07).
tantivy's simple tokenizer does the splitting, as its regex tokenizer indexed a message far more
slowly (tests/benchmarks/bench_analyzer.py compares the two). So CJK characters are spaced apart
here first (a CJK word is then a phrase of its characters), and the words inside camelCase names
are added after a row's own text.
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache

import Stemmer
import tantivy

from oneclaw_search.data.text.ascii_words import LONGEST_TOKEN, has_hump, hump_names
from oneclaw_search.domain.search_terms import plain
from oneclaw_search.domain.stopwords import STOPWORDS

WORDS = "oneclaw_words"
GRAMS = "oneclaw_grams"
# Kana, CJK ideographs and Hangul: each character of a run of them is a word of its own.
CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xAC00, 0xD7AF), (0x1100, 0x11FF),
              (0x3130, 0x318F))
CJK_RUN = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in CJK_RANGES) + "]+")
_HUMP = re.compile(r"[a-z][A-Z]")  # one class pair (an acronym head, "HTTPServer", stays whole)
_NAME = re.compile(r"\w+")
_NAME_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_SNOWBALL = Stemmer.Stemmer("english")
_WORD = re.compile(r"\w+")
# The literal reading's grams, as pg_trgm's on PostgreSQL: a needle shorter than this gives an index
# of grams nothing to look up.
TRIGRAM = 3
ON_WORDS = re.compile(r"[^\W_](?:.*[^\W_])?", re.DOTALL)  # a needle beginning and ending on a letter or digit


def words_analyzer() -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.remove_long(LONGEST_TOKEN))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.ascii_fold())
            .filter(tantivy.Filter.stemmer("english"))
            .build())


def grams_analyzer() -> tantivy.TextAnalyzer:
    """Every three characters of an already folded text, spaces included: the literal reading's candidates."""
    return tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.ngram(TRIGRAM, TRIGRAM, False)).build()


def register(index: tantivy.Index) -> None:
    """tantivy forgets custom analyzers between opens: every opened index gets them again."""
    index.register_tokenizer(WORDS, words_analyzer())
    index.register_tokenizer(GRAMS, grams_analyzer())


def spaced(text: str) -> str:
    """The text as the words analyzer should split it: each CJK character a word of its own."""
    return text if text.isascii() else CJK_RUN.sub(_spread, text)


def _spread(run: re.Match[str]) -> str:
    return " " + " ".join(run.group()) + " "


def name_parts(text: str) -> str:
    """The words inside the text's camelCase names ('memorySearch' → 'memory Search'), else ''."""
    if text.isascii():
        names = hump_names(text)
    elif has_hump(text):
        names = [name for name in _NAME.findall(text) if _HUMP.search(name)]
    else:
        return ""
    return " ".join(part for name in names for part in _NAME_PART.findall(name))


def indexed_text(text: str) -> str:
    """What a row's words field holds: its text spaced for the analyzer, then the words inside its
    camelCase names (so `memorySearch` is found by "search" in the one field BM25 scores)."""
    parts = name_parts(text)
    return spaced(text) + "\n" + parts if parts else spaced(text)


# One analyzer per thread, alike for rows, queries and memory chunks. tantivy's analyze borrows its
# analyzer mutably until its list of words is built, and building that list may run a finalizer that
# hands the interpreter to another thread: a second thread on the same analyzer then fails with
# "Already borrowed", which searches whose sources run side by side met under load.
_PER_THREAD = threading.local()


def analyzer_in_use() -> tantivy.TextAnalyzer:
    """This thread's analyzer."""
    found: tantivy.TextAnalyzer | None = getattr(_PER_THREAD, "analyzer", None)
    if found is None:
        found = _PER_THREAD.analyzer = words_analyzer()
    return found


def text_terms(text: str) -> list[str]:
    """A row's terms exactly as its words field holds them, in order (not cached: rows rarely repeat)."""
    return analyzer_in_use().analyze(indexed_text(text))


@lru_cache(maxsize=65536)
def analyze(text: str) -> tuple[str, ...]:
    """The index terms of `text`, in order, exactly as the keyword index stores them."""
    return tuple(analyzer_in_use().analyze(spaced(text)))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball's English stem of a folded word, as the keyword index's analyzer stems it."""
    return _SNOWBALL.stemWord(word) if word.isascii() and word.isalpha() else word


def memory_terms(text: str) -> list[str]:
    """Terms of a memory chunk, made by the keyword index's analyzer (memory and messages match
    alike, and tantivy splits a chunk far faster than Python would), plus each identifier
    whole: a query for `set_reminder` means that name, not "set" and "reminder" anywhere."""
    terms = analyzer_in_use().analyze(spaced(text))
    if "_" in text or _HUMP.search(text):
        terms += [word.lower() for word in _WORD.findall(text) if _is_identifier(word)]
    return terms


def query_terms(text: str) -> list[str]:
    """A query's terms as memory_terms makes them, stopwords (by themselves) left out, each once."""
    words = (word for word in _WORD.findall(text) if plain(word) not in STOPWORDS)
    return list(dict.fromkeys(term for word in words for term in ([word.lower()] if _is_identifier(word) else analyze(word))))


def _is_identifier(word: str) -> bool:
    return "_" in word.strip("_") or _HUMP.search(word) is not None
