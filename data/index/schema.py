"""The keyword index's two tantivy schemas: one document per live message, one per session (Q-11).

A document holds its row's own text once: its words (with positions, for phrases), the trigrams the
literal reading narrows by, the history's rowid (every hit is re-read from the history, which holds
the text), a fingerprint of the indexed text (edits are found by comparing it) and the time a search
window filters on. The turns around a message are read at search time, never copied into its document.
"""
from __future__ import annotations

from dataclasses import dataclass

import tantivy

from oneclaw_search.data.text.analyzer import GRAMS, WORDS

ROWID, AT, FINGERPRINT, SESSION, ROLE = "rowid", "at", "fp", "session", "role"
BODY, TITLE, PREVIEW, LITERAL = "body", "title", "preview", "grams"


@dataclass(frozen=True)
class IndexKind:
    """One tantivy index: its folder name, its schema, the field holding the words its rows are ranked
    by, and the fields whose words together hold all the text the literal reading tests."""

    name: str
    schema: tantivy.Schema
    words: str
    literal_words: tuple[str, ...]


def _common(builder: tantivy.SchemaBuilder) -> tantivy.SchemaBuilder:
    builder.add_unsigned_field(ROWID, indexed=True, fast=True)
    builder.add_integer_field(AT, indexed=True, fast=True)
    builder.add_unsigned_field(FINGERPRINT, fast=True)
    builder.add_text_field(LITERAL, tokenizer_name=GRAMS, index_option="basic")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    return builder


def _messages() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(BODY, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    return IndexKind("messages", builder.build(), BODY, (BODY,))


def _sessions() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(TITLE, tokenizer_name=WORDS, index_option="position")
    # A preview is matched by the literal reading (the spec's LIKE tests it), never ranked by its words.
    builder.add_text_field(PREVIEW, tokenizer_name=WORDS, index_option="position")
    return IndexKind("sessions", builder.build(), TITLE, (TITLE, PREVIEW))


MESSAGES = _messages()
SESSIONS = _sessions()
