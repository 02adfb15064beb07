"""The PostgreSQL backend on a real server: writes searchable at once, the literal reading's
specials, tenants kept apart by row-level security even against hostile input, and clear errors."""
from __future__ import annotations

import json

import psycopg
import pytest

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres.database import TENANT_ROLE, PostgresHistory
from oneclaw_search.data.postgres.schema import ensure_schema, search_functions_marked
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.di import create_injector, open_recorder
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.domain.errors import HistoryUnavailable
from oneclaw_search.tools import ToolExecutionEngine

NOW = 1_780_000_000_000
DAY = 86_400_000


def results(reply) -> list[tuple[str, str]]:
    assert reply.is_success, reply.error_message
    return [(item["source"], item["id"]) for item in json.loads(reply.result)["results"]]


def write(url, tenant, word, *, extra=()):
    writer = PostgresHistoryWriter(PostgresHistory(url, tenant), None)
    writer.write([NewSession("s1", f"Plans about {word}", NOW - 2 * DAY)],
                 [NewMessage("m1", "s1", "USER", f"Remember the {word} place, 100% sure about user_id", NOW - 2 * DAY),
                  NewMessage("m2", "s1", "AI_RESPONSE", "Noted for Friday.", NOW - 2 * DAY + 60_000), *extra], [])


def engine(url, tenant):
    return create_injector(url, tenant=tenant, clock=PinnedClock(NOW), time_zone="UTC", embedder=None).get(ToolExecutionEngine)


def search(url, tenant, query, **more):
    return engine(url, tenant).execute_tool("search_history", {"query": query, "format": "json", **more})


def test_a_committed_row_is_searchable_at_once_and_wildcards_match_only_themselves(postgres_url, new_tenant):
    tenant = new_tenant()
    write(postgres_url, tenant, "walrus", extra=[NewMessage("m3", "s1", "USER", "1000 users and userXid", NOW - DAY)])
    assert ("message", "m1") in results(search(postgres_url, tenant, "WALRUS"))
    assert [hit for hit in results(search(postgres_url, tenant, "100%")) if hit[0] == "message"] == [("message", "m1")]
    assert ("message", "m3") not in results(search(postgres_url, tenant, "user_id"))


def test_a_tenant_never_sees_another_tenants_rows_whatever_the_query(postgres_url, new_tenant):
    mine, theirs = new_tenant("mine"), new_tenant("theirs")
    write(postgres_url, mine, "walrus")
    write(postgres_url, theirs, "narwhal")  # the same ids in both tenants
    hostile = ["narwhal", "' OR 1=1 --", "narwhal'); SET oneclaw.tenant = 'x'; --", "%", "_", "\\", "s1", "m1"]
    for query in hostile:
        reply = search(postgres_url, mine, query)
        assert reply.is_success, reply.error_message
        texts = [item["text"] for item in json.loads(reply.result)["results"]]
        assert not [text for text in texts if "narwhal" in text.lower()], query
    assert results(search(postgres_url, mine, "narwhal", session_id="s1")) == []
    read = engine(postgres_url, mine).execute_tool("read_session", {"session_id": "s1"})
    assert "walrus" in read.result and "narwhal" not in read.result
    summary = engine(postgres_url, mine).execute_tool("get_session_summary", {"session_id": "s1"})
    assert "narwhal" not in summary.result.lower()


def test_row_level_security_holds_for_raw_sql_on_a_tenant_connection(postgres_url, new_tenant):
    mine, theirs = new_tenant("mine"), new_tenant("theirs")
    write(postgres_url, mine, "walrus")
    write(postgres_url, theirs, "narwhal")
    options = f"-c role={TENANT_ROLE} -c oneclaw.tenant={mine}"
    with psycopg.connect(postgres_url, options=options, autocommit=True) as connection:
        tenants = {row[0] for row in connection.execute("SELECT DISTINCT tenant FROM messages")}
        assert tenants == {mine}
        assert connection.execute("SELECT count(*) FROM messages WHERE tenant = %s", (theirs,)).fetchone()[0] == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("INSERT INTO sessions (tenant, id, title, current_agent_id, message_count, is_active,"
                               " created_at, updated_at) VALUES (%s, 'x', 'x', 'a', 0, 0, 0, 0)", (theirs,))
        assert connection.execute("UPDATE messages SET content = 'gone' WHERE tenant = %s", (theirs,)).rowcount == 0
    with psycopg.connect(postgres_url, options=f"-c role={TENANT_ROLE}", autocommit=True) as connection:
        assert connection.execute("SELECT count(*) FROM messages").fetchone()[0] == 0  # no tenant set: nothing


