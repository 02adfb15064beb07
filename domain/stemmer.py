"""English stems for index terms: M. F. Porter's 1980 suffix-stripping algorithm (issue 3, Q-01).

'married' and 'marry' both become 'marri', 'paintings' and 'painted' 'paint'. The rules follow
the published algorithm step by step; the code and its tables are this project's own.
"""
from __future__ import annotations

_VOWELS = frozenset("aeiou")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "abli": "able",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate", "ator": "ate",
    "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive",
    "biliti": "ble",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
          "ate", "iti", "ous", "ive", "ize")


def porter_stem(word: str) -> str:
    """The Porter stem of a lower-case ASCII word; words of one or two letters are kept."""
    if len(word) <= 2:
        return word
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5):
        word = step(word)
    return word


def _consonant(word: str, i: int) -> bool:
    """A letter other than a vowel, and other than a y that follows a consonant."""
    if word[i] in _VOWELS:
        return False
    return word[i] != "y" or i == 0 or not _consonant(word, i - 1)


def _measure(stem: str) -> int:
    """How many vowel-consonant sequences the stem holds (Porter's m), in one pass: asking
    _consonant letter by letter made stemming a sixth of an index build's term work."""
    count, before = 0, None  # before: whether the previous letter was a consonant
    for letter in stem:
        consonant = letter not in _VOWELS and (letter != "y" or not before)
        if consonant and before is False:
            count += 1
        before = consonant
    return count


def _has_vowel(stem: str) -> bool:
    before = None
    for letter in stem:
        if letter in _VOWELS or (letter == "y" and before):
            return True
        before = True
    return False


def _double_consonant(stem: str) -> bool:
    return len(stem) >= 2 and stem[-1] == stem[-2] and _consonant(stem, len(stem) - 1)


def _cvc(stem: str) -> bool:
    """Consonant, vowel, consonant at the end, the last not w, x or y ('hop', not 'snow')."""
    n = len(stem)
    return (n >= 3 and _consonant(stem, n - 3) and not _consonant(stem, n - 2) and _consonant(stem, n - 1)
            and stem[-1] not in "wxy")


def _step1a(word: str) -> str:
    if word.endswith("sses") or word.endswith("ies"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _step1b(word: str) -> str:
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        stem = word[:-len(suffix)]
        if word.endswith(suffix) and _has_vowel(stem):
            return _tidy_after_1b(stem)
    return word


def _tidy_after_1b(stem: str) -> str:
    """What a stem needs once -ed or -ing is gone: 'hopp' → 'hop', 'hop' → 'hope', 'conflat' → 'conflate'."""
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _double_consonant(stem) and stem[-1] not in "lsz":
        return stem[:-1]
    if _measure(stem) == 1 and _cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    return word[:-1] + "i" if word.endswith("y") and _has_vowel(word[:-1]) else word


def _longest_first(suffixes) -> tuple[str, ...]:
    """The suffixes longest first, so the first that matches is the longest; as a tuple, they also
    let str.endswith rule most words out in one call (sorting the matches per word cost more)."""
    return tuple(sorted(suffixes, key=len, reverse=True))


_STEP2_ORDER, _STEP3_ORDER, _STEP4_ORDER = _longest_first(_STEP2), _longest_first(_STEP3), _longest_first(_STEP4)


def _longest_suffix(word: str, ordered: tuple[str, ...]) -> str | None:
    if not word.endswith(ordered):
        return None
    return next(suffix for suffix in ordered if word.endswith(suffix))


def _replace_longest(word: str, table: dict[str, str], ordered: tuple[str, ...], minimum: int) -> str:
    """The longest suffix of `table` the word ends in is replaced when what precedes it measures over `minimum`."""
    suffix = _longest_suffix(word, ordered)
    if suffix is not None and _measure(word[:-len(suffix)]) > minimum:
        return word[:-len(suffix)] + table[suffix]
    return word


def _step2(word: str) -> str:
    return _replace_longest(word, _STEP2, _STEP2_ORDER, 0)


def _step3(word: str) -> str:
    return _replace_longest(word, _STEP3, _STEP3_ORDER, 0)


def _step4(word: str) -> str:
    suffix = _longest_suffix(word, _STEP4_ORDER)
    if suffix is not None:
        stem = word[:-len(suffix)]
        if _measure(stem) > 1 and (suffix != "ion" or stem.endswith(("s", "t"))):
            return stem
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word
