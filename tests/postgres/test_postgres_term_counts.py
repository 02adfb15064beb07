"""The word counts the server keeps for BM25 (term_counts.py) agree with the rows whatever changes
them: our writer, a host's own statements, a removed session's cascade, two writers at once, and a
schema made before the counts existed."""
from __future__ import annotations

import threading

from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.schema import add_tenant, ensure_schema
from oneclaw_search.data.postgres.term_counts import ROWS, TABLE, TRIGGERS, message_counts
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter

NOW = 1_780_000_000_000
WORDS = ["ferri", "harbour", "ticket", "island", "storm"]  # as the english configuration stems them


def counted_from_rows(admin: PostgresHistory, tenant: str) -> dict[str, int]:
    """What the GIN index says, row by row: the counts' ground truth."""
    rows = admin.rows("SELECT word, count(*) FROM messages, unnest(tsvector_to_array(content_tsv)) word "
                      "WHERE tenant = %s AND word = ANY(%s) GROUP BY word", (tenant, WORDS))
    return {word: count for word, count in rows}


def kept(url: str, tenant: str) -> dict[str, int]:
    history = PostgresHistory(url, tenant)
    try:
        return message_counts(history, WORDS)
    finally:
        history.close()


def turns(session: str, start: int, count: int, text: str) -> list[NewMessage]:
    return [NewMessage(f"{session}-m{start + i}", session, "USER", text.format(i=i), NOW + start + i) for i in range(count)]


def test_counts_follow_inserts_replacements_deletions_and_cascades_tenant_by_tenant(fresh_database):
    url, admin = fresh_database
    add_tenant(admin, "other")
    mine, theirs = PostgresHistoryWriter(PostgresHistory(url, "owner"), None), PostgresHistoryWriter(PostgresHistory(url, "other"), None)
    mine.write([NewSession("s1", "Ferry", NOW), NewSession("s2", "Storm", NOW)],
               turns("s1", 0, 30, "the ferry {i} to the island") + turns("s2", 0, 12, "a storm over the harbour, ferry late"), [])
    theirs.write([NewSession("s1", "Tickets", NOW)], turns("s1", 0, 7, "a ticket for the ferry"), [])
    mine.write([], [NewMessage("s1-m0", "s1", "USER", "a ticket, no boat", NOW)], [])  # replaced by id
    history = PostgresHistory(url, "owner")
    history.run("DELETE FROM sessions WHERE id = 's2'")  # its messages go by cascade
    history.run("UPDATE messages SET content = content || ' storm' WHERE id = 's1-m1'")  # a host's own statement
    history.close()
    for tenant in ("owner", "other"):
        assert {word: count for word, count in kept(url, tenant).items() if count} == counted_from_rows(admin, tenant)
    assert kept(url, "owner")["ferri"] == 29 and kept(url, "other")["ferri"] == 7
    assert total(url, "owner") == 30 and total(url, "other") == 7  # s2's twelve went with it


def total(url: str, tenant: str) -> int:
    history = PostgresHistory(url, tenant)
    try:
        return message_counts(history, [ROWS])[ROWS]
    finally:
        history.close()


def test_two_writers_of_one_tenant_at_once_neither_deadlock_nor_lose_a_count(fresh_database):
    url, admin = fresh_database
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(
        [NewSession(f"s{n}", "Trips", NOW) for n in range(2)], [], [])
    failures: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            out = PostgresHistoryWriter(PostgresHistory(url, "owner"), None)
            for batch in range(5):
                out.write([], turns(f"s{n}", batch * 40, 40, "storm island harbour ticket ferry {i}"), [])
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert kept(url, "owner") == {word: 400 for word in WORDS} == counted_from_rows(admin, "owner")


def test_a_schema_made_before_the_counts_gets_them_from_the_rows_already_there(fresh_database):
    url, admin = fresh_database
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write(
        [NewSession("s1", "Ferry", NOW)], turns("s1", 0, 9, "the ferry {i} and its ticket"), [])
    for trigger in TRIGGERS:  # as a schema of an earlier version stood
        admin.run(f"DROP TRIGGER {trigger.split()[4]} ON messages")
    admin.run(f"DROP TABLE {TABLE}")
    ensure_schema(admin)
    assert kept(url, "owner") == {"ferri": 9, "ticket": 9}



def test_counts_kept_before_the_total_was_get_it_from_the_rows(fresh_database):
    url, admin = fresh_database
    add_tenant(admin, "other")
    for tenant, count in (("owner", 9), ("other", 4)):
        PostgresHistoryWriter(PostgresHistory(url, tenant), None).write(
            [NewSession("s1", "Ferry", NOW)], turns("s1", 0, count, "the ferry {i}"), [])
    history = PostgresHistory(url, "owner")
    history.run(f"DELETE FROM {TABLE} WHERE word = %s", (ROWS,))  # as an earlier version kept them
    history.close()
    ensure_schema(admin)
    assert total(url, "owner") == 9 and total(url, "other") == 4
    PostgresHistoryWriter(PostgresHistory(url, "owner"), None).write([], turns("s1", 9, 2, "more"), [])
    assert total(url, "owner") == 11  # and kept from then on
