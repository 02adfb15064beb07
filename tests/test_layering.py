"""Layers import only inward: domain the standard library; data and tools the domain; di all of them
and only to wire; the front doors (the command line and MCP server in tools/cli) whatever they drive;
the conformance runner (specs/conformance) the package only through its public faces, as another
implementation's adapter would: oneclaw_search.di's exports (create_injector, import_bundle, ...), the
registry and engine, the command (as a program).

Walks every module's import statements with ast, so a stray `import peewee` in domain/ or a
`from oneclaw_search.data ...` in tools/ fails here (P-14).
"""
import ast
import graphlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
RULES = {
    "domain": ({"oneclaw_search.domain"}, set()),
    "data": (
        {"oneclaw_search.domain", "oneclaw_search.data"},
        # the LLM summarizers' official SDKs and llama.cpp's binding are imported only inside their
        # adapters, when asked; the PostgreSQL drivers only in data/postgres, which nothing imports
        # unless a URL asks for it
        {"peewee", "playhouse", "psycopg", "pgvector", "numpy", "rank_bm25", "model2vec", "tokenizers", "tantivy", "Stemmer",
         "openai", "anthropic", "yake", "llama_cpp"},
    ),
    "tools": ({"oneclaw_search.domain", "oneclaw_search.tools"}, set()),
    "di": ({"oneclaw_search.domain", "oneclaw_search.data", "oneclaw_search.tools", "oneclaw_search.di"}, {"injector"}),
    "tools/cli": (
        {"oneclaw_search.domain", "oneclaw_search.data", "oneclaw_search.tools", "oneclaw_search.di",
         "oneclaw_search.conformance"},
        {"mcp", "mcp_types", "anyio", "rich"},  # mcp_types: the MCP SDK's own message types, installed with it
    ),
    "specs/conformance": (
        {"oneclaw_search.conformance", "oneclaw_search.di", "oneclaw_search.tools"},
        # the postgres adapter reads a tenant's rows for its checksum, as any client would; the mcp
        # adapter drives `oneclaw-search mcp` with the MCP SDK's own client
        {"psycopg", "mcp", "anyio"},
    ),
}
EXACT = {"specs/conformance"}  # layers whose package imports must be these modules themselves, not below them
FRONT_DOORS = ("tools/cli",)  # inside a layer, checked by their own rule instead of the layer's


# data/ is rooms, each importing only those listed (all may import the domain): a DAG, so no cycle
# between rooms can return. history is the SQLite history file; index its tantivy side index.
DATA_ROOMS = {
    "embedding": set(),
    "text": set(),
    "summaries": set(),
    "history": {"embedding"},
    "importers": {"history"},
    "memory": {"embedding", "text"},
    "index": {"embedding", "history", "text"},
    "postgres": {"embedding", "history", "text"},
}


