"""The keyword index (tantivy folders beside a side SQLite file) and memory's BM25 model, on real files (Q-11..Q-15).

Queries here are single words or phrases, so no message is found through the turn before it.
"""
import hashlib
import json
import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime, timedelta

import numpy as np
import pytest
from acceptance_helpers import call, found
from builders import TOKYO, built, chunk, ms, new_message, new_session
from fakes import FixedClock
from rank_bm25 import BM25Okapi

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.history.history_writer import HistoryWriter
from oneclaw_search.data.history.memory_index_dao import PeeweeMemoryIndexDao
from oneclaw_search.data.history.message_dao import PeeweeMessageDao
from oneclaw_search.data.history.schema import open_writable
from oneclaw_search.data.history.session_dao import PeeweeSessionDao
from oneclaw_search.data.index import edits
from oneclaw_search.data.index.background import BackgroundBuild
from oneclaw_search.data.index.edits import TAIL_ROWS
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import FORMAT_VERSION, SUFFIX, SideIndex
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.data.index.vocabulary import KeywordVocabulary
from oneclaw_search.data.memory.hybrid_search_engine import HybridSearchEngine
from oneclaw_search.data.memory.memory_bm25 import MemoryBM25
from oneclaw_search.data.memory.memory_snapshot import MemorySnapshot
from oneclaw_search.data.text.analyzer import memory_terms, query_terms, stem
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.message_filter import Within

CLOCK = FixedClock(ms("2026-03-01T12:00"))


def chat(history, texts, name=None):
    """One live session holding one USER message per text, ids m0, m1, ... a minute apart."""
    start = datetime(2026, 2, 1, 9)
    rows = [new_message(f"m{i}", "s", text, (start + timedelta(minutes=i)).isoformat()) for i, text in enumerate(texts)]
    return history([new_session("s", "Notes", "2026-02-01T09:00")], rows, name=name)


def open_index(path, **settings):
    return create_injector(path, clock=CLOCK, time_zone="Asia/Tokyo", **{"embedder": None, **settings})


def messages(container, query):
    return [row for source, row in found(container, query=query, scope="sessions") if source == "message"]


def beside(path):
    return path.with_name(path.name + SUFFIX)


def lookup_for(database, index):
    """The lookup of `database`'s index in `index`, built to the last row (searches then read the index alone)."""
    lookup = KeywordLookup.open(database, index)
    assert lookup.sync.catch_up()
    return lookup


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sql(path, *statements):
    with closing(sqlite3.connect(path)) as connection, connection:
        for statement in statements:
            connection.execute(statement)


def copy_database(source, target):
    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


@pytest.mark.spec("Q-11")
def test_the_first_search_builds_the_index_beside_a_history_this_package_created(history):
    path = chat(history, ["a walrus on the beach"])
    container = open_index(path)
    assert not beside(path).exists()
    assert messages(container, "walrus") == ["m0"] and beside(path).exists()


@pytest.mark.spec("Q-11")
def test_a_configured_index_path_holds_the_index(history, tmp_path):
    path, target = chat(history, ["a walrus on the beach"]), tmp_path / "elsewhere" / "index.sqlite"
    assert messages(open_index(path, index_path=target), "walrus") == ["m0"]
    assert target.exists() and not beside(path).exists()


def append(path, message):
    database = open_writable(path)
    HistoryWriter(database, None).write([], [message], [])
    database.close()


@pytest.mark.spec("Q-11")
@pytest.mark.parametrize("query", ["zebra", "zebra crossing", "bra cros"])
def test_a_message_written_after_a_search_is_found_by_the_next(history, query):
    path = chat(history, ["a walrus on the beach"])
    container = open_index(path)
    assert messages(container, query) == []
    append(path, new_message("new", "s", "a zebra crossing", "2026-02-02T09:00"))
    found = messages(container, query)
    # The turn before may come along on both words in the turn after it, but below it.
    assert found[0] == "new" and set(found) <= {"new", "m0"}


