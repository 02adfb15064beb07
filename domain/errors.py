"""Errors that cross layers: a history that cannot be opened or read.

The tool reports them as search_error (ERR-4); the CLI prints them as one line and exits 1.
"""


class HistoryUnavailable(Exception):
    """The history database is missing, unreadable, not SQLite, or not OneClaw's schema."""
