"""Chooses the ranking model's constants by cross-validation over two kinds of history: LoCoMo dev's
five conversations and the coding-agent set's five folds of transcripts, each fold left out in turn.

    python tests/benchmarks/bench_cross_validation.py            # the full grid, both sets, ablations
    python tests/benchmarks/bench_cross_validation.py --smoke    # two conversations, a tiny grid

For each held-out fold the grid's best constants on every other fold are scored on it. "Best" is the
mean over the two sets of each set's mean R@10 over its training folds (keyword queries and questions
alike), so neither set outweighs the other whatever its number of folds or queries. Printed per set:
each fold's chosen constants and its R@10 (keyword queries / questions) beside bare tantivy's variants
on the same fold (the floor), the folds' mean and worst; the same for the shipped defaults; and for
each constant, the folds with it held at its neutral value and its own effect on each set's mean and
on the fold it helps least. A constant earns its place when it raises the mean on both sets and lowers
no fold by more than 0.01 (a coding fold holds about 29 queries: one query is 0.034 of its R@10).
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

from bare_tantivy import VARIANTS, BareTantivy, best_floor  # noqa: E402
from coding_set import coding_set, default_repo  # noqa: E402
from locomo_data import DATASET, locomo_set  # noqa: E402
from recall_sets import FIELDS, History, Query, RecallSet, ask, memo_module, recall, shown_turns  # noqa: E402

from oneclaw_search.di import create_injector  # noqa: E402
from oneclaw_search.domain.relevance import RankingSettings  # noqa: E402
from oneclaw_search.tools import ToolExecutionEngine  # noqa: E402

GRID: dict[str, tuple[float, ...]] = {
    "neighbour_weight": (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0),
    "sharpness": (1.0, 12.0, 24.0, 48.0, 96.0),
    "min_coverage": (0.0, 0.1, 0.2),
}
SMOKE_GRID: dict[str, tuple[float, ...]] = {"neighbour_weight": (0.0, 1.0), "sharpness": (6.0, 12.0)}
NEUTRAL = {"neighbour_weight": 0.0, "sharpness": 1.0, "min_coverage": 0.0}
Scores = dict[str, tuple[float, float]]  # fold -> (keyword R@10, question R@10)


def settings_grid(grid: dict[str, tuple[float, ...]]) -> list[RankingSettings]:
    names = list(grid)
    return [replace(RankingSettings(), **dict(zip(names, values, strict=True))) for values in itertools.product(*grid.values())]


class Searched:
    """One history and the queries asked of it, searched through the real tool with any constants;
    the sources' answers are kept (the constants change how a candidate is scored, not what is found)."""

    def __init__(self, history: History, queries: list[Query]) -> None:
        self.history, self.queries = history, queries
        self.cache: dict = {}

    def recalls(self, ranking: RankingSettings) -> dict[str, list[list[float]]]:
        """Per fold, each query's R@10 as a keyword query and as a question."""
        container = create_injector(self.history.path, clock=self.history.clock, time_zone="UTC", ranking=ranking,
                                    modules=[memo_module(self.cache)])
        engine = container.get(ToolExecutionEngine)
        found: dict[str, list[list[float]]] = {}
        for query in self.queries:
            rows = found.setdefault(query.fold, [[], []])
            for at, field in enumerate(FIELDS):
                rows[at].append(recall(self.shown(engine, query.text(field)), query.gold))
        return found

    @staticmethod
    def shown(engine: ToolExecutionEngine, text: str) -> list[str]:
        reply = ask(engine, text)
        if not reply.is_success:
            raise RuntimeError(f"{text!r}: {reply.error_type}: {reply.error_message}")
        return shown_turns(json.loads(reply.result)["results"])


def fold_scores(searched: list[Searched], ranking: RankingSettings) -> Scores:
    rows: dict[str, list[list[float]]] = {}
    for one in searched:
        for fold, (keyword, question) in one.recalls(ranking).items():
            kept = rows.setdefault(fold, [[], []])
            kept[0] += keyword
            kept[1] += question
    return {fold: (statistics.fmean(keyword), statistics.fmean(question)) for fold, (keyword, question) in rows.items()}


