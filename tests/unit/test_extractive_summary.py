"""The extractive summarizer on hand-made sessions: which topics, decisions and open items it finds."""
from __future__ import annotations

from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import EXTRACTIVE, Digest, Transcript


def transcript(*said: tuple[str, str]) -> Transcript:
    turns = tuple(Turn(f"t{n}", role, text, n) for n, (role, text) in enumerate(said, start=1))
    return Transcript(SessionInfo("s", "A session", 0, len(turns)), turns)


def user(text: str) -> tuple[str, str]:
    return "USER", text


def ai(text: str) -> tuple[str, str]:
    return "AI_RESPONSE", text


class FakeVocabulary:
    """A history of 100 rows in which `common` words are everywhere and the rest are rare."""

    def __init__(self, common: dict[str, int]) -> None:
        self.common = common

    def stem(self, word: str) -> str:
        return word.removesuffix("s")

    def frequency(self, term: str) -> int:
        return self.common.get(term, 1)

    def frequencies(self, terms):
        return {term: self.frequency(term) for term in terms}

    def spellings_near(self, word: str) -> set[str]:
        return set()


PLANNING = transcript(
    user("Which database should back the reminders service, Postgres or SQLite?"),
    ai("SQLite is enough for one user. Postgres adds a server to run."),
    user("Agreed, let's go with SQLite for the reminders. How do we back it up? And what about retention?"),
    ai("Back up the SQLite file nightly with the online backup API."),
    user("We decided the retention policy is to be decided later. TODO: write the migration script."),
    ai("I will draft the schema first. Do you want daily or weekly reports?"),
    user("Could the reminders sync to the phone calendar?"),
)


def test_it_finds_decisions_as_said_and_not_questions_or_bare_agreement():
    digest = ExtractiveSummarizer().summarize(PLANNING)
    assert digest.key_decisions == (
        "Agreed, let's go with SQLite for the reminders.",
        "We decided the retention policy is to be decided later.",
    )
    assert digest.method == EXTRACTIVE


def test_unanswered_user_questions_and_open_items_are_unresolved():
    traced = ExtractiveSummarizer().traced(PLANNING)
    assert traced.unresolved == (
        ("How do we back it up?", "t3"),  # mid-turn and the reply shares only "back" with it
        ("We decided the retention policy is to be decided later.", "t5"),
        ("TODO: write the migration script.", "t5"),
        ("Could the reminders sync to the phone calendar?", "t7"),  # nothing comes after it
    )
    said = " ".join(ExtractiveSummarizer().summarize(PLANNING).unresolved)
    assert "Which database" not in said  # the next turn is the assistant's
    assert "retention?" not in said  # ends its turn, and the assistant speaks next
    assert "daily or weekly" not in said  # the assistant's own question


def test_a_later_reply_sharing_two_content_words_answers_a_question():
    session = transcript(user("What is the capital of Peru? Also, how tall is Everest?"),
                         ai("Everest is about 8,849 metres tall."),
                         user("Thanks."), ai("Lima is the capital of Peru."))
    assert ExtractiveSummarizer().summarize(session).unresolved == ()
    unanswered = transcript(user("What is the capital of Peru? Also, how tall is Everest?"),
                            ai("Everest is about 8,849 metres tall."))
    assert ExtractiveSummarizer().summarize(unanswered).unresolved == ("What is the capital of Peru?",)


def test_topics_without_a_vocabulary_follow_counts_and_prefer_phrases():
    session = transcript(user("The vector search is slow. Vector search needs an index."),
                         ai("Build the index once; vector search then takes milliseconds. The index lives on disk."),
                         user("Disk space is fine."))
    assert ExtractiveSummarizer().summarize(session).key_topics == ("vector search", "index", "disk", "slow", "needs")


def test_topics_with_a_vocabulary_favour_words_rare_in_the_history():
    session = transcript(user("Meeting notes: meeting moved. Tantivy index rebuild after the meeting."),
                         ai("The meeting can wait; tantivy rebuilds fast."))
    plain = ExtractiveSummarizer().summarize(session).key_topics
    weighted = ExtractiveSummarizer(FakeVocabulary({"meeting": 90, "note": 80}), rows=100).summarize(session)
    assert plain[0] == "meeting"
    assert weighted.key_topics[:2] == ("Tantivy", "rebuild")  # spelt as written first when spellings tie
    assert "meeting" not in weighted.key_topics  # four times, but in nine rows of ten


def test_caps_at_five_items_each():
    many = transcript(*[user(f"Let's ship feature {name} today. Is {name} tested? TODO: document {name}.")
                        for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf")])
    digest = ExtractiveSummarizer().summarize(many)
    assert len(digest.key_topics) == len(digest.key_decisions) == len(digest.unresolved) == 5
    assert digest.key_decisions[0] == "Let's ship feature alpha today."


def test_long_sentences_are_clipped_at_a_word():
    sentence = "We decided to " + "keep every small change reviewed " * 10
    (decision,) = ExtractiveSummarizer().summarize(transcript(user(sentence.strip() + "."))).key_decisions
    assert len(decision) <= 120 and decision.endswith("…")
    assert sentence.startswith(decision[:-1] + " ")


def test_the_same_session_gives_the_same_digest():
    first = ExtractiveSummarizer().summarize(PLANNING)
    assert all(ExtractiveSummarizer().summarize(PLANNING) == first for _ in range(3))


def test_an_empty_session_has_an_empty_digest():
    assert ExtractiveSummarizer().summarize(transcript()) == Digest((), (), (), EXTRACTIVE)
    assert ExtractiveSummarizer(FakeVocabulary({}), rows=10).summarize(transcript(user("   "))) == Digest((), (), (), EXTRACTIVE)


def test_a_speakers_own_intent_or_choice_is_a_decision_and_a_wish_or_a_past_event_is_not():
    digest = ExtractiveSummarizer().summarize(transcript(
        user("I'm going to sign up for the pottery class next month."),
        user("I picked the blue glaze for the first bowl."),
        user("I'd love to try painting someday."),
        user("I went to a concert on Saturday."),
    ))
    assert digest.key_decisions == ("I'm going to sign up for the pottery class next month.", "I picked the blue glaze for the first bowl.")


def test_a_plan_said_to_be_undecided_is_an_open_item():
    digest = ExtractiveSummarizer().summarize(transcript(
        user("I'm still looking for a studio with enough light."),
        user("Not sure whether to take the job in Lisbon."),
        user("The studio we rented last year had great light."),
    ))
    assert digest.unresolved == ("I'm still looking for a studio with enough light.", "Not sure whether to take the job in Lisbon.")
