"""A row's query terms counted without analyzing the row whole (Q-01, Q-05): what the ranking model
reads of every candidate and of the turns beside it, the same counts and lengths the words analyzer
gives, for a fraction of its work.

In ASCII text with no camelCase name, every word that Snowball's English stemmer takes to a term
starts with that term less its last letter (an ending dropped, "y" made "i", an "e" added), bar three
exceptional forms. So only the words starting so are stemmed, a whole batch of texts' in one call to
the analyzer, and the length is the tokenizer's count made in C. Any other text is analyzed whole.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.text.analyzer import analyzer_in_use, name_parts, spaced
from oneclaw_search.data.text.ascii_words import runs_and_words
from oneclaw_search.domain.relevance import NO_TEXT, Bag

# Snowball's exceptional forms whose stem is not their start less its last letter.
_EXCEPTIONS = {"die": "dying", "lie": "lying", "tie": "tying"}


def _starts(term: str) -> tuple[str, ...]:
    start = term if len(term) <= 2 else term[:-1]
    return (start, _EXCEPTIONS[term]) if term in _EXCEPTIONS else (start,)


class TermCounter:
    """Counts one query's terms in texts, as bag_of(text_terms(text), terms) would."""

    def __init__(self, terms: Sequence[str]) -> None:
        self.terms = frozenset(terms)
        self._starts = sorted({start.encode() for term in terms for start in _starts(term) if start.isascii()})

    def bags(self, texts: Sequence[str | None]) -> list[Bag]:
        """Each text's bag (NO_TEXT for None), in order."""
        present = [text for text in texts if text is not None]
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
        bags = iter([self._bag(length, [stems[word] for word in found], extra.get(at)) for at, (length, found)
                     in enumerate(zip(runs, words, strict=True))])
        return [NO_TEXT if text is None else next(bags) for text in texts]

    def _ascii(self, texts: list[str]) -> tuple[list[str], dict[int, list[str]]]:
        """The texts as ASCII alone. In one that is not, a camelCase name's words are added after the
        text, as the index adds them, and each run of non-space characters holding one that is not ASCII
        is analyzed now (its terms kept by the text's position): whitespace never stands inside a token."""
        plain, extra = list(texts), {}
        for at in [at for at, text in enumerate(texts) if not text.isascii()]:
            parts = name_parts(texts[at])
            chunks = f"{texts[at]}\n{parts}".split() if parts else texts[at].split()
            extra[at] = analyzer_in_use().analyze(spaced(" ".join(chunk for chunk in chunks if not chunk.isascii())))
            plain[at] = " ".join(chunk for chunk in chunks if chunk.isascii())
        return plain, extra

    def _bag(self, length: int, stems: list[str], extra: list[str] | None) -> Bag:
        counts: dict[str, int] = {}
        for term in stems + (extra or []):
            if term in self.terms:
                counts[term] = counts.get(term, 0) + 1
        return Bag(counts, length + len(extra or []))
