"""The scale benchmark's measuring processes: each runs fresh, prints one JSON line, and is run by
bench_scale.py (its peak RSS and wall time read by the parent from os.wait4).

    python scale_probes.py build DB                           # build the side index now
    python scale_probes.py background DB --launched T         # search an unindexed history while it builds
    python scale_probes.py first DB --launched T              # only the first search of an unindexed history
    python scale_probes.py warm DB --rounds N --spec-rounds M # warm latency, 1K catch-ups, the spec's path

Also the query mix, the index's files on disk, and the process runner the parent uses.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_corpus import FRESH, NO_HIT, QUERIES, RARE, VOCABULARY, append_messages  # noqa: E402

from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.data.index.schema import BODY, MESSAGES  # noqa: E402
from oneclaw_search.data.index.side_index import default_index_path, keyword_folder  # noqa: E402
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine  # noqa: E402
from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.di.index_module import IndexParts  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

SCOPES = ("all", "sessions", "memory", "daily_log")
# The corpus's own probes (a multi-keyword query, a common word, a rare word, a quoted phrase, an identifier, a
# path, a uuid prefix, a dotted key, an unaccented word, CJK, a word with no hit, a long question), then common
# two-word queries, two more CJK words, a long-tail word (a few hits per 100K messages), a stop word found in
# most rows and an accented word.
COMMON_PAIRS = ("database migration", "meeting notes", "api config", "api key", "bug fix", "flight hotel",
                "restaurant booking", "sushi shibuya", "json parse")
QUERY_MIX = tuple(dict.fromkeys([*QUERIES, *COMMON_PAIRS, "寿司", "数据库", VOCABULARY[-1].lower(),
                                        "the", "über"]))
BUILD_QUERIES = ("database migration", NO_HIT, "東京", RARE, "meeting notes", "zyxwvutq plover", "api config")
CATCH_UPS, CATCH_UP_ROWS, BUILD_POLL_S, SEARCH_EVERY_S = 3, 1_000, 0.05, 0.5


def say(message: str) -> None:
    """Progress on stderr: stdout carries the JSON line."""
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Ran:
    seconds: float  # the whole process, launch to exit
    stdout: str
    rss_mb: float  # its peak resident set


def run_measured(command: list[str]) -> Ran:
    """Run a process to its end; its own peak RSS comes from wait4, not from RUSAGE_CHILDREN's running max."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    stdout = process.stdout.read()
    process.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command, stdout)
    return Ran(time.perf_counter() - started, stdout, usage.ru_maxrss / 1024)  # Linux reports KiB


def index_files(db: Path) -> dict[str, int]:
    """Bytes on disk of the side file (with its -wal and -shm) and of the tantivy folder."""
    side = default_index_path(db)
    sizes = {"side file": sum(p.stat().st_size for p in (side, *side.parent.glob(side.name + "-*")) if p.is_file())}
    sizes["tantivy folder"] = sum(p.stat().st_size for p in keyword_folder(side).rglob("*") if p.is_file())
    return sizes


def drop_index(db: Path) -> None:
    side = default_index_path(db)
    for path in (side, *side.parent.glob(side.name + "-*")):
        path.unlink(missing_ok=True)
    shutil.rmtree(keyword_folder(side), ignore_errors=True)


def open_search(db: Path, embedder: str | None = "default", indexed: bool = True):
    """(tools, lookup) over `db`, the index beside it; lookup is None on the spec's literal path."""
    where = str(default_index_path(db)) if indexed else None
    container = create_injector(db, index_path=where, embedder=embedder)
    tools = container.get(ToolExecutionEngine)
    tools.memory = container.get(HybridSearchEngine)  # so a warm probe can wait for memory's model
    return tools, container.get(IndexParts).lookup


def call(tools: ToolExecutionEngine, query: str, scope: str = "all") -> tuple[float, str | None]:
    """Seconds taken and the tool's text; None when it failed, since a timeout is a measurement too."""
    started = time.perf_counter()
    result = tools.execute_tool("search_history", {"query": query, "scope": scope})
    seconds = time.perf_counter() - started
    if not result.is_success:
        say(f"  {query!r} ({scope}) after {seconds:.1f} s: {result.error_type}: {result.error_message}")
    return seconds, result.result if result.is_success else None


def percentile(ms: list[float], fraction: float) -> float:
    ordered = sorted(ms)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def peak_rss_mb() -> float:
    """This process's own peak; a build the search started in a process of its own counts apart."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_anon_mb() -> float:
    """This process's anonymous resident memory now (its own allocations, not the index's mapped files)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return 0.0


