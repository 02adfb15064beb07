"""The use case and the memory engine see ports only, and the DI modules choose implementations by
configuration: none asks an object what it is (hasattr, isinstance) to decide what to do with it."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

from oneclaw_search.domain.search_history_use_case import SearchHistoryUseCase

ROOT = Path(__file__).resolve().parent.parent
WIRING = sorted((ROOT / "di").glob("*_module.py")) + [ROOT / "di" / "__init__.py"]
CHOOSERS = {"hasattr", "isinstance", "getattr"}


def calls_to(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{node.lineno} {node.func.id}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CHOOSERS]


def test_neither_the_use_case_nor_the_wiring_dispatches_on_what_an_object_is():
    files = [ROOT / "domain" / "search_history_use_case.py", ROOT / "domain" / "spelling.py",
             ROOT / "data" / "memory" / "hybrid_search_engine.py", *WIRING]
    assert len(WIRING) >= 6
    assert [call for path in files for call in calls_to(path)] == []


def test_the_use_case_takes_its_sources_its_settings_and_its_aids_as_values():
    parameters = list(inspect.signature(SearchHistoryUseCase).parameters)
    assert parameters == ["sources", "clock", "zone", "settings", "aids"]
