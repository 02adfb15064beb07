"""Typo fallback (Q-08): when an exact search finds nothing, try close spellings of long words.

Only words of five or more letters are ever changed, each by one edit (insert, delete, replace
or swap), and only to a spelling the history actually contains: each source's vocabulary offers
them (the keyword index through tantivy's fuzzy term queries, memory by trying every edit).
"""
from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Sequence

from oneclaw_search.domain.ports import Vocabulary
from oneclaw_search.domain.search_terms import Stem, plain, unchanged

MIN_FUZZY_LENGTH = 5
MAX_FUZZY_LENGTH = 24  # longer "words" are ids, hashes or noise, not misspellings
_WORD = re.compile(r"\w+")


def one_edit_away(word: str) -> set[str]:
    letters = set(string.ascii_lowercase) | set(word)
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {left + right[1:] for left, right in splits if right}
    swaps = {left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1}
    replaces = {left + c + right[1:] for left, right in splits if right for c in letters}
    inserts = {left + c + right for left, right in splits for c in letters}
    return (deletes | swaps | replaces | inserts) - {word}


Candidates = Callable[[str], Iterable[str]]  # a folded word → spellings to try in its place


def correct_word(word: str, frequency: Callable[[str], int], stem: Stem = unchanged,
                 candidates: Candidates = one_edit_away) -> str | None:
    """The most frequent known spelling near an unknown long word, or None; `frequency` counts rows
    holding a term, `stem` makes a word a term as the counting index does, `candidates` offers the
    spellings (by default every one edit away)."""
    folded = plain(word)
    if not _eligible(folded) or frequency(stem(folded)) > 0:
        return None
    # Among spellings sharing a stem ("sushi", "sushy"; "ramen", "ramene"), the one that is its
    # own stem is the word, else the one closest to it.
    scored = [(frequency(root := stem(candidate)), root == candidate, len(root) - len(candidate), candidate)
              for candidate in candidates(folded)]
    count, _, _, best = max(scored, default=(0, False, 0, ""))
    return best if count > 0 else None


def _eligible(folded: str) -> bool:
    return MIN_FUZZY_LENGTH <= len(folded) <= MAX_FUZZY_LENGTH and folded.isalpha()


def respell(query: str, vocabulary: Vocabulary) -> str | None:
    """The query with the long words the history never uses respelled to ones it does, or None.
    The vocabulary offers each unknown word's close spellings; their counts are asked all at once."""
    stem = vocabulary.stem
    words = {folded for word in _WORD.findall(query) if _eligible(folded := plain(word))}
    known = vocabulary.frequencies(sorted({stem(word) for word in words}))
    near = {word: vocabulary.spellings_near(word) for word in words if not known.get(stem(word))}
    if not near:
        return None
    counts = {**known, **vocabulary.frequencies(sorted({stem(c) for found in near.values() for c in found}))}
    return correct_query(query, lambda term: counts.get(term, 0), stem, lambda word: near.get(word, ()))


def correct_query(query: str, frequency: Callable[[str], int], stem: Stem = unchanged,
                  candidates: Candidates = one_edit_away) -> str | None:
    """The query with its unknown long words respelled, or None when nothing changed."""
    changed = False
    pieces: list[str] = []
    position = 0
    for match in _WORD.finditer(query):
        replacement = correct_word(match.group(), frequency, stem, candidates)
        pieces += [query[position:match.start()], replacement or match.group()]
        changed = changed or replacement is not None
        position = match.end()
    pieces.append(query[position:])
    return "".join(pieces) if changed else None


class SummedVocabulary:
    """Several sources' vocabularies read as one: a spelling is known if any source uses it."""

    def __init__(self, parts: Sequence[Vocabulary | None]) -> None:
        self._parts = [part for part in parts if part is not None]  # None: a source without a vocabulary

    def stem(self, word: str) -> str:
        """The sources share one stemmer (the keyword index's); without a source, words stay whole."""
        return self._parts[0].stem(word) if self._parts else word

    def frequency(self, term: str) -> int:
        return sum(part.frequency(term) for part in self._parts)

    def spellings_near(self, word: str) -> set[str]:
        return set().union(*(part.spellings_near(word) for part in self._parts))

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """All the counts in one pass per source (a lookup per term costs a query per term)."""
        totals = dict.fromkeys(terms, 0)
        for part in self._parts:
            for term, count in part.frequencies(terms).items():
                totals[term] += count
        return totals
