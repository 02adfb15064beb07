"""Shows that the conformance suite can fail: seeds known defects into copies of the package, runs the
suite against each copy, and lists which cases catch each defect.

Among the defects are OneClaw's Kotlin code's own (wildcards through LIKE, ASCII-only case folding,
max_results 0 -> 1, no partial results on timeout) and plausible slips of a port (weights, decay,
de-duplication, the end of a day, excerpts). Run by hand, or by the slow-marked test beside it:

    python tests/conformance/mutation_check.py [--jobs 4] [--json]

Exit 0 only when every defect is caught by at least one case and the unchanged copy passes.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "data", "tools", "di")
CASES = ROOT / "specs" / "conformance"


@dataclass(frozen=True)
class Defect:
    name: str
    what: str
    file: str
    before: str
    after: str
    also: tuple[tuple[str, str, str], ...] = ()  # further (file, before, after) edits of the same defect


DEFECTS = [
    Defect("max-results-zero-gives-one", "max_results 0 or below is clamped to 1 (OneClaw's code)",
           "domain/search_request.py", "    if number <= 0:\n        return DEFAULT_MAX_RESULTS",
           "    if number <= 0:\n        return 1"),
    Defect("like-wildcards-leak", "LIKE '%query%' runs unescaped, so % and _ in a query are wildcards (OneClaw's code)",
           "data/history/message_dao.py",
           'matching = pw.fn.instr(pw.fn.oc_fold(pw.Cast(MessageEntity.content, "BLOB")), needle) > 0',
           'matching = pw.SQL("oc_fold(CAST(\\"t1\\".\\"content\\" AS BLOB)) LIKE (\'%\' || ? || \'%\')", (needle,))',
           also=(("domain/ranking.py", "    start = haystack.find(needle)\n    while needle and start != -1:\n"
                  "        yield start\n        start = haystack.find(needle, start + len(needle))\n",
                  "    import re\n    wild = re.escape(needle).replace('%', '.*?').replace('_', '.')\n"
                  "    yield from (found.start() for found in re.finditer(wild, haystack)) if needle else ()\n"),)),
    Defect("ascii-only-case-folding", "only ASCII letters are folded, as SQLite's LIKE does (OneClaw's code)",
           "domain/text.py",
           '    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())',
           '    return "".join(c.lower() if c.isascii() else c for c in text)'),
    Defect("no-partial-results", "a source that overruns the budget fails the whole search (OneClaw's code)",
           "domain/search_history_use_case.py", "        timed, unfinished = run_in_parallel(tasks, deadline)\n",
           "        timed, unfinished = run_in_parallel(tasks, deadline)\n"
           "        if unfinished:\n            raise TimeoutError('search timed out')\n"),
    Defect("swapped-source-weights", "messages weigh 0.5 and sessions 0.6", "domain/ranking.py",
           "    SourceType.MESSAGE: 0.6,\n    SourceType.SESSION: 0.5,",
           "    SourceType.MESSAGE: 0.5,\n    SourceType.SESSION: 0.6,"),
    Defect("deleted-sessions-leak", "messages of soft-deleted sessions still match (OneClaw's code)",
           "data/history/message_dao.py", "            & session.deleted_at.is_null()\n", ""),
    Defect("half-life-halved", "scores halve every 35 days instead of 69", "domain/ranking.py",
           "DECAY_LAMBDA_PER_DAY = 0.01 ", "DECAY_LAMBDA_PER_DAY = 0.02 "),
    Defect("duplicates-at-eighty-percent", "an overlap of exactly 80 % counts as a duplicate (OneClaw's code)",
           "domain/ranking.py", "jaccard(words, other) > DUPLICATE_OVERLAP", "jaccard(words, other) >= DUPLICATE_OVERLAP"),
    Defect("reversed-range-finds-nothing", "date_from after date_to silently finds nothing (OneClaw's code)",
           "domain/search_request.py", "        raise InvalidSearchRequest(REVERSED_RANGE.format(start=date_from, end=date_to))",
           "        pass"),
    Defect("day-is-24-hours", "a day ends 86,399,999 ms after it starts, an hour off on DST days (OneClaw's code)",
           "domain/local_time.py", "    return start_of_day_ms(day + timedelta(days=1), zone) - 1",
           "    return start_of_day_ms(day, zone) + 86_399_999"),
    Defect("excerpt-from-the-start", "excerpts are the first 500 characters, so a late match is cut away (OneClaw's code)",
           "domain/text.py", "    first = spans[0][0] if spans else 0", "    first = 0"),
]


def copy_package(into: Path) -> Path:
    """A copy of the four layers under `into`/oneclaw_search; the shipped model is linked, not copied."""
    package = into / "oneclaw_search"
    for layer in LAYERS:
        shutil.copytree(ROOT / layer, package / layer, ignore=shutil.ignore_patterns("__pycache__", "static_model"))
    model = ROOT / "data" / "embedding" / "static_model"
    (package / "data" / "embedding" / "static_model").symlink_to(model, target_is_directory=True)
    return package


def seed(package: Path, defect: Defect) -> None:
    for file, before, after in ((defect.file, defect.before, defect.after), *defect.also):
        path = package / file
        text = path.read_text(encoding="utf-8")
        if text.count(before) != 1:
            raise SystemExit(f"{defect.name}: the code to change is no longer found exactly once in {file}")
        path.write_text(text.replace(before, after), encoding="utf-8")


def run_suite(root: Path) -> dict:
    """The suite in process against the copy under `root` (it comes first on the import path)."""
    env = {**os.environ, "PYTHONPATH": str(root), "XDG_CACHE_HOME": str(root / "cache")}
    done = subprocess.run([sys.executable, "-m", "oneclaw_search.tools.cli", "conformance", "--cases", str(CASES), "--json"],
                          cwd=root, env=env, capture_output=True, text=True, check=False)
    try:
        return json.loads(done.stdout)
    except ValueError:
        return {"error": (done.stderr or done.stdout)[-1500:], "cases": []}


def trial(defect: Defect | None, scratch: Path) -> tuple[str, list[str], str | None]:
    root = Path(tempfile.mkdtemp(dir=scratch))
    package = copy_package(root)
    if defect is not None:
        seed(package, defect)
    report = run_suite(root)
    failed = [case["id"] for case in report.get("cases", []) if case["status"] == "fail"]
    return (defect.name if defect else "unchanged"), failed, report.get("error")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="oneclaw-mutants-") as scratch, ThreadPoolExecutor(args.jobs) as pool:
        trials = list(pool.map(lambda d: trial(d, Path(scratch)), [None, *DEFECTS]))
    (_, baseline, broken), *mutants = trials
    rows = [{"defect": d.name, "what": d.what, "caught_by": failed, "error": error}
            for d, (_, failed, error) in zip(DEFECTS, mutants, strict=True)]
    ok = not baseline and not broken and all(row["caught_by"] for row in rows)
    if args.json:
        print(json.dumps({"baseline_failures": baseline, "baseline_error": broken, "defects": rows, "passed": ok}, indent=1))
    else:
        print(f"unchanged copy: {'all cases pass' if not (baseline or broken) else baseline or broken}\n")
        print("| seeded defect | what it does | caught by |\n| --- | --- | --- |")
        for row in rows:
            caught = ", ".join(row["caught_by"]) or ("NOT CAUGHT" + (f" ({row['error']})" if row["error"] else ""))
            print(f"| {row['defect']} | {row['what']} | {caught} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
