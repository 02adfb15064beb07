"""The keyword index's two tantivy schemas: one document per live message, one per session.

Documents carry the history's rowid (every hit is re-read from the history, which holds the text),
a fingerprint of the indexed text (edits are found by comparing it) and the time a search window
filters on. Nothing is stored but these fast fields.
"""
from __future__ import annotations

from dataclasses import dataclass

import tantivy

from oneclaw_search.data.index.analyzer import GRAMS, WORDS

ROWID, AT, FINGERPRINT, SESSION, ROLE = "rowid", "at", "fp", "session", "role"
BODY, WINDOW, PARTS, NEAR, TITLE, PREVIEW, LITERAL = "body", "window", "parts", "near", "title", "preview", "grams"
# Answers rarely repeat their question, so a message is scored on a window of its own words
# twice and the turn before once (the turn before weighing half, and its words adding to the
# message's own before BM25 saturates, as BM25F would), then on the two turns before that. On
# LoCoMo the window lifted R@10 from 0.66 (a field per turn, best field per keyword) to 0.69.
NEAR_WEIGHT = 0.3
NEAR_TURNS = 2  # turns before the turn before
PARTS_WEIGHT = 0.8  # a word inside a camelCase name: found, a little below the word standing alone
PREVIEW_WEIGHT = 0.6  # a session's preview, beside its title


@dataclass(frozen=True)
class IndexKind:
    """One tantivy index: its folder name, its schema, and its word fields with their weights."""

    name: str
    schema: tantivy.Schema
    fields: tuple[tuple[str, float], ...]  # (field, weight) scored first, the main one first
    phrase_fields: tuple[str, ...]  # those keeping positions, where a phrase can be matched
    context: tuple[tuple[str, float], ...] = ()  # (field, weight) of words of other turns
    own: str | None = None  # the field of the row's own words alone, when the scored fields mix in others

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
    builder.add_text_field(NEAR, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    return IndexKind("messages", builder.build(), ((WINDOW, 1.0), (PARTS, PARTS_WEIGHT)), (BODY,),
                     ((NEAR, NEAR_WEIGHT),), own=BODY)


def _sessions() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(TITLE, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(PREVIEW, tokenizer_name=WORDS, index_option="position")
    return IndexKind("sessions", builder.build(), ((TITLE, 1.0), (PREVIEW, PREVIEW_WEIGHT)), (TITLE, PREVIEW))


MESSAGES = _messages()
SESSIONS = _sessions()
