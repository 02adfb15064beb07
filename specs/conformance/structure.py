"""Checks on what an implementation declares rather than what a call returns: the tool's definition
(TOOL-1) and the tables a history it creates holds (P-13).

Each returns None when the declaration matches, else a sentence saying what differs.
"""
from __future__ import annotations

from typing import Any


def compare_tool(tools: list[dict[str, Any]], wanted: dict[str, Any]) -> str | None:
    tool = next((tool for tool in tools if tool.get("name") == wanted["name"]), None)
    if tool is None:
        return f"no tool named {wanted['name']!r} among {[t.get('name') for t in tools]}"
    schema = tool.get("parameters") or {}
    declared = {name: spec.get("type") for name, spec in (schema.get("properties") or {}).items()}
    seen = {
        "description": tool.get("description"),
        "required": sorted(schema.get("required") or []),
        "properties": {name: declared.get(name) for name in wanted.get("properties", {})},
        "timeout_seconds": tool.get("timeout_seconds"),
        "permissions": list(tool.get("required_permissions") or []),
    }
    for key in ("description", "required", "properties", "timeout_seconds", "permissions"):
        if key in wanted and seen[key] != (sorted(wanted[key]) if key == "required" else wanted[key]):
            return f"the tool's {key} is {seen[key]!r}, expected {wanted[key]!r}"
    return None


def compare_schema(tables: dict[str, list[dict[str, Any]]], wanted: dict[str, list[list[Any]]]) -> str | None:
    """`wanted`: per table, [name, type, not null, primary-key position] for every column it must have exactly."""
    for table, columns in wanted.items():
        present = {column["name"]: [column["name"], column["type"], bool(column["notnull"]), int(column["pk"])]
                   for column in tables.get(table, [])}
        expected = {column[0]: [column[0], column[1], bool(column[2]), int(column[3])] for column in columns}
        if table not in tables:
            return f"no table {table!r} (tables: {sorted(tables)})"
        if present.keys() != expected.keys():
            return (f"{table} has columns {sorted(present)}; missing {sorted(expected.keys() - present.keys())}, "
                    f"extra {sorted(present.keys() - expected.keys())}")
        differing = [f"{present[name]} instead of {expected[name]}" for name in expected if present[name] != expected[name]]
        if differing:
            return f"{table}: {'; '.join(differing)}"
    return None
