"""A row's query terms counted without analyzing the row whole (Q-01, Q-05): what the ranking model
reads of every candidate and of the turns beside it, the same counts and lengths the words analyzer
gives, for a fraction of its work.

In ASCII text with no camelCase name, every word that Snowball's English stemmer takes to a term
starts with that term less its last letter (an ending dropped, "y" made "i", an "e" added), bar one
form: a letter or digit and "ying", which stems to that character and "ie" ("vying" to "vie"). So
only the words starting so are stemmed, a whole batch of texts' in one call to the analyzer, and
the length is the tokenizer's count made in C. Any other text is analyzed whole.
An index build measures its turns the same way (indexed_lengths), each turn's length in terms kept
with its document.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from oneclaw_search.data.text.analyzer import CJK_RANGES, CJK_RUN, analyzer_in_use, indexed_text, name_parts
from oneclaw_search.data.text.ascii_words import runs_and_words
from oneclaw_search.domain.window_bm25 import NO_TEXT, Bag

# A character and "ying" ("dying", "vying") stems to the character and "ie": the one form whose stem
# is not its start less its last letter.
_YING = re.compile(r"[a-z0-9]ie")
_BETWEEN = "0zqxjq0"  # set between texts analyzed in one call: a word the analyzer leaves as it is
Counted = tuple[int, list[str]]  # a text's length in terms, and each term of the query it holds
MEASURED_CHARS = 250_000  # text measured at once by indexed_lengths: its copies stay tens of MB


def _starts(term: str) -> tuple[str, ...]:
    start = term if len(term) <= 2 else term[:-1]
    return (start, term[0] + "y") if _YING.fullmatch(term) else (start,)


class TermCounter:
    """Counts one query's terms in texts, as bag_of(text_terms(text), terms) would."""

    def __init__(self, terms: Sequence[str]) -> None:
        self.terms = frozenset(terms)
        self._cjk = [term for term in self.terms if CJK_RUN.fullmatch(term)]
        self._starts = sorted({start.encode() for term in terms for start in _starts(term) if start.isascii()})

    def bags(self, texts: Sequence[str | None]) -> list[Bag]:
        """Each text's bag (NO_TEXT for None), in order. A text is counted once however often it comes:
        a turn beside two candidates, or beside one and a candidate itself."""
        present = list(dict.fromkeys(text for text in texts if text is not None))
        plain, extra = self._ascii(present)
        runs, words, humped = runs_and_words(plain, self._starts)
        humped -= extra.keys()  # a text that is not ASCII had its names' words added already
        if humped:
            parts = [name_parts(present[at]) for at in sorted(humped)]
            for at, more, found in zip(sorted(humped), *runs_and_words(parts, self._starts)[:2], strict=True):
                runs[at] += more
                words[at] += found
        unique = sorted({word for found in words for word in found})
        stems = dict(zip(unique, analyzer_in_use().analyze(" ".join(unique)), strict=True)) if unique else {}
        bags = [self._bag(length, [stems[word] for word in found], extra.get(at)) if found or at in extra
                else Bag({}, length) for at, (length, found) in enumerate(zip(runs, words, strict=True))]
        of = dict(zip(present, bags, strict=True))
        return [NO_TEXT if text is None else of[text] for text in texts]

    def _ascii(self, texts: list[str]) -> tuple[list[str], dict[int, Counted]]:
        """The texts as ASCII alone, each one that is not counted in part now (by its position). Its
        CJK characters are words alone, left as they are by every filter: they are counted by
        character. Its runs of non-space characters holding others outside ASCII are analyzed, all the
        texts' in one call: whitespace never stands inside a word. A camelCase name's words come
        after, as the index adds them."""
        plain, extra, foreign = list(texts), {}, {}
        for at in [at for at, text in enumerate(texts) if not text.isascii()]:
            text, parts = texts[at], name_parts(texts[at])
            runs = "".join(CJK_RUN.findall(text))
            length = len(runs) - len(_not_words().findall(runs)) if runs else 0
            held = [term for term in self._cjk for _ in range(runs.count(term))] if runs else []
            rest = CJK_RUN.sub(" ", text) if runs else text
            if not rest.isascii():
                chunks = rest.split()
                foreign[at] = " ".join(chunk for chunk in chunks if not chunk.isascii())
                rest = " ".join(chunk for chunk in chunks if chunk.isascii())
            plain[at], extra[at] = f"{rest}\n{parts}" if parts else rest, (length, held)
        for at, analyzed in zip(foreign, _each_analyzed(list(foreign.values())), strict=True):
            length, held = extra[at]
            extra[at] = length + len(analyzed), held + [term for term in analyzed if term in self.terms]
        return plain, extra

    def _bag(self, length: int, stems: list[str], extra: Counted | None) -> Bag:
        more, held = extra or (0, [])
        counts: dict[str, int] = {}
        for term in [stem for stem in stems if stem in self.terms] + held:
            counts[term] = counts.get(term, 0) + 1
        return Bag(counts, length + more)