def imported_modules(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.add("<relative import>")
            elif node.module:
                names.add(node.module)
    return names


def violations(layer: str, source: str) -> list[str]:
    own, third_party = RULES[layer]
    home = PACKAGE_DIRS.get(layer, "")
    bad = []
    for name in imported_modules(source):
        top = name.split(".")[0]
        if name == "__future__" or top in STDLIB or top in third_party or name.startswith(home + "."):
            continue
        if not any(name == allowed or (layer not in EXACT and name.startswith(allowed + ".")) for allowed in own):
            bad.append(name)
    return bad


@pytest.mark.spec("P-14")
@pytest.mark.parametrize("layer", sorted(RULES))
def test_each_layer_imports_only_what_it_may(layer):
    paths = [path for path in sorted((ROOT / layer).rglob("*.py"))
             if layer in FRONT_DOORS or not any(path.is_relative_to(ROOT / door) for door in FRONT_DOORS)]
    offenders = {str(path.relative_to(ROOT)): found for path in paths if (found := violations(layer, path.read_text(encoding="utf-8")))}
    assert paths and offenders == {}


# Where each installed package's modules live (pyproject's package-dir).
PACKAGE_DIRS = {"domain": "oneclaw_search.domain", "data": "oneclaw_search.data", "tools": "oneclaw_search.tools",
                "di": "oneclaw_search.di", "specs/conformance": "oneclaw_search.conformance"}


def module_graph() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, wherever the import statement
    stands (a function body or a TYPE_CHECKING block makes a dependency all the same)."""
    paths = {}
    for folder, package in PACKAGE_DIRS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [part for part in path.relative_to(ROOT / folder).with_suffix("").parts if part != "__init__"]
            paths[".".join([package, *parts])] = path
    graph = {}
    for module, path in paths.items():
        named = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                named.update([node.module, *(f"{node.module}.{alias.name}" for alias in node.names)])
        graph[module] = {name for name in named if name in paths and name != module}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as found:
        return list(found.args[1])
    return None


@pytest.mark.spec("P-14")
def test_no_modules_of_the_package_import_each_other_in_a_cycle():
    graph = module_graph()
    assert len(graph) > 100 and "oneclaw_search.conformance.runner" in graph
    assert a_cycle(graph) is None


def test_the_cycle_finder_names_a_planted_cycle():
    graph = module_graph()
    graph["oneclaw_search.domain.models"] = graph["oneclaw_search.domain.models"] | {"oneclaw_search.domain.search_request"}
    assert "oneclaw_search.domain.models" in (a_cycle(graph) or [])


def test_tools_reach_the_conformance_runner_only_through_the_conformance_command():
    reaching = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tools").rglob("*.py")
                      if any(name.startswith("oneclaw_search.conformance") for name in imported_modules(path.read_text(encoding="utf-8"))))
    assert reaching == ["tools/cli/conformance_command.py"]


def test_di_holds_only_wiring():
    """Its modules, the container and the recorder entry: no command line, no runner, no subpackages."""
    assert sorted(path.name for path in (ROOT / "di").iterdir() if path.is_dir() and path.name != "__pycache__") == []


def room_violations(room: str, source: str) -> list[str]:
    """Imports of other data rooms than `room` may use."""
    allowed = DATA_ROOMS[room] | {room}
    rooms = (name.split(".")[2] for name in imported_modules(source) if name.startswith("oneclaw_search.data."))
    return sorted(other for other in set(rooms) if other not in allowed)


@pytest.mark.spec("P-14")
def test_each_data_room_imports_only_the_rooms_below_it():
    found = {path.name for path in (ROOT / "data").iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert found == set(DATA_ROOMS)
    offenders = {
        str(path.relative_to(ROOT)): bad
        for room in DATA_ROOMS
        for path in sorted((ROOT / "data" / room).rglob("*.py"))
        if (bad := room_violations(room, path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_rooms_of_data_import_each_other_in_no_cycle():
    done: set[str] = set()

    def walk(room: str, path: tuple[str, ...]) -> None:
        assert room not in path, " -> ".join([*path, room])
        if room not in done:
            for below in DATA_ROOMS[room]:
                walk(below, (*path, room))
            done.add(room)
    for room in DATA_ROOMS:
        walk(room, ())


@pytest.mark.parametrize("room, line", [
    ("history", "from oneclaw_search.data.index.lookup import KeywordLookup"),
    ("index", "from oneclaw_search.data.postgres.database import PostgresHistory"),
    ("memory", "from oneclaw_search.data.index.side_index import SideIndex"),
])
def test_the_room_checker_catches_a_planted_import(room, line):
    assert room_violations(room, line) != []


@pytest.mark.parametrize(
    "layer, line",
    [
        ("domain", "import peewee"),
        ("domain", "from oneclaw_search.data.history.database import HistoryDatabase"),
        ("tools", "from oneclaw_search.data.history import entities"),
        ("tools", "import injector"),
        ("data", "from oneclaw_search.di import create_injector"),
        ("di", "import tools"),
        ("domain", "from . import models"),
        ("specs/conformance", "from oneclaw_search.di.index_module import SearchBackends"),
        ("specs/conformance", "from oneclaw_search.data.history.history_writer import HistoryWriter"),
        ("specs/conformance", "from oneclaw_search.domain.clock import PinnedClock"),
        ("specs/conformance", "import injector"),
    ],
)
def test_the_checker_catches_a_planted_violation(layer, line):
    assert violations(layer, line) != []


def test_every_module_opens_with_a_docstring():
    missing = [
        str(path.relative_to(ROOT))
        for layer in RULES
        for path in sorted((ROOT / layer).rglob("*.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert missing == []
