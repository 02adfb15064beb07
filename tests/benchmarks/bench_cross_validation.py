"""Chooses the ranking model's parts and constants by cross-validation over two kinds of history: LoCoMo
dev's five conversations and the coding-agent set's five folds of transcripts, each fold left out in turn.

    python tests/benchmarks/bench_cross_validation.py            # the full grid, both sets, the parts' effects
    python tests/benchmarks/bench_cross_validation.py --smoke    # two conversations, a tiny grid

The grid (cv_grid.py): window layouts (written into an index per layout), the engine's bonus clauses, and
the scoring constants. For each held-out fold the grid's best setting on every other fold is scored on
it; "best" is the mean over the two sets of each set's mean R@10 over its training folds (keyword
queries and questions alike), so neither set outweighs the other. Printed per set: each fold's chosen
setting and R@10 beside the floor (bare tantivy's best variant, bare_tantivy.py), the folds' mean and
worst. Then each part's effect, the model less that part cross-validated again: a part stays only when
it raises a set's mean and lowers neither (each by more than one of the set's queries); the parts that do
not are taken out one at a time, the worst first, and the model is chosen again without them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_tantivy import VARIANTS, BareTantivy, best_floor  # noqa: E402
from coding_set import coding_set, default_repo  # noqa: E402
from cv_grid import LAYOUTS, SCORING, SMOKE, Scores, Searched, scored, source_configs  # noqa: E402
from locomo_data import DATASET, locomo_set  # noqa: E402
from recall_sets import FIELDS, RecallSet, recall  # noqa: E402

from oneclaw_search.domain.relevance import RankingSettings  # noqa: E402
from oneclaw_search.domain.window_bm25 import WindowLayout

Table = dict[RankingSettings, Scores]
Chosen = dict[str, tuple[RankingSettings, tuple[float, float]]]  # held-out fold -> (setting, R@10)
# Each part, as the settings without it: a part's effect is the model less the model kept to these.
PARTS: dict[str, Callable[[RankingSettings], bool]] = {
    "the turns beside a row": lambda s: not s.window.before and not s.window.after,
    "a row's own text counted more than once": lambda s: s.window.own == 1,
    "a second turn each side": lambda s: s.window.reach <= 1,
    "the turn before and after weighed apart": lambda s: s.window.before == s.window.after,
    "sharpness": lambda s: s.sharpness == 1,
    "min_coverage": lambda s: s.min_coverage == 0,
    "a session result shown with its best turn": lambda s: not s.session_turns,
}


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


def choose(table: Table, sets: dict[str, list[str]], folds: list[str], allowed: list[RankingSettings]) -> RankingSettings:
    """The best of `allowed` on `folds`; among equals the one with the fewest parts on."""
    return max(allowed, key=lambda setting: (objective(table[setting], sets, folds), sum(off(setting) for off in PARTS.values())))


def cross_validated(table: Table, sets: dict[str, list[str]], allowed: list[RankingSettings]) -> Chosen:
    """Each fold held out in turn: the best of `allowed` on every other fold, scored on it."""
    every = [fold for own in sets.values() for fold in own]
    return {held: (best := choose(table, sets, [f for f in every if f != held], allowed), table[best][held]) for held in every}


def set_means(rows: Chosen, own: list[str]) -> tuple[float, float]:
    return statistics.fmean(rows[f][1][0] for f in own), statistics.fmean(rows[f][1][1] for f in own)


def effects(table: Table, sets: dict[str, list[str]], allowed: list[RankingSettings]) -> dict[str, dict[str, float]]:
    """Each part still on in `allowed`: the cross-validated model less the model kept to the settings without it,
    on each set's mean (keyword and question R@10 averaged)."""
    model = cross_validated(table, sets, allowed)
    found = {}
    for name, off in PARTS.items():
        without = [setting for setting in allowed if off(setting)]
        if not without or len(without) == len(allowed):
            continue
        rows = cross_validated(table, sets, without)
        found[name] = {set_name: sum(set_means(model, own)) / 2 - sum(set_means(rows, own)) / 2 for set_name, own in sets.items()}
    return found


