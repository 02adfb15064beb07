"""The keyword index's two tantivy schemas: one document per live message, one per session (Q-11).

A message document holds its own words (with positions, for phrases and for the rule that a hit holds
a query term itself; scored by BM25 alone too), its window (its own words and the turns beside it in
its session, each as often as the ranking model's layout says, with frequencies but no positions: the
field the ranking model's BM25F is computed on), the trigrams the literal reading narrows by, the
history's rowid (every hit is re-read from the history, which holds the text), fingerprints of its own
text and of its neighbours' (edits are found by comparing them), the rowids of the turns beside it when
it was written (whose windows change when it goes), the time a search window filters on, and, for the
live documents' statistics, a term every document holds and the lengths of the fields it is scored on.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import tantivy

from oneclaw_search.data.text.analyzer import GRAMS, WORDS

ROWID, AT, FINGERPRINT, SESSION, ROLE = "rowid", "at", "fp", "session", "role"
BODY, TITLE, PREVIEW, LITERAL = "body", "title", "preview", "grams"
WINDOW, WINDOW_FINGERPRINT, PREVIOUS, NEXT = "window", "wfp", "prev", "next"
# Every document holds EVERY_TERM once in EVERY (how many documents tantivy counts, dead ones included,
# is that term's document frequency), and the length in terms of each field it is scored on: its
# ranked field in LENGTH, a message's own words in OWN_LENGTH.
EVERY, EVERY_TERM, LENGTH, OWN_LENGTH = "every", "1", "len", "olen"


@dataclass(frozen=True)
class IndexKind:
    """One tantivy index: its folder name, its schema, the field holding the words its rows are ranked
    by, and the fields whose words together hold all the text the literal reading tests."""

    name: str
    schema: tantivy.Schema
    words: str
    literal_words: tuple[str, ...]
    ranked: str  # the field BM25 ranks rows by: a message's window, a session's title
    alone: str | None = None  # a field scored beside it when the model scores a row's own words alone

    def scored(self, words_alone: bool) -> tuple[tuple[str, str], ...]:
        """The fields a row is scored on, each with the fast field holding its length."""
        return ((self.ranked, LENGTH),) + (((self.alone, OWN_LENGTH),) if words_alone and self.alone else ())


def _common(builder: tantivy.SchemaBuilder) -> tantivy.SchemaBuilder:
    builder.add_unsigned_field(ROWID, indexed=True, fast=True)
    builder.add_integer_field(AT, indexed=True, fast=True)
    builder.add_unsigned_field(FINGERPRINT, fast=True)
    builder.add_text_field(LITERAL, tokenizer_name=GRAMS, index_option="basic")
    builder.add_text_field(SESSION, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(EVERY, tokenizer_name="raw", index_option="basic")
    builder.add_unsigned_field(LENGTH, fast=True)
    return builder


def _messages() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(BODY, tokenizer_name=WORDS, index_option="position")
    builder.add_text_field(WINDOW, tokenizer_name=WORDS, index_option="freq")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    for name in (WINDOW_FINGERPRINT, PREVIOUS, NEXT, OWN_LENGTH):
        builder.add_unsigned_field(name, fast=True)
    return IndexKind("messages", builder.build(), BODY, (BODY,), WINDOW, BODY)


def _sessions() -> IndexKind:
    builder = _common(tantivy.SchemaBuilder())
    builder.add_text_field(TITLE, tokenizer_name=WORDS, index_option="position")
    # A preview is matched by the literal reading (the spec's LIKE tests it), never ranked by its words.
    builder.add_text_field(PREVIEW, tokenizer_name=WORDS, index_option="position")
    return IndexKind("sessions", builder.build(), TITLE, (TITLE, PREVIEW), TITLE)


def unsigned_values(searcher: tantivy.Searcher, field: str, addresses: list[tantivy.DocAddress]) -> list[int]:
    """An unsigned fast field's values (rowids, fingerprints, lengths) at `addresses`, in order: the
    stubs give every fast field's values one type, whichever kind of field it is."""
    return cast(list[int], searcher.fast_field_values(field, addresses))


def rows_query(kind: IndexKind, rowids: Sequence[int]) -> tantivy.Query:
    """The rows `rowids`, as a search restricts to a few named rows: a union of one term each costs
    the engine their postings alone, where a term set fills a bitset as long as each segment."""
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.term_query(kind.schema, ROWID, rowid))
                                        for rowid in rowids])


MESSAGES = _messages()
SESSIONS = _sessions()
