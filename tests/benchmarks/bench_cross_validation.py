"""Chooses the ranking model's parts and constants by cross-validation over every kind of history this
repository holds: LoCoMo dev's five conversations and two sets of queries over real coding-agent
transcripts (two writers, five folds each), each fold left out in turn.

    python tests/benchmarks/bench_cross_validation.py            # the full grid, every set, the parts' effects
    python tests/benchmarks/bench_cross_validation.py --smoke    # two conversations, a tiny grid

The grid (cv_grid.py): window layouts and whether a row's own words are scored beside its window (both
decide what the sources find), and the constants that only re-rank. A setting's figure on a set of folds
is its WORST (set, kind of query) gain over the floor (bare tantivy's best variant, bare_tantivy.py):
each set's mean over those folds of R@10 less the floor's, for keyword queries and for questions, the
least of them. For each held-out fold the best setting on every other fold is scored on it; settings
within one query of the best count as tied, and of those the one with the fewest parts on, then the
cheapest to build, is chosen. Printed per set: each fold's chosen setting and R@10 beside the floor,
the folds' mean and worst. Then each part's effect on the worst figure, cross-validated: a part stays
only when it raises it by more than one query; the others are taken out one at a time, the worst first.
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
from coding_set import SECOND, coding_set, default_repo  # noqa: E402
from cv_grid import LAYOUTS, SCORING, SMOKE, Scores, Searched, scored, source_configs  # noqa: E402
from locomo_data import DATASET, locomo_set  # noqa: E402
from recall_sets import FIELDS, RecallSet, recall  # noqa: E402

from oneclaw_search.domain.relevance import RankingSettings  # noqa: E402
from oneclaw_search.domain.window_bm25 import WindowLayout

Table = dict[RankingSettings, Scores]
Chosen = dict[str, tuple[RankingSettings, tuple[float, float]]]  # held-out fold -> (setting, R@10)
Sets = dict[str, list[str]]  # set name -> its folds
# Each part, as the settings without it: a part's effect is the model less the model kept to these.
PARTS: dict[str, Callable[[RankingSettings], bool]] = {
    "the turns beside a row (in the window)": lambda s: not s.window.before and not s.window.after,
    "the turn after a row": lambda s: not s.window.after,
    "a row's own text counted more than once in the window": lambda s: s.window.own == 1,
    "the turns beside weighed apart": lambda s: s.window.before == s.window.after or not s.window.after,
    "a row's own words scored alone beside its window": lambda s: not s.window.words_alone,
    "sharpness": lambda s: s.sharpness == 1,
}


def build_cost(setting: RankingSettings) -> int:
    """Texts written into the window field per turn: what a layout costs to build and store."""
    return setting.window.own + sum(setting.window.before) + sum(setting.window.after)


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


class Objective:
    """A setting's worst (set, kind of query) gain over the floor on some folds, and one query's worth of
    each set (what a tie is)."""

    def __init__(self, sets: Sets, floor: Scores, sizes: dict[str, int]) -> None:
        self.sets, self.floor = sets, floor
        self.noise = {name: 1 / sum(sizes[f] for f in own) for name, own in sets.items()}

    def gains(self, scores: Scores, folds: list[str]) -> dict[tuple[str, int], float]:
        return {(name, kind): statistics.fmean(scores[f][kind] - self.floor[f][kind] for f in own if f in folds)
                for name, own in self.sets.items() if any(f in folds for f in own) for kind in (0, 1)}

    def worst(self, scores: Scores, folds: list[str]) -> tuple[float, float]:
        """The worst gain, and one query of the set it is on."""
        gains = self.gains(scores, folds)
        cell = min(gains, key=gains.__getitem__)
        return gains[cell], self.noise[cell[0]]


def parts_on(setting: RankingSettings) -> int:
    return sum(not off(setting) for off in PARTS.values())


def choose(table: Table, goal: Objective, folds: list[str], allowed: list[RankingSettings]) -> RankingSettings:
    """The best of `allowed` on `folds` by the worst figure; of those within one query of it, the one
    with the fewest parts on, then the cheapest to build, then the best figure."""
    figures = {setting: goal.worst(table[setting], folds) for setting in allowed}
    best, noise = max(figures.values())
    near = [setting for setting, (figure, _) in figures.items() if figure >= best - noise - 1e-12]
    return min(near, key=lambda setting: (parts_on(setting), build_cost(setting), -figures[setting][0]))


def cross_validated(table: Table, goal: Objective, allowed: list[RankingSettings]) -> Chosen:
    """Each fold held out in turn: the best of `allowed` on every other fold, scored on it."""
    every = [fold for own in goal.sets.values() for fold in own]
    return {held: (best := choose(table, goal, [f for f in every if f != held], allowed), table[best][held]) for held in every}


def held_out_worst(rows: Chosen, goal: Objective) -> float:
    """The cross-validated model's worst (set, kind) gain over the floor, each fold scored held out."""
    scores = {fold: row[1] for fold, row in rows.items()}
    return goal.worst(scores, list(scores))[0]


