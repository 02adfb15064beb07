"""Key topics by YAKE (data/summaries/keyphrases.py): phrases of two to five words or names, never
a filler or stop word alone, the same topic never twice, and a long session read in bounded time."""
from __future__ import annotations

import re

from oneclaw_search.data.summaries import keyphrases
from oneclaw_search.data.summaries.keyphrases import YakeTopics
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import Transcript
from oneclaw_search.domain.stopwords import STOPWORDS

KAMAKURA = [
    "I went to Kamakura today: the Great Buddha, Hase-dera, and lunch at Café Über by the station.",
    "Sounds lovely! Café Über's matcha parfait is famous. Want me to save the trip to your daily log?",
    "Wow, yes please. Remind me to book the Enoden line pass next time, it sold out today.",
    "Done. The Enoden line pass can be booked online a week ahead; Café Über opens at nine.",
]


def turns(*texts):
    return [Turn(f"t{n}", "USER" if n % 2 == 0 else "AI_RESPONSE", text, n) for n, text in enumerate(texts)]


def test_topics_are_phrases_or_names_never_fillers_and_never_the_same_topic_twice():
    topics = YakeTopics().topics(turns(*KAMAKURA), 5)
    assert 0 < len(topics) <= 5 and "Café Über" in topics
    for topic in topics:
        words = re.findall(r"\w+", topic)
        assert 2 <= len(words) <= 5 or (len(words) == 1 and topic[0].isupper()), topic
        assert words[0].lower() not in STOPWORDS | keyphrases.FILLERS and words[-1].lower() not in STOPWORDS | keyphrases.FILLERS
    held = [frozenset(word.lower() for word in re.findall(r"\w+", topic)) for topic in topics]
    assert not any(a < b for a in held for b in held)
    assert not {"Wow", "Remind", "today", "went"} & set(topics)  # a capital at a sentence's start makes no name


def test_a_limit_is_kept_and_a_session_with_nothing_to_say_has_no_topics():
    assert len(YakeTopics().topics(turns(*KAMAKURA), 2)) == 2
    assert YakeTopics().topics(turns("ok", "thanks!", "Great."), 5) == ()


def test_a_long_session_is_read_as_its_turns_spread_evenly_up_to_a_bound():
    many = turns(*(f"We discussed the quarterly budget review number {n} with the finance team today." for n in range(3_000)))
    read = keyphrases._read(many)
    assert len(read.split()) <= keyphrases.MAX_WORDS + 20
    assert "number 0 " in read and any(f"number {n} " in read for n in range(2_700, 3_000))  # spread, not just the start
    assert "quarterly budget review" in [topic.lower() for topic in YakeTopics().topics(many, 5)]


def test_the_extractive_summary_takes_its_topics_from_the_finder_it_is_given(mocker):
    finder = mocker.Mock()
    finder.topics.return_value = ("Enoden line pass",)
    transcript = Transcript(SessionInfo("s", "Kamakura", 0, 3), tuple(turns(*KAMAKURA)))
    digest = ExtractiveSummarizer(topics=finder).summarize(transcript)
    assert digest.key_topics == ("Enoden line pass",)
    finder.topics.assert_called_once_with(transcript.turns, 5)
