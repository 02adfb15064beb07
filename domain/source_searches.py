"""Turns each store's hits into scored, printable results (one function per source).

Mirrors the three mapping blocks of SearchHistoryUseCase.kt; texts follow the spec's output
example ("User: …" for messages, "Session: … last active: …" for sessions).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import tzinfo
from functools import partial
from typing import TypeVar

from oneclaw_search.domain.explanations import MatchReasons
from oneclaw_search.domain.literal_search import session_text
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
from oneclaw_search.domain.redaction import unchanged
from oneclaw_search.domain.relevance import RankingSettings, relevance
from oneclaw_search.domain.stopwords import STOPWORDS
from oneclaw_search.domain.text import EXCERPT_LIMIT, excerpt, find_spans, fold, tokens

PREVIEW_LIMIT = 200
_ROLE_PREFIX = {MessageType.USER.value: "User: ", MessageType.AI_RESPONSE.value: "Assistant: ",
                MessageType.TOOL_CALL.value: "Tool call: ", MessageType.TOOL_RESULT.value: "Tool result: "}
Rendered = tuple[str, tuple[tuple[int, int], ...]]  # a result's printable text and its highlight spans
Clean = Callable[[str], str]
S = TypeVar("S", ScoredMessage, ScoredSession)


@dataclass(frozen=True, slots=True)
class SourceHits:
    """One source's scored results, their text still to be cut: most never reach the page, and
    cutting excerpts for all of them cost more than the merge (`render` fills `text` and `matches`)."""

    drafts: list[UnifiedSearchResult]
    cutters: dict[str, Callable[[], Rendered]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # each draft's whole searchable text, for explanations
    clean: Clean = unchanged  # what a reply must not show, masked as a hit is rendered

    def render(self, draft: UnifiedSearchResult) -> UnifiedSearchResult:
        text, matches = self.cutters[draft.id]()
        return replace(draft, text=text, matches=matches, searched_text=self.clean(self.texts.get(draft.id, "")))


def memory_results(found: Sequence[MemorySearchResult], query: str, zone: tzinfo, clean: Clean = unchanged) -> SourceHits:
    """Memory chunks keep their hybrid relevance as the raw score; decay comes in the merge.
    `clean` (as for every source) masks what a reply must not show before excerpts are cut."""
    needles = highlight_needles(query)
    whole = fold(query)
    hits = SourceHits([], clean=clean)
    for item in found:
        chunk = item.chunk
        day = parse_iso_day(chunk.source_date)
        hits.drafts.append(UnifiedSearchResult(
            id=chunk.id,
            source_type=SourceType.DAILY_LOG if chunk.source_type == DAILY_LOG_TYPE else SourceType.MEMORY,
            text="",
            source_date=day.isoformat() if day else None,
            session_id=None,
            session_title=None,
            raw_score=item.relevance,
            final_score=0.0,
            created_at=content_time_ms(chunk.source_date, chunk.updated_at, zone),
            why=MatchReasons(phrase=None, vector=item.vector_score),  # phrase: checked if JSON asks
            exact=whole in fold(chunk.chunk_text),
        ))
        hits.cutters[chunk.id] = partial(_cut, chunk.chunk_text, needles, "", clean)
        hits.texts[chunk.id] = chunk.chunk_text
    return hits


def ranked(found: Sequence[S], ranking: RankingSettings, limit: int, session: bool = False) -> list[tuple[S, float]]:
    """The best `limit` hits among a source's candidates, by the ranking model (0: no hit; `session`:
    sessions' rule), with their scores; among equals the newer first, so the cut never depends on the
    order candidates came in."""
    scored = [(item, score) for item in found if (score := relevance(item.evidence, ranking, session)) > 0]
    scored.sort(key=lambda pair: (-pair[1], -pair[0].hit.at_ms, pair[0].hit.id))
    return scored[:limit]


def message_results(found: Sequence[ScoredMessage], query: str, zone: tzinfo, ranking: RankingSettings, limit: int,
                    clean: Clean = unchanged) -> SourceHits:
    """The source's best `limit` candidates as results; `clean` (as for every source) masks what a
    reply must not show before excerpts are cut."""
    needles = highlight_needles(query)
    hits = SourceHits([], clean=clean)
    for item, score in ranked(found, ranking, limit):
        hit, evidence = item.hit, item.evidence
        hits.drafts.append(UnifiedSearchResult(
            id=hit.id,
            source_type=SourceType.MESSAGE,
            text="",
            source_date=local_date(hit.created_at, zone).isoformat(),
            session_id=hit.session_id,
            session_title=clean(hit.session_title) if hit.session_title else hit.session_title,
            raw_score=score,
            final_score=0.0,
            created_at=hit.created_at,
            exact=evidence.literal,
            why=MatchReasons(phrase=evidence.literal),
        ))
        hits.cutters[hit.id] = partial(_cut, hit.content, needles, _ROLE_PREFIX.get(hit.type, ""), clean)
        hits.texts[hit.id] = hit.content
    return hits


def _cut(text: str, needles: list[str], prefix: str, clean: Clean) -> Rendered:
    """`prefix` and an excerpt of `text` around the query, with the query's spans in it."""
    text = clean(text)
    spans = find_spans(text, needles)
    cut = excerpt(text, spans, EXCERPT_LIMIT - len(prefix))
    return prefix + cut.text, cut.place(spans, len(prefix))


def session_results(found: Sequence[ScoredSession], query: str, zone: tzinfo, ranking: RankingSettings, limit: int,
                    clean: Clean = unchanged) -> SourceHits:
    needles = highlight_needles(query)
    hits = SourceHits([], clean=clean)
    for item, score in ranked(found, ranking, limit, session=True):
        hit, evidence = item.hit, item.evidence
        day = local_date(hit.updated_at, zone).isoformat()
        hits.drafts.append(UnifiedSearchResult(
            id=hit.id,
            source_type=SourceType.SESSION,
            text="",
            source_date=day,
            session_id=hit.id,
            session_title=clean(hit.title),
            raw_score=score,
            final_score=0.0,
            created_at=hit.updated_at,
            exact=evidence.literal,
            why=MatchReasons(phrase=evidence.literal),
        ))
        hits.cutters[hit.id] = partial(_session_text, hit, day, needles, clean)
        hits.texts[hit.id] = session_text(hit)
    return hits


def _session_text(hit: SessionHit, day: str, needles: list[str], clean: Clean) -> Rendered:
    """The spec's two-line session text, with the query's spans in its title and preview."""
    head, title = 'Session: "', clean(hit.title)
    text = f'{head}{title}" ({hit.message_count} messages, last active: {day})'
    spans = [(start + len(head), end + len(head)) for start, end in find_spans(title, needles)]
    if hit.last_message_preview:
        preview = clean(hit.last_message_preview)[:PREVIEW_LIMIT]
        text += "\nPreview: "
        spans += [(start + len(text), end + len(text)) for start, end in find_spans(preview, needles)]
        text += preview
    cut = excerpt(text, [])
    return cut.text, cut.place(spans)


def highlight_needles(query: str) -> list[str]:
    """What to mark in a hit: the whole query and each of its content words."""
    words = [word for word in tokens(query) if len(word) > 1 and word not in STOPWORDS]
    return [query.strip('"'), *words]
