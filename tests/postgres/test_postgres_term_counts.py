"""The windows and counts the server keeps for BM25 (window_writes.py, term_counts.py) agree with the
rows whatever changes them: appends, a replaced turn, a turn moved (in its session or in time) or made
a tool row, a removed session's cascade, two writers at once, and a schema made before windows were
stored. So do the turns counted by day, which say how far back a word's newest rows lie."""
from __future__ import annotations

import json

from threads import run_at_once

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema
from oneclaw_search.data.postgres.term_counts import DAY_MS, DAYS, MESSAGES, ROWS, TABLE, TURNS, counted, day_word
from oneclaw_search.data.postgres.windows import own_words, window_of
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW

NOW = 1_780_000_000_000
WORDS = ["ferri", "harbour", "ticket", "island", "storm"]  # as the keyword index's analyzer stems them


def windows_from_turns(admin: PostgresHistory, tenant: str) -> dict[str, tuple[dict[str, int], int]]:
    """Every turn's window made again from its session's turns in the order written: the stored windows'
    ground truth."""
    rows = admin.rows("SELECT session_id, id, content FROM messages WHERE tenant = %s AND type IN ('USER', 'AI_RESPONSE') "
                      "ORDER BY session_id, seq", (tenant,))
    chains: dict[str, list[tuple[str, str]]] = {}
    for session, key, content in rows:
        chains.setdefault(session, []).append((key, content))
    found = {}
    for chain in chains.values():
        owns = [own_words(content) for _, content in chain]
        for at, (key, _) in enumerate(chain):
            window = window_of(owns, at, DEFAULT_WINDOW)
            found[key] = (json.loads(window.counts), window.length)
    return found


def stored_windows(admin: PostgresHistory, tenant: str) -> dict[str, tuple[dict[str, int], int]]:
    rows = admin.rows("SELECT id, window_tf, window_length FROM messages WHERE tenant = %s AND window_tf IS NOT NULL", (tenant,))
    return {key: (counts, length) for key, counts, length in rows}


def kept(url: str, tenant: str) -> dict[str, tuple[int, int]]:
    history = PostgresHistory(url, tenant)
    try:  # a word no window holds any more keeps its row, at zero
        return {word: value for word, value in counted(history, MESSAGES, WORDS).items() if value != (0, 0)}
    finally:
        history.close()


def counted_from_windows(admin: PostgresHistory, tenant: str) -> dict[str, tuple[int, int]]:
    windows = stored_windows(admin, tenant)
    found = {word: (sum(1 for counts, _ in windows.values() if word in counts), 0) for word in WORDS}
    found[ROWS] = (len(windows), sum(length for _, length in windows.values()))
    return {word: value for word, value in found.items() if value != (0, 0)}


def own_counts(url: str, admin: PostgresHistory, tenant: str) -> tuple[dict[str, int], dict[str, int]]:
    """The turns' own-word counts kept, and made again from the turns' texts."""
    texts = [content for (content,) in admin.rows("SELECT content FROM messages WHERE tenant = %s AND words IS NOT NULL",
                                                  (tenant,))]
    truth = {word: sum(1 for text in texts if word in own_words(text).counts) for word in WORDS}
    truth = {**{word: held for word, held in truth.items() if held}, ROWS: len(texts)}
    history = PostgresHistory(url, tenant)
    try:
        return {word: held for word, (held, _) in counted(history, TURNS, WORDS).items() if held}, truth
    finally:
        history.close()


def days_kept_and_true(admin: PostgresHistory, tenant: str) -> tuple[dict[str, int], dict[str, int]]:
    """The turns counted by day as kept, and counted again from the rows."""
    kept_days = admin.rows(f"SELECT word, held_by FROM {TABLE} WHERE tenant = %s AND kind = %s AND word <> '' AND held_by <> 0",
                           (tenant, DAYS))
    times = admin.rows("SELECT created_at FROM messages WHERE tenant = %s AND words IS NOT NULL", (tenant,))
    truth: dict[str, int] = {}
    for (at,) in times:
        truth[day_word(at)] = truth.get(day_word(at), 0) + 1
    return {word: int(held) for word, held in kept_days}, truth


def turns(session: str, start: int, count: int, text: str) -> list[NewMessage]:
    return [NewMessage(f"{session}-m{start + i}", session, "USER", text.format(i=i), NOW + start + i) for i in range(count)]


