"""Where this package's own files go when they may not sit beside the history they serve (P-03): the
user's cache folder. Side indexes, settled copies of a stranded WAL and extracted backups live there.
"""
from __future__ import annotations

import os
from pathlib import Path


def user_cache() -> Path:
    """$XDG_CACHE_HOME/oneclaw-search (by default ~/.cache/oneclaw-search)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "oneclaw-search"