@pytest.mark.spec("Q-11")
def test_changed_and_deleted_messages_are_caught_up(history):
    path = chat(history, ["a walrus on the beach", "a penguin on the ice", "a seal"])
    container = open_index(path)
    assert (messages(container, "walrus"), messages(container, "penguin")) == (["m0"], ["m1"])
    sql(path, "UPDATE messages SET content = 'a hippo in the river' WHERE id = 'm0'", "DELETE FROM messages WHERE id = 'm1'")
    assert [messages(container, word) for word in ("walrus", "hippo", "penguin")] == [[], ["m0"], []]


@pytest.mark.spec("Q-11")
@pytest.mark.spec("Q-11")
def test_an_old_message_changed_in_place_is_caught_up(history):
    path = chat(history, ["a walrus on the beach", *(f"note {i}" for i in range(TAIL_ROWS + 5))])
    container = open_index(path)
    assert messages(container, "walrus") == ["m0"]
    sql(path, "UPDATE messages SET content = 'a hippo in the river' WHERE id = 'm0'")
    assert messages(container, "walrus") == []  # the row is re-read from the history: its old words no longer match
    container.get(IndexParts).lookup.builder.wait(30)  # the maintenance build that search started sweeps older rows
    assert messages(container, "hippo") == ["m0"]


@pytest.mark.spec("Q-11")
def test_old_messages_are_swept_for_edits_a_slice_per_catch_up(history, monkeypatch):
    monkeypatch.setattr(edits, "SWEEP_ROWS", 10)
    monkeypatch.setattr(BackgroundBuild, "start", lambda self: None)  # only the catch-ups below build
    path = chat(history, [f"note {i}" for i in range(30)] + [f"tail {i}" for i in range(TAIL_ROWS)])
    container = built(open_index(path))
    sql(path, "UPDATE messages SET content = 'a walrus on the beach' WHERE id = 'm25'")
    # Each catch-up re-checks the next ten older rows, so m25's new words come in a few.
    found = []
    for commit in range(4):
        append(path, new_message(f"x{commit}", "s", f"extra {commit}", "2026-02-03T09:00"))
        built(container)
        found.append(messages(container, "walrus"))
    assert found[0] == [] and found[-1] == ["m25"]


@pytest.mark.spec("Q-11")
def test_a_message_committed_by_a_writer_still_holding_the_history_is_found(history):
    path = chat(history, ["a walrus on the beach"])
    container = open_index(path)
    assert messages(container, "zebra") == []
    with closing(sqlite3.connect(path)) as writer:
        writer.execute("INSERT INTO messages (id, session_id, type, content, created_at) "
                       f"VALUES ('z', 's', 'USER', 'a zebra crossing', {ms('2026-02-02T09:00')})")
        writer.commit()
        assert messages(container, "zebra") == ["z"]
    # The writer, closing last, folded its -wal back in; reading on leaves nothing beside the file.
    assert messages(container, "zebra crossing")[0] == "z"
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(path.name + "-")] == []


def twin_histories(history):
    """Two histories alike but for their oldest message, past the tail re-checked for edits."""
    notes = [f"note {i}" for i in range(TAIL_ROWS + 5)]
    return chat(history, ["a walrus on the beach", *notes], "a.db"), chat(history, ["a penguin on the ice", *notes], "b.db")


@pytest.mark.spec("Q-11")
def test_an_index_built_for_another_history_is_rebuilt_not_trusted(history):
    first, second = twin_histories(history)
    assert messages(open_index(first), "walrus") == ["m0"]
    copy_database(beside(first), beside(second))
    container = open_index(second)
    assert (messages(container, "penguin"), messages(container, "walrus")) == (["m0"], [])


