"""The literal reading asks the server for just the rows it needs, and for more only when the
domain's folding refuses some the server's admitted (literal_reading.first_admitted)."""
from __future__ import annotations

from oneclaw_search.data.postgres.literal_reading import first_admitted


def test_a_literal_page_that_loses_rows_to_the_domains_check_is_followed_by_one_for_what_it_lost():
    table = [(n,) for n in range(10)]
    asked: list[tuple[int, int]] = []

    def page(size: int, skip: int) -> list[tuple[int]]:
        asked.append((size, skip))
        return table[skip:skip + size]

    assert first_admitted(page, lambda row: row[0] % 3 != 0, 4) == [(1,), (2,), (4,), (5,)]
    assert asked == [(4, 0), (2, 4)]  # 0 and 3 refused: two more asked for, after the four read
    asked.clear()
    assert first_admitted(page, lambda row: True, 4) == table[:4] and asked == [(4, 0)]
    asked.clear()
    assert first_admitted(page, lambda row: row[0] > 8, 4) == [(9,)]
    assert asked == [(4, 0), (4, 4), (4, 8)]  # the third page came back short: no more rows to ask for
