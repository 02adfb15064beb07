"""Message and session search on the server's own machinery (the MessageSearch and SessionSearch ports).

The spec's literal reading comes from the DAOs (ILIKE over pg_trgm, re-checked with Unicode
folding); keywords in any order from a generated tsvector and its GIN index, ranked by ts_rank_cd;
meaning, for messages, from stored vectors that re-rank what the words found.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from oneclaw_search.data.postgres.daos import (
    MESSAGE_COLUMNS,
    SESSION_COLUMNS,
    TURN_TYPES,
    PostgresMessageDao,
    PostgresSessionDao,
    message_conditions,
)
from oneclaw_search.data.postgres.database import PostgresHistory
from oneclaw_search.data.postgres.schema import CAMEL
from oneclaw_search.data.postgres.turns_around import holding, lent_turns, query_lexemes, windows
from oneclaw_search.data.postgres.vectors import MessageVectorStore
from oneclaw_search.data.postgres.word_weights import WordWeights, coverage
from oneclaw_search.data.postgres.writer import storable_text
from oneclaw_search.domain.clock import Deadline
from oneclaw_search.domain.history_query import HistoryQuery
from oneclaw_search.domain.literal_search import LiteralMessageSearch, LiteralSessionSearch
from oneclaw_search.domain.message_filter import Within
from oneclaw_search.domain.models import MessageHit, Relevance, ScoredMessage, ScoredSession, SessionHit

RETRIEVERS = ("keyword (PostgreSQL full-text, idf-weighted)", "phrase (pg_trgm)")
# Normalisation 32 maps a rank r to r / (r + 1); 1 adds a division by the log of the row's length.
RANK_FLAGS = 1 | 32
MAX_TOKENS = 64  # a pasted paragraph as a query: its first words decide
# A row found by keywords alone needs this share of the query's weight (a common word alone is noise);
# for messages, only half the best share when every row is weak, as in the keyword index.
MIN_COVERAGE, MIN_OF_BEST = 0.1, 0.5
DENSITY_SHARE = 0.1  # how much ts_rank_cd (words close together, a short row) adds within equal coverage
PREVIEW_WEIGHT = 0.6  # a word in a session's preview, against 1 in its title
_KEYWORD_OVERFETCH = 2
H = TypeVar("H", MessageHit, SessionHit)
S = TypeVar("S", ScoredMessage, ScoredSession)
# Any of the query's words, as the keyword index reads a query: each whitespace-separated token is
# a phrase (user_id is user then id, memorySearch also memory then search), and the phrases are ORed.
# phraseto_tsquery parses and stems any text safely.
_TOKEN = ("phraseto_tsquery('english', oneclaw_search_plain(%s)) || "
          f"phraseto_tsquery('english', regexp_replace(oneclaw_search_plain(%s), {CAMEL}))")


def with_density(share: float, rank: float) -> float:
    """Coverage, with ts_rank_cd (in [0, 1)) ordering rows of equal coverage."""
    return share * (1 - DENSITY_SHARE + DENSITY_SHARE * rank)


def weighted_sum(lexemes: list[str], weights: dict[str, float]) -> tuple[str, list[object]]:
    """SQL for the weight of the query's words a message holds, and its parameters."""
    if not lexemes:
        return "NULL::int", []
    terms = " + ".join(["%s * (m.content_tsv @@ %s::tsquery)::int"] * len(lexemes))
    return f"({terms})", [value for word in lexemes for value in (weights.get(word, 0.0), "'" + word.replace("'", "''") + "'")]


def candidate_pool(lexemes: list[str], after: int, before: int, within: Within | None, size: int) -> tuple[str, list[object]]:
    """SQL for the ids a keyword search ranks, and its parameters: the newest `size` rows holding
    every word, and the newest `size` holding each word. Ranking every row that holds any word
    would cost a common word's whole posting list, every search; the best rows hold the rare
    words, or all of them, and recent ones rank first among equals."""
    types = sorted(within.types) if within is not None and within.types is not None else TURN_TYPES
    sessions, narrowed = "", list[object]()
    if within is not None and within.sessions is not None:
        sessions, narrowed = " AND p.session_id = ANY(%s)", [sorted(within.sessions)]
    queries = [" & ".join(_quoted(word) for word in lexemes)] + ([_quoted(word) for word in lexemes] if len(lexemes) > 1 else [])
    part = (f"(SELECT p.id FROM messages p WHERE p.content_tsv @@ %s::tsquery AND p.created_at BETWEEN %s AND %s "
            f"AND p.type = ANY(%s){sessions} ORDER BY p.created_at DESC LIMIT %s)")
    if not lexemes:
        return "SELECT NULL::text", []
    return " UNION ".join([part] * len(queries)), [v for q in queries for v in (q, after, before, types, *narrowed, size)]