Removed = list[tuple[str, dict[str, float]]]  # each part taken out, with its effect on each set


def pruned(table: Table, sets: dict[str, list[str]], noise: dict[str, float]) -> tuple[list[RankingSettings], Removed]:
    """The grid with every part taken out that raises neither set's mean or lowers either's, the worst
    first. A difference within `noise` (one query of the set: a part the set cannot tell, or a tie) is
    neither."""
    allowed, removed = list(table), []
    while True:
        found = effects(table, sets, allowed)
        failing = {name: effect for name, effect in found.items()
                   if any(effect[s] < -noise[s] for s in sets) or all(effect[s] <= noise[s] for s in sets)}
        if not failing:
            return allowed, removed
        worst = min(failing, key=lambda name: min(failing[name][s] / noise[s] for s in sets))
        removed.append((worst, failing[worst]))
        allowed = [setting for setting in allowed if PARTS[worst](setting)]


def describe(setting: RankingSettings) -> str:
    turns = ", session turns" if setting.session_turns else ""
    return f"window {setting.window.token}, sharpness {setting.sharpness:g}, min_coverage {setting.min_coverage:g}{turns}"


def summary(rows: list[tuple[float, float]]) -> str:
    keyword, questions = [row[0] for row in rows], [row[1] for row in rows]
    return (f"mean {statistics.fmean(keyword):.3f} / {statistics.fmean(questions):.3f}, "
            f"worst {min(keyword):.3f} / {min(questions):.3f}")


def fold_table(name: str, own: list[str], rows: Chosen, floor: dict[str, Scores], sizes: dict[str, int]) -> dict:
    names, best = best_floor(floor, own)
    print(f"\n== {name}; the floor (best bare variant): keyword queries '{names[0]}', questions '{names[1]}'")
    print(f"{'fold (held out)':<18}{'cross-validated':>17}{'floor':>17}{'cv - floor':>19}{'one query':>11}   chosen on the other folds")
    for fold in own:
        setting, (keyword, question) = rows[fold]
        print(f"{fold:<18}{keyword:>9.3f} / {question:.3f}{best[fold][0]:>9.3f} / {best[fold][1]:.3f}"
              f"{keyword - best[fold][0]:>+11.3f} / {question - best[fold][1]:+.3f}{1 / sizes[fold]:>11.3f}   {describe(setting)}")
    print(f"cross-validated: {summary([rows[f][1] for f in own])}")
    print(f"floor: {summary([best[f] for f in own])}")
    return {"floor_variants": names, "floor": best, "folds": {f: {"setting": describe(rows[f][0]), "keyword": rows[f][1][0],
                                                                   "questions": rows[f][1][1]} for f in own}}


def report(table: Table, sets: dict[str, list[str]], floor: dict[str, Scores], sizes: dict[str, int]) -> dict:
    noise = {name: 1 / sum(sizes[fold] for fold in own) for name, own in sets.items()}
    every = [fold for own in sets.values() for fold in own]
    figures: dict = {"full_grid": {}, "model": {}}
    print("\n#### every part allowed")
    full = cross_validated(table, sets, list(table))
    for name, own in sets.items():
        figures["full_grid"][name] = fold_table(name, own, full, floor, sizes)
    print("\neach part's effect (the model less the model without it, cross-validated; (keyword + question) / 2):")
    for part, effect in effects(table, sets, list(table)).items():
        print(f"  {part}: " + "; ".join(f"{s} {e:+.3f}" for s, e in effect.items()))
    allowed, removed = pruned(table, sets, noise)
    print("\nparts taken out, each raising neither set's mean or lowering one, by more than one query "
          f"({', '.join(f'{name} {value:.4f}' for name, value in noise.items())}), the worst first:")
    for part, effect in removed:
        print(f"  {part}: " + "; ".join(f"{s} {e:+.3f}" for s, e in effect.items()))
    print(f"\n#### the model: {len(allowed)} of {len(table)} settings left")
    model = cross_validated(table, sets, allowed)
    for name, own in sets.items():
        figures["model"][name] = fold_table(name, own, model, floor, sizes)
    kept = effects(table, sets, allowed)
    print("\nthe parts kept and their effects:")
    for part, effect in kept.items():
        print(f"  {part}: " + "; ".join(f"{s} {e:+.3f}" for s, e in effect.items()))
    whole = choose(table, sets, every, allowed)
    print(f"\nchosen on every fold (the shipped default): {describe(whole)}: "
          + "; ".join(f"{name} {summary([table[whole][f] for f in own])}" for name, own in sets.items()))
    defaults = RankingSettings()
    if defaults in table:
        print(f"the defaults as they are ({describe(defaults)}): "
              + "; ".join(f"{name} {summary([table[defaults][f] for f in own])}" for name, own in sets.items()))
    figures.update(removed=removed, kept=kept, whole=describe(whole), whole_settings=asdict(whole))
    return figures