def effects(table: Table, goal: Objective, allowed: list[RankingSettings]) -> dict[str, float]:
    """Each part still on in `allowed`: the cross-validated model's worst figure less that of the model
    kept to the settings without it."""
    model = held_out_worst(cross_validated(table, goal, allowed), goal)
    found = {}
    for name, off in PARTS.items():
        without = [setting for setting in allowed if off(setting)]
        if without and len(without) < len(allowed):
            found[name] = model - held_out_worst(cross_validated(table, goal, without), goal)
    return found


Removed = list[tuple[str, float]]  # each part taken out, with its effect on the worst figure


def pruned(table: Table, goal: Objective) -> tuple[list[RankingSettings], Removed]:
    """The grid with every part taken out that does not raise the worst figure by more than one query
    (of the smallest set), the least useful first."""
    allowed, removed = list(table), []
    noise = max(goal.noise.values())
    while True:
        failing = {name: effect for name, effect in effects(table, goal, allowed).items() if effect <= noise}
        if not failing:
            return allowed, removed
        worst = min(failing, key=failing.__getitem__)
        removed.append((worst, failing[worst]))
        allowed = [setting for setting in allowed if PARTS[worst](setting)]


def describe(setting: RankingSettings) -> str:
    own = ", own words alone too" if setting.window.words_alone else ""
    return f"window {setting.window.token}{own}, sharpness {setting.sharpness:g}"


def summary(rows: list[tuple[float, float]]) -> str:
    keyword, questions = [row[0] for row in rows], [row[1] for row in rows]
    return (f"mean {statistics.fmean(keyword):.3f} / {statistics.fmean(questions):.3f}, "
            f"worst {min(keyword):.3f} / {min(questions):.3f}")


def fold_table(name: str, own: list[str], rows: Chosen, goal: Objective, names: tuple[str, str], sizes: dict[str, int]) -> dict:
    best = goal.floor
    print(f"\n== {name}; the floor (best bare variant): keyword queries '{names[0]}', questions '{names[1]}'")
    print(f"{'fold (held out)':<18}{'cross-validated':>17}{'floor':>17}{'cv - floor':>19}{'one query':>11}   chosen on the other folds")
    for fold in own:
        setting, (keyword, question) = rows[fold]
        print(f"{fold:<18}{keyword:>9.3f} / {question:.3f}{best[fold][0]:>9.3f} / {best[fold][1]:.3f}"
              f"{keyword - best[fold][0]:>+11.3f} / {question - best[fold][1]:+.3f}{1 / sizes[fold]:>11.3f}   {describe(setting)}")
    gains = goal.gains({f: rows[f][1] for f in own}, own)
    print(f"cross-validated: {summary([rows[f][1] for f in own])}; mean gain over the floor "
          f"{gains[(name, 0)]:+.3f} / {gains[(name, 1)]:+.3f}")
    print(f"floor: {summary([best[f] for f in own])}")
    return {"floor_variants": names, "floor": {f: best[f] for f in own}, "gain": [gains[(name, 0)], gains[(name, 1)]],
            "folds": {f: {"setting": describe(rows[f][0]), "keyword": rows[f][1][0], "questions": rows[f][1][1]} for f in own}}


