"""`oneclaw-search import claude-code [PATH]` on Claude Code transcripts.

Fixtures are written here by hand after ../shared/reference/history-formats.md ("Claude Code on-disk
format"): one content block per assistant line, lines out of time order, noise lines, helper agents,
sub-agents in the current, nested and older layouts, a bad line and a link leading out of the tree.
"""
import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime

from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.importers.claude_code_importer import ClaudeCodeImporter
from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli import main

SID, OLD_SID, CWD = "5f0c2a1e-1111-4000-8000-000000000001", "77aa0000-2222-4000-8000-000000000002", "/home/ana/code/tea.shop"
PROJECT = "-home-ana-code-tea-shop"  # Claude Code's lossy folder name for CWD
NOT_CONVERSATION = "not conversation (progress, file snapshot, queue, system note)"


def at(second):
    return f"2026-03-02T10:00:{second:02d}.000Z"


def ms(second):
    return int(datetime(2026, 3, 2, 10, 0, second, tzinfo=UTC).timestamp() * 1000)


def user(uuid, second, content, session=SID, **extra):
    return {"type": "user", "uuid": uuid, "parentUuid": None, "timestamp": at(second), "sessionId": session, "cwd": CWD,
            "isSidechain": False, "userType": "external", "message": {"role": "user", "content": content}, **extra}


def reply(uuid, second, message_id, block, session=SID, **extra):
    message = {"id": message_id, "type": "message", "role": "assistant", "model": "claude-test", "content": [block]}
    return {"type": "assistant", "uuid": uuid, "parentUuid": None, "timestamp": at(second), "sessionId": session,
            "cwd": CWD, "requestId": f"req_{message_id}", "message": message, **extra}


def text(words):
    return {"type": "text", "text": words}


def result(call_id, content):
    return {"type": "tool_result", "tool_use_id": call_id, "content": content}


def task(call_id, description, kind):
    return {"type": "tool_use", "id": call_id, "name": "Task",
            "input": {"description": description, "prompt": "Find kettles that pour slowly", "subagent_type": kind}}


MAIN = [
    {"type": "progress", "data": {"type": "hook_progress"}, "timestamp": at(0), "sessionId": SID, "uuid": "p1"},
    user("u1", 0, "How do I brew oolong at the right temperature?"),
    reply("a1", 1, "msg_1", {"type": "thinking", "thinking": "secret musing", "signature": "xyz"}),
    reply("a3", 3, "msg_1", text("Oolong likes water around 90 degrees.")),  # written before its earlier sibling
    reply("a2", 2, "msg_1", text("Short answer first.")),
    user("u2", 5, [result("toolu_1", [{"type": "text", "text": "steep 3 minutes"}, {"type": "image", "source": {}}])]),
    reply("a4", 4, "msg_1", {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "notes/tea.md"}}),
    user("u3", 6, "<local-command-caveat>Caveat: ignore</local-command-caveat>", isMeta=True),
    {"type": "file-history-snapshot", "messageId": "u3", "snapshot": {}, "isSnapshotUpdate": False},
    reply("a5", 8, "msg_2", task("toolu_task", "Survey kettles", "Explore")),
    user("u4", 20, [result("toolu_task", "Kettle survey done")], toolUseResult={"agentId": "a1b2c3d", "status": "completed"}),
    reply("a6", 21, "msg_3", text("The gooseneck kettle wins.")),
    user("u5", 22, [text("[Request interrupted by user]")]),
    user("u6", 23, "This session is being continued from a previous conversation", isCompactSummary=True),
    user("u8", 25, "<command-name>/model</command-name>\n<command-args></command-args>"),
    user("u9", 26, "<task-notification>\n<task-id>a1b2c3d</task-id>\n<status>completed</status>\n</task-notification>"),
    {"type": "system", "subtype": "turn_duration", "durationMs": 5, "timestamp": at(24), "uuid": "s1", "sessionId": SID},
    {"type": "summary", "summary": "Brewing oolong", "leafUuid": "a6"},
]
EXPECTED = [
    ("USER", "How do I brew oolong at the right temperature?", None, None, None, ms(0)),
    ("AI_RESPONSE", "Short answer first.\n\nOolong likes water around 90 degrees.", None, None, None, ms(2)),
    ("TOOL_CALL", "", "Read", '{"file_path":"notes/tea.md"}', None, ms(4)),
    ("TOOL_RESULT", "", "Read", None, "steep 3 minutes", ms(5)),
    ("TOOL_CALL", "", "Task", json.dumps(task("t", "Survey kettles", "Explore")["input"], separators=(",", ":")), None, ms(8)),
    ("TOOL_RESULT", "", "Task", None, "Kettle survey done", ms(20)),
    ("AI_RESPONSE", "The gooseneck kettle wins.", None, None, None, ms(21)),
]


