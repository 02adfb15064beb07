"""Chunks of a memory file (MEMORY.md, a daily log): paragraphs, each carrying its section's heading.

What `import memory` indexes, in place of MemoryManager.indexContent (MemoryManager.kt): that
splits on blank lines and drops every chunk that starts with `#`, so a structured MEMORY.md
("## Preferences", then its entries) indexes nothing, and CRLF files do not split at all. Here a
heading becomes the context of the paragraphs under it; the file's title (a level-1 heading) and
horizontal rules are left out.
"""
from __future__ import annotations

import re

_PARAGRAPHS = re.compile(r"\n[ \t]*\n")
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t#]*")
_RULE = re.compile(r"(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}")


def markdown_chunks(text: str) -> list[str]:
    """The chunks to index, in file order: each paragraph's text, preceded by the path of section
    headings it sits under (`## Projects / OneClaw`); heading-only paragraphs only set that path."""
    sections: dict[int, str] = {}  # heading level → its text, for the levels now open
    chunks: list[str] = []
    for paragraph in _PARAGRAPHS.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        lines = [line.rstrip() for line in paragraph.strip("\n").split("\n")]
        while lines and (heading := _HEADING.fullmatch(lines[0].strip())):
            level = len(heading.group(1))
            sections = {depth: title for depth, title in sections.items() if depth < level} | {level: heading.group(2)}
            lines = lines[1:]
        body = "\n".join(lines).strip()
        if not body or _RULE.fullmatch(body):
            continue
        path = " / ".join(title for depth, title in sorted(sections.items()) if depth > 1 and title)
        chunks.append(f"## {path}\n{body}" if path else body)
    return chunks
