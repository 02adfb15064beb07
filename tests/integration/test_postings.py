"""The side index's own postings on real SQLite files (issue 3, Q-01, Q-11).

The reference is SQLite's FTS5 bm25() over the same terms in the same columns: our numpy ranking
must give the same scores, admit the same rows, and stay right across segment merges and deletes.
"""
import random
import sqlite3

import numpy as np
import pytest

from oneclaw_search.data import turn_window
from oneclaw_search.data.keyword_ranking import keyword_hits
from oneclaw_search.data.postings_lookups import ids_in_order, newest_docs_with_terms
from oneclaw_search.data import index_queries
from oneclaw_search.data.index_queries import MAX_TRIGRAMS, trigram_match
from oneclaw_search.data.postings import BULK_LEVEL, segment_terms
from oneclaw_search.data.postings_reader import PostingsReader
from oneclaw_search.data.index_docs import MESSAGES, SESSIONS, IndexedDoc
from oneclaw_search.data.index_schema import create_kind, drop_kind, ensure_schema
from oneclaw_search.data.side_index import SideIndex
from oneclaw_search.domain.history_query import HistoryQuery

WORDS = [f"w{i}" for i in range(30)]
pytestmark = pytest.mark.spec("Q-01", "Q-11")


def doc(rowid, body, previous=0, at=None):
    """A message: its own words, linked to the turn before it (the context readers derive)."""
    return IndexedDoc(rowid, f"r{rowid}", rowid if at is None else at, rowid, (body,), (body,), previous=previous)


def session(rowid, title, preview, at):
    return IndexedDoc(rowid, f"r{rowid}", at, rowid, (title, preview), (title, preview))


def random_docs(rng, count, start=1, sessions=4):
    """Messages of a few sessions, interleaved at random, each linked to its session's turn before."""
    last: dict[int, int] = {}
    docs = []
    for rowid in range(start, start + count):
        chat = rng.randrange(sessions)
        docs.append(doc(rowid, " ".join(rng.choices(WORDS[:12] + WORDS, k=rng.randint(0, 12))), last.get(chat, 0)))
        last[chat] = rowid
    return docs


def context_of(docs, dead=()):
    """Each doc's context as a stored column would hold it: its turn before's own words, unless
    that turn was deleted."""
    gone = {d.source_rowid for d in dead}
    bodies = {d.source_rowid: d.terms[0] for d in docs if d.source_rowid not in gone}
    return [bodies.get(d.previous, "") for d in docs]


def side_index(tmp_path, batches):
    index = SideIndex(tmp_path / "x.search-index.sqlite")
    ensure_schema(index, "history", "none")
    for batch in batches:
        with index.peewee.atomic():
            index.add(MESSAGES, batch)
    return index


def fts5_reference(tmp_path, docs, dead=()):
    """FTS5 over the same terms, rows numbered as the side index numbers them (from 1, in order)."""
    connection = sqlite3.connect(tmp_path / "reference.sqlite")
    connection.execute("CREATE VIRTUAL TABLE w USING fts5(body, context, tokenize = 'unicode61', content = '')")
    connection.executemany("INSERT INTO w (rowid, body, context) VALUES (?, ?, ?)",
                           [(number, d.terms[0], context) for number, (d, context) in enumerate(zip(docs, context_of(docs, dead)), 1)])
    connection.commit()
    return connection, {f"r{d.source_rowid}" for d in dead}