def _quoted(lexeme: str) -> str:
    return "'" + lexeme.replace("'", "''") + "'"


def any_word(query: str) -> tuple[str, list[object]]:
    """SQL for a tsquery matching any of the query's tokens, and its parameters."""
    tokens = list(dict.fromkeys(storable_text(query).split()))[:MAX_TOKENS] or [""]
    return "(" + " || ".join([_TOKEN] * len(tokens)) + ")", [value for token in tokens for value in (token, token)]



class _ServerSearch(Generic[H, S]):
    scored: Callable[[H, Relevance], S]
    floor_follows_best = False

    def __init__(self, history: PostgresHistory, literal: Any, text_of: Callable[[H], str]) -> None:
        self._history = history
        self._literal = literal
        self._text_of: Callable[[H], str] = text_of

    def _keyword(self, query: HistoryQuery, after: int, before: int, limit: int, deadline: Deadline | None,
                 within: Within | None) -> list[tuple[H, float, frozenset[str]]]:
        """Rows holding the query's words: each with its ts_rank_cd and the query lexemes it holds."""
        raise NotImplementedError

    def _semantic(self, query: HistoryQuery, ids: Sequence[str]) -> dict[str, float]:
        return {}

    def search(self, query: HistoryQuery, after: int, before: int, limit: int, *, deadline: Deadline | None = None,
               within: Within | None = None) -> list[S]:
        literal = self._literal.search(query, after, before, limit, deadline=deadline, within=within)
        keyword = self._keyword(query, after, before, limit * _KEYWORD_OVERFETCH, deadline, within)
        best = max((score for _, score, _ in keyword), default=0.0)
        ranks = {hit.id: score for hit, score, _ in keyword}
        floor = min(MIN_COVERAGE, MIN_OF_BEST * best) if self.floor_follows_best else MIN_COVERAGE
        hits: dict[str, H] = {hit.id: hit for hit, _, _ in keyword}
        found: dict[str, S] = {item.hit.id: item for item in literal}
        semantic = self._semantic(query, list({*hits, *found}))
        # item.hit is this search's H: mypy reads a constrained type variable's attribute as either constraint
        scored = [self.scored(item.hit, Relevance(ranks.get(hit_id, 0.0), item.relevance.literal,  # type: ignore[arg-type]
                                                  semantic.get(hit_id)))
                  for hit_id, item in found.items()]
        for hit_id, hit in hits.items():
            if hit_id in found or not query.admits(self._text_of(hit)):
                continue
            if ranks[hit_id] >= floor:
                scored.append(self.scored(hit, Relevance(ranks[hit_id], 0.0, semantic.get(hit_id))))
        # Whole-query hits first, then by keyword rank: the order the merge will rank them in.
        return sorted(scored, key=lambda item: (item.relevance.literal <= 0, -item.relevance.keyword))[:limit]


