"""The code in README.md and docs/*.md does what it shows: Python blocks run, shell blocks parse and
name real subcommands, JSON blocks parse, install lines install from a path, links lead somewhere.

Conventions for writing docs:
- A ```python block runs as written, as a script, in a fresh process whose working folder holds a
  fresh copy of the demo's sample history `oneclaw-demo.db` (what `oneclaw-search demo` writes). It
  must exit 0 within BLOCK_SECONDS; it should assert what it claims.
- `<!-- doc-test: skip (the reason) -->` on the line before a block's fence skips that block.
- ```bash and ```sh blocks must pass `bash -n`, and every `oneclaw-search SUBCOMMAND` they name must
  answer `--help`. ```json blocks hold one JSON document, or JSON Lines.
- The package is not on PyPI: every `pip install` installs a path (`.`, `'.[mcp]'`, `/path/...`).
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK_SECONDS = 60
DEMO = "oneclaw-demo.db"
_FENCE = re.compile(r"^```(\w*)\s*$")
_SKIP = re.compile(r"^<!-- doc-test: skip \((.+)\) -->$")
_GLOBAL_OPTIONS = {"--db", "--time-zone", "--index-path"}  # the command's options that take a value
_SHELL_OPERATORS = {"|", "||", "&&", ";", "&"}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, from 1
    language: str
    code: str
    skip: str | None  # the reason given in a doc-test skip comment

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(document: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, each with the skip reason written just before it."""
    found, lines, at = [], document.read_text(encoding="utf-8").splitlines(), 0
    while at < len(lines):
        opening = _FENCE.match(lines[at])
        if opening is None:
            at += 1
            continue
        end = next(i for i in range(at + 1, len(lines)) if lines[i].startswith("```"))
        before = next((lines[i].strip() for i in range(at - 1, -1, -1) if lines[i].strip()), "")
        skip = _SKIP.match(before)
        found.append(Block(document, at + 1, opening.group(1), "\n".join(lines[at + 1:end]) + "\n",
                           skip.group(1) if skip else None))
        at = end + 1
    return found


ALL_BLOCKS = [block for document in DOCUMENTS for block in blocks(document)]
PYTHON = [block for block in ALL_BLOCKS if block.language == "python"]
SHELL = [block for block in ALL_BLOCKS if block.language in ("bash", "sh")]
JSON = [block for block in ALL_BLOCKS if block.language == "json"]


def _env(cache: Path) -> dict[str, str]:
    """The caller's environment with a cache of the test's own, so no index lands in the user's."""
    return {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONIOENCODING": "utf-8"}


@pytest.fixture(scope="module")
def sample_history(tmp_path_factory) -> Path:
    """A folder holding the demo's sample history, built once by the documented command."""
    folder = tmp_path_factory.mktemp("demo")
    subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "demo", "--db", str(folder / DEMO)],
                   cwd=folder, env=_env(folder / "cache"), check=True, capture_output=True, timeout=BLOCK_SECONDS)
    return folder


@pytest.mark.parametrize("block", PYTHON, ids=[block.name for block in PYTHON])
def test_python_block_runs_as_written(block: Block, sample_history: Path, tmp_path: Path):
    if block.skip:
        pytest.skip(block.skip)
    folder = tmp_path / "work"
    shutil.copytree(sample_history, folder, ignore=shutil.ignore_patterns("cache"))
    script = tmp_path / "doc_block.py"
    script.write_text(block.code, encoding="utf-8")
    ran = subprocess.run([sys.executable, str(script)], cwd=folder, env=_env(tmp_path / "cache"), check=False,
                         capture_output=True, text=True, encoding="utf-8", timeout=BLOCK_SECONDS)
    assert ran.returncode == 0, f"{block.name} failed:\n{ran.stdout[-2000:]}\n{ran.stderr[-4000:]}"


@pytest.mark.parametrize("block", SHELL, ids=[block.name for block in SHELL])
def test_shell_block_parses(block: Block, tmp_path: Path):
    script = tmp_path / "doc_block.sh"
    script.write_text(block.code, encoding="utf-8")
    checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, f"{block.name}: {checked.stderr}"


def subcommands(code: str) -> set[str]:
    """Each `oneclaw-search [--db PATH ...] SUBCOMMAND` a shell block runs."""
    named = set()
    for line in code.splitlines():
        words = shlex.split(line, comments=True)
        for at, word in enumerate(words):
            if word == "oneclaw-search" or word.endswith("/oneclaw-search"):
                rest = words[at + 1:]
                while rest and rest[0] in _GLOBAL_OPTIONS:
                    rest = rest[2:]
                if rest and rest[0] not in _SHELL_OPERATORS and not rest[0].startswith("-"):
                    named.add(rest[0])
    return named


def test_every_subcommand_the_docs_name_exists():
    named = set().union(*(subcommands(block.code) for block in SHELL))
    assert {"search", "import", "demo", "mcp", "conformance"} <= named  # the parsing found the usual ones
    script = Path(sys.executable).with_name("oneclaw-search")  # the installed entry point, when there is one
    command = [str(script)] if script.exists() else [sys.executable, "-m", "oneclaw_search.tools.cli"]
    for name in sorted(named):
        answered = subprocess.run([*command, name, "--help"], capture_output=True, text=True, check=False,
                                  timeout=BLOCK_SECONDS)
        assert answered.returncode == 0, f"`oneclaw-search {name}` named in the docs: {answered.stderr}"


@pytest.mark.parametrize("block", JSON, ids=[block.name for block in JSON])
def test_json_block_parses(block: Block):
    try:
        json.loads(block.code)
    except ValueError:
        for line in filter(str.strip, block.code.splitlines()):
            json.loads(line)  # JSON Lines, then


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_pip_installs_name_a_path_never_an_index(document: Path):
    for found in re.finditer(r"pip install\s+([^`\n#|&;]+)", document.read_text(encoding="utf-8")):
        words = shlex.split(found.group(1))
        targets = [word for word in words if not word.startswith("-")]
        assert targets and all(word.startswith((".", "/", "~")) for word in targets), found.group(0)


def _anchors(document: Path) -> set[str]:
    """GitHub's anchors for the document's headings: lower case, punctuation dropped, spaces to '-'."""
    headings = re.findall(r"^#+ (.+)$", document.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_relative_links_lead_to_files_and_headings(document: Path):
    for target in re.findall(r"\]\(([^)\s]+)\)", document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (document.parent / file).resolve() if file else document
        assert linked.exists(), f"{document.name} links to {target}: no such file"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{document.name} links to {target}: no such heading"
