"""A short answer beats a long turn that mentions everything (Q-01): in a coding agent's history the
turn that states a cause is short, while the end-of-task summary after it holds more of the question's
words in passing. A row's own words are scored alone too, so its length keeps costing it as bare BM25
makes it cost, and the answer ranks above the summary (and above the short turn beside it that only
its neighbour lifts). A window holding a row's own text four times, with no own words scored alone,
saturates a term at one occurrence and puts the summary first.
"""
import random

import pytest
from acceptance_helpers import ids
from builders import built, ms, new_message, new_session
from fakes import FixedClock

from oneclaw_search.di import create_injector
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.window_bm25 import WindowLayout

CLOCK = FixedClock(ms("2026-03-01T12:00"))
SUMMARY = ("Perfect! Let me provide a summary of what was done. ## Summary "
           + " ".join(["The release notes, the changelog and the readme were updated."] * 3)
           + " The export command was looked at once more, and an old failing test about a windows file path was removed "
             "because it duplicated another. " + " ".join(["The version was bumped and the tag was pushed."] * 4)
           + " All 214 tests pass.")
TURNS = [("USER", "Export still fails for me on Windows when I pass a file path. Can you dig in."),
         ("AI_RESPONSE", "Reading the export code now."),
         ("AI_RESPONSE", "Found it: the export failed because backslashes in a Windows path were read as escapes."),
         ("USER", "Great, fix it and then write me a summary."),
         ("AI_RESPONSE", SUMMARY)]
# Other sessions' turns, of the lengths a coding history has, so lengths are weighed against a real average.
CHATTER = ["config", "loader", "cache", "key", "lockfile", "template", "render", "message", "tool", "call", "marker",
           "rename", "module", "test", "suite", "coverage", "branch", "merge", "commit", "push", "review", "comment",
           "lint", "format", "release", "version", "tag", "docs", "readme", "changelog", "parser", "token", "stream",
           "buffer", "worker", "queue", "retry", "timeout", "socket", "client", "server", "request", "response",
           "header", "body"]


@pytest.fixture
def coding_history(history):
    rng = random.Random(4)
    rows = [new_message(f"t{n}", "fix", text, f"2026-02-20T10:{n:02d}", kind) for n, (kind, text) in enumerate(TURNS)]
    chatter = [" ".join(rng.choices(CHATTER, k=rng.choice([10, 25, 50, 80, 120]))) + "." for _ in range(120)]
    rows += [new_message(f"o{n}", f"other{n // 10}", text, f"2026-02-1{n // 20}T09:{n % 60:02d}", "USER" if n % 2 == 0 else "AI_RESPONSE")
             for n, text in enumerate(chatter)]
    sessions = [new_session("fix", "Export bug", "2026-02-20T10:00")]
    sessions += [new_session(f"other{n}", f"Chore {n}", f"2026-02-1{n // 2}T09:00") for n in range(12)]
    return history(sessions, rows)


SHIPPED = RankingSettings()


def ranked(path, query, ranking=SHIPPED):
    return ids(built(create_injector(path, clock=CLOCK, time_zone="UTC", embedder=None, ranking=ranking)), query=query,
               scope="sessions")


@pytest.mark.spec("Q-01")
@pytest.mark.parametrize("query", ["why did the export fail on a windows file path?", "export fail windows file path"])
def test_the_turn_stating_the_cause_ranks_above_the_summary_that_mentions_more_of_the_question(coding_history, query):
    found = ranked(coding_history, query)
    assert found.index("t2") < found.index("t4")  # the answer, above the summary holding every word of the question
    assert found.index("t2") < found.index("t1")  # and above a turn holding one, lifted by the question before it


@pytest.mark.spec("Q-01")
def test_a_window_holding_a_rows_own_text_four_times_puts_the_summary_first(coding_history):
    saturated = ranked(coding_history, "export fail windows file path", RankingSettings(WindowLayout(4, (1,), (1,), words_alone=False)))
    assert saturated.index("t4") < saturated.index("t2")  # the layout the worst-case selection turned down
