"""Replays a history's writes the way the OneClaw app makes them, in raw SQL (a turn appended with its
session's count, preview and time, a turn edited in place, a turn deleted), with searches in between
that keep the side index caught up; then `oneclaw-search index`, and a fresh build of a copy of the
final file to ask the same questions of (reply_differences.py; Q-11: one reply however the history
was written). Shared by tests/integration/test_replay_matches_fresh_build.py and
tests/benchmarks/bench_replay.py.
"""
from __future__ import annotations

import contextlib
import io
import random
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from builders import run_sql
from oneclaw_ddl import create_oneclaw_database

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.di import create_injector
from oneclaw_search.domain.clock import PinnedClock
from oneclaw_search.tools import ToolExecutionEngine
from oneclaw_search.tools.cli.index_command import run_index

PREVIEW_CHARS = 100


@dataclass(frozen=True)
class Plan:
    """How a replay writes: the share of turns there before the first index, the rounds the rest
    arrive in, and how many older turns each round edits and deletes."""

    written_first: float = 0.8
    rounds: int = 5
    edits: int = 6
    deletes: int = 3
    searches_between: int = 4


@dataclass
class Replayed:
    """What a replay left: the history it wrote, and where its side index and a fresh build's lie."""

    path: Path
    index: Path
    fresh_path: Path
    fresh_index: Path
    edited: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)


def append(path: Path, turns: Sequence[NewMessage], titles: dict[str, str]) -> None:
    """Each turn inserted as the app inserts it: its session made when its first turn comes (titled from
    `titles`), then the session's count, preview and last activity updated."""
    with closing(sqlite3.connect(path)) as connection, connection:
        for turn in turns:
            connection.execute("INSERT OR IGNORE INTO sessions (id, title, current_agent_id, message_count, is_active, "
                               "created_at, updated_at) VALUES (?, ?, 'agent', 0, 0, ?, ?)",
                               (turn.session_id, titles.get(turn.session_id, ""), turn.created_at, turn.created_at))
            connection.execute("INSERT INTO messages (id, session_id, type, content, created_at) VALUES (?, ?, ?, ?, ?)",
                               (turn.id, turn.session_id, turn.type, turn.content, turn.created_at))
            connection.execute("UPDATE sessions SET message_count = message_count + 1, last_message_preview = ?, "
                               "updated_at = max(updated_at, ?) WHERE id = ?",
                               (turn.content[:PREVIEW_CHARS], turn.created_at, turn.session_id))


def edit(path: Path, message_id: str, content: str) -> None:
    run_sql(path, "UPDATE messages SET content = ? WHERE id = ?", (content, message_id))


def delete(path: Path, message_id: str) -> None:
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE sessions SET message_count = message_count - 1 WHERE id = "
                           "(SELECT session_id FROM messages WHERE id = ?)", (message_id,))
        connection.execute("DELETE FROM messages WHERE id = ?", (message_id,))


def engine(path: Path, index: Path, clock: PinnedClock, **settings: object) -> ToolExecutionEngine:
    return create_injector(path, clock=clock, time_zone="UTC", index_path=index, **settings).get(ToolExecutionEngine)


def catch_up(path: Path, index: Path) -> None:
    """`oneclaw-search index`: once no search's background build holds the index, it is brought level
    with the history and every row compared with it."""
    with contextlib.redirect_stdout(io.StringIO()):
        if run_index(path, "UTC", str(index)) != 0:
            raise RuntimeError(f"the side index of {path} did not catch up")


def replay(folder: Path, sessions: Sequence[NewSession], turns: Sequence[NewMessage], queries: Sequence[str],
           clock: PinnedClock, plan: Plan = Plan(), seed: int = 1, rewrite: Callable[[str, random.Random], str] | None = None,
           **settings: object) -> Replayed:
    """The history written as `plan` says (turns in the order given), searched between rounds, then
    caught up; and a copy of the final file with an index built fresh."""
    rng = random.Random(seed)
    rewrite = rewrite or _rewritten
    done = Replayed(folder / "replayed.db", folder / "replayed.index.sqlite", folder / "fresh.db", folder / "fresh.index.sqlite")
    create_oneclaw_database(done.path)
    titles = {session.id: session.title for session in sessions}
    first = int(len(turns) * plan.written_first)
    append(done.path, turns[:first], titles)
    catch_up(done.path, done.index)
    rest = list(turns[first:])
    for round_number in range(plan.rounds):
        arriving = rest[round_number * len(rest) // plan.rounds:(round_number + 1) * len(rest) // plan.rounds]
        append(done.path, arriving, titles)
        live = _live_ids(done.path)
        for message_id in rng.sample(live, min(plan.edits, len(live))):
            edit(done.path, message_id, rewrite(_content(done.path, message_id), rng))
            done.edited.append(message_id)
        for message_id in rng.sample([m for m in live if m not in done.edited], plan.deletes):
            delete(done.path, message_id)
            done.deleted.append(message_id)
        searching = engine(done.path, done.index, clock, **settings)
        for query in rng.sample(list(queries), min(plan.searches_between, len(queries))):
            searching.execute_tool("search_history", {"query": query})
    catch_up(done.path, done.index)
    shutil.copyfile(done.path, done.fresh_path)
    catch_up(done.fresh_path, done.fresh_index)
    return done


def _rewritten(content: str, rng: random.Random) -> str:
    """An edit in place: a few words dropped and a phrase added, as a reply streamed on or corrected is."""
    words = content.split()
    kept = [word for word in words if rng.random() > 0.15] or words[:1]
    return " ".join(kept) + rng.choice([" (edited)", " Actually, never mind that.", " Update: done now.", ""])


def _live_ids(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM messages ORDER BY rowid")]


def _content(path: Path, message_id: str) -> str:
    with closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("SELECT content FROM messages WHERE id = ?", (message_id,)).fetchone()[0])
