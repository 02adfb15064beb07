"""Measures how often the real search_history tool finds the gold evidence, on both kinds of history:
LoCoMo's dev conversations and the coding-agent set, with bare tantivy's variants run on the same
histories as the floor.

    python tests/benchmarks/bench_recall.py                   # every development set (coding where its transcripts are found)
    python tests/benchmarks/bench_recall.py --set blind       # the frozen third set: scored once, at the end
    python tests/benchmarks/bench_recall.py --set locomo --context 0
    python tests/benchmarks/bench_recall.py --smoke           # one LoCoMo conversation, 25 queries
    python tests/benchmarks/bench_recall.py --pg-url URL      # the PostgreSQL backend on that server

Recall counts the gold turns among the first turns the JSON reply shows (recall_sets.py): R@5, R@10,
MRR@10 and the share of empty replies for all queries pooled, then R@10 per fold with the folds' mean
and worst, for the tool and for each bare variant.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_tantivy import FLOOR_LABELS, VARIANTS, BareTantivy, best_floor  # noqa: E402
from blind_set import blind_set, mirrors, missing  # noqa: E402
from coding_set import LABELS, SECOND, coding_set, default_repo  # noqa: E402
from locomo_data import DATASET, locomo_set  # noqa: E402
from recall_sets import FIELDS, SHOWN_TURNS, History, RecallSet, ask, shown_turns  # noqa: E402

from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

OURS = "ours"


def search(engine: ToolExecutionEngine, text: str, context: int | None) -> dict:
    started = time.perf_counter()
    result = ask(engine, text, context)
    elapsed = (time.perf_counter() - started) * 1000
    if not result.is_success:
        print(f"ERROR for {text!r}: {result.error_type}: {result.error_message}")
        return {"error": True, "results": [], "ms": elapsed}
    return {"error": False, "results": json.loads(result.result)["results"], "ms": elapsed}


def engine_for(history: History, pg_url: str | None) -> ToolExecutionEngine:
    if pg_url is None:
        return create_injector(history.path, clock=history.clock, time_zone="UTC").get(ToolExecutionEngine)
    return postgres_engine(pg_url, history)


def postgres_engine(url: str, history: History) -> ToolExecutionEngine:
    """The history written again into a fresh tenant of the server at `url` (the PostgreSQL backend)."""
    import uuid

    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema
    from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
    from oneclaw_search.di.core_module import default_embedder

    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    tenant = f"recall-{history.id}-{uuid.uuid4().hex[:8]}"
    add_tenant(admin, tenant)
    admin.close()
    history.fill(PostgresHistoryWriter(PostgresHistory(url, tenant), default_embedder()))
    return create_injector(url, tenant=tenant, clock=history.clock, time_zone="UTC").get(ToolExecutionEngine)


def run_set(recall_set: RecallSet, context: int | None, pg_url: str | None, floors: bool) -> list[dict]:
    """One record per query, field and method: the turns shown, and for the tool its time."""
    records = []
    for history in recall_set.histories:
        mine = [query for query in recall_set.queries if query.history == history.id]
        engine = engine_for(history, pg_url)
        if mine:
            search(engine, mine[0].keyword_query, context)  # loads the embedder and memory: kept out of the timings
        bare = BareTantivy(history.path) if floors else None
        for query in mine:
            for field in FIELDS:
                base = {"query": query.id, "fold": query.fold, "field": field, "gold": query.gold}
                found = search(engine, query.text(field), context)
                records.append({**base, "method": OURS, "shown": shown_turns(found["results"]), "ms": found["ms"],
                                "error": found["error"], "results": found["results"]})
                records += [{**base, "method": variant.label, "shown": bare.shown(variant.label, query.text(field))}
                            for variant in (VARIANTS if bare else ())]
    return records


def scores(shown: list[str], gold: list[str]) -> tuple[float, float, float, float]:
    """R@5, R@10 and MRR@10 over the shown turns, and whether the reply was empty."""
    wanted = set(gold)
    recall_5, recall_10 = (len(wanted.intersection(shown[:k])) / len(wanted) for k in (5, 10))
    rank = next((i for i, turn in enumerate(shown[:10], start=1) if turn in wanted), None)
    return recall_5, recall_10, 1 / rank if rank else 0.0, float(not shown)


def pooled(records: list[dict]) -> list[float]:
    rows = [scores(r["shown"], r["gold"]) for r in records]
    return [statistics.fmean(column) for column in zip(*rows, strict=True)] if rows else [0.0] * 4


def by_fold(records: list[dict], method: str) -> dict[str, tuple[float, float]]:
    """Each fold's R@10 for keyword queries and for questions."""
    folds = dict.fromkeys(r["fold"] for r in records)
    return {fold: tuple(pooled([r for r in records if r["method"] == method and r["fold"] == fold and r["field"] == field])[1]
                        for field in FIELDS) for fold in folds}  # type: ignore[misc]