def scored(searched: list[Searched], settings: list[RankingSettings], workers: int) -> dict[RankingSettings, Scores]:
    """Every setting's R@10 on every fold. The first setting asks each source every question (and the
    memos keep the answers); the rest are shared among forked workers, which inherit them."""
    first = {settings[0]: fold_scores(searched, settings[0])}
    rest = settings[1:]
    global _FORKED
    _FORKED = searched
    with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
        rows = pool.map(_scores_of, rest, chunksize=max(1, len(rest) // (8 * max(1, workers))))
    return {**first, **dict(zip(rest, rows, strict=True))}


_FORKED: list[Searched] = []  # what forked workers score, inherited from their parent


def _scores_of(setting: RankingSettings) -> Scores:
    return fold_scores(_FORKED, setting)


def floors(recall_sets: list[RecallSet]) -> dict[str, Scores]:
    """Each bare tantivy variant's R@10 per fold, on the same histories and queries."""
    found: dict[str, dict[str, list[list[float]]]] = {}
    for recall_set in recall_sets:
        for history in recall_set.histories:
            bare = BareTantivy(history.path)
            for query in (q for q in recall_set.queries if q.history == history.id):
                for variant in VARIANTS:
                    rows = found.setdefault(variant.label, {}).setdefault(query.fold, [[], []])
                    for at, field in enumerate(FIELDS):
                        rows[at].append(recall(bare.shown(variant.label, query.text(field)), query.gold))
    return {variant: {fold: (statistics.fmean(k), statistics.fmean(q)) for fold, (k, q) in folds.items()}
            for variant, folds in found.items()}


def objective(scores: Scores, sets: dict[str, list[str]], folds: list[str]) -> float:
    """The mean over the sets of each set's mean over `folds` of (keyword + question R@10) / 2."""
    means = [statistics.fmean((scores[f][0] + scores[f][1]) / 2 for f in own if f in folds) for own in sets.values()
             if any(f in folds for f in own)]
    return statistics.fmean(means)


def choose(table: dict[RankingSettings, Scores], sets: dict[str, list[str]], folds: list[str],
           allowed: list[RankingSettings]) -> RankingSettings:
    return max(allowed, key=lambda setting: (objective(table[setting], sets, folds), _tie_break(setting)))


def cross_validated(table: dict[RankingSettings, Scores], sets: dict[str, list[str]],
                    allowed: list[RankingSettings]) -> dict[str, tuple[RankingSettings, tuple[float, float]]]:
    """Each fold held out in turn: the best of `allowed` on every other fold, scored on it."""
    every = [fold for own in sets.values() for fold in own]
    chosen = {}
    for held in every:
        best = choose(table, sets, [f for f in every if f != held], allowed)
        chosen[held] = (best, table[best][held])
    return chosen


def _tie_break(setting: RankingSettings) -> tuple[float, ...]:
    """Among equals, the constants nearest their neutral values: the fewer knobs turned, the better."""
    return tuple(-abs(getattr(setting, name) - neutral) for name, neutral in NEUTRAL.items())


def summary(rows: list[tuple[float, float]]) -> str:
    keyword, questions = [row[0] for row in rows], [row[1] for row in rows]
    return (f"mean {statistics.fmean(keyword):.3f} / {statistics.fmean(questions):.3f}, "
            f"worst {min(keyword):.3f} / {min(questions):.3f}")


def describe(setting: RankingSettings) -> str:
    return ", ".join(f"{field.name.removesuffix('_weight')} {getattr(setting, field.name):g}" for field in fields(setting))


def report(table: dict[RankingSettings, Scores], sets: dict[str, list[str]], floor: dict[str, Scores],
           grid: dict[str, tuple[float, ...]]) -> dict:
    candidates = list(table)
    chosen = cross_validated(table, sets, candidates)
    defaults = RankingSettings()
    floors = {}
    for name, own in sets.items():
        names, best = best_floor(floor, own)
        floors[name] = {"variants": names, "folds": best}
        print(f"\n== {name}; the floor (best bare variant): keyword queries '{names[0]}', questions '{names[1]}'")
        print(f"{'fold (held out)':<18}{'cross-validated':>17}{'shipped':>17}{'floor':>17}{'cv - floor':>19}"
              "   constants chosen on the other folds")
        for fold in own:
            setting, (keyword, question) = chosen[fold]
            shipped = table[defaults][fold] if defaults in table else (float("nan"),) * 2
            print(f"{fold:<18}{keyword:>9.3f} / {question:.3f}{shipped[0]:>9.3f} / {shipped[1]:.3f}"
                  f"{best[fold][0]:>9.3f} / {best[fold][1]:.3f}{keyword - best[fold][0]:>+11.3f} / {question - best[fold][1]:+.3f}"
                  f"   {describe(setting)}")
        print(f"cross-validated: {summary([chosen[f][1] for f in own])}")
        if defaults in table:
            print(f"shipped ({describe(defaults)}): {summary([table[defaults][f] for f in own])}")
        print(f"floor: {summary([best[f] for f in own])}")
        for variant in floor:
            print(f"  {variant}: {summary([floor[variant][f] for f in own])}")
    every = [fold for own in sets.values() for fold in own]
    whole = choose(table, sets, every, candidates)
    print(f"\nchosen on every fold: {describe(whole)}: "
          + "; ".join(f"{name} {summary([table[whole][f] for f in own])}" for name, own in sets.items()))
    print("\neach constant held at its neutral value, the others cross-validated (mean / worst, keyword / questions),"
          "\nand the constant's own effect (the model less that): on each set's mean, and on the fold it helps least:")
    ablations = {}
    for name in grid:
        pinned = [s for s in candidates if getattr(s, name) == NEUTRAL[name]]
        if not pinned:
            continue
        rows = cross_validated(table, sets, pinned)
        ablations[name] = {fold: row[1] for fold, row in rows.items()}
        effect = {f: (chosen[f][1][0] - rows[f][1][0], chosen[f][1][1] - rows[f][1][1]) for f in every}
        least = min(every, key=lambda f: min(effect[f]))
        print(f"  {name} = {NEUTRAL[name]:g}: " + "; ".join(f"{set_name} {summary([rows[f][1] for f in own])}"
                                                           for set_name, own in sets.items()))
        print("      effect: " + "; ".join(f"{set_name} mean {statistics.fmean(effect[f][0] for f in own):+.3f} / "
                                          f"{statistics.fmean(effect[f][1] for f in own):+.3f}" for set_name, own in sets.items())
              + f"; least helped fold {least} {effect[least][0]:+.3f} / {effect[least][1]:+.3f}")
    return {"folds": {f: {"constants": asdict(s), "keyword": k, "questions": q} for f, (s, (k, q)) in chosen.items()},
            "whole": asdict(whole), "ablations": ablations, "variants": floor, "floors": floors}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--claude-history", type=Path, default=default_repo(),
                        help="a clone or bare mirror of randlee/claude-history "
                             "(default: $CLAUDE_HISTORY or the mirror beside the checkout)")
    parser.add_argument("--smoke", action="store_true", help="two LoCoMo conversations, 25 queries each, a tiny grid, no coding set")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the table and every score to FILE")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes scoring the grid (default: one a core)")
    args = parser.parse_args(argv)
    if not (args.dataset / "locomo10-dev.json").is_file():
        parser.error(f"no LoCoMo dev split in {args.dataset} (pass --dataset DIR)")
    if args.claude_history is None and not args.smoke:
        parser.error("no clone of randlee/claude-history found (pass --claude-history REPO)")
    grid = SMOKE_GRID if args.smoke else GRID
    settings = list(dict.fromkeys([RankingSettings(), *settings_grid(grid)]))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        recall_sets = [locomo_set(args.dataset, Path(folder), 2 if args.smoke else None, 25 if args.smoke else None)]
        if not args.smoke:
            recall_sets.append(coding_set(args.claude_history, Path(folder)))
        searched = [Searched(h, [q for q in s.queries if q.history == h.id]) for s in recall_sets for h in s.histories]
        table = scored(searched, settings, args.workers)
        floor = floors(recall_sets)
    print(f"{len(table)} settings of the ranking constants x {sum(len(s.folds) for s in recall_sets)} folds, "
          f"{sum(len(s.queries) for s in recall_sets)} queries asked both ways, in {time.perf_counter() - started:.0f} s")
    figures = report(table, {s.name: s.folds for s in recall_sets}, floor, grid)
    if args.json is not None:
        figures["scores"] = [{"constants": asdict(s), "scores": scores} for s, scores in table.items()]
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