def reference_hits(connection, dead, terms, weights=(1.0, 0.5)):
    """What the FTS5 version of keyword search returned: rows with a term in the body or two in the
    turn before, ranked by bm25() with the column weights."""
    any_term = " OR ".join(terms)
    pairs = " OR ".join(f"({a} AND {b})" for i, a in enumerate(terms) for b in terms[i + 1:])
    admitted = f"{{body}} : ({any_term})" + (f" OR {{context}} : ({pairs})" if pairs else "")
    rows = connection.execute(
        f"SELECT rowid, -bm25(w, {weights[0]}, {weights[1]}) FROM w WHERE w MATCH ? AND rowid IN"
        " (SELECT rowid FROM w WHERE w MATCH ?)", (any_term, admitted)
    ).fetchall()
    return {f"r{rowid}": score for rowid, score in rows if f"r{rowid}" not in dead}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scores_and_admitted_rows_are_fts5_bm25s_across_merged_segments_and_deleted_rows(tmp_path, seed, monkeypatch):
    monkeypatch.setattr(turn_window, "NEIGHBOURS", ())  # the turns further away are FTS5's blind spot
    rng = random.Random(seed)
    docs = random_docs(rng, 150)
    batches = [docs[i:i + 7] for i in range(0, len(docs), 7)]  # 22 segments: merged eight at a time
    index = side_index(tmp_path, batches)
    dead = rng.sample(docs, 20)
    with index.peewee.atomic():
        index.forget(MESSAGES, [d.source_rowid for d in dead])
    reference, dead_ids = fts5_reference(tmp_path, docs, dead)
    for terms in (["w1"], ["w2", "w20"], rng.sample(WORDS, 3), rng.sample(WORDS, 5), ["w3", "absent"]):
        query = HistoryQuery("q", "q", (), tuple(terms))
        ours = keyword_hits(index, MESSAGES, query, 0, 10**6, 1_000, (1.0, 0.5)).scores
        expected = reference_hits(reference, dead_ids, terms)
        assert set(ours) == set(expected) and expected
        ratios = [ours[row] / expected[row] for row in expected]
        assert np.allclose(ratios, ratios[0], rtol=1e-9)  # the same scores, over the one ideal score
        assert list(ours) == sorted(ours, key=lambda row: (-expected[row], -int(row[1:])))


def test_merging_keeps_every_list_whole_and_in_row_order(tmp_path):
    rng = random.Random(4)
    docs = random_docs(rng, 70)
    index = side_index(tmp_path, [[d] for d in docs])
    levels = [row[0] for row in index.execute("SELECT level FROM m_seg ORDER BY seg")]
    assert levels == [2] + [0] * 6  # 64 one-row segments: eight merges, then one of those eight; six wait
    reader = index.postings(MESSAGES)
    lists, stored = reader.lists(WORDS, reader.rows()), reader.lists(WORDS, reader.rows(), derived=False)
    columns = list(zip((d.terms[0] for d in docs), context_of(docs)))
    for word in WORDS:
        expected = [n for n, texts in enumerate(columns, 1) if any(word in text.split() for text in texts)]
        assert lists[word].docs.tolist() == expected
        counts = [[text.split().count(word) for text in columns[n - 1]] for n in expected]
        assert lists[word].counts.tolist() == counts
        assert stored[word].docs.tolist() == [n for n, (body, _) in enumerate(columns, 1) if word in body.split()]


def test_a_deleted_row_is_never_returned_and_its_number_is_never_reused(tmp_path):
    index = side_index(tmp_path, [[doc(1, "alpha"), doc(2, "alpha beta")]])
    with index.peewee.atomic():
        index.forget(MESSAGES, [2])
        index.add(MESSAGES, [doc(3, "beta")])
    query = HistoryQuery("beta", "beta", (), ("beta",))
    assert list(keyword_hits(index, MESSAGES, query, 0, 10**6, 10).scores) == ["r3"]
    assert index.execute("SELECT doc FROM m_docs WHERE src = 3")[0][0] == 3
    assert ids_in_order(index, MESSAGES, newest_docs_with_terms(index, MESSAGES, ["alpha"], (0,), 0, 10**6, 10)) == ["r1"]


def test_a_word_only_in_the_turn_before_needs_a_second_query_word_there(tmp_path):
    chats = [doc(1, "sushi"), doc(2, "reply", 1), doc(3, "sushi tokyo"), doc(4, "reply", 3), doc(5, "tokyo")]
    index = side_index(tmp_path, [chats])
    query = HistoryQuery("q", "q", (), ("sushi", "tokyo"))
    assert set(keyword_hits(index, MESSAGES, query, 0, 10**6, 10).scores) == {"r1", "r3", "r4", "r5"}


def test_sessions_match_in_either_column_and_times_bound_every_kind(tmp_path):
    index = SideIndex(tmp_path / "x.search-index.sqlite")
    ensure_schema(index, "history", "none")
    with index.peewee.atomic():
        index.add(SESSIONS, [session(1, "trip", "", 100), session(2, "plans", "trip", 200), session(3, "trip", "", 300)])
    query = HistoryQuery("trip", "trip", (), ("trip",))
    assert set(keyword_hits(index, SESSIONS, query, 0, 10**6, 10).scores) == {"r1", "r2", "r3"}
    assert set(keyword_hits(index, SESSIONS, query, 150, 250, 10).scores) == {"r2"}
    assert ids_in_order(index, SESSIONS, newest_docs_with_terms(index, SESSIONS, ["trip"], (0, 1), 0, 250, 10)) == ["r2", "r1"]


