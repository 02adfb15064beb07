"""ASCII text measured with bytes.translate, whose loops run in C: camelCase humps, the names that
hold them, and the simple tokenizer's tokens. Each answers exactly as the regex or the tantivy analyzer
in data/text/analyzer.py would, for a fraction of the time on the turns a search reads (Q-05, Q-07)."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate

import numpy as np

LONGEST_TOKEN = 40  # longer runs are hashes, keys and base64, never typed as search words

# Letters as their case, every other byte a space: a hump is then the bytes "aA", which bytes.translate
# and a substring test find in C, where the regex steps through the text in Python's engine. UTF-8
# gives every non-ASCII character bytes above 127, so no hump is made or hidden.
_CASES = bytes(ord("a") if chr(b).islower() else ord("A") if chr(b).isupper() else ord(" ") for b in range(128)) + b" " * 128
_WORD_BYTES = bytes(ord("w") if chr(b).isalnum() or chr(b) == "_" else ord(" ") for b in range(128)) + b" " * 128
_ALNUM = bytes(ord("a") if chr(b).isalnum() else ord(" ") for b in range(128)) + b" " * 128
# ASCII letters lowercased, digits kept, every other byte a space: the simple tokenizer's runs, spaced.
_LOWER_ALNUM = bytes(b if chr(b).isalnum() else ord(" ") for b in range(128)).lower() + b" " * 128


def has_hump(text: str) -> bool:
    """Whether an ASCII lowercase letter is followed by an uppercase one: as the regex `[a-z][A-Z]` finds one."""
    return b"aA" in text.encode("utf-8", "surrogatepass").translate(_CASES)


def hump_names(text: str) -> list[str]:
    """The `\\w+` names of ASCII text that hold a hump, in order, found from the humps outward: a
    regex over every name costs far more in a long text with a few camelCase names."""
    raw = text.encode()
    cases = raw.translate(_CASES)
    at = cases.find(b"aA")
    if at < 0:
        return []
    words = raw.translate(_WORD_BYTES)
    names: list[str] = []
    end = 0
    while at >= 0:
        if at >= end:  # a hump past the name found last starts another name
            start = words.rfind(b" ", 0, at) + 1
            end = words.find(b" ", at)
            end = len(words) if end < 0 else end
            names.append(text[start:end])
        at = cases.find(b"aA", at + 1)
    return names


def runs_and_words(texts: Sequence[str], starts: Sequence[bytes]) -> tuple[list[int], list[list[str]], set[int]]:
    """Of ASCII texts, all measured at once (a Python call per text is what a search's many turns
    add up to): how many words the simple tokenizer makes of each (runs of letters and digits, less those
    remove_long(LONGEST_TOKEN) drops), its lowercased words beginning with one of
    `starts`, and which texts hold a camelCase hump. Every search is a substring search run in C."""
    if not texts:
        return [], [], set()
    data = ("\n".join(texts) + "\n").encode()  # each text ends in a space: an empty last one has a place too
    offsets = [0, *accumulate(len(text) + 1 for text in texts[:-1])]
    classes = data.translate(_ALNUM)
    alnum = np.frombuffer(classes, dtype=np.uint8) == ord("a")
    first = alnum.copy()
    first[1:] &= ~alnum[:-1]
    runs = np.add.reduceat(first, offsets).tolist()
    for at in _found(classes, b"a" * LONGEST_TOKEN, b" "):  # a token the tokenizer drops
        runs[bisect_right(offsets, at) - 1] -= 1
    lowered = b" " + data.translate(_LOWER_ALNUM)
    words: dict[int, bytes] = {}
    for start in starts:
        for at in _found(lowered, b" " + start, b" "):
            end = lowered.find(b" ", at + 1)
            words[at] = lowered[at + 1:end if end > 0 else len(lowered)]
    found: list[list[str]] = [[] for _ in texts]
    for at, word in words.items():
        if len(word) < LONGEST_TOKEN:
            found[bisect_right(offsets, at) - 1].append(word.decode())
    humped = {bisect_right(offsets, at) - 1 for at in _found(data.translate(_CASES), b"aA", b"")}
    return runs, found, humped


def _found(data: bytes, needle: bytes, past: bytes) -> Iterator[int]:
    """Where `needle` stands in `data`, each next one looked for from the first `past` after the last."""
    at = data.find(needle)
    while at >= 0:
        yield at
        end = data.find(past, at + len(needle))
        at = data.find(needle, end) if end >= 0 else -1