def test_searching_writes_nothing(postgres_url, new_tenant):
    tenant = new_tenant()
    write(postgres_url, tenant, "walrus")
    admin = PostgresHistory(postgres_url, admin=True)
    before = admin.rows("SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM messages t WHERE tenant = %s", (tenant,))
    for query in ("walrus", "resturant", "' OR 1=1 --"):
        search(postgres_url, tenant, query)
    after = admin.rows("SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM messages t WHERE tenant = %s", (tenant,))
    admin.close()
    assert before == after


def test_a_missing_tenant_or_a_bad_name_gets_a_clear_error(postgres_url):
    with pytest.raises(HistoryUnavailable, match="tenant 'nobody' does not exist; add it with `oneclaw-search tenants add"):
        create_injector(postgres_url, tenant="nobody")
    with pytest.raises(ValueError, match="tenant must be"):
        create_injector(postgres_url, tenant="a b'; --")
    with pytest.raises(ValueError, match="tenant applies to PostgreSQL"):
        create_injector("history.db", tenant="acme")


def test_the_recorder_and_nul_text_reach_the_server(postgres_url, new_tenant):
    tenant = new_tenant()
    recorder = open_recorder(postgres_url, PinnedClock(NOW - DAY), tenant=tenant)
    recorder.record("chat", "user", "the ocelot\x00 escaped again")
    recorder.close()
    found = json.loads(search(postgres_url, tenant, "ocelot").result)["results"]
    assert [item["id"] for item in found if item["source"] == "message"] and "\ufffd" in found[0]["text"]


def test_many_threads_search_at_once_without_running_out_of_connections(postgres_url, new_tenant):
    from concurrent.futures import ThreadPoolExecutor

    tenant = new_tenant()
    write(postgres_url, tenant, "walrus")
    tool = engine(postgres_url, tenant)
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda _: tool.execute_tool("search_history", {"query": "walrus"}), range(64)))
    assert all(reply.is_success and "walrus" in reply.result for reply in replies)


def test_the_schema_marks_the_search_functions_leakproof_so_their_indexes_serve_under_rls(postgres_url):
    # Without the mark the planner applies the tenant's policy to every row before any search
    # condition (docs/postgresql.md has the figures).
    admin = PostgresHistory(postgres_url, admin=True)
    try:
        admin.run("ALTER FUNCTION oneclaw_search_fold(text) NOT LEAKPROOF")
        assert not search_functions_marked(admin)
        ensure_schema(admin)  # run again by the superuser, as `tenants add` does
        assert search_functions_marked(admin)
    finally:
        admin.run("ALTER FUNCTION oneclaw_search_fold(text) LEAKPROOF")
        admin.close()


def test_the_python_example_of_docs_postgresql_runs_against_a_server(postgres_url, new_tenant, tmp_path):
    # tests/test_docs_examples.py skips it (it needs a server); here it runs as written, on ours.
    import subprocess
    import sys

    from test_docs_examples import ROOT, blocks

    tenant = new_tenant("docs")
    write(postgres_url, tenant, "database migration")
    [example] = [block for block in blocks(ROOT / "docs" / "postgresql.md") if block.language == "python"]
    code = example.code.replace("postgresql://app_user:secret@db.internal:5432/history", postgres_url)
    code = code.replace('tenant="acme"', f'tenant="{tenant}"')
    assert code != example.code
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "database migration place" in ran.stdout
