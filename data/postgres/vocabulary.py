"""PostgresVocabulary: how many messages and sessions hold a term, and which words lie one edit
away, read from the server (the Vocabulary port, for the typo fallback).

Known terms come from the counts the server keeps (term_counts.py: how many turns and session titles
hold each); close spellings from the same counts (the stems one edit away that the tenant holds),
the words themselves read from a few of the rows holding them.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.term_counts import known
from oneclaw_search.data.postgres.windows import quoted, tenant_mark
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.spelling import one_edit_away
from oneclaw_search.domain.text import tokens

SAMPLE_ROWS = 32  # rows read per source for the words a close spelling stands for
# Rows holding any of the close stems, through the tenant's own GIN postings.
_HOLDING = """(SELECT content FROM messages WHERE words @@ %s::tsquery LIMIT %s)
    UNION ALL (SELECT title || ' ' || coalesce(last_message_preview, '') FROM sessions WHERE title_words @@ %s::tsquery LIMIT %s)"""


class PostgresVocabulary:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history
        self._mark = tenant_mark(history.tenant)

    def stem(self, word: str) -> str:
        return stem(word)  # Snowball English, as the server's 'english' configuration stems

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        found = known(self._history, terms)
        return {term: found.get(term, 0) for term in terms}

    def frequency(self, term: str) -> int:
        return self.frequencies([term])[term]

    def spellings_near(self, word: str) -> set[str]:
        """The stems one edit from the word's that the tenant's turns or titles hold (as tantivy's fuzzy
        term query finds them on SQLite), and the words standing for them in a few rows holding them."""
        words, roots = one_edit_away(word), one_edit_away(stem(word))
        held = sorted(term for term, count in known(self._history, sorted(roots)).items() if count > 0)
        if not held:
            return set()
        question = " | ".join(quoted(self._mark + term) for term in held)
        texts = self._history.rows(_HOLDING, (question, SAMPLE_ROWS, question, SAMPLE_ROWS))
        return {found for (text,) in texts for found in tokens(text or "") if found in words or stem(found) in roots}