def agent_lines(agent, prompt, answer, session=SID):
    return [user(f"{agent}-u", 9, prompt, session, agentId=agent, isSidechain=True),
            reply(f"{agent}-a", 15, f"msg_{agent}", text(answer), session, agentId=agent, isSidechain=True)]


def write(path, items, extra=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(item) + "\n" for item in items) + extra)
    return path


def project(root, lines=MAIN, index=None):
    folder = root / PROJECT
    write(folder / f"{SID}.jsonl", lines, "{not json\n" + json.dumps({**user("u7", 0, "no time"), "timestamp": None}) + "\n")
    if index is not None:
        (folder / "sessions-index.json").write_text(json.dumps({"version": 1, "entries": index}))
    return folder


def imported(db, path):
    database = open_writable(db)
    try:
        return ClaudeCodeImporter(HistoryWriter(database, None)).import_path(path)
    finally:
        database.close()


def query(db, sql):
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql).fetchall()


def rows(db, session=f"claude-code:{SID}"):
    return query(db, "SELECT type, content, tool_name, tool_input, tool_output, created_at FROM messages"
                     f" WHERE session_id = '{session}' ORDER BY created_at, id")


def origins(db):
    return {row[0]: row[1:] for row in query(db, "SELECT session_id, source_kind, project_path, agent_type,"
                                                 " parent_session_id, source_file FROM oneclaw_search_origins")}


def titles(db):
    return dict(query(db, "SELECT id, title FROM sessions"))


def test_a_transcript_becomes_one_session_with_replies_regrouped_in_time_order(tmp_path):
    db = tmp_path / "history.db"
    summary = imported(db, project(tmp_path / "projects"))
    assert rows(db) == EXPECTED
    assert summary.skipped == {NOT_CONVERSATION: 3, "thinking block": 1, "isMeta line, injected by Claude Code": 1,
                               "interruption marker": 1, "compaction summary": 1, "not valid JSON": 1,
                               "slash command or notification": 2,
                               "missing or bad timestamp": 1}
    assert (summary.files, summary.sessions, summary.messages, summary.already) == (1, 1, 7, 0)
    assert titles(db) == {f"claude-code:{SID}": "Brewing oolong"}
    assert origins(db) == {f"claude-code:{SID}": ("claude-code", CWD, None, None, f"{SID}.jsonl")}
    assert query(db, "SELECT created_at, updated_at FROM sessions") == [(ms(0), ms(21))]


def test_the_title_comes_from_the_index_then_a_summary_line_then_the_first_prompt(tmp_path):
    db, root = tmp_path / "history.db", tmp_path / "projects"
    folder = project(root, index=[{"sessionId": SID, "summary": "Oolong from the index", "firstPrompt": "x",
                                   "projectPath": "/home/ana/code/tea.shop/exact"}])
    long_prompt = "Please plan   a week of tea tastings " * 5
    write(folder / "b.jsonl", [{"type": "summary", "summary": "Another session's", "leafUuid": "elsewhere"},
                               {"type": "summary", "summary": "From a summary line", "leafUuid": "b1"}, user("b1", 1, "hi", "b")])
    write(folder / "c.jsonl", [user("c0", 1, "<bash-input>ls</bash-input>", "c"), user("c1", 2, long_prompt, "c")])
    write(folder / "d.jsonl", [reply("d1", 1, "msg_d", text("Only an answer."), "d")])
    imported(db, root)
    clipped = " ".join(long_prompt.split())[:79] + "…"
    assert titles(db) == {f"claude-code:{SID}": "Oolong from the index", "claude-code:b": "From a summary line",
                          "claude-code:c": clipped, "claude-code:d": PROJECT}
    assert origins(db)[f"claude-code:{SID}"][1] == "/home/ana/code/tea.shop/exact"
    assert origins(db)["claude-code:b"][4] == f"{PROJECT}/b.jsonl"