def report(recall_set: RecallSet, records: list[dict], context: int | None) -> dict:
    ours = [r for r in records if r["method"] == OURS]
    timings = sorted(r["ms"] for r in ours) or [0.0]
    print(f"\n== {recall_set.name}: {len(recall_set.queries)} queries over {len(recall_set.histories)} histories, "
          f"{len(recall_set.folds)} folds; scope sessions, context {'default' if context is None else context}; "
          f"errors: {sum(r['error'] for r in ours)}")
    print(f"wall time per query: p50 {statistics.median(timings):.1f} ms, "
          f"p95 {timings[min(len(timings) - 1, int(0.95 * len(timings)))]:.1f} ms")
    methods = list(dict.fromkeys(r["method"] for r in records))
    print(f"\n{'method, queries pooled':<74}{'R@5':>7}{'R@10':>7}{'MRR@10':>8}{'zero':>7}")
    for method in methods:
        for field in FIELDS:
            r5, r10, mrr, zero = pooled([r for r in records if r["method"] == method and r["field"] == field])
            label = f"{method}: {field}" + (", turns shown" if method == OURS else "")
            print(f"{label:<74}{r5:>7.3f}{r10:>7.3f}{mrr:>8.3f}{zero:>7.3f}")
    folds = {method: by_fold(records, method) for method in methods}
    print("\nR@10 per fold, keyword queries / questions:")
    print(f"{'fold':<14}" + "".join(f"{name[:30]:>32}" for name in methods))
    for fold in recall_set.folds:
        print(f"{fold:<14}" + "".join(f"{folds[m][fold][0]:>25.3f} / {folds[m][fold][1]:.3f}" for m in methods))
    for name, pick in (("mean", statistics.fmean), ("worst", min)):
        print(f"{name:<14}" + "".join(f"{pick(v[0] for v in folds[m].values()):>25.3f} / "
                                      f"{pick(v[1] for v in folds[m].values()):.3f}" for m in methods))
    figures = {"set": recall_set.name, "folds": folds,
               "pooled": {m: {f: pooled([r for r in records if r["method"] == m and r["field"] == f]) for f in FIELDS}
                          for m in methods}}
    if all(label in folds for label in FLOOR_LABELS):
        figures["floor"] = against_floor(recall_set, records, folds)
    return figures


def against_floor(recall_set: RecallSet, records: list[dict], folds: dict[str, dict[str, tuple[float, float]]]) -> dict:
    """The tool beside the floor (the best of bare tantivy's floor variants, per kind of query), fold by
    fold: the difference, and whether a fold falls below its floor by more than one of its queries."""
    names, floor = best_floor(folds, recall_set.folds)
    ours = folds[OURS]
    sizes = {fold: sum(1 for query in recall_set.queries if query.fold == fold) for fold in recall_set.folds}
    print(f"\nthe floor: keyword queries '{names[0]}', questions '{names[1]}'")
    print(f"{'fold':<14}{'ours':>17}{'floor':>17}{'ours - floor':>19}{'one query':>11}  more than one query under")
    for fold in recall_set.folds:
        gaps = [ours[fold][kind] - floor[fold][kind] for kind in (0, 1)]
        under = [FIELDS[kind] for kind in (0, 1) if gaps[kind] < -1 / sizes[fold] - 1e-9]
        print(f"{fold:<14}{ours[fold][0]:>9.3f} / {ours[fold][1]:.3f}{floor[fold][0]:>9.3f} / {floor[fold][1]:.3f}"
              f"{gaps[0]:>+11.3f} / {gaps[1]:+.3f}{1 / sizes[fold]:>11.3f}  {', '.join(under) or '-'}")
    means = [[statistics.fmean(table[f][kind] for f in recall_set.folds) for kind in (0, 1)] for table in (ours, floor)]
    print(f"{'mean':<14}{means[0][0]:>9.3f} / {means[0][1]:.3f}{means[1][0]:>9.3f} / {means[1][1]:.3f}"
          f"{means[0][0] - means[1][0]:>+11.3f} / {means[0][1] - means[1][1]:+.3f}")
    pooled_floor = [pooled([r for r in records if r["method"] == names[kind] and r["field"] == FIELDS[kind]])[1] for kind in (0, 1)]
    pooled_ours = [pooled([r for r in records if r["method"] == OURS and r["field"] == field])[1] for field in FIELDS]
    print(f"{'pooled':<14}{pooled_ours[0]:>9.3f} / {pooled_ours[1]:.3f}{pooled_floor[0]:>9.3f} / {pooled_floor[1]:.3f}"
          f"{pooled_ours[0] - pooled_floor[0]:>+11.3f} / {pooled_ours[1] - pooled_floor[1]:+.3f}")
    dropped = [dropped_gold(records, names[kind], FIELDS[kind]) for kind in (0, 1)]
    print(f"gold turns the floor shows among its first {FLOOR_FIRST} and the tool not among its {SHOWN_TURNS}, of those the "
          f"floor shows there: {dropped[0][0]} of {dropped[0][1]} / {dropped[1][0]} of {dropped[1][1]}")
    return {"variants": names, "folds": floor, "means": means[1], "pooled": pooled_floor, "dropped": dropped}


