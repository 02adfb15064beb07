"""A model's prose summary checked against its session: each sentence's names and numbers are looked
up in what the model was shown, and a sentence naming what the session never said is dropped
(beyond FEAT-032: the local model's summaries; a small model turns facts around).

A name is a capitalised word past a sentence's first (whose capital says nothing: a made-up name that
opens a sentence passes); a number is a run of digits, read without its thousands commas or leading
zeros. Either is supported when it stands as a whole word in the session's text (or a part of a
hyphenated word there), a name's possessive "'s" aside, or when each part of a hyphenated one does.
Sentences end at . ! or ? and a space, but not after a title or an initial ("Dr. Jones" stays one
sentence, so "Jones" is checked); a list's numbering opening a line is not read, nor "I'm" as a name.
Entity precision is the share of all the entities a summary names that are supported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from oneclaw_search.domain.stopwords import STOPWORDS

_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+(?:[.,:]\d+)*")
_SENTENCE_END = re.compile(r"(?<!\b[A-Z]\.)(?<!\b[A-Z][a-z]\.)(?<!\bMrs\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<=[.!?])[\"')\]]*\s+")
_POSSESSIVE = re.compile(r"['’]s$")
# Words the prompt itself gives the model to name the speakers, and the pronoun "I" however contracted,
# besides the stop words.
_GIVEN = frozenset({"user", "assistant", "ai", "i", "i'm", "i've", "i'll", "i'd"})
# A list's numbering or bullet opening a line: how the model lays out its answer, not a number it claims.
_LIST_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


@dataclass(frozen=True, slots=True)
class CheckedProse:
    text: str  # the sentences every entity of which the session holds, in order
    entities: int  # names and numbers the model's whole summary named
    unsupported: tuple[str, ...]  # those the session never said, as written

    @property
    def precision(self) -> float:
        """The share of the summary's entities that the session holds (1.0 when it names none)."""
        return 1.0 if not self.entities else 1 - len(self.unsupported) / self.entities


def sentence_entities(sentence: str) -> list[str]:
    """The names and numbers of one sentence, as written."""
    words = _WORD.findall(sentence)
    return [word for at, word in enumerate(words) if word[0].isdigit() or at > 0 and _is_name(word)]


def _is_name(word: str) -> bool:
    return word[0].isupper() and _bare(word) not in STOPWORDS and _bare(word) not in _GIVEN


def checked(prose: str, source: str) -> CheckedProse:
    """`prose` less its sentences naming what `source` (the session's own words) does not hold."""
    held = {_bare(word) for word in _WORD.findall(source)}
    held |= {part for word in list(held) if "-" in word for part in word.split("-") if part}
    kept, named, unsupported = [], 0, []
    lines = (_LIST_MARKER.sub("", line) for line in prose.splitlines())
    for sentence in (part.strip() for line in lines for part in _SENTENCE_END.split(line) if part.strip()):
        entities = sentence_entities(sentence)
        missing = [entity for entity in entities if not _held(entity, held)]
        named += len(entities)
        unsupported += missing
        if not missing:
            kept.append(sentence.strip())
    return CheckedProse(" ".join(kept), named, tuple(unsupported))


def _held(entity: str, held: set[str]) -> bool:
    """Whole, or each part of a hyphenated one ("Go-based" where the session says "Go" and "based")."""
    bare = _bare(entity)
    return bare in held or "-" in bare and all(part in held for part in bare.split("-") if part)


def _bare(word: str) -> str:
    if word[0].isdigit():
        number = word.replace(",", "")
        return str(int(number)) if number.isdigit() else number
    return _POSSESSIVE.sub("", word.replace("’", "'")).casefold()