def report(table: Table, sets: Sets, variants: dict[str, Scores], sizes: dict[str, int]) -> dict:
    floor_names, floor = {}, {}
    for name, own in sets.items():
        floor_names[name], best = best_floor(variants, own)
        floor.update(best)
    goal = Objective(sets, floor, sizes)
    every = [fold for own in sets.values() for fold in own]
    figures: dict = {"full_grid": {}, "model": {}}
    print("\n#### every part allowed")
    full = cross_validated(table, goal, list(table))
    for name, own in sets.items():
        figures["full_grid"][name] = fold_table(name, own, full, goal, floor_names[name], sizes)
    print(f"held out, the worst (set, kind) gain over the floor: {held_out_worst(full, goal):+.3f}")
    print("\neach part's effect on it (the model less the model without it, both cross-validated):")
    for part, effect in effects(table, goal, list(table)).items():
        print(f"  {part}: {effect:+.3f}")
    allowed, removed = pruned(table, goal)
    print(f"\nparts taken out, each raising the worst figure by no more than one query ({max(goal.noise.values()):.4f}), "
          "the least useful first:")
    for part, effect in removed:
        print(f"  {part}: {effect:+.3f}")
    print(f"\n#### the model: {len(allowed)} of {len(table)} settings left")
    model = cross_validated(table, goal, allowed)
    for name, own in sets.items():
        figures["model"][name] = fold_table(name, own, model, goal, floor_names[name], sizes)
    print(f"held out, the worst (set, kind) gain over the floor: {held_out_worst(model, goal):+.3f}")
    kept = effects(table, goal, allowed)
    print("\nthe parts kept and their effects:")
    for part, effect in kept.items():
        print(f"  {part}: {effect:+.3f}")
    whole = choose(table, goal, every, allowed)
    print(f"\nchosen on every fold (the shipped default): {describe(whole)}: "
          + "; ".join(f"{name} {summary([table[whole][f] for f in own])}" for name, own in sets.items()))
    defaults = RankingSettings()
    if defaults in table:
        print(f"the defaults as they are ({describe(defaults)}): worst gain {goal.worst(table[defaults], every)[0]:+.3f}; "
              + "; ".join(f"{name} {summary([table[defaults][f] for f in own])}" for name, own in sets.items()))
    figures.update(removed=removed, kept=kept, whole=describe(whole), whole_settings=asdict(whole),
                   held_out_worst={"full_grid": held_out_worst(full, goal), "model": held_out_worst(model, goal)})
    return figures


def _setting(kept: dict) -> RankingSettings | None:
    """A setting a run wrote, or None when it used a part the model no longer has (those runs' own
    reports keep what such parts did)."""
    known = {field.name for field in fields(RankingSettings)}
    if any(value for name, value in kept.items() if name not in known):
        return None
    window = kept["window"]
    return RankingSettings(**{name: value for name, value in kept.items() if name in known and name != "window"},
                           window=WindowLayout(window["own"], tuple(window["before"]), tuple(window["after"]),
                                               window.get("words_alone", False)))


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
    parser.add_argument("--layouts", metavar="TOKENS", help="only these window layouts (e.g. 5-1-1,6-1-1), each with and "
                                                              "without own words alone: a grid's extension, pooled by --from-json")
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
        layouts = tuple(WindowLayout.from_token(token, alone) for token in args.layouts.split(",") for alone in (False, True))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        recall_sets = [locomo_set(args.dataset, Path(folder), 2 if args.smoke else None, 25 if args.smoke else None)]
        if not args.smoke:
            recall_sets += [coding_set(args.claude_history, Path(folder)),
                            coding_set(args.claude_history, Path(folder), labels_file=SECOND, name="coding_b")]
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
