"""The keyword index's cut (data/index/keyword_search.py, `_best`), on a stand-in searcher: with the
engine's scores held to the live statistics, the engine is read further while a row past what was read
could still rise above the cut, and no further once none can; ties at the cut keep the newest (Q-11)."""
import pytest

from oneclaw_search.data.index import keyword_search
from oneclaw_search.data.index.keyword_search import TIED_READS, _best


class Searcher:
    """The engine's rows best first, as (its score, rowid); a hit's address is its rowid."""

    def __init__(self, rows):
        self.rows, self.reads = rows, []

    def search(self, question, wanted, count=False):
        self.reads.append(wanted)
        return type("Found", (), {"hits": self.rows[:wanted]})()

    def fast_field_values(self, field, addresses):
        return list(addresses)


@pytest.fixture(autouse=True)
def rowids_are_addresses(monkeypatch):
    monkeypatch.setattr(keyword_search, "unsigned_values", lambda searcher, field, addresses: list(addresses))


def test_rows_the_engine_put_below_the_cut_are_read_when_the_live_statistics_could_lift_them():
    rows = [(100.0 - n, n) for n in range(40)]  # rowid n scores 100 - n for the engine
    searcher = Searcher(rows)
    # Held to the live statistics, the rows read first fall to a tenth: one further down may rise above them.
    live = {n: (100.0 - n) * (0.1 if n < 8 else 1.0) for n in range(40)}
    asked = []

    def rescore(hits):
        asked.extend(rowid for _, rowid in hits)
        return [(live[rowid], rowid) for _, rowid in hits]
    found, whole = _best(searcher, None, 2, rescore, lambda: (0.1, 1.0))
    assert [rowid for _, rowid in found] == [8, 9] and searcher.reads == [2 * TIED_READS, 4 * TIED_READS] and whole
    assert asked == list(range(4 * TIED_READS))  # each row held to the live statistics once, whatever the rounds


def test_rows_the_engine_puts_too_far_below_the_cut_to_reach_it_are_not_scored_again():
    rows = [(100.0 - n if n < 4 else 80.0 - n, n) for n in range(40)]
    live = {n: score * (1.1 if n % 2 else 0.9) for score, n in rows}  # within 0.9 and 1.1 of the engine's
    asked = []

    def rescore(hits):
        asked.extend(rowid for _, rowid in hits)
        return [(live[rowid], rowid) for _, rowid in hits]
    found, _ = _best(Searcher(rows), None, 2, rescore, lambda: (0.9, 1.1))
    assert [rowid for _, rowid in found] == [1, 3]  # 99·1.1 and 97·1.1 beat 100·0.9
    # A row can reach the second best's 99·0.9 only if its engine score times 1.1 does: not 76 (row 4) nor below.
    assert asked == [0, 1, 2, 3]


def test_the_engine_is_read_once_where_its_scores_are_the_live_ones():
    searcher = Searcher([(100.0 - n, n) for n in range(40)])
    found, whole = _best(searcher, None, 2, lambda hits: list(hits), lambda: None)
    assert [rowid for _, rowid in found] == [0, 1] and searcher.reads == [2 * TIED_READS] and whole


def test_rows_tied_at_the_cut_end_the_reading_and_the_newest_are_kept():
    searcher = Searcher([(5.0, n) for n in range(1000)])  # a thousand rows the engine scores alike
    found, whole = _best(searcher, None, 2, lambda hits: list(hits), lambda: (1.0, 1.0))
    assert searcher.reads == [2 * TIED_READS]  # a row not read could at most equal the cut
    assert [rowid for _, rowid in found] == [2 * TIED_READS - 1, 2 * TIED_READS - 2]
    assert not whole  # rows not read tie with the cut: which were read depends on the build


def test_a_tie_a_row_not_read_could_break_is_read_on_to_the_end():
    searcher = Searcher([(5.0, n) for n in range(100)])
    found, whole = _best(searcher, None, 2, lambda hits: list(hits), lambda: (1.0, 1.01))
    assert searcher.reads[-1] >= 100 and [rowid for _, rowid in found] == [99, 98] and whole


def test_rows_tied_past_what_was_read_where_the_scores_are_the_live_ones_are_not_the_same_on_every_build():
    searcher = Searcher([(5.0, n) for n in range(1000)])
    found, whole = _best(searcher, None, 2, lambda hits: list(hits), lambda: None)
    assert searcher.reads == [2 * TIED_READS] and len(found) == 2 and not whole