def _setting(kept: dict) -> RankingSettings | None:
    """A setting a run wrote, or None when it used a part the model no longer has (those runs' own
    reports keep what such parts did)."""
    known = {field.name for field in fields(RankingSettings)}
    if any(value for name, value in kept.items() if name not in known):
        return None
    window = kept["window"]
    return RankingSettings(**{name: value for name, value in kept.items() if name in known and name != "window"},
                           window=WindowLayout(window["own"], tuple(window["before"]), tuple(window["after"])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--claude-history", type=Path, default=default_repo(),
                        help="a clone or bare mirror of randlee/claude-history "
                             "(default: $CLAUDE_HISTORY or the mirror beside the checkout)")
    parser.add_argument("--smoke", action="store_true", help="two LoCoMo conversations, 25 queries each, a tiny grid, no coding set")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the tables and every score to FILE")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes scoring the grid (default: one a core)")
    parser.add_argument("--from-json", type=Path, nargs="+", metavar="FILE",
                        help="report again on the scores runs wrote to FILEs (several runs' grids pooled)")
    parser.add_argument("--layouts", metavar="TOKENS", help="only these window layouts (e.g. 5-1-1,6-1-1): a "
                                                              "grid's extension, pooled with the full run by --from-json")
    args = parser.parse_args(argv)
    if args.from_json is not None:
        runs = [json.loads(path.read_text()) for path in args.from_json]
        table = {setting: row["scores"] for kept in runs for row in kept["scores"] if (setting := _setting(row["settings"]))}
        report(table, runs[0]["sets"], runs[0]["variants"], runs[0]["sizes"])
        return 0
    if not (args.dataset / "locomo10-dev.json").is_file():
        parser.error(f"no LoCoMo dev split in {args.dataset} (pass --dataset DIR)")
    if args.claude_history is None and not args.smoke:
        parser.error("no clone of randlee/claude-history found (pass --claude-history REPO)")
    layouts, scoring = SMOKE if args.smoke else (LAYOUTS, SCORING)
    if args.layouts:
        layouts = tuple(WindowLayout.from_token(token) for token in args.layouts.split(","))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        recall_sets = [locomo_set(args.dataset, Path(folder), 2 if args.smoke else None, 25 if args.smoke else None)]
        if not args.smoke:
            recall_sets.append(coding_set(args.claude_history, Path(folder)))
        searched = [Searched(h, [q for q in s.queries if q.history == h.id]) for s in recall_sets for h in s.histories]
        table = scored(searched, source_configs(layouts), scoring, args.workers)
        floor = floors(recall_sets)
    sizes = {fold: sum(1 for s in recall_sets for q in s.queries if q.fold == fold) for s in recall_sets for fold in s.folds}
    print(f"{len(table)} settings x {sum(len(s.folds) for s in recall_sets)} folds, "
          f"{sum(len(s.queries) for s in recall_sets)} queries asked both ways, in {time.perf_counter() - started:.0f} s")
    sets = {s.name: s.folds for s in recall_sets}
    figures = report(table, sets, floor, sizes)
    if args.json is not None:
        figures["scores"] = [{"setting": describe(s), "settings": asdict(s), "scores": scores} for s, scores in table.items()]
        figures.update(variants=floor, sets=sets, sizes=sizes)
        args.json.write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
