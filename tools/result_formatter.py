"""Renders a search outcome as the spec's text block (OUT-1..OUT-3) or as a JSON object for hosts (P-10).

Mirrors SearchHistoryTool.formatResults: the header, one `--- Result i (...) ---` block per hit,
the no-results hint. Scores print with two decimals rounded half up, whatever the locale.
"""
from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

from oneclaw_search.domain.explanations import held_terms, holds_phrase
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.models import SearchOutcome, SourceType, UnifiedSearchResult
from oneclaw_search.domain.search_request import SearchRequest, parse_choice
from oneclaw_search.domain.search_terms import Stem, unchanged
from oneclaw_search.domain.session_reading import Turn

NO_RESULTS = "No matching results found. Try broader keywords or a different scope."
INVALID_FORMAT = "Invalid format '{value}'. Must be one of: text, json"
CONTEXT_CLIP = 200  # characters of each surrounding turn: enough to follow, not to flood
_ROLE_NAMES = {"USER": "User", "AI_RESPONSE": "Assistant"}


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def parse_output_format(value: object) -> OutputFormat:
    return parse_choice(value, OutputFormat, OutputFormat.TEXT, INVALID_FORMAT)


def render(request: SearchRequest, outcome: SearchOutcome, output_format: OutputFormat, stem: Stem = unchanged) -> str:
    """`stem`: how the search made terms of words, so JSON can name the terms each result holds."""
    if output_format is OutputFormat.JSON:
        return format_json(request, outcome, stem)
    return format_text(request, outcome)


def format_text(request: SearchRequest, outcome: SearchOutcome) -> str:
    results = outcome.results
    lines = [f'[Search Results for "{request.query}" (scope: {request.scope}, {len(results)} results)]']
    if request.date_range is not None:  # the days the words stood for, so the agent can check them
        lines += [f"Dates: {request.date_from} to {request.date_to} ({request.date_range})"]
    if request.message_filter is not None and request.message_filter.describe():
        lines += [f"Filter: {request.message_filter.describe()}"]
    if outcome.corrected_query is not None:
        lines += ["", correction_note(request.query, outcome.corrected_query)]
    if outcome.unfinished_sources:
        lines += ["", partial_note(outcome)]
    if outcome.index_note is not None:
        lines += ["", index_note(outcome.index_note)]
    if outcome.memory_note is not None:
        lines += ["", memory_note(outcome.memory_note)]
    if not results:
        # The spec's sentence first, as OUT-3 writes it; then how we looked, so the agent can judge
        # the silence.
        searched = ["", f"Searched with: {', '.join(outcome.retrievers)}."] if outcome.retrievers else []
        lines += ["", NO_RESULTS, *searched]
    for number, result in enumerate(results, start=1):
        lines += ["", _result_header(number, result), result.text, *_context_lines(result)]
    return "\n".join(lines).rstrip()


def _result_header(number: int, result: UnifiedSearchResult) -> str:
    parts = [f"score: {format_score(result.final_score)}", f"source: {result.source_type}"]
    if result.source_date:
        parts.append(f"date: {result.source_date}")
    if result.source_type is SourceType.MESSAGE and result.session_title:
        parts.append(f'session: "{result.session_title}"')
    return f"--- Result {number} ({', '.join(parts)}) ---"


def _context_lines(result: UnifiedSearchResult) -> list[str]:
    """The turns around a message hit, one line each, the hit itself marked with '>>'."""
    if not result.context:
        return []
    lines = [f"Context ({len(result.context)} turns of this session; >> marks the match):"]
    for turn in result.context:
        text = " ".join(turn.content.split())
        text = text if len(text) <= CONTEXT_CLIP else text[:CONTEXT_CLIP - 1] + "…"
        lines.append(f"{'>>' if turn.id == result.id else '  '} {_ROLE_NAMES.get(turn.role, turn.role)}: {text}")
    return lines


def format_score(score: float) -> str:
    return str(Decimal(repr(score)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def partial_note(outcome: SearchOutcome) -> str:
    names = " and ".join(str(source) for source in outcome.unfinished_sources)
    return f"Note: partial results; searching {names} did not finish within the {outcome.budget_seconds:g} s budget."


def index_note(state: str) -> str:
    return (f"Note: partial results; the search index is {state}; older ones were searched for the whole query "
            "only, as far as a time limit allowed.")


def memory_note(state: str) -> str:
    return f"Note: partial results; memory's search model is {state}."


def correction_note(query: str, corrected: str) -> str:
    return f"No exact match for '{query}'; showing results for '{corrected}'"


def format_json(request: SearchRequest, outcome: SearchOutcome, stem: Stem = unchanged) -> str:
    searched = HistoryQuery.parse(outcome.corrected_query or request.query, stem)  # the query the results are for
    document: dict[str, object] = {
        "query": request.query,
        "scope": str(request.scope),
        "date_from": request.date_from.isoformat() if request.date_from else None,
        "date_to": request.date_to.isoformat() if request.date_to else None,
        "max_results": request.max_results,
        "complete": outcome.complete,
        "unfinished_sources": [str(source) for source in outcome.unfinished_sources],
        "index": outcome.index_note,
        "memory_index": outcome.memory_note,
        "corrected_query": outcome.corrected_query,
        "retrievers": list(outcome.retrievers),
        "results": [_result_object(result, searched, outcome.corrected_query is not None) for result in outcome.results],
        "sources": {report.source: {"candidates": report.candidates, "ms": round(report.seconds * 1000, 1)}
                    for report in outcome.sources},
    }
    if request.date_range is not None:
        document["date_range"] = request.date_range
    if request.message_filter is not None:
        document["filter"] = {"role": list(request.message_filter.roles), "session_id": request.message_filter.session_id,
                              "project": request.message_filter.project, "agent_type": request.message_filter.agent_type}
    return json.dumps(document, ensure_ascii=False)


def _result_object(result: UnifiedSearchResult, searched: HistoryQuery, fuzzy: bool) -> dict[str, object]:
    return {
        "id": result.id,
        "source": str(result.source_type),
        "score": _significant(result.final_score),
        "date": result.source_date,
        "session_id": result.session_id,
        "session_title": result.session_title,
        "text": result.text,
        "matches": [list(span) for span in result.matches],
        **({"context": [_turn_object(turn, result.id) for turn in result.context]} if result.context else {}),
        "why": {"terms": list(held_terms(searched, result.searched_text)),
                "phrase": result.why.phrase if result.why.phrase is not None else holds_phrase(searched.raw, result.searched_text),
                "fuzzy": fuzzy, "vector": None if result.why.vector is None else round(result.why.vector, 4)},
        "score_parts": _score_parts(result),
    }


def _score_parts(result: UnifiedSearchResult) -> dict[str, float] | None:
    """raw (the source's own relevance), normalised (over the source's best), weight, decay, final."""
    parts = result.parts
    if parts is None:
        return None
    return {"raw": _significant(result.raw_score), "normalised": _significant(parts.normalised), "weight": parts.weight,
            "decay": round(parts.decay, 6), "final": _significant(result.final_score)}


def _significant(value: float) -> float:
    """Six significant digits: a hit far below the best of its source keeps a readable nonzero score."""
    return float(f"{value:.6g}")


def _turn_object(turn: Turn, hit_id: str) -> dict[str, object]:
    return {"id": turn.id, "role": turn.role, "content": turn.content, "created_at": turn.created_at, "matched": turn.id == hit_id}