def test_a_compound_is_scored_on_rows_holding_all_its_words_and_flagged_as_unsure(tmp_path):
    index = side_index(tmp_path, [[doc(1, "src main kt"), doc(2, "kt main src"), doc(3, "main only")]])
    query = HistoryQuery("src/main.kt", "src/main.kt", (), (), (("src", "main", "kt"),))
    hits = keyword_hits(index, MESSAGES, query, 0, 10**6, 10)
    assert set(hits.scores) == {"r1", "r2"} and hits.unsure == {"r1", "r2"}
    assert query.has_compound("see SRC/Main.kt here") and not query.has_compound("kt main src")


def test_an_empty_index_and_a_query_without_terms_find_nothing(tmp_path):
    assert keyword_hits(side_index(tmp_path, []), MESSAGES, HistoryQuery("x", "x", (), ("x",)), 0, 10**6, 10).scores == {}
    filled = side_index(tmp_path / "filled", [[doc(1, "x")]]) if (tmp_path / "filled").mkdir() is None else None
    assert keyword_hits(filled, MESSAGES, HistoryQuery("the", "the", (), ()), 0, 10**6, 10).scores == {}
    assert keyword_hits(filled, MESSAGES, HistoryQuery("x", "x", (), ("x",)), 0, 10**6, 10).scores.keys() == {"r1"}


def test_a_search_leaves_big_merges_for_later_and_an_unbounded_write_does_them(tmp_path):
    rng = random.Random(6)
    docs = random_docs(rng, 65)
    index = side_index(tmp_path, [])
    with index.peewee.atomic():
        for d in docs[:64]:
            index.add(MESSAGES, [d], largest_merge=10)
    assert [row[0] for row in index.execute("SELECT level FROM m_seg ORDER BY seg")] == [1] * 8
    with index.peewee.atomic():
        index.add(MESSAGES, docs[64:])
    assert [row[0] for row in index.execute("SELECT level FROM m_seg ORDER BY seg")] == [2, 0]


def test_a_bulk_build_merges_nothing_and_later_small_segments_merge_among_themselves(tmp_path):
    rng = random.Random(8)
    docs = random_docs(rng, 90)
    index = side_index(tmp_path, [])
    with index.peewee.atomic():
        for start in range(0, 50, 5):
            index.add(MESSAGES, docs[start:start + 5], bulk=True)
        for d in docs[50:58]:
            index.add(MESSAGES, [d], largest_merge=10)
    levels = [row[0] for row in index.execute("SELECT level FROM m_seg ORDER BY seg")]
    assert levels == [BULK_LEVEL] * 10 + [1]
    reader = index.postings(MESSAGES)
    lists = reader.lists(WORDS, reader.rows(), derived=False)
    for word in WORDS:
        assert lists[word].docs.tolist() == [n for n, d in enumerate(docs[:58], 1) if word in d.terms[0].split()]


def test_a_reader_follows_growth_deletes_and_a_rebuild_as_a_fresh_reader_would(tmp_path):
    rng = random.Random(7)
    index = side_index(tmp_path, [random_docs(rng, 30)])
    reader = index.postings(MESSAGES)
    reader.rows()

    def same_as_fresh():
        table, fresh = reader.rows(), PostingsReader(index.execute, "m", 1, context_from_prevs=True).rows()
        names = ("sizes", "ats", "alive", "prevs", "nexts", "own")
        return all(np.array_equal(getattr(table, name), getattr(fresh, name)) for name in names) \
            and table.rows == fresh.rows
    with index.peewee.atomic():
        index.add(MESSAGES, random_docs(rng, 20, start=31))
    assert same_as_fresh() and reader.rows().rows == 50
    with index.peewee.atomic():
        index.forget(MESSAGES, [3, 40])
    assert same_as_fresh() and not reader.rows().alive[3]
    with index.peewee.atomic():
        drop_kind(index, MESSAGES)
        create_kind(index, MESSAGES)
        index.add(MESSAGES, random_docs(rng, 60, start=100))
    assert same_as_fresh() and reader.rows().rows == 60 and reader.rows().alive[3]


