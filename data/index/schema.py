"""The keyword index's two tantivy schemas: one document per live message, one per session (Q-11).

Documents carry the history's rowid (every hit is re-read from the history, which holds the text),
a fingerprint of the indexed text (edits are found by comparing it) and the time a search window
filters on. Nothing is stored but these fast fields.
"""
from __future__ import annotations

from dataclasses import dataclass

import tantivy

from oneclaw_search.data.index.analyzer import GRAMS, WORDS

ROWID, AT, FINGERPRINT, SESSION, ROLE = "rowid", "at", "fp", "session", "role"
BODY, WINDOW, PARTS, TITLE, PREVIEW, LITERAL = "body", "window", "parts", "title", "preview", "grams"
# Answers rarely repeat their question, so a message is scored on a window of the turns around
# it: its own words three times, the turn before twice, the other turns within three either side
# once. The repeats weigh the turns inside one field, so a neighbour's words add to the message's
# own before BM25 saturates, as BM25F would. On LoCoMo dev the window finds more than the turn
# before alone in a field of its own (docs/performance.md).
OWN_REPEATS, BEFORE_REPEATS = 3, 2
TURNS_AROUND = 3
# Coverage 1 is a row holding each keyword once in its own words: in its window, where they stand
# three times, that scores about this many times the keywords' idf (tuned on LoCoMo dev, where
# recall hardly moves between 1 and 2; docs/performance.md).
WINDOW_IDEAL = 1.25
PARTS_WEIGHT = 0.8  # a word inside a camelCase name: found, a little below the word standing alone
PREVIEW_WEIGHT = 0.6  # a session's preview, beside its title


@dataclass(frozen=True)
class IndexKind:
    """One tantivy index: its folder name, its schema, and its word fields with their weights."""

    name: str
    schema: tantivy.Schema
    fields: tuple[tuple[str, float], ...]  # (field, weight) scored first, the main one first
    phrase_fields: tuple[str, ...]  # those keeping positions, where a phrase can be matched
    own: str | None = None  # the field of the row's own words alone, when the scored fields mix in others
    ideal_scale: float = 1.0  # what a row holding each keyword once scores, over their idf

    @property
    def main_field(self) -> str:
        return self.fields[0][0]


def _common(builder: tantivy.SchemaBuilder) -> tantivy.SchemaBuilder:
    builder.add_unsigned_field(ROWID, indexed=True, fast=True)
    builder.add_integer_field(AT, indexed=True, fast=True)
    builder.add_unsigned_field(FINGERPRINT, fast=True)
    builder.add_text_field(LITERAL, tokenizer_name=GRAMS, index_option="basic")
    return builder


def _messages() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(BODY, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(WINDOW, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(PARTS, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    return IndexKind("messages", builder.build(), ((WINDOW, 1.0), (PARTS, PARTS_WEIGHT)), (BODY,), own=BODY,
                     ideal_scale=WINDOW_IDEAL)


def _sessions() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(TITLE, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(PREVIEW, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    return IndexKind("sessions", builder.build(), ((TITLE, 1.0), (PREVIEW, PREVIEW_WEIGHT)), (TITLE, PREVIEW))


MESSAGES = _messages()
SESSIONS = _sessions()
