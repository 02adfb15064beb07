"""PostgresVocabulary: how many messages and sessions hold a term, and which words lie one edit
away, read from the server (the Vocabulary port, for the typo fallback).

Known terms come from the counts the server keeps (term_counts.py: how many turns and session titles
hold each); close spellings from pg_trgm's word
similarity, the words themselves read from a few of the rows it matches.
"""
from __future__ import annotations

from collections.abc import Sequence

from oneclaw_search.data.postgres.database import PostgresHistory, execute
from oneclaw_search.data.postgres.term_counts import known
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.spelling import one_edit_away
from oneclaw_search.domain.text import tokens

SIMILARITY = 0.3  # pg_trgm's word similarity a one-edit typo of a short word reaches ('ramne', 'ramen')
SAMPLE_ROWS = 32  # rows read per source for the words a similar-looking match stands for
# Over the folded text, which the trigram indexes hold (schema.py).
_SIMILAR = """(SELECT content FROM messages WHERE oneclaw_search_fold(%s) <%% oneclaw_search_fold(content) LIMIT %s)
    UNION ALL (SELECT title || ' ' || coalesce(last_message_preview, '') FROM sessions
               WHERE oneclaw_search_fold(%s) <%% oneclaw_search_fold(title)
                  OR oneclaw_search_fold(%s) <%% oneclaw_search_fold(last_message_preview) LIMIT %s)"""


class PostgresVocabulary:
    def __init__(self, history: PostgresHistory) -> None:
        self._history = history

    def stem(self, word: str) -> str:
        return stem(word)  # Snowball English, as the server's 'english' configuration stems

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        found = known(self._history, terms)
        return {term: found.get(term, 0) for term in terms}

    def frequency(self, term: str) -> int:
        return self.frequencies([term])[term]

    def spellings_near(self, word: str) -> set[str]:
        words, roots = one_edit_away(word), one_edit_away(stem(word))
        with self._history.connected() as database:
            execute(database, "SELECT set_config('pg_trgm.word_similarity_threshold', %s, false)", (str(SIMILARITY),))
            texts = execute(database, _SIMILAR, (word, SAMPLE_ROWS, word, word, SAMPLE_ROWS)).fetchall()
        return {found for (text,) in texts for found in tokens(text or "")
                if found in words or stem(found) in roots}