def build_probe(db: Path) -> dict:
    """The whole build, as `oneclaw-search index` runs it, its anonymous memory sampled as it goes."""
    _, lookup = open_search(db)
    read, top = lookup.sync.backlog()
    peak, done_building = [0.0], threading.Event()

    def sample() -> None:
        while not done_building.wait(0.2):
            peak[0] = max(peak[0], rss_anon_mb())
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    lookup.sync.catch_up()
    seconds = time.perf_counter() - started
    done_building.set()
    done, _ = lookup.sync.backlog()
    return {"seconds": seconds, "rows": top - read, "complete": done >= top, "rss_mb": peak_rss_mb(),
            "rss_anon_peak_mb": max(peak[0], rss_anon_mb())}


def wait_while_building(builder, seconds: float) -> float | None:
    """Sleep up to `seconds`, watching the build; when it has stopped, the time it was seen stopped."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        if not builder.running:
            return time.perf_counter()
        time.sleep(BUILD_POLL_S)
    return None if builder.running else time.perf_counter()


def searches_during_build(tools, lookup, started: float) -> tuple[list[dict], float]:
    """A search every SEARCH_EVERY_S while the background build runs; (samples, seconds it ran)."""
    samples, ended, turn = [], None if lookup.builder.running else time.perf_counter(), 1
    while ended is None:
        ended = wait_while_building(lookup.builder, SEARCH_EVERY_S)
        if ended is None:
            query = BUILD_QUERIES[turn % len(BUILD_QUERIES)]
            seconds, _ = call(tools, query)
            samples.append({"query": query, "seconds": seconds, "state": lookup.describe()})
            turn += 1
            if turn % 20 == 0:
                say(f"   {samples[-1]['state'] or 'complete'}, last search {seconds:.2f} s")
    return samples, ended - started


def background_probe(db: Path, launched: float) -> dict:
    """A fresh process on a history with no index: its first search, then searches while the build runs."""
    tools, lookup = open_search(db)
    started = time.perf_counter()
    first = first_search(tools, lookup, launched)
    samples, build_s = searches_during_build(tools, lookup, started)
    final_s, final_text = call(tools, BUILD_QUERIES[0])
    return {"first": first, "during": samples, "build_s": build_s if first["build_started"] else 0.0,
            "final": {"seconds": final_s, "state": lookup.describe(),
                      "partial": "partial results" in (final_text or "")}, "rss_mb": peak_rss_mb(),
            "build_process_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def first_search(tools, lookup, launched: float) -> dict:
    """The first search of a fresh process: the call, the time since launch, and what the index said."""
    seconds, text = call(tools, BUILD_QUERIES[0])
    return {"call_s": seconds, "since_launch_s": time.time() - launched, "state": lookup.describe(),
            "partial": "partial results" in (text or ""), "built_here": lookup.state_now.settled,
            "build_started": lookup.builder.running}


def first_probe(db: Path, launched: float) -> dict:
    """A fresh process on a history with no index: its first search alone; a build it started is stopped."""
    tools, lookup = open_search(db)
    figures = first_search(tools, lookup, launched)
    lookup.builder.stop(30)
    return figures


def scope_latencies(tools, scope: str, rounds: int) -> dict:
    """After one untimed pass over the mix (the targets are for a warm process), `rounds` timed ones."""
    for query in QUERY_MIX:
        call(tools, query, scope)
    runs = [[(query, *call(tools, query, scope)) for query in QUERY_MIX] for _ in range(rounds)]
    samples = [(seconds * 1000, query, text) for run in runs for query, seconds, text in run]
    ms = [sample[0] for sample in samples]
    return {"p50": statistics.median(ms), "p95": percentile(ms, 0.95), "mean": statistics.fmean(ms), "max": max(ms), "samples": len(ms),
            "partial": sum("partial results" in (text or "") for *_, text in samples),
            "errors": sum(text is None for *_, text in samples), "slowest": max(samples)[1],
            "per_query_p50": {q: statistics.median(s for s, query, _ in samples if query == q) for q in QUERY_MIX}}


def bare_latencies(lookup, rounds: int) -> dict:
    """Bare tantivy on the same index and queries: each query parsed by tantivy's own parser over the
    messages' own words, its best 50 rows by BM25, nothing read back (the floor the speed is set against)."""
    index = lookup.keyword.open(MESSAGES)
    searcher = lookup.keyword.searcher(MESSAGES)

    def one(query: str) -> float:
        started = time.perf_counter()
        parsed, _ = index.parse_query_lenient(query, [BODY])
        searcher.search(parsed, 50, count=False)
        return time.perf_counter() - started
    for query in QUERY_MIX:
        one(query)
    samples = [(one(query) * 1000, query) for _ in range(rounds) for query in QUERY_MIX]
    ms = [sample[0] for sample in samples]
    return {"p50": statistics.median(ms), "p95": percentile(ms, 0.95), "mean": statistics.fmean(ms),
            "per_query_p50": {q: statistics.median(m for m, query in samples if query == q) for q in QUERY_MIX}}


