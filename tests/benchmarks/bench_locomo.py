"""Measures how often the real search_history tool finds the gold evidence of LoCoMo's dev questions.

    python tests/benchmarks/bench_locomo.py                  # all dev conversations, scope "sessions"
    python tests/benchmarks/bench_locomo.py --smoke          # first conversation, first 25 queries
    python tests/benchmarks/bench_locomo.py --pg-url URL     # the PostgreSQL backend on that server
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from oneclaw_search.data.history.history_writer import HistoryWriter, NewMessage, NewSession
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.di import create_injector
from oneclaw_search.di.core_module import default_embedder
from oneclaw_search.domain.models import MemoryChunk
from oneclaw_search.tools import ToolExecutionEngine

# CC BY-NC data: read where it lies, never copied into this repository.
DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo"
FIELDS = ("keyword_query", "question")
MINUTE_MS, DAY_MS = 60_000, 86_400_000


class FixedClock:
    """Search "now" pinned after the conversation; budgets still run on the real monotonic clock."""

    def __init__(self, now_ms: int) -> None:
        self._now_ms = now_ms

    def now_ms(self) -> int:
        return self._now_ms

    def monotonic(self) -> float:
        return time.monotonic()


def epoch_ms(stamp: str) -> int:
    moment = datetime.strptime(stamp, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def session_starts(conversation: dict) -> dict[int, int]:
    # conv-26 lists date_times for sessions that have no turns; only real sessions count.
    numbers = [int(m[1]) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))]
    return {n: epoch_ms(conversation[f"session_{n}_date_time"]) for n in sorted(numbers)}


def history_rows(sample: dict) -> tuple[list, list, list]:
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


def search(engine: ToolExecutionEngine, query: str, scope: str) -> dict:
    started = time.perf_counter()
    parameters = {"query": query, "scope": scope, "max_results": 10, "format": "json"}
    result = engine.execute_tool("search_history", parameters)
    elapsed = (time.perf_counter() - started) * 1000
    if not result.is_success:
        print(f"ERROR for {query!r}: {result.error_type}: {result.error_message}")
        return {"error": True, "results": [], "ms": elapsed}
    document = json.loads(result.result)
    return {"error": False, "results": document["results"], "retrievers": document.get("retrievers"), "ms": elapsed}


def run_conversation(sample: dict, queries: list[dict], scope: str, folder: Path,
                     pg_url: str | None = None) -> tuple[list[dict], dict]:
    rows = history_rows(sample)
    texts = {m.id: m.content for m in rows[1]}
    clock = FixedClock(max(s.created_at for s in rows[0]) + DAY_MS)
    if pg_url is not None:
        engine = postgres_engine(pg_url, sample["sample_id"], rows, clock)
    else:
        path = folder / f"{sample['sample_id']}.db"
        database = open_writable(path)
        HistoryWriter(database, default_embedder()).write(*rows)
        database.close()
        engine = create_injector(path, clock=clock, time_zone="UTC").get(ToolExecutionEngine)
    if queries:
        search(engine, queries[0]["keyword_query"], scope)  # builds the side index; kept out of the timings
    records = [{"query": q, "field": f, **search(engine, q[f], scope)} for q in queries for f in FIELDS]
    return records, texts


def postgres_engine(url: str, sample_id: str, rows: tuple[list, list, list], clock: FixedClock) -> ToolExecutionEngine:
    """The conversation in a fresh tenant of the server at `url` (the PostgreSQL backend)."""
    import uuid

    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema
    from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    tenant = f"locomo-{sample_id}-{uuid.uuid4().hex[:8]}"
    add_tenant(admin, tenant)
    admin.close()
    PostgresHistoryWriter(PostgresHistory(url, tenant), default_embedder()).write(*rows)
    return create_injector(url, tenant=tenant, clock=clock, time_zone="UTC").get(ToolExecutionEngine)


def scores(ids: list[str], gold: list[str]) -> tuple[float, float, float, float]:
    wanted = set(gold)
    recall_5, recall_10 = (len(wanted.intersection(ids[:k])) / len(wanted) for k in (5, 10))
    rank = next((i for i, result_id in enumerate(ids[:10], start=1) if result_id in wanted), None)
    return recall_5, recall_10, 1 / rank if rank else 0.0, float(not ids)


def ranked_ids(record: dict, messages_only: bool) -> list[str]:
    return [r["id"] for r in record["results"] if not messages_only or r["source"] == "message"]


def metric_row(records: list[dict], messages_only: bool) -> list[float]:
    rows = [scores(ranked_ids(r, messages_only), r["query"]["gold_message_ids"]) for r in records]
    return [statistics.fmean(column) for column in zip(*rows, strict=True)] if rows else [0.0] * 4


def baselines(dataset: Path) -> list[tuple[str, list[float]]]:
    rows = []
    for line in (dataset / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and all(re.fullmatch(r"\d+\.\d+", c) for c in cells[1:]):
            rows.append((cells[0], [float(c) for c in cells[1:]]))
    return rows


def report(records: list[dict], dataset: Path, scope: str, conversations: int) -> None:
    timings = sorted(r["ms"] for r in records) or [0.0]
    # Which retrievers ran can differ per query; list every one seen, in first-seen order.
    retrievers = list(dict.fromkeys(name for r in records for name in r.get("retrievers") or ()))
    print(f"queries: {len(records) // len(FIELDS)} over {conversations} conversation(s), scope {scope}, "
          f"errors: {sum(r['error'] for r in records)}")
    print(f"embedder (memory chunks): {default_embedder().name}; "
          f"retrievers: {', '.join(retrievers) if retrievers else 'n/a'}")
    print(f"wall time per query: p50 {statistics.median(timings):.1f} ms, "
          f"p95 {timings[min(len(timings) - 1, int(0.95 * len(timings)))]:.1f} ms")
    title = "method (README rows: keyword queries, messages only)"
    print(f"\n{title:<68}{'R@5':>7}{'R@10':>7}{'MRR@10':>8}{'zero':>7}")
    for field in FIELDS:
        chosen = [r for r in records if r["field"] == field]
        for label, messages_only in (("all results", False), ("messages only", True)):
            r5, r10, mrr, zero = metric_row(chosen, messages_only)
            print(f"{'ours: ' + field + ', ' + label:<68}{r5:>7.3f}{r10:>7.3f}{mrr:>8.3f}{zero:>7.3f}")
    for name, (r5, r10, mrr) in baselines(dataset):
        print(f"{'README: ' + name:<68}{r5:>7.3f}{r10:>7.3f}{mrr:>8.3f}{'n/a':>7}")


def show_misses(records: list[dict], texts: dict[str, str], count: int) -> None:
    keyword = [r for r in records if r["field"] == "keyword_query"]
    misses = [r for r in keyword if scores(ranked_ids(r, False), r["query"]["gold_message_ids"])[1] == 0]
    print(f"\nkeyword queries with R@10 = 0: {len(misses)}; showing {min(count, len(misses))}")
    for record in misses[:count]:
        query = record["query"]
        print(f"\n[{query['id']}] {query['question']!r} -> keyword_query {query['keyword_query']!r}")
        for gold in query["gold_message_ids"]:
            print(f"  gold {gold}: {one_line(texts.get(gold, '?'))}")
        for result in record["results"][:3]:
            print(f"  got  {result['id']} ({result['source']}): {one_line(result['text'])}")


def one_line(text: str) -> str:
    return " ".join(text.split())[:160]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--scope", choices=("sessions", "all"), default="sessions")
    parser.add_argument("--smoke", action="store_true", help="first conversation, first 25 queries")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--pg-url", help="search the PostgreSQL backend on this server (a tenant per conversation)")
    args = parser.parse_args(argv)
    if not (args.dataset / "locomo10-dev.json").is_file():
        parser.error(f"no LoCoMo dev split in {args.dataset} (pass --dataset DIR)")
    samples = json.loads((args.dataset / "locomo10-dev.json").read_text(encoding="utf-8"))
    queries = json.loads((args.dataset / "locomo10-dev.queries.json").read_text(encoding="utf-8"))["queries"]
    ungraded = [q["id"] for q in queries if not q["gold_message_ids"]]
    if ungraded:  # recall is undefined without gold; none in the dev split, but say so if it changes
        print(f"skipping {len(ungraded)} queries with no gold_message_ids: {', '.join(ungraded[:5])}")
        queries = [q for q in queries if q["gold_message_ids"]]
    samples = samples[:1] if args.smoke else samples[:args.conversations]
    records, texts = [], {}
    with tempfile.TemporaryDirectory() as folder:
        for sample in samples:
            mine = [q for q in queries if q["conversation_id"] == sample["sample_id"]][:25 if args.smoke else None]
            found, sample_texts = run_conversation(sample, mine, args.scope, Path(folder), args.pg_url)
            records += found
            texts |= sample_texts
    report(records, args.dataset, args.scope, len(samples))
    if args.show_misses:
        show_misses(records, texts, args.show_misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
