"""The prose summary (domain/prose_summary.py): central sentences in their order, the opening first,
within SUMMARY_WORDS, a point made twice said once; a short session is its own summary."""
from __future__ import annotations

import re

from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.prose_summary import SUMMARY_WORDS, led_by, prose_summary
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript


def turns(*texts):
    return tuple(Turn(f"t{n}", "USER" if n % 2 == 0 else "AI_RESPONSE", text, n) for n, text in enumerate(texts))


def words(text):
    return re.findall(r"\w+", text.lower())


def flat(text):
    return [word for word in words(text) if word not in {"the", "a", "to", "of", "and", "we", "it", "is", "on", "for"}]


def equal(_terms):
    return dict.fromkeys(_terms, 1.0)


CHAT = turns(
    "We are moving the expense tracker from SQLite to PostgreSQL next month.",
    "Thanks! That sounds good to me.",
    "The migration needs a schema freeze, Alembic scripts and a rehearsal on a copy of the database.",
    "Rehearse the migration on a copy of the database first, then switch during a maintenance window.",
    "By the way, the office coffee machine is broken again and nobody has called the repair shop yet.",
    "The migration rehearsal on a database copy took forty minutes, mostly the index rebuild.",
    *("Check the PostgreSQL indexes and the Alembic scripts of the database migration." for _ in range(5)),
    "After the switch, the expense tracker reads from PostgreSQL and the old SQLite file is archived.",
    "The maintenance window is Sunday night, when the expense tracker has the fewest users.",
    "Alembic scripts are kept in the repository beside the expense tracker's code.",
    "The index rebuild after the migration is the slow part, so it runs before the switch.",
)
REPEATED = "Check the PostgreSQL indexes and the Alembic scripts of the database migration."


def test_a_short_session_is_its_own_summary():
    short = turns("Lunch at the station?", "Yes, at noon.")
    assert prose_summary(short, flat, equal) == "Lunch at the station? Yes, at noon."


def test_the_summary_keeps_the_opening_and_central_sentences_in_order_within_the_word_budget():
    said = prose_summary(CHAT, flat, equal)
    sentences = [turn.content for turn in CHAT]
    assert said.startswith(CHAT[0].content) and len(said.split()) <= SUMMARY_WORDS
    picked = [sentence for sentence in sentences if sentence in said]
    assert [sentences.index(s) for s in picked] == sorted(sentences.index(s) for s in picked)
    assert "Thanks!" not in said  # too short to say anything
    assert said.count(REPEATED) == 1  # central, and said once, not five times


def test_without_novelty_the_summary_is_the_most_central_sentences_and_with_it_more_of_the_session():
    central = prose_summary(CHAT, flat, equal, novelty=0.0)
    varied = prose_summary(CHAT, flat, equal, novelty=5.0)
    assert "coffee machine" not in central and "coffee machine" in varied  # a sentence unlike the rest
    assert prose_summary(CHAT, flat, equal) == prose_summary(CHAT, flat, equal)  # deterministic


def test_the_extractive_digest_carries_the_summary():
    digest = ExtractiveSummarizer().summarize(Transcript(SessionInfo("s", "Migration", 0, len(CHAT)), CHAT))
    assert digest.summary.startswith(CHAT[0].content) and 20 <= len(digest.summary.split()) <= SUMMARY_WORDS


def test_a_models_prose_leads_and_the_summarys_sentences_follow_in_order_while_they_fit():
    summary = " ".join(f"Sentence {n} holds {'word ' * 20}here." for n in range(10))  # 24 words each
    prose = "The user planned a trip to Kyoto with the assistant."  # 10 words
    joined = led_by(prose, summary)
    assert joined.startswith(prose + " Sentence 0 holds") and "Sentence 3 holds" in joined
    assert "Sentence 4" not in joined and len(joined.split()) == 10 + 4 * 24 <= SUMMARY_WORDS  # a fifth would pass 120
    assert led_by("", summary).split()[:2] == ["Sentence", "0"]  # no prose left: the summary alone
    assert led_by(prose, "") == prose
