"""A chat model server on the loopback interface for the LLM summarizers' tests: it speaks OpenAI's
Chat Completions (POST /v1/chat/completions) and Anthropic's Messages (POST /v1/messages) over real
HTTP, plays canned behaviours in order and records every request it gets."""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]  # names in lower case
    body: dict

    def text(self) -> str:
        """Everything the model was told: system prompt and messages, joined."""
        system = self.body.get("system", "")
        return "\n".join([system if isinstance(system, str) else json.dumps(system),
                          *(message["content"] for message in self.body["messages"])])


@dataclass(frozen=True)
class Behaviour:
    """Answer `text` after `delay` seconds, or fail with HTTP `status`; `reply` makes the text from the request."""

    text: str = ""
    delay: float = 0.0
    status: int = 200
    reply: Callable[[Request], str] | None = None


def answer(text, delay=0.0):
    return Behaviour(text=text, delay=delay)


def status(code):
    return Behaviour(status=code)


def replying(reply):
    return Behaviour(reply=reply)


class LoopbackLlm:
    """`with LoopbackLlm() as llm:` serves on 127.0.0.1 at a free port until the block ends. Behaviours
    queue up with `llm.then(...)`; once they run out, `llm.default` plays (a 500 unless set)."""

    def __init__(self):
        self.requests: list[Request] = []
        self.default = status(500)
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def then(self, *behaviours: Behaviour) -> LoopbackLlm:
        self._queue.extend(behaviours)
        return self

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()

    def _next(self, request: Request) -> Behaviour:
        with self._lock:
            self.requests.append(request)
            return self._queue.popleft() if self._queue else self.default

    def _handler(self):
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                size = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(size) or b"{}")
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                behaviour = llm._next(request)
                time.sleep(behaviour.delay)
                if behaviour.status != 200:
                    return self._send(behaviour.status, {"error": {"type": "server_error", "message": "canned failure"}})
                text = behaviour.reply(request) if behaviour.reply else behaviour.text
                if self.path == "/v1/chat/completions":
                    return self._send(200, _completion(body.get("model", ""), text))
                if self.path == "/v1/messages":
                    return self._send(200, _message(body.get("model", ""), text))
                return self._send(404, {"error": {"type": "not_found", "message": self.path}})

            def _send(self, code, payload):
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up waiting (a timeout test): nobody to answer
                    pass

            def log_message(self, format, *args):  # keep the test output quiet
                pass

        return Handler


def _completion(model, text):
    return {"id": "chatcmpl-loopback", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _message(model, text):
    return {"id": "msg_loopback", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}
