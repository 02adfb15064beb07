"""Measures search_history and its tantivy keyword index at a million messages and beyond, on a synthetic history; run by hand.

    python tests/benchmarks/bench_scale.py                # 1,000,000 messages, 10,000 sessions, 20,000 chunks
    python tests/benchmarks/bench_scale.py --size 10m     # 10,000,000 messages, 100,000 sessions, 20,000 chunks
    python tests/benchmarks/bench_scale.py --size 100k    # 100,000 messages, 10,000 sessions, 20,000 chunks
    python tests/benchmarks/bench_scale.py --smoke        # 3,000 messages, 50 sessions, 200 chunks, 1 round
    python tests/benchmarks/bench_scale.py --size 50k --first-only --runs 5   # only the first search, 5 fresh copies

The history is built once and cached in --cache-dir (keyed by sizes and seed); every measurement
runs on a copy, each in a fresh process (scale_probes.py) whose peak RSS is read from wait4
(the printed report is scale_report.py):
  1. a fresh process on the unindexed copy: its first search (the call, and since launch), then a
     search every 0.5 s while the background build runs, until the index says it is complete;
  2. the index built on the copy with no index, as `oneclaw-search index` builds it: rate, seconds,
     size on disk against the message text, peak RSS;
  3. one-shot `oneclaw-search search` processes on the indexed copy, `oneclaw-search index` on it now
     that it is up to date, and `oneclaw-search --version`: median wall time, peak RSS;
  4. warm in-process p50/p95 per scope over a query mix (scale_probes.QUERY_MIX), the spec's literal
     (LIKE) path for scope all in the same process (--spec-rounds 0 skips it), and the next search
     after 1,000 appended messages (3 times);
  5. a machine calibration figure; then a summary against the targets (--json FILE: all figures).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_probes import Ran, drop_index, index_files, run_measured, say  # noqa: E402
from scale_report import print_report, print_summary, summary_rows  # noqa: E402
from synthetic_corpus import CORPUS_VERSION, synthetic_corpus  # noqa: E402

from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.data.index.side_index import default_index_path  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402

SIZES = {"10m": (10_000_000, 100_000, 20_000), "1m": (1_000_000, 10_000, 20_000),
         "100k": (100_000, 10_000, 20_000), "50k": (50_000, 500, 20_000), "20k": (20_000, 200, 20_000),
         "smoke": (3_000, 50, 200)}
TEXT_SQL = """SELECT
    (SELECT COALESCE(SUM(LENGTH(CAST(content AS BLOB))), 0) FROM messages)
  + (SELECT COALESCE(SUM(LENGTH(CAST(title AS BLOB)) + COALESCE(LENGTH(CAST(last_message_preview AS BLOB)), 0)), 0)
     FROM sessions)
  + (SELECT COALESCE(SUM(LENGTH(CAST(chunk_text AS BLOB))), 0) FROM memory_index)"""
MESSAGE_TEXT_SQL = "SELECT COALESCE(SUM(LENGTH(CAST(content AS BLOB))), 0) FROM messages"
WRITE_SLICE = 1_000_000  # messages per write when building the history: bounds the rows held twice
PROBES = Path(__file__).resolve().with_name("scale_probes.py")
CLI_QUERY = "sushi restaurant"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="1m", help="preset sizes (default 1m)")
    parser.add_argument("--messages", type=int)
    parser.add_argument("--sessions", type=int)
    parser.add_argument("--chunks", type=int)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the query mix per scope")
    parser.add_argument("--spec-rounds", type=int, help="timed passes on the spec's literal path (default --rounds; 0 skips it)")
    parser.add_argument("--cli-runs", type=int, default=5, help="one-shot CLI processes (median reported)")
    parser.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "oneclaw-bench")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE")
    parser.add_argument("--smoke", action="store_true", help="same as --size smoke --rounds 1 --cli-runs 3")
    parser.add_argument("--first-only", action="store_true", help="measure only the first search, on --runs fresh copies")
    parser.add_argument("--runs", type=int, default=5, help="with --first-only: fresh copies searched (median reported)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.size, args.rounds, args.cli_runs = "smoke", 1, 3
    args.spec_rounds = args.rounds if args.spec_rounds is None else args.spec_rounds
    preset = SIZES[args.size]
    args.messages, args.sessions, args.chunks = (
        given if given is not None else default
        for given, default in zip((args.messages, args.sessions, args.chunks), preset, strict=True)
    )
    return args


def cached_history(args: argparse.Namespace) -> tuple[Path, dict]:
    """The pristine history for these sizes and seed, built once; later runs work on copies."""
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    stem = f"history-v{CORPUS_VERSION}-{args.messages}m-{args.sessions}s-{args.chunks}c-seed{args.seed}"
    path, notes = args.cache_dir / f"{stem}.db", args.cache_dir / f"{stem}.json"
    if path.exists() and notes.exists():
        info, cached = json.loads(notes.read_text()), True
    else:
        # In a process of its own: a child's peak RSS (read from wait4) starts from its parent's at
        # the fork, so a parent still holding ten million generated rows would inflate every figure.
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            info, cached = pool.submit(build, path, args).result(), False
        notes.write_text(json.dumps(info))
    if "message_text_bytes" not in info:  # caches from before this figure was kept
        info["message_text_bytes"] = message_text_bytes(path)
        notes.write_text(json.dumps(info))
    return path, {**info, "cached": cached}


def message_text_bytes(path: Path) -> int:
    """Read as immutable: a read-only open of a WAL database would leave -wal and -shm files in the cache."""
    connection = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return connection.execute(MESSAGE_TEXT_SQL).fetchone()[0]
    finally:
        connection.close()


def build(path: Path, args: argparse.Namespace) -> dict:
    started = time.perf_counter()
    sessions, messages, chunks = synthetic_corpus(
        args.messages, args.sessions, args.chunks, int(time.time() * 1000), args.seed)
    generated = time.perf_counter() - started
    # Built under another name and renamed at the end, so an interrupted build is never cached.
    partial = path.with_name(path.name + ".partial")
    for leftover in partial.parent.glob(partial.name + "*"):
        leftover.unlink()
    database = open_writable(partial)
    writer = HistoryWriter(database, default_embedder())
    writer.write(sessions, messages[:WRITE_SLICE], chunks)
    for start in range(WRITE_SLICE, len(messages), WRITE_SLICE):
        writer.write([], messages[start:start + WRITE_SLICE], [])
    with database.connected() as connection:
        text_bytes = connection.execute_sql(TEXT_SQL).fetchone()[0]
        message_bytes = connection.execute_sql(MESSAGE_TEXT_SQL).fetchone()[0]
    database.close()
    partial.replace(path)
    return {"generate_s": generated, "build_s": time.perf_counter() - started,
            "db_mb": path.stat().st_size / 1e6, "text_bytes": text_bytes, "message_text_bytes": message_bytes}


def probe(kind: str, db: Path, *options: str) -> tuple[dict, Ran]:
    """One fresh measuring process: its JSON figures and how it ran (wall time, peak RSS)."""
    ran = run_measured([sys.executable, str(PROBES), kind, str(db), *options])
    return json.loads(ran.stdout.strip().splitlines()[-1]), ran


def measure_build(db: Path) -> dict:
    """Build the index of the copy in a fresh process; its figures, process and files."""
    figures, ran = probe("build", db)
    files = index_files(db)
    say(f"   {figures['rows']:,} rows in {figures['seconds']:.2f} s, {sum(files.values()) / 1e6:.1f} MB,"
        f" peak RSS {ran.rss_mb:.0f} MB")
    return {**figures, "process_s": ran.seconds, "process_rss_mb": ran.rss_mb, "files": files}


def measure_background(db: Path) -> dict:
    """A fresh process searching the unindexed copy while its background build runs."""
    figures, ran = probe("background", db, "--launched", repr(time.time()))
    during = [sample["seconds"] for sample in figures["during"]]
    say(f"   first search {figures['first']['call_s']:.2f} s, {len(during)} searches during the build"
        f" (slowest {max(during, default=0):.2f} s), build {figures['build_s']:.1f} s")
    return {**figures, "process_s": ran.seconds, "process_rss_mb": ran.rss_mb}


def cli_command(db: Path, *command: str) -> list[str]:
    script = Path(sys.executable).with_name("oneclaw-search")
    launcher = [str(script)] if script.exists() else [sys.executable, "-m", "oneclaw_search.tools.cli"]
    return [*launcher, "--db", str(db), "--index-path", str(default_index_path(db)), *command]


def measure_cli(command: list[str], runs: int) -> dict:
    """One-shot `oneclaw-search` processes running `command`."""
    run_measured(command)  # untimed: the first after a build also reads the files into the page cache
    done = [run_measured(command) for _ in range(runs)]
    seconds = [ran.seconds for ran in done]
    say(f"   median {statistics.median(seconds):.2f} s, peak RSS {max(ran.rss_mb for ran in done):.0f} MB")
    return {"median_s": statistics.median(seconds), "runs_s": seconds, "rss_mb": max(ran.rss_mb for ran in done)}


def measure_warm(db: Path, args: argparse.Namespace) -> dict:
    figures, ran = probe("warm", db, "--rounds", str(args.rounds), "--spec-rounds", str(args.spec_rounds))
    return {**figures, "process_s": ran.seconds, "process_rss_mb": ran.rss_mb}


def machine_seconds() -> float:
    """A fixed pure-Python loop (best of three): VMs lent to different sessions differ twofold in
    speed, so figures from two runs compare only beside this one."""
    best = float("inf")
    for _ in range(3):
        started, total = time.perf_counter(), 0
        for step in range(10_000_000):
            total += step
        best = min(best, time.perf_counter() - started)
    return best


def measure_all(db: Path, args: argparse.Namespace) -> dict:
    """Every measurement, in an order that leaves the index each one needs (dropped between builds)."""
    figures = {"machine_s": machine_seconds()}
    say("1. fresh process on the unindexed copy: first search, then searches while it builds...")
    figures["background"] = measure_background(db)
    drop_index(db)
    say("2. index build, fresh process...")
    figures["build"] = measure_build(db)
    say(f"3. one-shot CLI search, `index` up to date and --version, {args.cli_runs} processes each...")
    figures["cli"] = measure_cli(cli_command(db, "search", CLI_QUERY), args.cli_runs)
    figures["index_up_to_date"] = measure_cli(cli_command(db, "index"), args.cli_runs)
    figures["version"] = measure_cli(cli_command(db, "--version"), args.cli_runs)
    say("4. warm latency, 1K catch-ups and the spec-literal path, one fresh process...")
    figures["warm"] = measure_warm(db, args)
    return figures


def measure_first(pristine: Path, args: argparse.Namespace) -> dict:
    """The first search of a fresh process on --runs fresh unindexed copies: each call and its median."""
    runs = []
    for run in range(args.runs):
        work = Path(tempfile.mkdtemp(prefix="first-", dir=args.cache_dir))
        try:
            shutil.copyfile(pristine, work / "history.db")
            figures, ran = probe("first", work / "history.db", "--launched", repr(time.time()))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        runs.append({**figures, "process_s": ran.seconds, "process_rss_mb": ran.rss_mb})
        say(f"   run {run + 1}: call {figures['call_s']:.2f} s, since launch {figures['since_launch_s']:.2f} s,"
            f" built here: {figures['built_here']}, state: {figures['state'] or 'complete'}")
    calls = [run["call_s"] for run in runs]
    launched = [run["since_launch_s"] for run in runs]
    say(f"   median of {len(runs)}: call {statistics.median(calls):.2f} s ({min(calls):.2f} to {max(calls):.2f}),"
        f" since launch {statistics.median(launched):.2f} s")
    return {"runs": runs, "call_median_s": statistics.median(calls), "since_launch_median_s": statistics.median(launched)}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say("0. building the history (or reusing the cached one)...")
    pristine, info = cached_history(args)
    if args.first_only:
        figures = {"machine_s": machine_seconds(), "first": measure_first(pristine, args)}
        say(f"machine: a 10M-step Python loop takes {figures['machine_s']:.2f} s")
        if args.json is not None:
            args.json.write_text(json.dumps({"history": info, **figures}, ensure_ascii=False, indent=1))
        return 0
    work = Path(tempfile.mkdtemp(prefix="run-", dir=args.cache_dir))
    try:
        db = work / "history.db"
        shutil.copyfile(pristine, db)
        figures = measure_all(db, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sizes = {"messages": args.messages, "sessions": args.sessions, "chunks": args.chunks, "seed": args.seed,
             "rounds": args.rounds, "spec_rounds": args.spec_rounds}
    print_report(sizes, info, figures)
    rows = summary_rows(info, {**figures, "messages": args.messages})
    print_summary(rows)
    if args.json is not None:
        summary = [dict(zip(("measure", "value", "target", "ok"), row, strict=True)) for row in rows]
        args.json.write_text(json.dumps({"sizes": sizes, "history": info, **figures, "summary": summary},
                                        ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
