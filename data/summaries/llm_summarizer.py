"""Summarizers that ask a chat model for a session's digest: any OpenAI-compatible server (OpenAI,
Ollama, llama.cpp's server, vLLM) or Anthropic's Messages API (draagon-forge REQ-016.3).

A long session goes to the model in pieces within the token budget, and the pieces' digests are
merged without another call (digest_answer.py says how); the prose summary is checked against the
session (domain/checked_prose.py). Whatever goes wrong, a timeout, a refused
connection, an HTTP error or an answer that is not the JSON asked for, the fallback summarizer
answers instead and the digest's method names the model and why it was not used. The SDKs are
imported on first use, so this package loads where they are not installed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from oneclaw_search.data.summaries.digest_answer import ANSWER_SCHEMA, UnparsableAnswer, merge, parse_answer
from oneclaw_search.data.summaries.summary_prompt import SYSTEM_PROMPT, transcript_pieces, turn_room
from oneclaw_search.domain.checked_prose import checked
from oneclaw_search.domain.session_summary import Digest, Summarizer, Transcript

if TYPE_CHECKING:
    from anthropic import Anthropic
    from openai import OpenAI

# room for three short lists and a few sentences; Anthropic requires a bound, and OpenAI-compatible servers get none,
# since OpenAI's reasoning models refuse `max_tokens` and `temperature`
ANSWER_TOKENS = 1024


class _ChatModelSummarizer:
    """The shared summarize(): pieces, one call each, merge; any failure hands over to the fallback."""

    def __init__(self, model: str, fallback: Summarizer, timeout_seconds: float, token_budget: int) -> None:
        turn_room(token_budget)  # a budget too small for any turn is a wiring mistake: say so now
        self.model = model
        self._fallback = fallback
        self._timeout = timeout_seconds
        self._budget = token_budget
        self._sdk: ModuleType | None = None  # the SDK once imported, for its error types

    def summarize(self, transcript: Transcript) -> Digest:
        if not transcript.turns:  # nothing for a model to read
            return self._fallback.summarize(transcript)
        try:
            parts = [parse_answer(self._ask(piece)) for piece in transcript_pieces(transcript, self._budget)]
        except Exception as error:  # the port promises a digest, never an exception
            digest = self._fallback.summarize(transcript)
            return replace(digest, method=f"{digest.method} (llm:{self.model} unavailable: {self._reason(error)})")
        answer = merge(parts)
        # The model's prose is checked as the local model's is; the offline prose stands in for none left.
        shown = "\n".join([transcript.session.title, *(turn.content for turn in transcript.turns)])
        prose = checked(answer.summary, shown).text or self._fallback.summarize(transcript).summary
        return Digest(*answer.lists, f"llm:{self.model}", prose)

    def _ask(self, piece: str) -> str | None:
        """The model's reply to one piece of transcript."""
        raise NotImplementedError

    def _reason(self, error: Exception) -> str:
        sdk = self._sdk
        if isinstance(error, UnparsableAnswer):
            return "unparsable answer"
        if isinstance(error, ImportError):
            return f"{error.name or 'its SDK'} is not installed"
        if sdk is not None and isinstance(error, sdk.APITimeoutError):  # before its base class, APIConnectionError
            return "timed out"
        if sdk is not None and isinstance(error, sdk.APIConnectionError):
            return "unreachable"
        if sdk is not None and isinstance(error, sdk.APIStatusError):
            return f"HTTP {error.status_code}"
        return type(error).__name__


# Servers that read no schema from `response_format` refuse the request with one of these HTTP
# statuses (400 Bad Request, 422 Unprocessable Entity).
_REFUSED_FORMAT = (400, 422)


class OpenAICompatibleSummarizer(_ChatModelSummarizer):
    """Chat Completions at `base_url` (…/v1). A local server that checks no key takes any string.

    With `constrained`, the answer's JSON schema goes along as `response_format` (a JSON object with
    a schema, as llama.cpp's server reads it); a server that refuses that is asked plainly from then on.
    `sampling` adds request fields such as `temperature` or `seed` (none by default: OpenAI's reasoning
    models refuse a temperature).
    """

    def __init__(self, base_url: str, model: str, api_key: str, fallback: Summarizer,
                 timeout_seconds: float = 20.0, token_budget: int = 6000, constrained: bool = True,
                 sampling: Mapping[str, object] | None = None) -> None:
        super().__init__(model, fallback, timeout_seconds, token_budget)
        self._base_url = base_url
        self._api_key = api_key
        self._client: OpenAI | None = None
        self._constrained = constrained
        self._sampling = dict(sampling or {})

    def _ask(self, piece: str) -> str | None:
        import openai

        self._sdk = openai
        if self._client is None:
            self._client = openai.OpenAI(base_url=self._base_url, api_key=self._api_key,
                                         timeout=self._timeout, max_retries=0)
        try:
            return self._complete(piece)
        except openai.APIStatusError as refused:
            if not self._constrained or refused.status_code not in _REFUSED_FORMAT:
                raise
            self._constrained = False
            return self._complete(piece)

    def _complete(self, piece: str) -> str | None:
        request: dict[str, Any] = {"model": self.model, **self._sampling, "messages": [
            {"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": piece}]}
        if self._constrained:
            request["response_format"] = {"type": "json_object", "schema": ANSWER_SCHEMA}
        assert self._client is not None
        completion = self._client.chat.completions.create(**request)
        if not completion.choices:
            raise UnparsableAnswer("no choices")
        return cast("str | None", completion.choices[0].message.content)


class AnthropicSummarizer(_ChatModelSummarizer):
    """Anthropic's Messages API; `base_url` None means the SDK's own default."""

    def __init__(self, model: str, api_key: str, fallback: Summarizer, base_url: str | None = None,
                 timeout_seconds: float = 20.0, token_budget: int = 6000) -> None:
        super().__init__(model, fallback, timeout_seconds, token_budget)
        self._base_url = base_url
        self._api_key = api_key
        self._client: Anthropic | None = None

    def _ask(self, piece: str) -> str | None:
        import anthropic

        self._sdk = anthropic
        if self._client is None:
            self._client = anthropic.Anthropic(base_url=self._base_url, api_key=self._api_key,
                                               timeout=self._timeout, max_retries=0)
        message = self._client.messages.create(
            model=self.model, max_tokens=ANSWER_TOKENS, system=SYSTEM_PROMPT,
            messages=[{"role": "user", "content": piece}],
        )
        return "".join(block.text for block in message.content if isinstance(block, anthropic.types.TextBlock))