def indexed_lengths(texts: Sequence[str]) -> tuple[list[str], list[int]]:
    """Each text as the words field holds it (indexed_text) and its length in terms (as
    len(text_terms(text))), for a batch at once: what an index build writes of every turn. ASCII texts
    are measured in C, their camelCase names' words added where they hold any; the others are analyzed
    together in one call. A batch is measured a piece of about MEASURED_CHARS at a time: each piece's
    byte copies and analyzed words cost several times its size, and a batch of long turns would
    otherwise hold all of them at once."""
    indexed: list[str] = []
    found: list[int] = []
    start = size = 0
    for at, text in enumerate([*texts, ""]):
        if at == len(texts) or (size and size + len(text) > MEASURED_CHARS):
            more, counted = _measured(texts[start:at])
            indexed += more
            found += counted
            start, size = at, 0
        size += len(text)
    return indexed, found


def _measured(texts: Sequence[str]) -> tuple[list[str], list[int]]:
    indexed, found = list(texts), [0] * len(texts)
    plain = [at for at, text in enumerate(texts) if text.isascii()]
    runs, _, humped = runs_and_words([texts[at] for at in plain], ())
    if humped:
        order = sorted(humped)
        parts = [name_parts(texts[plain[at]]) for at in order]
        for at, named, more in zip(order, parts, runs_and_words(parts, ())[0], strict=True):
            indexed[plain[at]] = f"{texts[plain[at]]}\n{named}"
            runs[at] += more
    for at, length in zip(plain, runs, strict=True):
        found[at] = length
    others = [at for at, text in enumerate(texts) if not text.isascii()]
    for at in others:
        indexed[at] = indexed_text(texts[at])
    for at, words in zip(others, _each_analyzed([indexed[at] for at in others]), strict=True):
        found[at] = len(words)
    return indexed, found


def _each_analyzed(texts: list[str]) -> list[list[str]]:
    """Each text's words, from one call to the analyzer when the word set between the texts comes out
    once per gap; a text holding that word itself has them analyzed one by one instead."""
    if not texts:
        return []
    analyzer = analyzer_in_use()
    words = analyzer.analyze(f" {_BETWEEN} ".join(texts))
    gaps = [at for at, word in enumerate(words) if word == _BETWEEN]
    if len(gaps) != len(texts) - 1:
        return [analyzer.analyze(text) for text in texts]
    return [words[start + 1:end] for start, end in zip([-1, *gaps], [*gaps, len(words)], strict=True)]


@lru_cache(maxsize=1)
def _not_words() -> re.Pattern[str]:
    """The characters inside CJK runs the analyzer makes no word of (marks, punctuation, unassigned):
    only those outside Unicode's letters and numbers, each asked of the analyzer itself."""
    odd = (char for low, high in CJK_RANGES for char in map(chr, range(low, high + 1))
           if unicodedata.category(char)[0] not in "LN")
    analyzer = analyzer_in_use()
    return re.compile("[" + "".join(re.escape(char) for char in odd if not analyzer.analyze(char)) + "]")