def catch_up_once(db: Path, tools, lookup, first: int) -> dict:
    """Append CATCH_UP_ROWS newest messages behind the search's back, as OneClaw would; time the next search."""
    database = open_writable(db)
    with database.connected() as connection:
        ids = [row[0] for row in connection.execute_sql("SELECT id FROM sessions ORDER BY id LIMIT 200")]
    fresh = append_messages(CATCH_UP_ROWS, ids, int(time.time() * 1000), seed=8 + first, first=first)
    HistoryWriter(database, default_embedder()).write([], fresh, [])
    database.close()
    seconds, text = call(tools, FRESH)
    return {"seconds": seconds, "found": FRESH in (text or ""), "complete": lookup.describe() is None}


def complete_index(tools, lookup) -> tuple[bool, float]:
    """Whether the first search found the index complete, and how long was then waited for its build:
    an index on disk that is not this code's (another format, say) is built anew before measuring."""
    call(tools, QUERY_MIX[0])
    if lookup.state_now.complete and not lookup.builder.running:
        return True, 0.0
    say("   the built index was not complete here; waiting for its background build...")
    started = time.perf_counter()
    while lookup.builder.running:
        time.sleep(BUILD_POLL_S)
    call(tools, QUERY_MIX[0])
    return False, time.perf_counter() - started


def warm_probe(db: Path, rounds: int, spec_rounds: int) -> dict:
    """Warm latency per scope on the built index, catch-ups after appends, then the spec's literal path."""
    tools, lookup = open_search(db)
    complete, waited = complete_index(tools, lookup)
    tools.memory.flush()  # memory's whole model, built apart on the first search, is ready
    call(tools, QUERY_MIX[0])
    ours = {}
    for scope in SCOPES:
        ours[scope] = scope_latencies(tools, scope, rounds)
        say(f"   {scope}: p50 {ours[scope]['p50']:.1f} ms, p95 {ours[scope]['p95']:.1f} ms, mean {ours[scope]['mean']:.1f} ms")
    bare = bare_latencies(lookup, rounds)
    say(f"   bare tantivy, top 50 by own words: p50 {bare['p50']:.2f} ms, p95 {bare['p95']:.2f} ms, mean {bare['mean']:.2f} ms;"
        f" scope all's mean {ours['all']['mean'] / bare['mean']:.1f}x it")
    rss_warm = peak_rss_mb()
    say("   appending 1,000 messages, then searching, 3 times...")
    catch_ups = [catch_up_once(db, tools, lookup, CATCH_UP_ROWS * turn) for turn in range(CATCH_UPS)]
    # A history in use changes: once the index caught up, its counts still hold the rows it replaced
    # (a turn's neighbours, a session's title and time), so its scores are held to the live ones.
    complete_index(tools, lookup)
    changed = scope_latencies(tools, "all", rounds)
    say(f"   all, after the appends were indexed: p50 {changed['p50']:.1f} ms, p95 {changed['p95']:.1f} ms")
    spec = None
    if spec_rounds:
        say("   the spec-literal path (index_path=None), scope all...")
        spec = scope_latencies(open_search(db, indexed=False)[0], "all", spec_rounds)
    return {"index_complete": complete, "waited_for_build_s": waited, "ours": ours, "bare": bare, "spec": spec, "catch_ups": catch_ups,
            "changed": changed, "rss_warm_mb": rss_warm, "rss_mb": peak_rss_mb()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe", choices=("build", "background", "first", "warm"))
    parser.add_argument("db", type=Path)
    parser.add_argument("--launched", type=float, default=None, help="time.time() when the parent started this process")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--spec-rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.probe == "build":
        figures = build_probe(args.db)
    elif args.probe in ("background", "first"):
        probe = background_probe if args.probe == "background" else first_probe
        figures = probe(args.db, args.launched if args.launched is not None else time.time())
    else:
        figures = warm_probe(args.db, args.rounds, args.spec_rounds)
    print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
