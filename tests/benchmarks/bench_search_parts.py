"""Where a warm search's time goes, part by part, on a copy of bench_scale.py's history (1M messages):
each part's calls are recorded during one pass of the query mix (scale_probes.QUERY_MIX, scope=all),
then each call is run again `--repeat` times and its fastest run kept, so a shared machine's noise
mostly drops out. Then whole searches with the three sources in parallel (as shipped) against one
after another, alternating per query so that drift on the machine hits both alike.

    python tests/benchmarks/bench_search_parts.py --db COPY [--repeat 7] [--rounds 6] [--what-if] [--json FILE]

COPY: a copy of bench_scale.py's cached history (its index is built beside it on the first run, which
waits for it). Parts the code under test lacks are left out, so the same script measures an older
checkout too: run it from that checkout.

--what-if then times whole searches with parts of the work taken away, alternating query by query: the
spec's literal reading of messages skipped, and the memory and session sources skipped. Their answers
differ from the shipped ones; they show what each part of the design costs a warm search, not a setting
anyone should ship.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_probes import QUERY_MIX, call, complete_index, open_search  # noqa: E402

import oneclaw_search.data.history.message_dao as message_dao  # noqa: E402
import oneclaw_search.domain.search_history_use_case as use_case  # noqa: E402
from oneclaw_search.domain.search_scope import SearchSource  # noqa: E402
from oneclaw_search.domain.source_searches import SourceHits  # noqa: E402

# (label, module, owner or None, function): the parts of one search, messages first. Parts an older
# checkout lacks (or names differently) are simply not found there.
PARTS = (
    ("messages: literal reading (trigram candidates, re-read)", "data.history.message_dao", "PeeweeMessageDao", "search_content"),
    ("messages + sessions: tantivy's ranked question", "data.index.indexed_search", None, "ranked_rowids"),
    ("messages: the rows found read", "data.history.message_dao", "PeeweeMessageDao", "hits"),
    ("messages + sessions: evidence of the rows found", "data.index.indexed_search", None, "row_evidence"),
    ("messages: soft-deleted sessions", "data.history.session_dao", "PeeweeSessionDao", "hidden"),
    ("sessions: literal reading", "data.history.session_dao", "PeeweeSessionDao", "search_by_title_or_preview"),
    ("sessions: the rows found read", "data.history.session_dao", "PeeweeSessionDao", "hits"),
    ("memory: hybrid search (BM25 + vectors)", "data.memory.hybrid_search_engine", "HybridSearchEngine", "search"),
    ("ranking: messages", "domain.search_history_use_case", None, "message_results"),
    ("ranking: sessions", "domain.search_history_use_case", None, "session_results"),
    ("merge, dedup and excerpts", "domain.search_history_use_case", None, "merge"),
    ("the turns shown around hits", "domain.search_history_use_case", None, "with_context"),
    ("messages + sessions: scores held to the live statistics", "data.index.keyword_search", None, "rescored"),
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a copy of bench_scale.py's history, indexed beside it or not")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each recorded call; the fastest is kept")
    parser.add_argument("--rounds", type=int, default=6, help="passes of the mix for parallel against serial")
    parser.add_argument("--what-if", action="store_true", help="also time searches with parts of the work taken away")
    parser.add_argument("--json", help="also write the figures to FILE")
    return parser.parse_args(argv)


def recorder(calls: dict[str, list], active: list[bool]):
    """Wraps each part present in the code under test so its calls are kept while `active`; a call
    made inside another recorded one (a count inside a count) is timed with it, not again."""
    inside = [0]
    for label, module, owner, name in PARTS:
        home = importlib.import_module(f"oneclaw_search.{module}")
        target = getattr(home, owner) if owner else home
        original = getattr(target, name, None)
        if original is None:
            continue

        def wrapped(*args, __original=original, __label=label, **kwargs):
            if active[0] and not inside[0]:
                calls[__label].append((__original, args, kwargs))
            inside[0] += 1
            try:
                return __original(*args, **kwargs)
            finally:
                inside[0] -= 1
        setattr(target, name, wrapped)


def fastest(function, args, kwargs, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function(*args, **kwargs)
        best = min(best, time.perf_counter() - started)
    return best


def serial(tasks, deadline):
    return {key: task() for key, task in tasks.items()}, []


def parallel_against_serial(tools, rounds: int) -> dict:
    modes = {"parallel": use_case.run_in_parallel, "serial": serial}
    ms: dict[str, list[float]] = {mode: [] for mode in modes}
    for turn in range(rounds):
        for query in QUERY_MIX:
            for mode in (list(modes) if turn % 2 == 0 else list(modes)[::-1]):
                use_case.run_in_parallel = modes[mode]
                ms[mode].append(call(tools, query)[0] * 1000)
    use_case.run_in_parallel = modes["parallel"]
    return {mode: {"p50": statistics.median(v), "p95": sorted(v)[int(0.95 * len(v))]} for mode, v in ms.items()}


def _messages_alone(self, source, *args, **kwargs):
    return SOURCE_SEARCH(self, source, *args, **kwargs) if source is SearchSource.MESSAGES else SourceHits([])


SOURCE_SEARCH = use_case.SearchHistoryUseCase._search_source
TAKEN_AWAY = {
    "no literal reading": [(message_dao.PeeweeMessageDao, "search_content", lambda *args, **kwargs: [])],
    "messages alone": [(use_case.SearchHistoryUseCase, "_search_source", _messages_alone)],
}


def what_if(tools, rounds: int) -> dict:
    """Whole searches (parallel, as shipped) with each of TAKEN_AWAY, alternating with the shipped search."""
    ms: dict[str, list[float]] = {"as shipped": [], **{name: [] for name in TAKEN_AWAY}}
    for turn in range(rounds):
        for query in QUERY_MIX:
            for name in (list(ms) if turn % 2 == 0 else list(ms)[::-1]):
                with contextlib.ExitStack() as stack:
                    for change in TAKEN_AWAY.get(name, []):
                        stack.enter_context(mock.patch.object(*change))
                    ms[name].append(call(tools, query)[0] * 1000)
    return {name: {"p50": statistics.median(v), "p95": sorted(v)[int(0.95 * len(v))]} for name, v in ms.items()}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.db.exists():
        sys.exit(f"{args.db} is missing: copy bench_scale.py's cached history there first")
    calls: dict[str, list] = defaultdict(list)
    active = [False]
    recorder(calls, active)
    tools, lookup = open_search(args.db)
    complete_index(tools, lookup)
    for query in QUERY_MIX:
        call(tools, query)
    serial_ms = []
    use_case.run_in_parallel, shipped = serial, use_case.run_in_parallel
    active[0] = True
    for query in QUERY_MIX:
        serial_ms.append(fastest(tools.execute_tool, ("search_history", {"query": query}), {}, 1) * 1000)
    active[0] = False
    use_case.run_in_parallel = shipped
    parts = {label: sum(fastest(f, a, k, args.repeat) for f, a, k in found) * 1000 / len(QUERY_MIX)
             for label, found in calls.items()}
    modes = parallel_against_serial(tools, args.rounds)
    print(f"{len(QUERY_MIX)} queries, scope=all, ms per search (the fastest of {args.repeat} runs of each call):")
    for label, ms in sorted(parts.items(), key=lambda item: -item[1]):
        print(f"  {label:<58} {ms:6.2f}")
    print(f"  {'one search, serial (one pass)':<58} {statistics.mean(serial_ms):6.2f}")
    for mode, figures in modes.items():
        print(f"whole searches, {mode:<8} p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms")
    taken = what_if(tools, args.rounds) if args.what_if else {}
    for name, figures in taken.items():
        print(f"what if: {name:<28} p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms")
    if args.json:
        Path(args.json).write_text(json.dumps({"parts": parts, "modes": modes, "what_if": taken}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
