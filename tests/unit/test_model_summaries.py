"""Summaries by a model in the background: the prose checked against its session, the extractive
summary returned at once while the model works, and the model's kept once made (beyond FEAT-032)."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

import pytest

from oneclaw_search.data.index.summary_cache import MemorySummaryCache
from oneclaw_search.data.summaries.background import BackgroundSummaries
from oneclaw_search.data.summaries.local_model import ModelProseSummarizer, prompt
from oneclaw_search.domain.checked_prose import checked, sentence_entities
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_reading import SessionInfo, Turn
from oneclaw_search.domain.session_summary import SessionVersion, Transcript
from oneclaw_search.domain.session_summary_use_case import GetSessionSummaryUseCase, SummaryRequest

MAY_8 = 1_683_504_000_000  # 2023-05-08 00:00 UTC
TURNS = (Turn("t1", "USER", "Deborah took me to the jazz festival in Lisbon in 2022.", MAY_8),
         Turn("t2", "AI_RESPONSE", "That sounds lovely. Did Jolene go with you?", MAY_8 + 1),
         Turn("t3", "USER", "Yes, and we met a girl named Samantha there.", MAY_8 + 2))
CHAT = Transcript(SessionInfo("s1", "Festival", MAY_8, MAY_8 + 2), TURNS)


class Model:
    """A chat model that answers what it is told to, and remembers what it was shown."""

    name = "tiny"

    def __init__(self, answer: str | Exception) -> None:
        self.answer, self.shown = answer, []

    def complete(self, text: str, answer_tokens: int = 160) -> str:
        self.shown.append(text)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@dataclass
class Directory:
    """A session store of one session whose turns can change."""

    turns: list[Turn] = field(default_factory=lambda: list(TURNS))
    reads: int = 0

    def session(self, session_id):
        return CHAT.session if session_id == "s1" else None

    def recent(self, limit):
        return [CHAT.session][:limit]

    def all_turns(self, session_id):
        self.reads += 1
        return tuple(self.turns)

    def version(self, session_id):
        return SessionVersion(str(hash(tuple(self.turns))), len(self.turns), MAY_8, MAY_8 + 2)


def test_names_and_numbers_are_the_capitalised_words_past_a_sentences_first_and_the_digits():
    assert sentence_entities("Deborah and Jolene met Samantha in Lisbon in 2022 at 3:30.") == [
        "Jolene", "Samantha", "Lisbon", "2022", "3:30"]
    assert sentence_entities("The user and the Assistant talked about It.") == []


def test_a_sentence_naming_what_the_session_never_said_is_dropped_and_counted():
    said = "The user and Jolene went to a festival in Lisbon. They adopted Max, a dog, in 2021. Her smile stayed."
    kept = checked(said, "\n".join(turn.content for turn in TURNS))
    assert kept.text == "The user and Jolene went to a festival in Lisbon. Her smile stayed."
    assert kept.unsupported == ("Max", "2021") and kept.entities == 4 and kept.precision == pytest.approx(0.5)


def test_the_model_is_shown_the_turns_and_the_day_and_asked_in_plain_prose():
    shown = prompt(CHAT)
    assert "(08 May 2023)" in shown and "User: Deborah took me" in shown and "Assistant: That sounds lovely" in shown
    assert "JSON" not in shown and shown.endswith("of what the user and the assistant talked about.")


def test_a_session_cut_to_fit_keeps_its_first_and_last_turns():
    turns = tuple(Turn(f"t{i}", "USER", f"turn number {i} " + "word " * 60, MAY_8 + i) for i in range(200))
    assert "(…)" not in prompt(Transcript(CHAT.session, turns))  # whole until the model finds it too long
    shown = prompt(Transcript(CHAT.session, turns), room=5_000)
    assert "turn number 0 " in shown and "turn number 199 " in shown and "(…)" in shown
    assert "turn number 100 " not in shown and len(shown) < 6000


def test_the_models_checked_prose_becomes_the_summary_beside_the_extractive_lists():
    model = Model("Deborah and Jolene went to a jazz festival. They adopted a dog named Max.")
    digest = ModelProseSummarizer(model, ExtractiveSummarizer()).summarize(CHAT)
    extractive = ExtractiveSummarizer().summarize(CHAT)
    # the model's checked prose leads; the session's own sentences follow within the summary's words
    assert digest.summary == f"Deborah and Jolene went to a jazz festival. {extractive.summary}" and digest.method == "local:tiny"
    assert digest.key_topics == extractive.key_topics and digest.key_decisions == extractive.key_decisions


@pytest.mark.parametrize(("answer", "why"), [("Max and Bella went to Paris.", "named what the session never said"),
                                              (RuntimeError("out of memory"), "unavailable: RuntimeError")])
def test_the_extractive_summary_stands_in_saying_why_when_the_model_fails_or_invents(answer, why):
    digest = ModelProseSummarizer(Model(answer), ExtractiveSummarizer()).summarize(CHAT)
    assert digest.summary == ExtractiveSummarizer().summarize(CHAT).summary
    assert digest.method == f"{ExtractiveSummarizer().summarize(CHAT).method} (local:tiny {why})"


def use_case(directory: Directory, model: Model, clock=None) -> tuple[GetSessionSummaryUseCase, BackgroundSummaries]:
    cache = MemorySummaryCache()
    later = BackgroundSummaries(ModelProseSummarizer(model, ExtractiveSummarizer()), cache, "local:tiny:abc", "local:tiny",
                                **({} if clock is None else {"clock": clock}))
    return GetSessionSummaryUseCase(directory, directory, ExtractiveSummarizer(), cache, later=later), later


def test_a_call_returns_the_extractive_summary_at_once_and_the_models_once_it_is_made():
    directory, model = Directory(), Model("Deborah and Jolene went to a jazz festival in Lisbon.")
    summaries, later = use_case(directory, model)
    first = summaries.summarize(SummaryRequest("s1"))[0].digest
    assert first.method.endswith("(local:tiny summary being made)") and first.summary != model.answer
    later.wait()
    second = summaries.summarize(SummaryRequest("s1"))[0].digest
    assert second.method == "local:tiny" and second.summary.startswith(model.answer + " ") and len(model.shown) == 1


def test_a_failed_session_says_why_and_is_asked_again_after_a_while_and_a_changed_one_at_once():
    from oneclaw_search.data.summaries.quiet_watch import QUIET_SECONDS

    now = [1000.0]
    directory, model = Directory(), Model(RuntimeError("busy"))
    summaries, later = use_case(directory, model, clock=lambda: now[0])
    summaries.summarize(SummaryRequest("s1"))
    later.wait()
    failed = summaries.summarize(SummaryRequest("s1"))[0].digest.method  # the failure was not kept, and not retried yet
    later.wait()
    assert failed.endswith("(local:tiny unavailable: RuntimeError)") and len(model.shown) == 1
    now[0] += QUIET_SECONDS
    model.answer = "Deborah went to Lisbon."
    assert summaries.summarize(SummaryRequest("s1"))[0].digest.method.endswith("(local:tiny summary being made)")
    later.wait()
    assert summaries.summarize(SummaryRequest("s1"))[0].digest.summary.startswith("Deborah went to Lisbon. ")
    directory.turns.append(Turn("t4", "USER", "Deborah loved Lisbon.", MAY_8 + 3))
    summaries.summarize(SummaryRequest("s1"))
    later.wait()
    assert "Deborah loved Lisbon." in model.shown[-1] and len(model.shown) == 3


class Gated(Model):
    """A model that answers only once its gate opens, so requests pile up behind it meanwhile."""

    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.gate = threading.Event()

    def complete(self, text: str, answer_tokens: int = 160) -> str:
        self.gate.wait(10)
        return super().complete(text, answer_tokens)


def test_the_same_session_asked_twice_before_the_model_is_done_is_made_once():
    model = Gated("Deborah went to Lisbon.")
    summaries, later = use_case(Directory(), model)
    summaries.summarize(SummaryRequest("s1"))
    summaries.summarize(SummaryRequest("s1"))  # the model is still at the first
    model.gate.set()
    later.wait()
    assert len(model.shown) == 1


def test_a_session_that_changed_while_waiting_is_made_once_under_its_newest_key():
    directory, model = Directory(), Gated("Deborah went to Lisbon.")
    summaries, later = use_case(directory, model)
    later.ask("other", "k0", lambda: CHAT)  # keeps the worker busy while s1 is asked for three times
    for number in range(3):
        directory.turns.append(Turn(f"n{number}", "USER", f"Lisbon again {number}.", MAY_8 + 10 + number))
        summaries.summarize(SummaryRequest("s1"))
    model.gate.set()
    later.wait()
    assert len(model.shown) == 2  # "other", and s1 once, as it stands now
    assert summaries.summarize(SummaryRequest("s1"))[0].digest.method == "local:tiny"


def test_make_later_now_makes_what_is_missing_and_leaves_what_is_kept():
    directory, model = Directory(), Model("Deborah went to Lisbon.")
    summaries, _ = use_case(directory, model)
    progress = []
    assert summaries.make_later_now(SummaryRequest(), lambda done, total: progress.append((done, total))) == 0
    assert summaries.make_later_now(SummaryRequest()) == 0 and progress == [(1, 1)] and len(model.shown) == 1
    assert summaries.summarize(SummaryRequest("s1"))[0].digest.method == "local:tiny"


def test_make_later_now_counts_the_sessions_the_model_failed_on():
    summaries, _ = use_case(Directory(), Model(RuntimeError("bad model file")))
    assert summaries.make_later_now(SummaryRequest()) == 1


def test_secrets_are_masked_before_the_model_sees_the_session():
    directory, model = Directory(), Model("The user shared a key.")
    directory.turns = [replace(TURNS[0], content="my key is sk-ant-abcdefghijklmnop1234 ok")]
    summaries, later = use_case(directory, model)
    summaries.make_later_now(SummaryRequest("s1"))
    assert "sk-ant-abcdefghijklmnop1234" not in model.shown[0] and "[REDACTED:anthropic key]" in model.shown[0]


def test_a_possessive_name_is_the_name_the_session_holds():
    assert checked("They liked Samantha's smile.", "a girl named Samantha").unsupported == ()


@pytest.mark.parametrize(("said", "unsupported"), [
    ("The user met Dr. Jones.", ("Dr", "Jones")),  # a title does not end the sentence: the name is read
    ("On May 8, 2023 they met.", ()),  # the day as the prompt wrote it: 08 May 2023
    ("It cost 1,500 yen.", ()),
    ("They adopted 4 cats.", ("4",)),  # the prompt's own "2-4" is not the session's
    ("They visited Hase with friends.", ()),  # a part of the session's "Hase-dera"
    ("She saw Ивана and Петра.", ("Петра",)),
])
def test_the_check_reads_titles_numbers_and_names_in_any_script(said, unsupported):
    session = "08 May 2023\nWe went to Hase-dera. It cost 1500 yen. Я видел Ивана."
    assert checked(said, session).unsupported == unsupported


def test_a_hyphenated_name_is_held_when_each_of_its_parts_is():
    assert checked("It runs a Go-based service.", "a service written in Go, based on gRPC").unsupported == ()
    assert checked("It runs a Rust-based service.", "a service written in Go, based on gRPC").unsupported == ("Rust-based",)


def test_a_prompt_the_model_finds_too_long_is_cut_to_fewer_turns_until_it_fits():
    from oneclaw_search.data.summaries.local_model import TooLong

    class Narrow(Model):
        def complete(self, text: str, answer_tokens: int = 160) -> str:
            self.shown.append(text)
            if len(text) > 1_500:  # as a tokenizer finds text of ids and numbers longer than prose
                raise TooLong("too long for its context")
            return self.answer

    turns = tuple(Turn(f"t{i}", "USER", f"turn {i} holds Lisbon " + "x1y2z3 " * 40, MAY_8 + i) for i in range(60))
    model = Narrow("The user wrote about Lisbon.")
    digest = ModelProseSummarizer(model, ExtractiveSummarizer()).summarize(Transcript(CHAT.session, turns))
    assert digest.summary.startswith("The user wrote about Lisbon. ") and len(model.shown) >= 3
    assert "turn 0 " in model.shown[-1] and "turn 59 " in model.shown[-1] and len(model.shown[-1]) <= 1_500


def test_a_model_that_finds_every_prompt_too_long_gives_way_to_the_extractive_summary():
    from oneclaw_search.data.summaries.local_model import TooLong

    digest = ModelProseSummarizer(Model(TooLong("too long for its context")), ExtractiveSummarizer()).summarize(CHAT)
    assert digest.method.endswith("(local:tiny unavailable: too long for its context)")


def test_a_lists_numbering_and_the_pronoun_i_are_not_read_as_claims():
    said = "1. The user said I'm moving to Lisbon.\n2) Then I’ve booked Porto.\n- They met Samantha in 2022."
    kept = checked(said, "\n".join(turn.content for turn in TURNS))
    assert kept.unsupported == ("Porto",) and kept.entities == 4  # Lisbon, Porto, Samantha, 2022: no "1", "2" or "I'm"
    assert kept.text == "The user said I'm moving to Lisbon. They met Samantha in 2022."
