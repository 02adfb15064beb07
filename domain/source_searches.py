"""Turns each store's hits into scored, printable results (one function per source).

Mirrors the three mapping blocks of SearchHistoryUseCase.kt; texts follow the spec's output
example ("User: …" for messages, "Session: … last active: …" for sessions).
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo

from oneclaw_search.domain.local_time import content_time_ms, local_date, parse_iso_day
from oneclaw_search.domain.models import (
    DAILY_LOG_TYPE,
    MemorySearchResult,
    MessageType,
    ScoredMessage,
    ScoredSession,
    SessionHit,
    SourceType,
    UnifiedSearchResult,
)
from oneclaw_search.domain.ranking import relevance_scores
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.text import EXCERPT_LIMIT, excerpt, find_spans, tokens

PREVIEW_LIMIT = 200
_ROLE_PREFIX = {MessageType.USER.value: "User: ", MessageType.AI_RESPONSE.value: "Assistant: "}


def memory_results(found: Sequence[MemorySearchResult], query: str, zone: tzinfo) -> list[UnifiedSearchResult]:
    """Memory chunks keep their hybrid relevance as the raw score; decay comes in the merge."""
    results = []
    for item in found:
        chunk = item.chunk
        day = parse_iso_day(chunk.source_date)
        spans = find_spans(chunk.chunk_text, highlight_needles(query))
        cut = excerpt(chunk.chunk_text, spans)
        results.append(UnifiedSearchResult(
            id=chunk.id,
            source_type=SourceType.DAILY_LOG if chunk.source_type == DAILY_LOG_TYPE else SourceType.MEMORY,
            text=cut.text,
            source_date=day.isoformat() if day else None,
            session_id=None,
            session_title=None,
            raw_score=item.relevance,
            final_score=0.0,
            created_at=content_time_ms(chunk.source_date, chunk.updated_at, zone),
            matches=cut.place(spans),
        ))
    return results


def message_results(found: Sequence[ScoredMessage], query: str, zone: tzinfo) -> list[UnifiedSearchResult]:
    needles = highlight_needles(query)
    scores = relevance_scores([item.relevance for item in found])
    results = []
    for item, score in zip(found, scores):
        hit = item.hit
        prefix = _ROLE_PREFIX.get(hit.type, "")
        spans = find_spans(hit.content, needles)
        cut = excerpt(hit.content, spans, EXCERPT_LIMIT - len(prefix))
        results.append(UnifiedSearchResult(
            id=hit.id,
            source_type=SourceType.MESSAGE,
            text=prefix + cut.text,
            source_date=local_date(hit.created_at, zone).isoformat(),
            session_id=hit.session_id,
            session_title=hit.session_title,
            raw_score=score,
            final_score=0.0,
            created_at=hit.created_at,
            matches=cut.place(spans, len(prefix)),
            exact=item.relevance.literal > 0,
        ))
    return results


def session_results(found: Sequence[ScoredSession], query: str, zone: tzinfo) -> list[UnifiedSearchResult]:
    needles = highlight_needles(query)
    scores = relevance_scores([item.relevance for item in found])
    results = []
    for item, score in zip(found, scores):
        hit = item.hit
        day = local_date(hit.updated_at, zone).isoformat()
        text, matches = _session_text(hit, day, needles)
        results.append(UnifiedSearchResult(
            id=hit.id,
            source_type=SourceType.SESSION,
            text=text,
            source_date=day,
            session_id=hit.id,
            session_title=hit.title,
            raw_score=score,
            final_score=0.0,
            created_at=hit.updated_at,
            matches=matches,
            exact=item.relevance.literal > 0,
        ))
    return results


def _session_text(hit: SessionHit, day: str, needles: list[str]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The spec's two-line session text, with the query's spans in its title and preview."""
    head = 'Session: "'
    text = f'{head}{hit.title}" ({hit.message_count} messages, last active: {day})'
    spans = [(start + len(head), end + len(head)) for start, end in find_spans(hit.title, needles)]
    if hit.last_message_preview:
        preview = hit.last_message_preview[:PREVIEW_LIMIT]
        text += "\nPreview: "
        spans += [(start + len(text), end + len(text)) for start, end in find_spans(preview, needles)]
        text += preview
    cut = excerpt(text, [])
    return cut.text, cut.place(spans)


def highlight_needles(query: str) -> list[str]:
    """What to mark in a hit: the whole query and each of its content words."""
    words = [word for word in tokens(query) if len(word) > 1 and word not in STOPWORDS]
    return [query.strip('"'), *words]
