"""The literal reading by words on PostgreSQL (literal_words.py, AC-07, Q-04, Q-07): a CJK needle read
by its characters, and a needle of ASCII words by their phrase, answer as the scan of every row with
LIKE's folding and as the SQLite backend does; a needle of words held inside longer words is left to
the trigram index, and a session's needle shorter than a trigram is read back along time."""
from __future__ import annotations

import random
import re

import pytest

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.new_rows import NewMessage, NewSession
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.postgres import message_dao
from oneclaw_search.data.postgres.daos import PostgresSessionDao
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.message_dao import PostgresMessageDao
from oneclaw_search.data.postgres.writer import PostgresHistoryWriter
from oneclaw_search.domain.text import fold

START = 1_780_000_000_000
PIECES = ["api config", "API Config", "api  config", "apiconfig", "api configuration", "the api, config", "東京", "寿司",
          "東京寿司", "数据库", "数据 库", "数据库迁移", "tokyo", "sushi bar", "sushi  bar", "a café", "Straße"]


def texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4))) + f" #{at}" for at in range(count)]


@pytest.fixture
def both(fresh_database, tmp_path):
    """The same shuffled history in SQLite (indexed) and in PostgreSQL: message daos, and every row."""
    url, _ = fresh_database
    rows = texts(400, 5)
    order = list(range(len(rows)))
    random.Random(9).shuffle(order)  # written in an order other than time's
    sessions = [NewSession("s1", "Tokyo trip 東京", START), NewSession("s2", "数据库 notes", START),
                NewSession("gone", "Deleted 東京", START, deleted_at=START + 1)]
    messages = [NewMessage(f"m{at:03d}", ("s1", "s2", "gone")[at % 3], "USER" if at % 2 else "AI_RESPONSE", rows[at],
                           START + at * 60_000) for at in order]
    database = open_writable(tmp_path / "h.db")
    HistoryWriter(database, None).write(sessions, messages, [])
    database.close()
    read_only = HistoryDatabase.open_read_only(tmp_path / "h.db")
    lookup = KeywordLookup.open(read_only, SideIndex(tmp_path / "side.sqlite"))
    assert lookup.sync.catch_up()
    history = PostgresHistory(url, "owner")
    PostgresHistoryWriter(history, None).write(sessions, messages, [])
    live = [(message.id, message.content, message.created_at) for message in messages if message.session_id != "gone"]
    sqlite = PeeweeMessageDao(read_only, lookup)
    sqlite.sessions = PeeweeSessionDao(read_only, lookup)
    return sqlite, PostgresMessageDao(history), PostgresSessionDao(history), live


def scanned(live: list[tuple[str, str, int]], needle: str, limit: int) -> list[str]:
    """The spec's LIKE over every live row with the package's folding, newest first."""
    held = sorted((row for row in live if fold(needle) in fold(row[1])), key=lambda row: (-row[2], row[0]))
    return [key for key, _, _ in held[:limit]]


@pytest.mark.parametrize("needle", ["東京", "寿司", "京寿", "数据库", "数据", "据库迁", "東京寿司数据库"])
@pytest.mark.parametrize("limit", [1, 7, 50, 400])
def test_a_cjk_needle_is_read_by_its_characters_and_answers_as_the_scan(both, mocker, needle, limit):
    sqlite, postgres, _, live = both
    trigrams = [mocker.spy(PostgresMessageDao, "_whole"), mocker.spy(message_dao, "through_piece")]  # never reached
    found = [hit.id for hit in postgres.search_content(needle, limit=limit)]
    assert found == scanned(live, needle, limit) == [hit.id for hit in sqlite.search_content(needle, limit=limit)]
    assert [spy.call_count for spy in trigrams] == [0, 0]
    assert found or needle == "東京寿司数据库"


@pytest.mark.parametrize("needle", ["api config", "API CONFIG", "sushi bar", "config api", "tokyo sushi", "api, config"])
@pytest.mark.parametrize("limit", [1, 7, 50])
def test_a_needle_of_words_answers_as_the_scan_or_by_the_rows_holding_it_between_words(both, needle, limit):
    """On both backends: the scan's rows, or, when more rows than asked for hold it between words, the
    newest of those (specs/divergences.md); which of the two a backend reads depends on its counts."""
    sqlite, postgres, _, live = both
    apart = re.compile(r"(?<![^\W_])" + re.escape(fold(needle)) + r"(?![^\W_])")
    between = [key for key, text, _ in sorted(live, key=lambda row: (-row[2], row[0])) if apart.search(fold(text))]
    for dao in (postgres, sqlite):
        found = [hit.id for hit in dao.search_content(needle, limit=limit)]
        assert found in (scanned(live, needle, limit), between[:limit]) and found


def test_a_common_needle_of_words_passes_over_newer_rows_holding_it_inside_a_longer_word(both, mocker):
    _, postgres, _, live = both
    trigrams = mocker.spy(PostgresMessageDao, "_whole")
    found = [hit.id for hit in postgres.search_content("api config", limit=5)]
    assert trigrams.call_count == 0  # more than five rows hold it between words: the phrase's rows are the reading
    between = [key for key, text, _ in sorted(live, key=lambda row: (-row[2], row[0]))
               if any(piece in text for piece in ("api config", "API Config"))]
    assert found == between[:5]


@pytest.mark.parametrize("needle", ["東京", "数据", "京", "ip", "ta", "Ok"])
def test_a_sessions_needle_shorter_than_a_trigram_is_read_back_along_time_and_answers_as_sqlite(both, mocker, needle):
    sqlite, _, sessions, _ = both
    statements = mocker.spy(sessions._history, "rows")
    found = [hit.id for hit in sessions.search_by_title_or_preview(needle, limit=10)]
    assert found == [hit.id for hit in sqlite.sessions.search_by_title_or_preview(needle, limit=10)]
    assert ("s1" in found) == (needle != "ta") and "gone" not in found  # every title or preview but 'gone' is s1's or s2's
    assert all(call.kwargs["without"] for call in statements.call_args_list)  # back along time, no index


def test_a_row_checked_one_by_one_is_searched_past_its_tenants_mark(postgres_url):
    """A needle the tenant's mark (eight hex digits) holds matches only rows whose text holds it."""
    import hashlib
    import itertools

    from oneclaw_search.data.postgres.folded import folded_walk
    from oneclaw_search.data.postgres.schema import add_tenant

    tenant = next(name for name in (f"cafe-{n}" for n in itertools.count())
                  if "cafe" in hashlib.md5(name.encode()).hexdigest()[:8])  # noqa: S324 - the mark's own hash
    add_tenant(PostgresHistory(postgres_url, admin=True), tenant)
    history = PostgresHistory(postgres_url, tenant)
    PostgresHistoryWriter(history, None).write([NewSession("s", "Notes", START)], [
        NewMessage(f"m{at}", "s", "USER", "a CAFE au lait" if at % 3 == 0 else "tea and toast", START + at) for at in range(9)], [])
    held = history.rows(f"SELECT count(*) FROM messages m WHERE {folded_walk('m.content', True)}", ("cafe",))
    assert held == [(3,)]
    history.close()
