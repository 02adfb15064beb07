"""Secrets pasted into a chat are masked in every reply: API keys and tokens of the common services,
JWTs, private-key blocks and `password=...` style pairs. Beyond FEAT-032: OneClaw shows text as stored.

A masked secret reads `[REDACTED:kind]`; a key=value pair keeps its key. Searching for a
secret's prefix finds the message, but the reply never shows the secret.
"""
from __future__ import annotations

import re

# (kind, what its secrets start with in lower case, the secret): a text is scanned with a pattern
# only when it holds one of its starts, a cheap test that most texts fail.
_PATTERNS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("private key", ("-----begin",),
     re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S)),
    ("anthropic key", ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_-]{8,}")),
    ("openai key", ("sk-",), re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}")),
    ("aws key", ("akia", "asia"), re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")),
    ("slack token", ("xox",), re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("jwt", ("eyj",), re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
)
# A secret-looking key, then = or :, then a value up to a space, quote, backslash, comma or semicolon
# (so a masked value never eats the JSON around it).
_PAIR_KEYS = re.compile(r"(?:pass(?:word|wd|phrase)|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)[\"']?\s*[:=]")
_PAIR = re.compile(r"(?i)(?<![a-z])((?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|access[_-]?token|auth[_-]?token)"
                   r"[\"']?\s*[:=]\s*[\"']?)([^\s\"'\\,;]{3,})")


def redact(text: str) -> str:
    """`text` with every secret it holds masked."""
    lower = text.lower()
    for kind, starts, pattern in _PATTERNS:
        if any(start in lower for start in starts):
            text = pattern.sub(f"[REDACTED:{kind}]", text)
    if _PAIR_KEYS.search(lower) is not None:
        text = _PAIR.sub(lambda pair: f"{pair.group(1)}[REDACTED]", text)
    return text


def unchanged(text: str) -> str:
    return text
