"""Measures how often the real search_history tool finds the gold evidence of LoCoMo's dev questions.

    python tests/benchmarks/bench_locomo.py                  # all dev conversations, scope "sessions"
    python tests/benchmarks/bench_locomo.py --smoke          # first conversation, first 25 queries
    python tests/benchmarks/bench_locomo.py --pg-url URL     # the PostgreSQL backend on that server

Recall counts the gold turns among the first turns the JSON reply shows (locomo_data.py); R@10 per
conversation and for all queries pooled, R@5 and MRR@10 over the same shown turns.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_data import DATASET, DAY_MS, FIELDS, FixedClock, history_rows, load, shown_turns, write_history  # noqa: E402

from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402


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
    if pg_url is not None:
        clock = FixedClock(max(s.created_at for s in rows[0]) + DAY_MS)
        engine = postgres_engine(pg_url, sample["sample_id"], rows, clock)
    else:
        path, clock = write_history(sample, folder)  # its side index built, as `oneclaw-search index` builds it
        engine = create_injector(path, clock=clock, time_zone="UTC").get(ToolExecutionEngine)
    if queries:
        search(engine, queries[0]["keyword_query"], scope)  # loads the embedder and memory: kept out of the timings
    records = [{"query": q, "field": f, "conversation": sample["sample_id"], **search(engine, q[f], scope)}
               for q in queries for f in FIELDS]
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
    """R@5, R@10 and MRR@10 over the shown turns `ids`, and whether the reply was empty."""
    wanted = set(gold)
    recall_5, recall_10 = (len(wanted.intersection(ids[:k])) / len(wanted) for k in (5, 10))
    rank = next((i for i, result_id in enumerate(ids[:10], start=1) if result_id in wanted), None)
    return recall_5, recall_10, 1 / rank if rank else 0.0, float(not ids)


def ranked_ids(record: dict) -> list[str]:
    return shown_turns(record["results"], 10)


def metric_row(records: list[dict]) -> list[float]:
    rows = [scores(ranked_ids(r), r["query"]["gold_message_ids"]) for r in records]
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
    title = "method (README rows: keyword queries, messages only, no context)"
    print(f"\n{title:<68}{'R@5':>7}{'R@10':>7}{'MRR@10':>8}{'zero':>7}")
    for field in FIELDS:
        r5, r10, mrr, zero = metric_row([r for r in records if r["field"] == field])
        print(f"{'ours: ' + field + ', turns shown':<68}{r5:>7.3f}{r10:>7.3f}{mrr:>8.3f}{zero:>7.3f}")
    for name, (r5, r10, mrr) in baselines(dataset):
        print(f"{'README: ' + name:<68}{r5:>7.3f}{r10:>7.3f}{mrr:>8.3f}{'n/a':>7}")
    conversations = list(dict.fromkeys(r["conversation"] for r in records))
    print("\nR@10 per conversation, keyword queries / questions: " + ", ".join(
        f"{c} {metric_row([r for r in records if r['conversation'] == c and r['field'] == FIELDS[0]])[1]:.3f}"
        f" / {metric_row([r for r in records if r['conversation'] == c and r['field'] == FIELDS[1]])[1]:.3f}"
        for c in conversations))


def show_misses(records: list[dict], texts: dict[str, str], count: int) -> None:
    keyword = [r for r in records if r["field"] == "keyword_query"]
    misses = [r for r in keyword if scores(ranked_ids(r), r["query"]["gold_message_ids"])[1] == 0]
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
    samples, queries = load(args.dataset)
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
