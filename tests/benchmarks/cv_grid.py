"""What bench_cross_validation.py chooses from, and every setting's R@10 on every fold, through the real tool.

A setting is a RankingSettings. Its window layout is written into the index (each layout gets an index
of its own beside each history) and, with whether a row's own words are scored alone, decides what the
sources find, so each asks each source each question once, its answers kept in memory. The scoring
constant (sharpness) only re-ranks those answers.
"""
from __future__ import annotations

import itertools
import json
import multiprocessing
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from recall_sets import FIELDS, History, Query, ask, memo_module, recall, shown_turns

from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.window_bm25 import WindowLayout
from oneclaw_search.tools import ToolExecutionEngine

L = WindowLayout.from_token
# What the sources find: each window layout (written into the index) with and without a row's own words
# scored alone beside it (asked of the index, which holds them either way).
WINDOWS = ("1-0-0", "1-1-0", "1-1-1", "2-1-1", "4-1-1", "2-2-1")
LAYOUTS = tuple(L(token, alone) for token in WINDOWS for alone in (False, True))
# What only re-ranks what the sources found.
SCORING: dict[str, tuple] = {"sharpness": (1.0, 12.0, 48.0)}
SMOKE: tuple = ((L("1-0-0", False), L("1-1-1", True)), {"sharpness": (1.0, 48.0)})
Scores = dict[str, tuple[float, float]]  # fold -> (keyword R@10, question R@10)


def source_configs(layouts: tuple[WindowLayout, ...]) -> list[RankingSettings]:
    return [RankingSettings(window=layout) for layout in layouts]


def with_scoring(config: RankingSettings, scoring: dict[str, tuple[float, ...]]) -> list[RankingSettings]:
    names = list(scoring)
    return [replace(config, **dict(zip(names, values, strict=True))) for values in itertools.product(*scoring.values())]


class Searched:
    """One history and the queries asked of it, searched through the real tool with any setting; an
    index per layout beside it, and the sources' answers kept per layout."""

    def __init__(self, history: History, queries: list[Query]) -> None:
        self.history, self.queries = history, queries
        self.caches: dict[RankingSettings, dict] = {}

    def index_path(self, layout: WindowLayout) -> Path:
        return self.history.path.with_name(f"{self.history.path.name}.{layout.token}.search-index.sqlite")

    def build(self, layout: WindowLayout) -> None:
        parts = create_injector(self.history.path, clock=self.history.clock, time_zone="UTC", index_path=self.index_path(layout),
                                ranking=RankingSettings(window=layout)).get(IndexParts)
        if not parts.lookup.sync.catch_up():
            raise RuntimeError(f"the {layout.token} index of {self.history.path} was not built")

    def recalls(self, setting: RankingSettings) -> dict[str, list[list[float]]]:
        """Per fold, each query's R@10 as a keyword query and as a question."""
        source = replace(setting, sharpness=1.0)
        cache = self.caches.setdefault(source, {})
        container = create_injector(self.history.path, clock=self.history.clock, time_zone="UTC", ranking=setting,
                                    index_path=self.index_path(setting.window), modules=[memo_module(cache)])
        engine = container.get(ToolExecutionEngine)
        found: dict[str, list[list[float]]] = {}
        for query in self.queries:
            rows = found.setdefault(query.fold, [[], []])
            for at, field in enumerate(FIELDS):
                reply = ask(engine, query.text(field))
                if not reply.is_success:
                    raise RuntimeError(f"{query.text(field)!r}: {reply.error_type}: {reply.error_message}")
                rows[at].append(recall(shown_turns(json.loads(reply.result)["results"]), query.gold))
        return found


def fold_scores(searched: list[Searched], setting: RankingSettings) -> Scores:
    rows: dict[str, list[list[float]]] = {}
    for one in searched:
        for fold, (keyword, question) in one.recalls(setting).items():
            kept = rows.setdefault(fold, [[], []])
            kept[0] += keyword
            kept[1] += question
    return {fold: (statistics.fmean(keyword), statistics.fmean(question)) for fold, (keyword, question) in rows.items()}


_FORKED: list[Searched] = []  # what forked workers score, inherited from their parent
_SCORING: dict[str, tuple[float, ...]] = {}


def _config_scores(config: RankingSettings) -> dict[RankingSettings, Scores]:
    """Every scoring constant's fold scores for one layout: its sources asked once."""
    started = time.perf_counter()
    found = {setting: fold_scores(_FORKED, setting) for setting in with_scoring(config, _SCORING)}
    print(f"  window {config.window.describe()}: {len(found)} settings in {time.perf_counter() - started:.0f} s", file=sys.stderr,
          flush=True)
    return found


def scored(searched: list[Searched], configs: list[RankingSettings], scoring: dict[str, tuple[float, ...]],
           workers: int) -> dict[RankingSettings, Scores]:
    """Every setting's R@10 on every fold; the layouts' indexes built first, then the layouts shared out
    among forked workers."""
    for layout in dict.fromkeys(config.window for config in configs):
        for one in searched:
            one.build(layout)
    global _FORKED, _SCORING
    _FORKED, _SCORING = searched, scoring
    with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
        parts = pool.map(_config_scores, configs, chunksize=1)
    return {setting: scores for part in parts for setting, scores in part.items()}
