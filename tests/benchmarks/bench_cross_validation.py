"""Chooses the ranking model's constants by leave-one-conversation-out cross-validation on LoCoMo dev.

    python tests/benchmarks/bench_cross_validation.py            # the full grid, five folds, ablations (about 20 minutes on 2 cores)
    python tests/benchmarks/bench_cross_validation.py --smoke    # two conversations, a tiny grid

For each fold one conversation is held out: the grid's best constants on the other four (mean of
keyword-query and question R@10, recall counted as locomo_data.py says) are scored on it. Printed:
each fold's chosen constants and its R@10 for keyword queries and for raw questions, their mean and
worst fold; the same for the shipped defaults (RankingSettings()) and for the constants the whole
split chooses; and, for each constant, the folds with it held at its neutral value, so a constant
that does not raise the mean without costing some fold more than 0.01 shows as such.
"""
from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_data import DATASET, FIELDS, load, memo_module, recall, shown_turns, write_history  # noqa: E402

from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.domain.relevance import RankingSettings  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

GRID: dict[str, tuple[float, ...]] = {
    "before_weight": (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
    "after_weight": (0.0, 0.25, 0.5, 1.0),
    "sharpness": (1.0, 12.0, 24.0, 48.0, 96.0),
    "min_coverage": (0.0, 0.1, 0.2),
}
SMOKE_GRID: dict[str, tuple[float, ...]] = {"before_weight": (0.0, 1.0), "sharpness": (6.0, 12.0)}
NEUTRAL = {"before_weight": 0.0, "after_weight": 0.0, "sharpness": 1.0, "min_coverage": 0.0}
Scores = dict[str, tuple[float, float]]  # conversation -> (keyword R@10, question R@10)


def settings_grid(grid: dict[str, tuple[float, ...]]) -> list[RankingSettings]:
    names = list(grid)
    return [replace(RankingSettings(), **dict(zip(names, values, strict=True))) for values in itertools.product(*grid.values())]


class Conversation:
    """One conversation's history and its queries, searched through the real tool with any constants."""

    def __init__(self, sample: dict, queries: list[dict], folder: Path) -> None:
        self.id = sample["sample_id"]
        self.queries = queries
        self.path, self.clock = write_history(sample, folder)
        self.cache: dict = {}

    def scores(self, ranking: RankingSettings) -> tuple[float, float]:
        container = create_injector(self.path, clock=self.clock, time_zone="UTC", ranking=ranking,
                                    modules=[memo_module(self.cache)])
        engine = container.get(ToolExecutionEngine)
        found = []
        for field in FIELDS:
            found.append(statistics.fmean(recall(self.shown(engine, query[field]), query["gold_message_ids"])
                                          for query in self.queries))
        return found[0], found[1]

    @staticmethod
    def shown(engine: ToolExecutionEngine, text: str) -> list[str]:
        reply = engine.execute_tool("search_history", {"query": text, "scope": "sessions", "max_results": 10, "format": "json"})
        if not reply.is_success:
            raise RuntimeError(f"{text!r}: {reply.error_type}: {reply.error_message}")
        return shown_turns(json.loads(reply.result)["results"])


def scored(conversations: list[Conversation], settings: list[RankingSettings], workers: int) -> dict[RankingSettings, Scores]:
    """Every setting's R@10 on every conversation. The first setting asks each source every question
    (and the memos keep the answers); the rest are shared among forked workers, which inherit them."""
    first = {settings[0]: {c.id: c.scores(settings[0]) for c in conversations}}
    rest = settings[1:]
    global _FORKED
    _FORKED = conversations
    with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
        rows = pool.map(_scores_of, rest, chunksize=max(1, len(rest) // (8 * max(1, workers))))
    return {**first, **dict(zip(rest, rows, strict=True))}


_FORKED: list[Conversation] = []  # what forked workers score, inherited from their parent


def _scores_of(setting: RankingSettings) -> Scores:
    return {c.id: c.scores(setting) for c in _FORKED}


def objective(scores: Scores, conversations: list[str]) -> float:
    return statistics.fmean((scores[c][0] + scores[c][1]) / 2 for c in conversations)


def folds(table: dict[RankingSettings, Scores], conversations: list[str],
          allowed: list[RankingSettings]) -> list[tuple[str, RankingSettings, tuple[float, float]]]:
    """Each conversation held out in turn: the best of `allowed` on the others, scored on it."""
    rows = []
    for held in conversations:
        others = [c for c in conversations if c != held]
        best = max(allowed, key=lambda setting: (objective(table[setting], others), _tie_break(setting)))
        rows.append((held, best, table[best][held]))
    return rows


def _tie_break(setting: RankingSettings) -> tuple[float, ...]:
    """Among equals, the constants nearest their neutral values: the fewer knobs turned, the better."""
    return tuple(-abs(getattr(setting, name) - neutral) for name, neutral in NEUTRAL.items())


def summary(rows: list[tuple[float, float]]) -> str:
    keyword, questions = [row[0] for row in rows], [row[1] for row in rows]
    return (f"mean {statistics.fmean(keyword):.3f} / {statistics.fmean(questions):.3f}, "
            f"worst {min(keyword):.3f} / {min(questions):.3f}")


def describe(setting: RankingSettings) -> str:
    return ", ".join(f"{field.name.removesuffix('_weight')} {getattr(setting, field.name):g}" for field in fields(setting))


def report(table: dict[RankingSettings, Scores], conversations: list[str], grid: dict[str, tuple[float, ...]]) -> dict:
    candidates = list(table)
    chosen = folds(table, conversations, candidates)
    print(f"\n{'fold (held out)':<16}{'keyword':>9}{'questions':>11}   constants chosen on the other folds")
    for held, setting, (keyword, question) in chosen:
        print(f"{held:<16}{keyword:>9.3f}{question:>11.3f}   {describe(setting)}")
    print(f"cross-validated: {summary([row[2] for row in chosen])}  (keyword / questions)")
    defaults = RankingSettings()
    if defaults in table:
        print(f"shipped defaults ({describe(defaults)}): {summary([table[defaults][c] for c in conversations])}")
    whole = max(candidates, key=lambda setting: (objective(table[setting], conversations), _tie_break(setting)))
    print(f"chosen on all {len(conversations)}: {describe(whole)}: {summary([table[whole][c] for c in conversations])}")
    print("\neach constant held at its neutral value, the others cross-validated (mean / worst, keyword / questions):")
    ablations = {}
    for name in grid:
        pinned = [s for s in candidates if getattr(s, name) == NEUTRAL[name]]
        if not pinned:
            continue
        rows = folds(table, conversations, pinned)
        ablations[name] = [row[2] for row in rows]
        deltas = [(a[0] - b[2][0], a[1] - b[2][1]) for a, b in zip(ablations[name], chosen, strict=True)]
        worst = min(min(d) for d in deltas)
        print(f"  {name} = {NEUTRAL[name]:g}: {summary(ablations[name])}; worst fold change {worst:+.3f}")
    return {"folds": [{"held_out": h, "constants": asdict(s), "keyword": k, "questions": q} for h, s, (k, q) in chosen],
            "whole_split": asdict(whole), "ablations": ablations}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--smoke", action="store_true", help="two conversations, a tiny grid")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the table and every score to FILE")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes scoring the grid (default: one a core)")
    args = parser.parse_args(argv)
    if not (args.dataset / "locomo10-dev.json").is_file():
        parser.error(f"no LoCoMo dev split in {args.dataset} (pass --dataset DIR)")
    samples, queries = load(args.dataset)
    grid = SMOKE_GRID if args.smoke else GRID
    samples = samples[:2] if args.smoke else samples
    settings = list(dict.fromkeys([RankingSettings(), *settings_grid(grid)]))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        conversations = [Conversation(s, [q for q in queries if q["conversation_id"] == s["sample_id"]], Path(folder))
                         for s in samples]
        table = scored(conversations, settings, args.workers)
    print(f"{len(table)} settings of the ranking constants x {len(conversations)} conversations, "
          f"{sum(len(c.queries) for c in conversations)} queries asked both ways, in {time.perf_counter() - started:.0f} s")
    figures = report(table, [c.id for c in conversations], grid)
    if args.json is not None:
        figures["scores"] = [{"constants": asdict(s), "scores": scores} for s, scores in table.items()]
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
