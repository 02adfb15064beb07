"""LoCoMo's dev split as histories the real tool searches, one a conversation, in the shape of
recall_sets.py (bench_recall.py, bench_cross_validation.py and the calibration of memory's vectors).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from recall_sets import DAY_MS, History, Query, RecallSet, sqlite_history

from oneclaw_search.data.history.history_writer import NewMessage, NewSession
from oneclaw_search.data.history.new_rows import HistoryWrites
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.domain.models import MemoryChunk

# CC BY-NC data: read where it lies, never copied into this repository.
DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo"
MINUTE_MS = 60_000


def load(dataset: Path = DATASET) -> tuple[list[dict], list[dict]]:
    """The dev conversations and their graded queries (those with gold evidence)."""
    samples = json.loads((dataset / "locomo10-dev.json").read_text(encoding="utf-8"))
    queries = json.loads((dataset / "locomo10-dev.queries.json").read_text(encoding="utf-8"))["queries"]
    return samples, [q for q in queries if q["gold_message_ids"]]


def epoch_ms(stamp: str) -> int:
    moment = datetime.strptime(stamp, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def session_starts(conversation: dict) -> dict[int, int]:
    # conv-26 lists date_times for sessions that have no turns; only real sessions count.
    numbers = [int(m[1]) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))]
    return {n: epoch_ms(conversation[f"session_{n}_date_time"]) for n in sorted(numbers)}


def history_rows(sample: dict) -> tuple[list[NewSession], list[NewMessage], list[MemoryChunk]]:
    """The dataset README's mapping: a session per LoCoMo session, a message per turn (speaker_a's the
    user's), summaries as daily logs and observations as MEMORY.md chunks."""
    conv, cid = sample["conversation"], sample["sample_id"]
    a, b = conv["speaker_a"], conv["speaker_b"]
    starts = session_starts(conv)
    sessions = [NewSession(f"{cid}:S{n}", f"Session {n} with {a} and {b}", start) for n, start in starts.items()]
    messages = []
    for n, start in starts.items():
        for i, turn in enumerate(conv[f"session_{n}"]):
            text = turn["text"] + (f" [image: {turn['blip_caption']}]" if turn.get("blip_caption") else "")
            kind = "USER" if turn["speaker"] == a else "AI_RESPONSE"
            messages.append(NewMessage(f"{cid}:{turn['dia_id']}", f"{cid}:S{n}", kind, text, start + i * MINUTE_MS))
    return sessions, messages, memory_chunks(sample, starts)


def memory_chunks(sample: dict, starts: dict[int, int]) -> list[MemoryChunk]:
    cid, chunks = sample["sample_id"], []
    for n, start in starts.items():
        day = datetime.fromtimestamp(start / 1000, UTC).date().isoformat()
        summary = sample["session_summary"].get(f"session_{n}_summary")
        if summary:
            chunks.append(MemoryChunk(f"{cid}:sum:{n}", "daily_log", day, summary, None, start, start))
        facts = sample["observation"].get(f"session_{n}_observation", {}).values()
        for k, (fact, _evidence) in enumerate((f for speaker in facts for f in speaker), start=1):
            chunks.append(MemoryChunk(f"{cid}:obs:{n}:{k}", "long_term", None, fact, None, start, start))
    return chunks


def locomo_history(sample: dict, folder: Path) -> History:
    """The conversation as a SQLite history in `folder`, and a clock a day after its last session."""
    rows = history_rows(sample)
    fill: Callable[[HistoryWrites], object] = lambda writer: writer.write(*rows)  # noqa: E731
    path = folder / f"{sample['sample_id']}.db"
    sqlite_history(path, fill)
    return History(sample["sample_id"], path, PinnedClock(max(s.created_at for s in rows[0]) + DAY_MS), fill)


def locomo_set(dataset: Path, folder: Path, conversations: int | None = None, per_conversation: int | None = None) -> RecallSet:
    """The first `conversations` dev conversations, each its own history and fold, with the first
    `per_conversation` of each one's graded queries."""
    samples, graded = load(dataset)
    histories, queries = [], []
    for sample in samples[:conversations]:
        cid = sample["sample_id"]
        histories.append(locomo_history(sample, folder))
        mine = [q for q in graded if q["conversation_id"] == cid][:per_conversation]
        queries += [Query(q["id"], cid, cid, q["keyword_query"], q["question"], q["gold_message_ids"]) for q in mine]
    return RecallSet("locomo", histories, queries)