FLOOR_FIRST = 7  # how far down the floor's reply a turn it found counts as found


def dropped_gold(records: list[dict], floor: str, field: str) -> tuple[int, int]:
    """What bare BM25 gets right that the tool loses: gold turns among the floor's first FLOOR_FIRST
    shown turns that the tool's reply does not show, and how many gold turns the floor shows there."""
    ours = {r["query"]: set(r["shown"]) for r in records if r["method"] == OURS and r["field"] == field}
    found = [(turn, r["query"]) for r in records if r["method"] == floor and r["field"] == field
             for turn in set(r["gold"]).intersection(r["shown"][:FLOOR_FIRST])]
    return sum(turn not in ours[query] for turn, query in found), len(found)


def show_misses(records: list[dict], count: int) -> None:
    misses = [r for r in records if r["method"] == OURS and r["field"] == FIELDS[0] and scores(r["shown"], r["gold"])[1] == 0]
    print(f"\nkeyword queries with R@10 = 0: {len(misses)}; showing {min(count, len(misses))}")
    for record in misses[:count]:
        print(f"  [{record['query']}] gold {record['gold']}; got {[r['id'] for r in record['results'][:3]]}")


SETS = {"dev": ("locomo", "coding", "coding_b"), "both": ("locomo", "coding"), "locomo": ("locomo",), "coding": ("coding",),
        "coding_b": ("coding_b",), "blind": ("blind",)}


def load_set(name: str, folder: Path, args: argparse.Namespace) -> RecallSet:
    if name == "locomo":
        return locomo_set(args.dataset, folder, 1 if args.smoke else None, 25 if args.smoke else None)
    if name == "blind":
        return blind_set(folder)
    labels = SECOND if name == "coding_b" else LABELS
    return coding_set(args.claude_history, folder, 5 if args.smoke else None, labels, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=tuple(SETS), default="dev",
                        help="dev: every set the model is chosen on; blind: the frozen third set, scored once")
    parser.add_argument("--dataset", type=Path, default=DATASET, help="the LoCoMo dev split's folder")
    parser.add_argument("--claude-history", type=Path, default=default_repo(),
                        help="a clone or bare mirror of randlee/claude-history "
                             "(default: $CLAUDE_HISTORY or the mirror beside the checkout)")
    parser.add_argument("--context", type=int, default=None, help="the context asked for (default: the tool's)")
    parser.add_argument("--no-floors", action="store_true", help="leave bare tantivy's variants out")
    parser.add_argument("--smoke", action="store_true", help="one LoCoMo conversation and a few coding queries, 25 queries each")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--pg-url", help="search the PostgreSQL backend on this server (a tenant per history)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    wanted = SETS[args.set]
    if "locomo" in wanted and not (args.dataset / "locomo10-dev.json").is_file():
        parser.error(f"no LoCoMo dev split in {args.dataset} (pass --dataset DIR)")
    if {"coding", "coding_b"} & set(wanted) and args.claude_history is None:
        if "locomo" not in wanted:
            parser.error("no clone of randlee/claude-history found (pass --claude-history REPO)")
        print("coding sets left out: no clone of randlee/claude-history found (pass --claude-history REPO)")
        wanted = ("locomo",)
    if "blind" in wanted and (gone := missing()):
        parser.error(f"no mirror of {', '.join(gone)} in {mirrors()} (set BLIND_MIRRORS)")
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        for name in wanted:
            recall_set = load_set(name, Path(folder), args)
            records = run_set(recall_set, args.context, args.pg_url, not args.no_floors)
            figures.append(report(recall_set, records, args.context))
            if args.show_misses:
                show_misses(records, args.show_misses)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
