"""SearchSettings: the knobs OneClaw hard-codes for one search, as one value (ERR-5, BR-06, MRG-6).

The 30 s budget, the 5 s buffer that leaves out the message asking, the candidate pool each source
ranks, whether secrets are masked and the ranking model's constants; hosts change them through
di/settings.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from oneclaw_search.domain.relevance import RankingSettings
from oneclaw_search.domain.search_window import RECENT_MESSAGE_BUFFER_MS

DEFAULT_BUDGET_SECONDS = 30.0
# Candidates each source ranks, whatever max_results asks: enough for the merge, decay and dedup
# to choose from, and the same pool for every max_results, so a shorter answer is always the start
# of a longer one.
DEFAULT_CANDIDATE_LIMIT = 50


@dataclass(frozen=True, slots=True)
class SearchSettings:
    budget_seconds: float = DEFAULT_BUDGET_SECONDS
    candidate_limit: int = DEFAULT_CANDIDATE_LIMIT
    recent_message_buffer_ms: int = RECENT_MESSAGE_BUFFER_MS
    redact_secrets: bool = True  # API keys, tokens and passwords never reach a reply
    ranking: RankingSettings = field(default_factory=RankingSettings)  # how messages and sessions are scored
