"""The command line and the MCP server on a PostgreSQL history, as a tenant: tenants add, import,
search and read_session through real processes, each seeing only its own tenant's rows."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SCRIPT = Path(sys.executable).parent / "oneclaw-search"


def cli(*arguments: str, tenant: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"ONECLAW_SEARCH_TENANT": tenant} if tenant else {})}
    return subprocess.run([str(SCRIPT), *arguments], capture_output=True, text=True, timeout=120, env=env, check=False)


def bundle(path: Path, word: str) -> Path:
    lines = [{"kind": "session", "id": "s1", "title": f"About {word}", "created_at": "2026-11-20T18:00"},
             {"kind": "message", "id": "m1", "session_id": "s1", "role": "user", "content": f"the {word} question",
              "created_at": "2026-11-20T18:00"}]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_tenants_import_and_search_from_the_command_line(postgres_url, tmp_path):
    for tenant in ("cli-a", "cli-b"):
        added = cli("tenants", "add", tenant, "--db", postgres_url)
        assert added.returncode == 0 and f"tenant {tenant}" in added.stdout, added.stderr
    assert {"cli-a", "cli-b"} <= set(cli("tenants", "list", "--db", postgres_url).stdout.split())
    assert cli("import", str(bundle(tmp_path / "a.jsonl", "heron")), "--db", postgres_url, "--tenant", "cli-a").returncode == 0
    assert cli("import", str(bundle(tmp_path / "b.jsonl", "osprey")), "--db", postgres_url, tenant="cli-b").returncode == 0
    mine = cli("search", "heron", "--db", postgres_url, "--tenant", "cli-a", "--json")
    assert [item["id"] for item in json.loads(mine.stdout)["results"] if item["source"] == "message"] == ["m1"]
    theirs = cli("search", "osprey", "--db", postgres_url, "--tenant", "cli-a", "--json")
    assert json.loads(theirs.stdout)["results"] == []
    missing = cli("search", "heron", "--db", postgres_url, "--tenant", "cli-nobody")
    assert missing.returncode == 1 and "tenant 'cli-nobody' does not exist" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_the_conformance_command_drives_the_postgres_adapter(postgres_url):
    done = cli("conformance", "--adapter", "postgres", "--db", postgres_url, "--group", "package")
    assert done.returncode == 0, done.stderr
    assert "PASSED: every required case passed" in done.stdout and "Traceback" not in done.stderr


def test_the_mcp_server_serves_one_tenant(postgres_url, tmp_path):
    cli("tenants", "add", "mcp-a", "--db", postgres_url)
    cli("import", str(bundle(tmp_path / "a.jsonl", "heron")), "--db", postgres_url, "--tenant", "mcp-a")

    async def session():
        server = StdioServerParameters(command=str(SCRIPT), args=["--db", postgres_url, "--tenant", "mcp-a", "mcp"])
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return [await client.call_tool("search_history", {"query": "heron"}),
                    await client.call_tool("read_session", {"session_id": "s1"})]

    found, turns = anyio.run(session)
    assert not found.is_error and "the heron question" in found.content[0].text
    assert not turns.is_error and "the heron question" in turns.content[0].text
