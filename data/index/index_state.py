"""What a search knows of the keyword index before it reads: how far the index has read the history
(IndexState), how far the search itself then read the rows the index lacks (Reach), and the note a
reply carries when that read did not reach them all (Q-11).
"""
from __future__ import annotations

from dataclasses import dataclass

from oneclaw_search.data.history.literal_index import Unindexed


@dataclass(frozen=True)
class IndexState:
    read: int  # the history rowid the message index has read up to
    top: int  # the history's highest message rowid
    sessions: Unindexed | None = None  # sessions changed since the index took them in
    usable: bool = True  # False: the index could not be opened or written; searches scan
    settled: bool = False  # the history is as it was when the index last caught up: nothing to read directly

    @property
    def complete(self) -> bool:
        return self.usable and self.read >= self.top and self.sessions is None


@dataclass
class Reach:
    """How far one search read the rows its index lacks: the messages it read, and whether it read
    every such message and session."""

    messages: int = 0
    whole: bool = True


def describe(state: IndexState, reach: Reach) -> str | None:
    """None when the search read every row the index lacks, else how far the index has come and how
    many of the newest rows past it the search read ('building 37 %: ...')."""
    if reach.whole:
        return None
    done = f"building {int(100 * state.read / state.top) if state.top else 0} %" if state.usable else "unusable"
    if not reach.messages:
        return f"{done}: no message it has not taken in was read directly"
    return f"{done}: the newest {reach.messages:,} messages it has not taken in were read directly"
