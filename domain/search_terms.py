"""Words as lexical matching compares them: accent-free and caseless, identifiers split, CJK as grams
(Q-05, Q-06, Q-07).

Both sides of a match (stored text and the agent's query) go through `index_terms` with the same
`stem`, so they agree by construction; the stemmer itself is an adapter's (data/text/analyzer.py),
and without one words are compared whole.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from itertools import chain, pairwise, repeat

from oneclaw_search.domain.stopwords import STOPWORDS

_WORD = re.compile(r"\w+")
_ASCII_WORD = re.compile(r"\w+", re.ASCII)  # the same words in ASCII text, in fewer instructions
_CAMEL_HUMP = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_IDENTIFIER_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_A-Za-z]+")
_CJK_RUN = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+"
)
_LAST_ACCENTED_SCRIPT = "\u0530"  # end of Cyrillic


def plain(text: str) -> str:
    """Caseless and accent-free: 'École', 'ecole' and 'ÉCOLE' all become 'ecole'."""
    if text.isascii():
        return text.lower()
    kept: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFKD", text.casefold()):
        # Accents go only from Latin, Greek and Cyrillic letters; a kana's voicing mark is a letter.
        if unicodedata.combining(char) and base < _LAST_ACCENTED_SCRIPT:
            continue
        kept.append(char)
        base = char
    return unicodedata.normalize("NFC", "".join(kept))


Stem = Callable[[str], str]


def unchanged(word: str) -> str:
    return word


def index_terms(text: str, stem: Stem = unchanged) -> list[str]:
    """The terms a text is found by, in order, with stopwords left out."""
    words = (_ASCII_WORD if text.isascii() else _WORD).findall(text)
    return list(chain.from_iterable(map(_word_terms, words, repeat(stem))))  # no Python loop: called per chunk


@lru_cache(maxsize=65536)
def _word_terms(word: str, stem: Stem) -> tuple[str, ...]:
    if _CJK_RUN.search(word):
        return tuple(_mixed_script_terms(word, stem))
    whole = plain(word)
    found = [] if whole in STOPWORDS else [stem(whole)]
    if "_" in word or _CAMEL_HUMP.search(word):
        # An identifier is found by its whole name and by each of its words.
        parts = [plain(part) for part in _IDENTIFIER_PART.findall(word)]
        found += [stem(part) for part in parts if part and part != whole and part not in STOPWORDS]
    return tuple(found)


def _mixed_script_terms(word: str, stem: Stem) -> list[str]:
    """CJK runs become single characters and overlapping pairs: 東京都 → 東 京 都 東京 京都."""
    found: list[str] = []
    position = 0
    for run in _CJK_RUN.finditer(word):
        found.extend(index_terms(word[position:run.start()].replace("_", " "), stem))
        found.extend(cjk_grams(run.group()))
        position = run.end()
    found.extend(index_terms(word[position:].replace("_", " "), stem))
    return found


def is_cjk(text: str) -> bool:
    """Whether every character is Chinese, Japanese or Korean (indexed one by one and in pairs)."""
    return bool(text) and _CJK_RUN.fullmatch(text) is not None


def cjk_grams(run: str) -> list[str]:
    chars = [plain(c) for c in run]
    return chars + [a + b for a, b in pairwise(chars)]


_COMPOUND = re.compile(r"\w+(?:[^\w\s]+\w+)+")


def query_compounds(text: str, stem: Stem = unchanged) -> tuple[list[str], list[tuple[str, ...]]]:
    """A query's loose terms, and its compounds (paths, dotted keys, "C:\\temp") as term sequences
    that must stand together, since the agent typed them as one thing."""
    loose: list[str] = []
    compounds: list[tuple[str, ...]] = []
    for chunk in text.split():
        core = re.sub(r"^\W+|\W+$", "", chunk)
        parts = query_terms(core, stem) if _COMPOUND.fullmatch(core) and not _CJK_RUN.search(core) else []
        if len(parts) > 1:
            compounds.append(tuple(parts))
        else:
            loose.extend(query_terms(chunk, stem))
    return list(dict.fromkeys(loose)), list(dict.fromkeys(compounds))


def query_terms(text: str, stem: Stem = unchanged) -> list[str]:
    """Terms of a query: CJK words as their pairs only (a pair pins the words down better), and
    an identifier as itself only, since the agent typed that exact name."""
    terms: list[str] = []
    for word in _WORD.findall(text):
        if _CJK_RUN.fullmatch(word) and len(word) > 1:
            chars = [plain(c) for c in word]
            terms.extend(a + b for a, b in pairwise(chars))
        elif _CJK_RUN.search(word):
            terms.extend(_word_terms(word, stem))
        else:
            whole = plain(word)
            terms.extend([] if whole in STOPWORDS else [stem(whole)])
    return list(dict.fromkeys(terms))
