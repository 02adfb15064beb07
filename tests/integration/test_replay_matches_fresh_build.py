"""One reply however the history was written (Q-11): a LoCoMo-size history written the way the app
writes it (raw SQL), 80 % indexed first, the rest arriving in five rounds that each edit six older
turns in place and delete three, with searches between them; after `oneclaw-search index`, every
query's whole reply equals the reply of a fresh build of the same file: the same rows, in the same
order, every other field alike, and each row's raw score within 0.1 %.

Real SQLite files, real tantivy indexes, background builds started by the searches between rounds.
"""
import random

import pytest
from replay_writes import Plan, replay
from reply_differences import differences, replies

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.domain.clock import PinnedClock

MINUTE_MS, DAY_MS = 60_000, 86_400_000
START = 1_760_000_000_000
# A Zipf-like vocabulary: a few words in most turns, most words in few, so BM25's statistics matter.
WORDS = [f"{stem}{suffix}" for stem in ("paint", "lake", "sushi", "train", "garden", "novel", "piano", "market", "bridge", "harbour",
                                        "violin", "recipe", "museum", "forest", "camera", "ticket", "island", "poster", "lantern", "kettle")
         for suffix in ("", "s", "ing")]


def conversation(seed: int = 11, sessions: int = 24, turns: int = 660) -> tuple[list[NewSession], list[NewMessage]]:
    rng = random.Random(seed)
    weights = [1 / (rank + 1) for rank in range(len(WORDS))]
    made = [NewSession(f"s{n}", f"Chat {n}", START + n * DAY_MS) for n in range(sessions)]
    messages = []
    for n in range(turns):
        session = n * sessions // turns
        words = rng.choices(WORDS, weights, k=rng.randint(4, 40))
        text = " ".join(words).capitalize() + rng.choice([".", "?", "!"])
        messages.append(NewMessage(f"m{n}", f"s{session}", "USER" if n % 2 == 0 else "AI_RESPONSE", text,
                                   START + session * DAY_MS + (n % 40) * MINUTE_MS))
    return made, messages


def queries(count: int = 40, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    found = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(count)]
    return found + [f"the {first} and the {second}?" for first, second in zip(rng.sample(WORDS, 10), rng.sample(WORDS, 10), strict=True)]


@pytest.mark.spec("Q-11")
def test_after_appends_edits_and_deletes_every_reply_is_a_fresh_builds(tmp_path):
    sessions, messages = conversation()
    asked = queries()
    clock = PinnedClock(max(message.created_at for message in messages) + DAY_MS)
    done = replay(tmp_path, sessions, messages, asked, clock, Plan(), seed=3)
    assert len(done.edited) == 30 and len(done.deleted) == 15
    ours, fresh = replies(done.path, done.index, asked, clock), replies(done.fresh_path, done.fresh_index, asked, clock)
    assert sum(bool(reply.get("results")) for reply in fresh) >= 0.9 * len(asked)  # the comparison compares something
    assert differences(asked, ours, fresh) == []