@pytest.mark.spec("Q-11")
def test_an_index_of_another_format_is_rebuilt_not_trusted(history):
    first, second = twin_histories(history)
    assert messages(open_index(first), "walrus") == ["m0"]
    copy_database(beside(first), beside(second))
    sql(beside(second), f"UPDATE meta SET value = '{second.resolve()}' WHERE key = 'source'",
        "UPDATE meta SET value = 'an older format' WHERE key = 'format'",
        "CREATE VIRTUAL TABLE m_words USING fts5(body, content = '')", "CREATE TABLE m_legacy (x)")
    container = open_index(second)
    assert (messages(container, "penguin"), messages(container, "walrus")) == (["m0"], [])
    assert SideIndex(beside(second)).meta("format") == FORMAT_VERSION
    tables = {row[0] for row in SideIndex(beside(second)).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert not {"m_words", "m_words_data", "m_legacy"} & tables  # an older format's tables go with it


SEARCH = """
import json, sys
from oneclaw_search.di import create_injector
from oneclaw_search.tools import ToolExecutionEngine
engine = create_injector(sys.argv[1], time_zone="Asia/Tokyo").get(ToolExecutionEngine)
outcome = engine.execute_tool("search_history", {"query": "sushi place", "format": "json", "max_results": 50})
assert outcome.is_success, outcome.error_message
print(json.dumps([item["id"] for item in json.loads(outcome.result)["results"]]))
"""


@pytest.mark.spec("Q-12")
def test_two_processes_index_and_search_a_fresh_history_at_once(history):
    path = chat(history, [f"note {i} about a sushi place" if i % 9 == 0 else f"note {i}" for i in range(1200)])
    runs = [subprocess.Popen([sys.executable, "-c", SEARCH, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err[-500:] for _, err in outputs]
    first, second = (json.loads(out) for out, _ in outputs)
    assert first == second and len(first) == 50


@pytest.mark.spec("Q-13")
def test_the_history_stays_byte_identical_through_searches_and_a_rebuild(history):
    path = chat(history, ["a walrus on the beach", "a penguin on the ice"])
    before = digest(path)
    container = open_index(path, embedder="default")
    for query in ("walrus", "penguin on", "resturant", "zzz"):
        assert call(container, query=query).is_success
    sql(beside(path), "UPDATE meta SET value = 'an older format' WHERE key = 'format'")
    assert messages(open_index(path, embedder="default"), "penguin") == ["m1"]
    assert digest(path) == before


@pytest.mark.spec("Q-15")
def test_an_index_that_cannot_be_written_falls_back_to_the_scan(history, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    path = chat(history, ["a walrus on the beach", "a penguin on the ice"])
    container = open_index(path, index_path=tmp_path / "a-file" / "index" / "side.sqlite")
    assert messages(container, "walrus on the") == ["m0"] and messages(container, "penguin") == ["m1"]
    assert not beside(path).exists()


@pytest.mark.spec("Q-15", "Q-10")
def test_a_reply_names_the_scan_when_the_index_cannot_be_written(history, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    container = open_index(chat(history, ["a walrus"]), index_path=tmp_path / "a-file" / "side.sqlite")
    retrievers = json.loads(call(container, query="zeppelin", format="json").result)["retrievers"]
    assert "phrase (LIKE scan)" in retrievers and "keyword (BM25F, tantivy)" not in retrievers
    assert any(name.startswith("keyword (BM25F over the newest") and "no usable index" in name for name in retrievers)


@pytest.mark.spec("Q-15", "Q-08")
def test_the_daos_answer_from_the_index_as_from_the_scan_and_the_vocabulary_counts_rows(history, tmp_path):
    texts = ["Sushi at noon", "sushi again, SUSHI!", "ramen", "a 100% sure thing", "École", "東京で寿司",
             "The restaurants near the station"]
    database = HistoryDatabase.open_read_only(chat(history, texts))
    index = SideIndex(tmp_path / "side.sqlite")
    lookup = lookup_for(database, index)
    for query in ("sushi", "ushi a", "100%", "école", "寿司", "x", "nothing here"):
        assert PeeweeMessageDao(database, lookup).search_content(query) == PeeweeMessageDao(database).search_content(query)
    vocabulary = KeywordVocabulary(lookup, PeeweeMessageDao(database, lookup).texts_by_rowid, lambda rowids: [])
    assert vocabulary.frequency(stem("sushi")) >= 2 and vocabulary.frequency(stem("ramen")) >= 1
    assert vocabulary.frequency("zeppelin") == 0
    # tantivy's fuzzy query matches the stem "restaur"; the words are read back from the rows.
    assert vocabulary.spellings_near("resturant") == {"restaurants"}
    assert vocabulary.spellings_near("sushu") == {"sushi"} and vocabulary.spellings_near("zeppelin") == set()


@pytest.mark.parametrize("within", [Within(frozenset({"AI_RESPONSE"})), Within(sessions=frozenset({"t"})),
                                    Within(frozenset({"USER"}), frozenset({"s", "t"})), Within(sessions=frozenset())])
def test_the_daos_keep_within_a_filter_from_the_index_as_from_the_scan(history, tmp_path, within):
    sessions = [new_session("s", "Sushi notes", "2026-02-01T09:00"), new_session("t", "More sushi", "2026-02-02T09:00")]
    rows = [new_message(f"m{n}", "st"[n % 2], f"sushi note {n}", f"2026-02-01T09:{n:02d}", ("USER", "AI_RESPONSE")[n // 2 % 2])
            for n in range(8)]
    database = HistoryDatabase.open_read_only(history(sessions, rows))
    lookup = lookup_for(database, SideIndex(tmp_path / "side.sqlite"))
    indexed, scanned = PeeweeMessageDao(database, lookup), PeeweeMessageDao(database)
    hits = indexed.search_content("sushi", within=within)
    assert hits == scanned.search_content("sushi", within=within)
    assert all((within.types is None or hit.type in within.types) and (within.sessions is None or hit.session_id in within.sessions)
               for hit in hits)
    assert len(hits) == sum(1 for row in rows if (within.types is None or row.type in within.types)
                            and (within.sessions is None or row.session_id in within.sessions))
    titles = [hit.id for hit in PeeweeSessionDao(database, lookup).search_by_title_or_preview("sushi", within=within)]
    assert titles == [hit.id for hit in PeeweeSessionDao(database).search_by_title_or_preview("sushi", within=within)]
    assert set(titles) == ({"s", "t"} if within.sessions is None else set(within.sessions))


@pytest.mark.spec("Q-14")
def test_memory_bm25_is_built_once_per_version_of_memory_index(history, mocker):
    path = history(chunks=[chunk("a", "sushi for dinner", "2026-02-20"), chunk("b", "ramen for lunch", "2026-02-21")])
    engine = HybridSearchEngine(PeeweeMemoryIndexDao(HistoryDatabase.open_read_only(path)), CLOCK, TOKYO)
    built = mocker.spy(MemoryBM25, "__init__")
    assert [r.chunk.id for r in engine.search("sushi")] == ["a"] and [r.chunk.id for r in engine.search("ramen")] == ["b"]
    assert built.call_count == 1
    writable = open_writable(path)
    PeeweeMemoryIndexDao(writable).insert_all([chunk("c", "sushi and ramen", "2026-02-22")])
    writable.close()
    assert {r.chunk.id for r in engine.search("sushi")} == {"a", "c"} and built.call_count == 2
    engine.search("ramen")
    assert built.call_count == 2


class OkapiWithOneClawIdf(BM25Okapi):
    def _calc_idf(self, nd):
        for word, freq in nd.items():
            self.idf[word] = np.log((self.corpus_size - freq + 0.5) / (freq + 0.5) + 1.0)


@pytest.mark.spec("Q-14")
def test_memory_bm25_scores_are_rank_bm25_okapi_scores_with_oneclaws_idf():
    rng = random.Random(5)
    vocabulary = [f"w{i}" for i in range(25)]
    corpus = [rng.choices(vocabulary, k=rng.randint(1, 15)) for _ in range(40)]
    ours, reference = MemoryBM25(corpus), OkapiWithOneClawIdf(corpus, k1=1.2, b=0.75)
    for query in (["w1"], ["w2", "w3", "w3"], ["w4", "unknown"], rng.choices(vocabulary, k=6), []):
        assert np.allclose(ours.get_scores(query), reference.get_scores(query), rtol=1e-12, atol=0)
    assert ours.get_scores(["w1"]).max() > 0


@pytest.mark.spec("Q-14")
def test_a_memory_snapshot_scores_index_terms_with_the_same_model():
    chunks = [chunk("a", "Sushi restaurants in Ginza"), chunk("b", "The restaurant closed"), chunk("c", "Hiking in Hakone")]
    terms = query_terms("sushi restaurant")
    reference = OkapiWithOneClawIdf([memory_terms(c.chunk_text) for c in chunks], k1=1.2, b=0.75)
    assert np.allclose(MemorySnapshot.build("v1", chunks, 0, TOKYO).bm25_scores(terms), reference.get_scores(terms))
    assert MemorySnapshot.build("v2", [chunk("x", "— … !")], 0, TOKYO).bm25 is None  # no word at all




WORDS_FOR_LITERALS = ["Sushi", "sushi", "RAMEN", "memoryIndex", "max_results", "the", "a", "Tokyo", "tokyo's", "\u212aelvin",
                      "src/main.kt", "3f2c", "naïve", "ſushi", "K", "e-mail", "(note)", "x.y", "déjà-vu"]


@pytest.mark.spec("Q-14", "P-01")
@pytest.mark.parametrize("needle", ["xyzab", "xyz ab q"], ids=["trigrams-only", "inner-word"])
def test_a_literal_lookup_reads_a_second_page_when_the_newest_candidates_are_look_alikes(history, tmp_path, needle):
    # The newest 70 messages hold every trigram (and inner word) of the needle but never the needle
    # itself; the first page (limit + 50 candidates) is all look-alikes, so the older hits come from the second.
    lookalike = "xyza zab" if needle == "xyzab" else "xyz abba xyz z ab qq b q"
    texts = [f"{needle} number {i}" for i in range(8)] + [f"{lookalike} {i}" for i in range(70)]
    database = HistoryDatabase.open_read_only(chat(history, texts))
    index = SideIndex(tmp_path / "side.sqlite")
    indexed = PeeweeMessageDao(database, lookup_for(database, index))
    hits = indexed.search_content(needle, limit=5)
    assert [hit.id for hit in hits] == ["m7", "m6", "m5", "m4", "m3"]
    assert hits == PeeweeMessageDao(database).search_content(needle, limit=5)


@pytest.mark.spec("Q-15", "P-01")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_literal_lookups_through_inner_words_find_what_the_scan_finds(history, tmp_path, seed):
    rng = random.Random(seed)
    texts = [" ".join(rng.choices(WORDS_FOR_LITERALS, k=rng.randint(1, 9))) for _ in range(120)]
    database = HistoryDatabase.open_read_only(chat(history, texts))
    index = SideIndex(tmp_path / "side.sqlite")
    lookup = lookup_for(database, index)
    for _ in range(40):
        text = rng.choice(texts)
        start = rng.randrange(len(text))
        query = text[start:start + rng.randint(3, 30)]
        expected = PeeweeMessageDao(database).search_content(query, limit=200)
        assert PeeweeMessageDao(database, lookup).search_content(query, limit=200) == expected
    assert lookup.state_now.usable


@pytest.mark.spec("Q-15", "P-02")
def test_ascii_queries_still_find_text_that_folds_to_ascii_only_in_python(history, tmp_path):
    texts = ["the \u212aelvin scale", "ſushi for lunch", "a ﬁle on disk", "KELVIN in capitals", "plain sushi", "no match"]
    database = HistoryDatabase.open_read_only(chat(history, texts))
    index = SideIndex(tmp_path / "side.sqlite")
    indexed = PeeweeMessageDao(database, lookup_for(database, index))
    for query, expected in (("kelvin", {"m0", "m3"}), ("sushi", {"m1", "m4"}), ("file on", {"m2"})):
        assert {hit.id for hit in indexed.search_content(query)} == expected
        assert indexed.search_content(query) == PeeweeMessageDao(database).search_content(query)


@pytest.mark.spec("Q-15", "P-02")
def test_ascii_queries_find_session_titles_that_fold_to_ascii_only_in_python(history, tmp_path):
    from oneclaw_search.data.history.session_dao import PeeweeSessionDao

    sessions = [new_session("k", "\u212aelvin trip", "2026-02-01T09:00"), new_session("p", "plain kelvin", "2026-02-02T09:00"),
                new_session("x", "something else", "2026-02-03T09:00")]
    database = HistoryDatabase.open_read_only(history(sessions, []))
    index = SideIndex(tmp_path / "side.sqlite")
    indexed = PeeweeSessionDao(database, lookup_for(database, index))
    assert [hit.id for hit in indexed.search_by_title_or_preview("kelvin")] == ["p", "k"]
    assert indexed.search_by_title_or_preview("kelvin") == PeeweeSessionDao(database).search_by_title_or_preview("kelvin")


@pytest.mark.spec("Q-06", "AC-08")
def test_a_cjk_word_shorter_than_a_trigram_finds_a_sessions_preview_from_the_index_as_from_the_scan(history, tmp_path):
    """A session is ranked by its title's words, but the literal reading tests its preview too: a CJK
    needle too short for trigrams is looked up in the words of both, never by a scan of every session."""
    sessions = [new_session("food", "Tokyo food", "2026-02-01T09:00"), new_session("other", "寿司 lovers", "2026-02-02T09:00")]
    rows = [new_message("ja", "food", "東京で寿司を食べた", "2026-02-01T09:01")]
    database = HistoryDatabase.open_read_only(history(sessions, rows))
    lookup = lookup_for(database, SideIndex(tmp_path / "side.sqlite"))
    indexed = PeeweeSessionDao(database, lookup)
    for needle in ("寿司", "寿", "東京"):
        found = indexed.search_by_title_or_preview(needle)
        assert found == PeeweeSessionDao(database).search_by_title_or_preview(needle)
        assert "food" in {hit.id for hit in found}
        assert len(lookup.literal_rowids("sessions", needle, 0, 2**62, 10)) == len(found)


@pytest.mark.spec("Q-11")
def test_a_build_in_many_batches_indexes_every_message_once(history, tmp_path, monkeypatch):
    from oneclaw_search.data.index import sync
    from oneclaw_search.data.index.schema import MESSAGES

    monkeypatch.setattr(sync, "BATCH_ROWS", 4)
    monkeypatch.setattr(sync, "COMMIT_ROWS", 4)
    database = HistoryDatabase.open_read_only(chat(history, [f"note {i} about sushi" for i in range(9)] + ["a walrus"]))
    index = SideIndex(tmp_path / "side.sqlite")
    lookup = lookup_for(database, index)
    assert lookup.keyword.searcher(MESSAGES, fresh=True).num_docs == 10
    assert PeeweeMessageDao(database, lookup).search_content("walrus")[0].id == "m9"


@pytest.mark.spec("Q-11")
def test_a_new_process_on_an_unchanged_history_reads_nothing_itself(history, mocker):
    path = chat(history, ["a walrus on the beach"])
    built(open_index(path))
    caught_up, read = mocker.spy(IndexSync, "catch_up"), mocker.spy(PeeweeMessageDao, "turns_between")
    assert messages(open_index(path), "walrus") == ["m0"]  # a second container stands for a new process
    assert caught_up.call_count == read.call_count == 0
    append(path, new_message("new", "s", "a walrus again", "2026-02-02T09:00"))
    # The search of messages reads one page of the rows the index lacks and one of the newest turns it
    # holds (edited in place while streamed).
    assert messages(open_index(path), "walrus") == ["new", "m0"] and read.call_count == 2 and caught_up.call_count == 0


@pytest.mark.spec("Q-12")
def test_a_format_marker_still_being_written_by_another_process_is_not_taken_for_another_format(tmp_path):
    from oneclaw_search.data.index.keyword_index import KeywordIndex
    from oneclaw_search.data.index.schema import MESSAGES

    first = KeywordIndex(tmp_path / "tantivy")
    writer = first.writer(MESSAGES)
    writer.commit()
    writer.wait_merging_threads()
    built = sorted(path.name for path in (tmp_path / "tantivy" / MESSAGES.name).iterdir())
    (tmp_path / "tantivy" / "FORMAT").write_text("")  # the moment between another process creating it and writing it
    KeywordIndex(tmp_path / "tantivy").open(MESSAGES)
    assert sorted(path.name for path in (tmp_path / "tantivy" / MESSAGES.name).iterdir()) == built
    assert (tmp_path / "tantivy" / "FORMAT").read_text() != ""
    assert [path.name for path in (tmp_path / "tantivy").iterdir() if ".FORMAT." in path.name or path.name.startswith("FORMAT.")] == []
