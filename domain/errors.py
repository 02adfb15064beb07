"""Errors that cross layers: a history that cannot be opened or read.

The tool reports them as search_error (ERR-4); the CLI prints them as one line and exits 1.
"""


class HistoryUnavailable(Exception):
    """The history database is missing, unreadable, not SQLite, or not OneClaw's schema."""


class HistoryChanged(HistoryUnavailable):
    """A writer changed the history while it was read without locks: what was read may be torn,
    so the search reads it again."""
