"""PerSearch: a value per search, found by its deadline, dropped once that deadline has expired."""
from fakes import FixedClock

from oneclaw_search.domain.clock import Deadline, PerSearch


def test_each_search_finds_its_own_value_even_when_deadlines_are_equal():
    clock = FixedClock(0, frozen_monotonic=0.0)
    first, second = Deadline.after(clock, 1.0), Deadline.after(clock, 1.0)  # equal, yet two searches
    kept: PerSearch[str] = PerSearch()
    kept.put(first, "first")
    kept.put(second, "second")
    assert kept.get(first, "none") == "first" and kept.pop(second, "none") == "second"
    assert kept.get(second, "none") == "none"


def test_a_value_is_dropped_once_its_deadline_has_expired_and_another_search_keeps_one():
    clock = FixedClock(0, frozen_monotonic=0.0)
    old = Deadline.after(clock, 1.0)
    kept: PerSearch[str] = PerSearch()
    kept.put(old, "old")
    clock.frozen_monotonic = 2.0
    kept.put(Deadline.after(clock, 1.0), "new")
    assert kept.get(old, "gone") == "gone"