def test_sub_agents_are_sessions_linked_to_their_spawner_and_helpers_are_left_out(tmp_path):
    db, root = tmp_path / "history.db", tmp_path / "projects"
    folder = project(root)
    agents = folder / SID / "subagents"
    write(agents / "agent-a1b2c3d.jsonl", agent_lines("a1b2c3d", "Find kettles that pour slowly", "The gooseneck pours slowest.")
          + [reply("a1b2c3d-t", 16, "msg_t", task("toolu_nested", "Plan the order", "Plan"), agentId="a1b2c3d"),
             user("a1b2c3d-r", 17, [result("toolu_nested", "agentId: c9 (internal ID - do not mention)")], agentId="a1b2c3d")])
    write(agents / "agent-a1b2c3d" / "subagents" / "agent-c9.jsonl", agent_lines("c9", "Order two kettles", "Ordered."))
    write(agents / "agent-aprompt_suggestion-abc123.jsonl", agent_lines("aprompt_suggestion-abc123", "[SUGGESTION MODE: x]", "run it"))
    write(agents / "agent-acompact-def456.jsonl", agent_lines("acompact-def456", "Summarise", "<analysis>…"))
    write(agents / "agent-a0ff.jsonl", agent_lines("a0ff", "[SUGGESTION MODE: Suggest what the user types]", "commit"))
    write(folder / f"{OLD_SID}.jsonl", [user("o1", 1, "Old layout please", OLD_SID),
                                        reply("o2", 2, "msg_o", task("toolu_old", "Check stock", "general-purpose"), OLD_SID),
                                        user("o3", 3, [result("toolu_old", [text("Async agent launched.\nagentId: a77")])], OLD_SID)])
    write(folder / "agent-a77.jsonl", agent_lines("a77", "Count the kettles in stock", "Twelve kettles.", OLD_SID))
    summary = imported(db, root)
    main_id, child = f"claude-code:{SID}", f"claude-code:{SID}:agent-a1b2c3d"
    assert origins(db)[child] == ("claude-code", CWD, "Explore", main_id, f"{PROJECT}/{SID}/subagents/agent-a1b2c3d.jsonl")
    assert origins(db)[f"claude-code:{SID}:agent-c9"][2:4] == ("Plan", child)
    assert origins(db)[f"claude-code:{OLD_SID}:agent-a77"][2:4] == ("general-purpose", f"claude-code:{OLD_SID}")
    assert titles(db)[child] == "Survey kettles" and titles(db)[f"claude-code:{OLD_SID}:agent-a77"] == "Check stock"
    assert [r[:2] for r in rows(db, child)][:2] == [("USER", "Find kettles that pour slowly"),
                                                   ("AI_RESPONSE", "The gooseneck pours slowest.")]
    assert summary.skipped["Claude Code helper agent file"] == 3 and (summary.sessions, summary.subagents) == (5, 3)
    assert not [session for session in titles(db) if "suggestion" in session or "acompact" in session or "a0ff" in session]


def test_links_leading_out_of_the_tree_are_skipped(tmp_path):
    db, root = tmp_path / "history.db", tmp_path / "projects"
    folder = project(root)
    outside = write(tmp_path / "elsewhere" / "secret.jsonl", [user("x1", 1, "secret plans", "secret")])
    (folder / "secret.jsonl").symlink_to(outside)
    (root / "linked-project").symlink_to(outside.parent)
    summary = imported(db, root)
    assert summary.skipped["a link leading out of the folder"] == 2
    assert set(titles(db)) == {f"claude-code:{SID}"} and summary.files == 1


def test_importing_again_adds_nothing_and_a_grown_file_adds_only_its_new_lines(tmp_path):
    db, root = tmp_path / "history.db", tmp_path / "projects"
    project(root, MAIN[:8])
    first = imported(db, root)
    before = rows(db)
    again = imported(db, root)
    assert (first.messages, again.messages, again.already) == (4, 0, 4) and rows(db) == before
    transcript = project(root) / f"{SID}.jsonl"
    grown = imported(db, transcript)
    assert (grown.messages, grown.already) == (3, 4) and rows(db) == EXPECTED
    assert origins(db)[f"claude-code:{SID}"][4] == f"{SID}.jsonl"  # named from the PATH given


def test_the_command_reads_the_default_folder_and_the_history_is_searchable(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = project(tmp_path / ".claude" / "projects")
    write(folder / SID / "subagents" / "agent-a1b2c3d.jsonl", agent_lines("a1b2c3d", "Find kettles", "Gooseneck it is."))
    db = tmp_path / "history.db"
    assert main(["--db", str(db), "import", "claude-code"]) == 0
    out = capsys.readouterr().out
    assert "Imported 9 new messages in 2 sessions (1 of them sub-agents) from 2 transcript files" in out
    assert "~/.claude/projects" in out and f"  3 × {NOT_CONVERSATION}" in out and "  1 × not valid JSON" in out
    engine = create_injector(db).get(ToolExecutionEngine)
    found = engine.execute_tool("search_history", {"query": "gooseneck", "scope": "sessions"}).result
    assert 'session: "Brewing oolong"' in found and "Assistant: The gooseneck kettle wins." in found


def test_nothing_usable_exits_one(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["--db", str(tmp_path / "history.db"), "import", "claude-code", str(tmp_path / "empty")]) == 1
    assert "Imported 0 new messages in 0 sessions" in capsys.readouterr().out
    assert main(["--db", str(tmp_path / "history.db"), "import", "claude-code", str(tmp_path / "nope")]) == 1
    assert "Claude Code history not found" in capsys.readouterr().err
