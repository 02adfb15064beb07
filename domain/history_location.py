"""What names a history: a file, or a postgresql:// URL and a tenant name that is safe to bind.

Plain text rules, so the wiring and the command line tell a URL from a file without the driver installed.
"""
from __future__ import annotations

import re
from pathlib import Path

SCHEMES = ("postgresql://", "postgres://")
DEFAULT_TENANT = "default"
# Letters, digits and a few separators: a tenant travels in the connection's startup options, where
# spaces and quotes would need escaping, and shows up in messages and logs.
_TENANT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,62}")


def is_postgres_url(location: str | Path | None) -> bool:
    return isinstance(location, str) and location.strip().lower().startswith(SCHEMES)


def checked_tenant(name: str | None) -> str:
    """The tenant name, or ValueError naming what is wrong with it."""
    if name is None:
        return DEFAULT_TENANT
    if not isinstance(name, str) or not _TENANT.fullmatch(name):
        raise ValueError(f"tenant must be 1-63 letters, digits, '_', '.', '@' or '-', starting with a letter or digit: {name!r}")
    return name


def shown(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