class PostgresMessageSearch(_ServerSearch[MessageHit, ScoredMessage]):
    scored = ScoredMessage
    floor_follows_best = True

    def __init__(self, history: PostgresHistory, dao: PostgresMessageDao, vectors: MessageVectorStore | None) -> None:
        super().__init__(history, LiteralMessageSearch(dao), lambda hit: hit.content)
        self._weights = WordWeights(history, "messages", "content_tsv")
        self._vectors = vectors
        self.retrievers = RETRIEVERS + (() if vectors is None else (f"semantic ({vectors.name})",))

    def _keyword(self, query: HistoryQuery, after: int, before: int, limit: int, deadline: Deadline | None,
                 within: Within | None) -> list[tuple[MessageHit, float, frozenset[str]]]:
        narrowed, params = message_conditions(within)
        words, word_params = any_word(query.raw)
        lexemes = query_lexemes(self._history, query.raw, deadline)
        weights = self._weights.idf(lexemes, deadline)
        flags, flag_params = holding(lexemes)
        weighted, weighted_params = weighted_sum(lexemes, weights)
        pool, pool_params = candidate_pool(lexemes, after, before, within, limit)
        rows = self._history.rows(
            f"SELECT {MESSAGE_COLUMNS}, ts_rank_cd(m.content_tsv, w.q, {RANK_FLAGS}) AS rank, {flags} "
            f"FROM (SELECT {words} AS q) AS w, messages m JOIN sessions s ON s.tenant = m.tenant AND s.id = m.session_id "
            f"WHERE m.id IN ({pool}) AND m.content_tsv @@ w.q AND m.created_at BETWEEN %s AND %s{narrowed} "
            f"ORDER BY {weighted} DESC, rank DESC, m.created_at DESC, m.id LIMIT %s",
            [*flag_params, *word_params, *pool_params, after, before, *params, *weighted_params, limit], deadline)
        hits = {row[0]: (MessageHit(*row[:6]), float(row[6])) for row in rows}
        own = {row[0]: frozenset(word for word, holds in zip(lexemes, row[7], strict=True) if holds) for row in rows}
        # One word lends nothing, however many lexemes it parses into (user_id, memorySearch), and a
        # quoted phrase must stand in one row: then each row holds only its own words.
        lends = not query.phrases and len(query.raw.split()) >= 2 and len(set().union(*own.values()) if own else ()) >= 2
        held = windows(self._history, own, deadline) if lends else {key: dict.fromkeys(words, 1.0) for key, words in own.items()}
        lent = [key for key, shares in held.items() if key not in hits and len(shares) >= 2]
        found = [(hit, with_density(coverage(weights, held[key]), rank), own[key]) for key, (hit, rank) in hits.items()]
        found += [(hit, with_density(coverage(weights, held[hit.id]), 0.0), frozenset())
                  for hit in lent_turns(self._history, lent, after, before, within, deadline)]
        return found

    def _semantic(self, query: HistoryQuery, ids: Sequence[str]) -> dict[str, float]:
        if self._vectors is None:
            return {}
        return {key: max(score, 0.0) for key, score in self._vectors.similarity(ids, query.raw).items()}


class PostgresSessionSearch(_ServerSearch[SessionHit, ScoredSession]):
    scored = ScoredSession
    retrievers = RETRIEVERS

    def __init__(self, history: PostgresHistory, dao: PostgresSessionDao) -> None:
        super().__init__(history, LiteralSessionSearch(dao), lambda hit: f"{hit.title}\n{hit.last_message_preview or ''}")
        self._weights = WordWeights(history, "sessions", "search_tsv")

    def _keyword(self, query: HistoryQuery, after: int, before: int, limit: int, deadline: Deadline | None,
                 within: Within | None) -> list[tuple[SessionHit, float, frozenset[str]]]:
        narrowed, params = "", []
        if within is not None and within.sessions is not None:
            narrowed, params = " AND s.id = ANY(%s)", [sorted(within.sessions)]
        words, word_params = any_word(query.raw)
        lexemes = query_lexemes(self._history, query.raw, deadline)
        weights = self._weights.idf(lexemes, deadline)
        in_title, title_params = holding(lexemes, "ts_filter(s.search_tsv, '{a}')")
        in_preview, preview_params = holding(lexemes, "ts_filter(s.search_tsv, '{b}')")
        rows = self._history.rows(
            f"SELECT {SESSION_COLUMNS}, ts_rank_cd(s.search_tsv, w.q, {RANK_FLAGS}) AS rank, {in_title}, {in_preview} "
            f"FROM (SELECT {words} AS q) AS w, sessions s "
            f"WHERE s.search_tsv @@ w.q AND s.deleted_at IS NULL AND s.updated_at BETWEEN %s AND %s{narrowed} "
            "ORDER BY rank DESC, s.updated_at DESC, s.id LIMIT %s",
            [*title_params, *preview_params, *word_params, after, before, *params, limit], deadline)
        found: list[tuple[SessionHit, float, frozenset[str]]] = []
        for row in rows:
            title = {word for word, holds in zip(lexemes, row[7], strict=True) if holds}
            preview = {word for word, holds in zip(lexemes, row[8], strict=True) if holds} - title
            # A title names the whole conversation; a preview is one clipped line, whose words are
            # found through its message too: by its preview alone a session needs most of the query.
            if title or 2 * len(preview) > len(lexemes):
                held = {**dict.fromkeys(preview, PREVIEW_WEIGHT), **dict.fromkeys(title, 1.0)}
                found.append((SessionHit(*row[:6]), with_density(coverage(weights, held), row[6]), frozenset()))
        return found