def test_each_row_knows_the_turns_before_and_after_it_in_its_session_across_batches_and_merges(tmp_path):
    """Two sessions written interleaved, in batches of three: a row's neighbours are its session's turns, found
    whether the turn before was written in the same batch or an earlier one, and kept through merges."""
    sessions = {rowid: rowid % 2 for rowid in range(1, 41)}  # odd and even rows: two sessions
    docs = [doc(rowid, f"w{rowid % 30}", rowid - 2 if rowid > 2 else 0) for rowid in sessions]
    index = side_index(tmp_path, [docs[i:i + 3] for i in range(0, len(docs), 3)])
    assert index.execute("SELECT max(level) FROM m_seg")[0][0] >= 1  # some batches were merged
    fresh = PostingsReader(index.execute, "m", 1, context_from_prevs=True)
    grown = index.postings(MESSAGES)
    table = grown.rows()
    assert table.prevs[1:].tolist() == [max(rowid - 2, 0) for rowid in sessions]
    assert table.nexts[1:].tolist() == [rowid + 2 if rowid + 2 <= 40 else 0 for rowid in sessions]
    with index.peewee.atomic():
        index.add(MESSAGES, [doc(41, "w1", 39)])  # an old row gets a turn after it
    assert grown.rows().nexts[39] == 41 and grown.rows().prevs[41] == 39
    assert np.array_equal(grown.rows().nexts, fresh.rows().nexts)


def test_turns_before_lend_their_words_at_weights_falling_with_distance_until_they_are_deleted(tmp_path):
    chat = [doc(1, "sushi tokyo"), doc(2, "reply"), doc(3, "ok"), doc(4, "later"), doc(5, "much later")]
    index = side_index(tmp_path, [[d._replace(previous=d.source_rowid - 1) for d in chat]])
    query = HistoryQuery("q", "q", (), ("sushi", "tokyo"))
    scores = keyword_hits(index, MESSAGES, query, 0, 10**6, 10).scores
    # Row 2's turn before is its context column (0.5), rows 3 and 4 two and three turns on (0.3,
    # 0.1); row 5 is four turns on, out of reach.
    assert list(scores) == ["r1", "r2", "r3", "r4"] and scores["r1"] > scores["r2"] > scores["r3"] > scores["r4"] > 0
    with index.peewee.atomic():
        index.forget(MESSAGES, [1])
    assert keyword_hits(index, MESSAGES, query, 0, 10**6, 10).scores == {}


@pytest.mark.parametrize("seed", [4, 5])
def test_one_column_lists_count_pairs_as_the_general_path_does(seed):
    rng = random.Random(seed)
    cells = [rng.choices(WORDS, k=rng.randint(0, 15)) for _ in range(200)]
    one = segment_terms(cells, 1)
    two = segment_terms([cell for words in cells for cell in (words, [])], 2)  # the same words, an empty second column
    assert one.names == two.names and one.rows.tolist() == two.rows.tolist() and one.starts.tolist() == two.starts.tolist()
    assert one.counts[:, 0].tolist() == two.counts[:, 0].tolist() and not two.counts[:, 1].any()
    assert one.sizes.tolist() == [len(words) for words in cells]


def test_trigram_lookups_take_the_two_rarest_and_more_only_while_many_rows_could_match(tmp_path, monkeypatch):
    common = [doc(rowid, "alpha beta gamma") for rowid in range(1, 65)]
    index = side_index(tmp_path, [common, [doc(65, "zeta quux"), doc(66, "zeta quux alpha")]])
    monkeypatch.setattr(index_queries, "ENOUGH_ROWS", 10)
    # no sampled row holds "ux " or "x a": those two narrow to the one row, and nothing more is asked
    rare = trigram_match(index, MESSAGES, ["quux alpha"])
    assert set(rare.split(" AND ")) == {'"ux "', '"x a"'}
    assert index_queries._gram_rows(index, MESSAGES, rare).tolist() == [66]
    # a text whose every trigram is common could match most rows: up to six trigrams are asked for
    assert trigram_match(index, MESSAGES, ["alpha beta gamma"]).count(" AND ") == MAX_TRIGRAMS - 1
    config = dict(index.execute("SELECT k, v FROM m_grams_config"))
    assert config["automerge"] == 16 and config["crisismerge"] == 64 and config["hashsize"] == 64 * 1024 * 1024