def test_windows_and_counts_follow_appends_replacements_moves_and_cascades_tenant_by_tenant(fresh_database):
    url, admin = fresh_database
    add_tenant(admin, "other")
    mine, theirs = PostgresHistoryWriter(PostgresHistory(url, "owner"), None), PostgresHistoryWriter(PostgresHistory(url, "other"), None)
    mine.write([NewSession("s1", "Ferry", NOW), NewSession("s2", "Storm", NOW)],
               turns("s1", 0, 30, "the ferry {i} to the island") + turns("s2", 0, 12, "a storm over the harbour, ferry late"), [])
    theirs.write([NewSession("s1", "Tickets", NOW)], turns("s1", 0, 7, "a ticket for the ferry"), [])
    mine.write([], turns("s1", 30, 3, "one more storm {i}"), [])  # appended: s1-m29's window takes in s1-m30
    mine.write([], [NewMessage("s1-m0", "s1", "USER", "a ticket, no boat", NOW)], [])  # replaced by id
    mine.write([], [NewMessage("s1-m5", "s2", "USER", "moved to s2, island", NOW + 99)], [])  # to another session
    mine.write([], [NewMessage("s1-m9", "s1", "TOOL_RESULT", "ferry output", NOW + 9)], [])  # no longer a turn
    mine.write([], [NewMessage("s1-m3", "s1", "USER", "the ferry, days before", NOW - 3 * DAY_MS)], [])  # to another day
    history = PostgresHistory(url, "owner")
    history.run("DELETE FROM sessions WHERE id = 's2'")  # its messages go by cascade
    history.close()
    for tenant in ("owner", "other"):
        assert stored_windows(admin, tenant) == windows_from_turns(admin, tenant)
        assert kept(url, tenant) == counted_from_windows(admin, tenant)
        kept_own, own_truth = own_counts(url, admin, tenant)
        assert kept_own == own_truth
        assert days_kept_and_true(admin, tenant)[0] == days_kept_and_true(admin, tenant)[1]
    assert sorted(days_kept_and_true(admin, "owner")[0].values()) == [1, 30]
    # s2 took its twelve and s1-m5 with it; s1-m9 is no turn
    assert kept(url, "other")["ferri"][0] == 7 and kept(url, "owner")[ROWS][0] == 31


def test_two_writers_of_one_tenant_at_once_neither_deadlock_nor_lose_a_count(fresh_database):
    url, admin = fresh_database
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(
        [NewSession(f"s{n}", "Trips", NOW) for n in range(2)], [], [])

    def writer(n: int) -> None:
        out = PostgresHistoryWriter(PostgresHistory(url, "owner"), None)
        for batch in range(5):
            out.write([], turns(f"s{n}", batch * 40, 40, "storm island harbour ticket ferry {i}"), [])

    assert run_at_once(writer, [(0,), (1,)]) == []
    assert stored_windows(admin, "owner") == windows_from_turns(admin, "owner")
    assert {word: held for word, (held, _) in kept(url, "owner").items()} == {**{word: 400 for word in WORDS}, ROWS: 400}
    assert kept(url, "owner") == counted_from_windows(admin, "owner")


def test_a_schema_made_before_windows_were_stored_gets_them_from_the_rows_already_there(fresh_database):
    url, admin = fresh_database
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(
        [NewSession("s1", "Ferry", NOW)], turns("s1", 0, 9, "the ferry {i} and its ticket"), [])
    # as a schema of an earlier version stood
    admin.run("ALTER TABLE messages DROP COLUMN window_tf, DROP COLUMN words, DROP COLUMN folded")
    admin.run(f"DROP TABLE {TABLE}")
    admin.run("COMMENT ON TABLE oneclaw_tenants IS NULL")
    ensure_schema(admin)
    assert stored_windows(admin, "owner") == windows_from_turns(admin, "owner")
    assert {word: held for word, (held, _) in kept(url, "owner").items()} == {"ferri": 9, "ticket": 9, ROWS: 9}
    assert kept(url, "owner") == counted_from_windows(admin, "owner")
    assert own_counts(url, admin, "owner")[0] == {"ferri": 9, "ticket": 9, ROWS: 9}
    assert days_kept_and_true(admin, "owner") == ({day_word(NOW): 9}, {day_word(NOW): 9})
    folded = admin.rows("SELECT count(*) FROM messages WHERE folded = oneclaw_search_marked(tenant, content)")
    assert folded == [(9,)] and admin.rows("SELECT to_regclass('messages_folded_trgm') IS NOT NULL") == [(True,)]
