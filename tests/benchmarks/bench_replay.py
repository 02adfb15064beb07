"""One reply however the history was written: a LoCoMo conversation's writes replayed as the app makes
them (80 % written and indexed, the rest appended in five rounds, each round editing 6 older turns and
deleting 3, with searches between), `oneclaw-search index` run, then each of its queries asked both
ways of that history and of a fresh build of the same file, the whole replies compared.

    python tests/benchmarks/bench_replay.py               # the dev conversation with the most turns, 4 seeds
    python tests/benchmarks/bench_replay.py --runs 1 --conversation conv-26

Printed per run: replies whose rows differ, replies with the same rows in another order, replies whose
other fields differ, and the largest relative difference of a row's raw score.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from locomo_data import DATASET, history_rows, load  # noqa: E402
from replay_writes import Plan, replay  # noqa: E402
from reply_differences import compared, differences, replies  # noqa: E402

from oneclaw_search.domain.clock import PinnedClock  # noqa: E402

DAY_MS = 86_400_000


def run_once(sample: dict, queries: list[str], seed: int, plan: Plan) -> dict:
    sessions, messages, _ = history_rows(sample)
    clock = PinnedClock(max(m.created_at for m in messages) + DAY_MS)
    ordered = sorted(messages, key=lambda m: m.created_at)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        done = replay(Path(folder), sessions, ordered, queries, clock, plan, seed)
        ours = replies(done.path, done.index, queries, clock)
        fresh = replies(done.fresh_path, done.fresh_index, queries, clock)
        found = differences(queries, ours, fresh)
        return {"seed": seed, "queries": len(queries), "rows": sum(d.rows for d in found), "order": sum(d.order for d in found),
                "other": sum(not d.rows and not d.order and d.worst_score_gap <= 1e-3 for d in found),
                "score_gap": max((d.worst_score_gap for d, _ in compared(queries, ours, fresh)), default=0.0),
                "seconds": time.perf_counter() - started, "edited": len(done.edited), "deleted": len(done.deleted)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--conversation", help="a dev conversation's id (default: the one with the most turns)")
    parser.add_argument("--runs", type=int, default=4, help="replays, each with its own seed")
    args = parser.parse_args(argv)
    samples, graded = load(args.dataset)
    sample = (next(s for s in samples if s["sample_id"] == args.conversation) if args.conversation
              else max(samples, key=lambda s: len(history_rows(s)[1])))
    mine = [q for q in graded if q["conversation_id"] == sample["sample_id"]]
    queries = [text for q in mine for text in (q["keyword_query"], q["question"])]
    print(f"{sample['sample_id']}: {len(history_rows(sample)[1])} turns, {len(queries)} searches compared per run")
    rows = []
    for seed in range(1, args.runs + 1):
        row = run_once(sample, queries, seed, Plan())
        rows.append(row)
        print(f"seed {seed}: rows differ {row['rows']}, order differs {row['order']}, other fields differ {row['other']}, "
              f"largest raw-score gap {row['score_gap']:.4%} ({row['edited']} edits, {row['deleted']} deletes, {row['seconds']:.0f} s)")
    print(f"median: rows differ {statistics.median(r['rows'] for r in rows)}, order differs {statistics.median(r['order'] for r in rows)}, "
          f"largest raw-score gap {statistics.median(r['score_gap'] for r in rows):.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
