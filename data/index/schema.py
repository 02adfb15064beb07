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
BODY, PARTS, BEFORE, NEAR, TITLE, PREVIEW, LITERAL = "body", "parts", "before", "near", "title", "preview", "grams"
# The turn before a message weighs half its own words, the two before that less: answers rarely
# repeat their question, and a question is often put over more than one turn.
BEFORE_WEIGHT, NEAR_WEIGHT = 0.5, 0.3
NEAR_TURNS = 2  # turns before the turn before
PARTS_WEIGHT = 0.8  # a word inside a camelCase name: found, a little below the word standing alone
PREVIEW_WEIGHT = 0.6  # a session's preview, beside its title


@dataclass(frozen=True)
class IndexKind:
    """One tantivy index: its folder name, its schema, and its word fields with their weights."""

    name: str
    schema: tantivy.Schema
    fields: tuple[tuple[str, float], ...]  # (field, weight) of the row's own words, the main one first
    phrase_fields: tuple[str, ...]  # those keeping positions, where a phrase can be matched
    context: tuple[tuple[str, float], ...] = ()  # (field, weight) of words around the row

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
    builder.add_text_field(PARTS, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(BEFORE, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(NEAR, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    return IndexKind("messages", builder.build(), ((BODY, 1.0), (PARTS, PARTS_WEIGHT)), (BODY,),
                     ((BEFORE, BEFORE_WEIGHT), (NEAR, NEAR_WEIGHT)))


def _sessions() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(TITLE, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(PREVIEW, tokenizer_name=WORDS, index_option="position")
    return IndexKind("sessions", builder.build(), ((TITLE, 1.0), (PREVIEW, PREVIEW_WEIGHT)), (TITLE, PREVIEW))


MESSAGES = _messages()
SESSIONS = _sessions()
