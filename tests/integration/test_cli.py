"""The `oneclaw-search` command as a user runs it: output, exit codes, one-line errors (P-11, P-12)."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from oneclaw_ddl import create_oneclaw_database

from oneclaw_search.data.summaries.local_model import available as local_model_available
from oneclaw_search.tools.cli import main

SCRIPT = Path(sys.executable).parent / "oneclaw-search"


def run(*args, cwd=None):
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, cwd=cwd)


@pytest.mark.spec("P-11")
def test_search_prints_exactly_what_the_tool_returns(seeded_db):
    done = run("--db", seeded_db, "search", "Roppongi", "--time-zone", "Asia/Tokyo")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith('[Search Results for "Roppongi" (scope: all, 2 results)]\n\n--- Result 1 (score: ')
    assert "User: Looking for Italian restaurants in Roppongi." in done.stdout


@pytest.mark.spec("P-11", "P-10")
def test_search_json_and_filters_reach_the_tool(seeded_db, capsys):
    code = main(["--db", str(seeded_db), "search", "restaurant", "--scope", "SESSIONS", "--date-from", "2026-02-22",
                 "--date-to", "2026-02-28", "--max-results", "2", "--json", "--time-zone", "Asia/Tokyo"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["scope"] == "sessions" and document["max_results"] == 2
    assert [item["id"] for item in document["results"]] == ["m-sakura", "s-dinner"]


@pytest.mark.spec("P-11")
def test_no_results_still_exits_zero(seeded_db, capsys):
    assert main(["--db", str(seeded_db), "search", "quantum physics"]) == 0
    assert "No matching results found" in capsys.readouterr().out


@pytest.mark.spec("P-11")
@pytest.mark.parametrize("extra, message", [
    (["  "], "validation_error: Parameter 'query' is required and cannot be empty"),
    (["x", "--max-results", "abc"], "validation_error: Parameter 'max_results' must be an integer: abc"),
    (["x", "--scope", "web"], "validation_error: Invalid scope 'web'"),
    (["x", "--date-from", "2026-03-02", "--date-to", "2026-03-01"], "validation_error: Invalid date range"),
])
@pytest.mark.parametrize("where", ["seeded", "missing"])
def test_validation_errors_exit_two_with_the_message_on_stderr_whatever_the_history(
        seeded_db, tmp_path, capsys, extra, message, where):
    db = seeded_db if where == "seeded" else tmp_path / "nope" / "history.db"
    assert main(["--db", str(db), "search", *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("oneclaw-search: " + message)
    assert where == "seeded" or not db.parent.exists()


@pytest.mark.spec("P-11")
def test_a_missing_database_is_one_line_naming_it_and_nothing_is_created(tmp_path):
    missing = tmp_path / "nope" / "history.db"
    done = run("--db", missing, "search", "x")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"oneclaw-search: database not found: {missing}\n"
    assert not missing.parent.exists()


@pytest.mark.spec("P-11")
@pytest.mark.parametrize("content, reason", [(b"hello, not a database", "not a SQLite database"), (b"", "empty file")])
def test_a_file_that_is_not_a_history_is_refused_without_a_traceback(tmp_path, capsys, content, reason):
    bogus = tmp_path / "notes.db"
    bogus.write_bytes(content)
    assert main(["--db", str(bogus), "search", "x"]) == 1
    err = capsys.readouterr().err
    assert reason in err and str(bogus) in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.spec("P-11")
def test_a_sqlite_file_without_oneclaws_tables_is_not_a_history(tmp_path, capsys):
    import sqlite3

    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE notes (id TEXT)").connection.commit()
    assert main(["--db", str(other), "search", "x"]) == 1
    assert f"not a OneClaw history database: {other} (no 'messages' table)" in capsys.readouterr().err


def test_search_without_a_database_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["search", "x"])
    assert exit_info.value.code == 2 and "needs --db PATH" in capsys.readouterr().err


@pytest.mark.spec("P-12")
def test_import_loads_a_bundle_idempotently_and_search_finds_it(tmp_path, capsys):
    bundle = tmp_path / "history.jsonl"
    bundle.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {"kind": "session", "id": "s1", "title": "Garden", "created_at": "2026-02-01T10:00:00+09:00"},
                {
                    "kind": "message",
                    "id": "m1",
                    "session_id": "s1",
                    "role": "user",
                    "content": "Plant the tulips in March",
                    "created_at": 1769907600000,
                },
                {"kind": "memory", "id": "c1", "source_date": "2026-02-01", "text": "Tulip bulbs are in the shed."},
                {"kind": "message", "id": "m2", "session_id": "nowhere", "role": "user", "content": "lost", "created_at": 1},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    db = tmp_path / "imported.db"
    for _ in range(2):
        assert main(["--db", str(db), "import", str(bundle)]) == 0
    summary = capsys.readouterr().out
    assert "Imported 1 sessions, 1 messages, 1 memory chunks" in summary and "line 4: unknown session 'nowhere'" in summary
    assert main(["--db", str(db), "search", "tulip", "--json"]) == 0
    assert sorted(item["id"] for item in json.loads(capsys.readouterr().out)["results"]) == ["c1", "m1", "s1"]


@pytest.mark.spec("P-11", "P-03")
def test_import_refuses_to_write_into_oneclaws_own_database(tmp_path, capsys):
    app_db = create_oneclaw_database(tmp_path / "oneclaw.db")
    before = hashlib.sha256(app_db.read_bytes()).hexdigest()
    bundle = tmp_path / "b.jsonl"
    bundle.write_text('{"kind": "session", "id": "s", "title": "t", "created_at": 1}\n', encoding="utf-8")
    assert main(["--db", str(app_db), "import", str(bundle)]) == 1
    assert "refusing to write into OneClaw's own database" in capsys.readouterr().err
    assert hashlib.sha256(app_db.read_bytes()).hexdigest() == before


def test_demo_builds_a_sample_and_answers_the_spec_scenarios(tmp_path):
    done = run("demo", "--time-zone", "Asia/Tokyo", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "oneclaw-demo.db").exists()
    assert "Sakura Sushi" in done.stdout and "source: daily_log" in done.stdout and "source: memory" in done.stdout
    summaries = done.stdout[done.stdout.index("Agent calls get_session_summary"):]
    assert "- Let's book it for Friday at 7pm." in summaries
    if local_model_available():  # the local model's summaries, made before the call
        assert "local:SmolLM2-135M-Instruct.Q4_1" in summaries and "being made" not in summaries
    else:
        assert "Summary: I went to Kamakura" in summaries and "method: extractive" in summaries
    assert run("demo", cwd=tmp_path).returncode == 0  # an earlier demo database is rebuilt


def test_demo_will_not_overwrite_a_file_it_did_not_make(tmp_path, capsys):
    precious = tmp_path / "precious.db"
    precious.write_bytes(b"my notes")
    assert main(["demo", "--db", str(precious)]) == 1
    assert precious.read_bytes() == b"my notes" and "not a SQLite database" in capsys.readouterr().err


@pytest.mark.spec("P-11")
def test_with_json_an_error_is_a_json_object_on_stdout_and_the_exit_code_stays(seeded_db, capsys):
    assert main(["--db", str(seeded_db), "search", "x", "--scope", "web", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out) == {
        "error": {"type": "validation_error", "message": "Invalid scope 'web'. Must be one of: all, memory, daily_log, sessions"}
    }


def test_the_peers_parameters_reach_the_tool_from_the_command_line(seeded_db, capsys):
    code = main(
        [
            "--db",
            str(seeded_db),
            "search",
            "Sakura",
            "--role",
            "tool",
            "--session-id",
            "s-dinner",
            "--context",
            "1",
            "--date-range",
            "2026-02",
            "--json",
            "--time-zone",
            "Asia/Tokyo",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["filter"]["role"] == ["tool"] and document["filter"]["session_id"] == "s-dinner"
    assert document["date_range"] == "2026-02" and [item["id"] for item in document["results"]] == ["m-tool", "s-dinner"]
    assert main(["--db", str(seeded_db), "search", "x", "--agent-type", "Explore"]) == 2
    assert "Parameter 'agent_type' needs the origin facts" in capsys.readouterr().err


@pytest.mark.spec("P-11", "BR-06")
def test_now_pins_the_present_a_search_sees(seeded_db, capsys):
    """The seeded budget message is dated 2026-02-28 20:00 in Tokyo: from that day on, it is found
    when the present is pinned after it and left out when pinned before it."""
    base = [
        "--db",
        str(seeded_db),
        "--time-zone",
        "Asia/Tokyo",
        "search",
        "weekend budget",
        "--scope",
        "sessions",
        "--date-from",
        "2026-02-28",
        "--json",
    ]
    assert main([*base, "--now", "2026-03-01T12:00"]) == 0
    assert [item["id"] for item in json.loads(capsys.readouterr().out)["results"]][:1] == ["m-budget"]
    assert main([*base, "--now", "2026-02-28T19:00"]) == 0
    assert "m-budget" not in [item["id"] for item in json.loads(capsys.readouterr().out)["results"]]
    assert main([*base, "--now", "yesterday"]) == 1
    assert "--now must be an ISO 8601 time or epoch milliseconds: 'yesterday'" in capsys.readouterr().err
