"""What each window layout of the ranking grid, and each field of the shipped one, costs to build and
keep: the side index built from scratch for a synthetic history (synthetic_corpus.py, the scale
benchmark's), once per layout or field left out, each build in a fresh process; build rate in messages
a second and the tantivy folder's size against the message text. A row's own words are indexed whatever
the layout (they answer phrases), so scoring them beside the window costs nothing to build.

    python tests/benchmarks/bench_layouts.py                       # 100K messages, every layout, 3 runs each
    python tests/benchmarks/bench_layouts.py --messages 20000 --runs 1 --layouts 1-1-1,4-1-1
    python tests/benchmarks/bench_layouts.py --fields              # the shipped layout, each field left out

A field is left out by writing it empty in every message document (its schema stays): what the index
would cost without it, not a layout that searches.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cv_grid import WINDOWS  # noqa: E402
from synthetic_corpus import synthetic_corpus  # noqa: E402

from oneclaw_search.data.history.history_writer import HistoryWriter  # noqa: E402
from oneclaw_search.data.history.schema import open_writable  # noqa: E402
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW  # noqa: E402

_BUILD = """
import json, sys, time
from oneclaw_search.data.index import documents
from oneclaw_search.data.index import schema as fields
if sys.argv[4] == "parts":
    from oneclaw_search.data.text import analyzer, term_counts
    analyzer.name_parts = term_counts.name_parts = lambda text: ""  # the build as shipped, less the names' words
elif sys.argv[4] != "shipped":
    import tantivy
    blank = getattr(fields, sys.argv[4], None)
    class Recorded:  # stands in for tantivy.Document while a document is made; replayed less the field
        def __init__(self):
            self.calls = []
        def __getattr__(self, name):
            return lambda *args: self.calls.append((name, args))
    documents.tantivy = type("t", (), {"Document": Recorded})
    def replayed(make):
        def made(*args):
            doc = tantivy.Document()
            for name, call in make(*args).calls:
                if not (name == "add_text" and call[0] == blank):
                    getattr(doc, name)(*call)
            return doc
        return made
    for name in ("message_document", "session_document"):
        setattr(documents, name, replayed(getattr(documents, name)))
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.window_bm25 import WindowLayout
parts = create_injector(sys.argv[1], index_path=sys.argv[2], embedder=None,
                        ranking=RankingSettings(window=WindowLayout.from_token(sys.argv[3]))).get(IndexParts)
started = time.perf_counter()
assert parts.lookup.sync.catch_up()
print(json.dumps({"seconds": time.perf_counter() - started}))
"""


def history(folder: Path, messages: int, sessions: int) -> tuple[Path, int]:
    """A synthetic history of `messages` turns (no memory), and its message text's size in bytes."""
    path = folder / "history.db"
    made_sessions, made_messages, _ = synthetic_corpus(messages, sessions, 0, int(time.time() * 1000))
    database = open_writable(path)
    HistoryWriter(database, None).write(made_sessions, made_messages, [])
    database.close()
    with sqlite3.connect(path) as connection:
        return path, int(connection.execute("SELECT sum(length(CAST(content AS BLOB))) FROM messages").fetchone()[0])


# A field of the shipped layout to leave out: the schema's name for it, or "parts" for the words inside
# camelCase names (added to the own words and the window alike). A field is left out by recording each
# document as it is made and replaying it less the field, which costs each build the same; "nothing"
# pays that cost and leaves nothing out, "shipped" is the build as it ships.
FIELDS = {"shipped": "shipped", "nothing": "none", "trigrams": "LITERAL", "own words": "BODY", "window": "WINDOW",
          "identifier parts": "parts"}


def build_once(path: Path, folder: Path, layout: str, without: str = "shipped") -> tuple[float, int]:
    """One build from scratch in a fresh process: its seconds, and the tantivy folder's bytes."""
    index = folder / f"index-{layout}.sqlite"
    for leftover in folder.glob(f"index-{layout}.*"):
        shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    done = subprocess.run([sys.executable, "-c", _BUILD, str(path), str(index), layout, without], capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"the build ({layout}, without {without}) failed:\n{done.stderr}")
    seconds = json.loads(done.stdout.strip().splitlines()[-1])["seconds"]
    tantivy = index.with_name(index.name.replace(".sqlite", ".tantivy"))
    return seconds, sum(file.stat().st_size for file in tantivy.rglob("*") if file.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--layouts", help="comma-separated tokens (default: the grid's, cv_grid.WINDOWS)")
    parser.add_argument("--fields", action="store_true", help="the shipped layout, each field left out in turn")
    parser.add_argument("--json", type=Path, metavar="FILE")
    args = parser.parse_args(argv)
    layouts = args.layouts.split(",") if args.layouts else list(WINDOWS)
    if args.fields:
        variants = [(label, DEFAULT_WINDOW.token, field, "") for label, field in FIELDS.items()]
        return table(args, variants, "fields", f"layout {DEFAULT_WINDOW.token}", "left out")
    variants = [(layout, layout, "shipped", str(sum(int(part) for side in layout.split("-") for part in side.split("."))))
                for layout in layouts]
    return table(args, variants, "layouts", "texts a turn beside each", "layout")


def table(args: argparse.Namespace, variants: list[tuple[str, str, str, str]], key: str, about: str, heading: str) -> int:
    """Build rate and size of each variant (label, layout, field left out, a note shown beside it)."""
    rows = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path, text_bytes = history(folder, args.messages, args.sessions)
        print(f"{args.messages:,} messages, {text_bytes / 1e6:.1f} MB of message text; {about}; median of {args.runs} builds each")
        print(f"{heading:<18}{'':>14}{'msg/s':>10}{'runs (s)':>26}{'index MB':>10}{'x text':>8}")
        for label, layout, without, note in variants:
            runs = [build_once(path, folder, layout, without) for _ in range(args.runs)]
            seconds, size = statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs)
            rows[label] = {"rate": args.messages / seconds, "seconds": [run[0] for run in runs], "bytes": size,
                           "times_text": size / text_bytes}
            print(f"{label:<18}{note:>14}{args.messages / seconds:>10,.0f}{' / '.join(f'{run[0]:.1f}' for run in runs):>26}"
                  f"{size / 1e6:>10.1f}{size / text_bytes:>8.2f}")
    if args.json:
        args.json.write_text(json.dumps({"messages": args.messages, "text_bytes": text_bytes, key: rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
