"""A local OpenAI-compatible HTTP server for tests: real sockets, real `openai` client on the other side.

``FakeOpenAI(behaviour)`` serves ``POST /v1/chat/completions``; ``behaviour(body) -> dict`` returns the
assistant message (``{"content": ...}`` or ``{"tool_calls": [...]}``), or raises ``HTTPFail(status)``.
The server counts requests and can add latency.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class HTTPFail(Exception):
    def __init__(self, status: int, message: str = "fail") -> None:
        super().__init__(message)
        self.status = status


Behaviour = Callable[[dict[str, Any]], dict[str, Any]]


class FakeOpenAI:
    def __init__(self, behaviour: Behaviour, latency_s: float = 0.0) -> None:
        self.behaviour = behaviour
        self.latency_s = latency_s
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(n) or b"{}")
                with outer._lock:
                    outer.requests.append(body)
                if outer.latency_s:
                    time.sleep(outer.latency_s)
                try:
                    msg = outer.behaviour(body)
                    status, payload = (
                        200,
                        {
                            "id": "chatcmpl-test",
                            "object": "chat.completion",
                            "created": 0,
                            "model": body.get("model", "fake"),
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": None, **msg},
                                }
                            ],
                            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                        },
                    )
                except HTTPFail as e:
                    status, payload = (
                        e.status,
                        {"error": {"message": str(e), "type": "test", "code": e.status}},
                    )
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def judge_data(body: dict[str, Any]) -> dict[str, Any]:
    """The DATA object the judge sends in its user message."""
    text = body["messages"][-1]["content"]
    data: dict[str, Any] = json.loads(text.split("DATA:\n", 1)[1])
    return data


# --- behaviours for the `plugineval predict` tests (added; nothing above changed) ---------------


def tool_call(name: str, arguments: Any, call_id: str = "call_0") -> dict[str, Any]:
    """An OpenAI tool call; ``arguments`` is sent as given when a string (malformed JSON allowed)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def fails_first(n: int, status: int, behaviour: Behaviour) -> Behaviour:
    """The first ``n`` requests answer HTTP ``status``; later ones go to ``behaviour``."""
    lock = threading.Lock()
    seen = [0]

    def run(body: dict[str, Any]) -> dict[str, Any]:
        with lock:
            seen[0] += 1
            k = seen[0]
        if k <= n:
            raise HTTPFail(status, f"planned failure {k} of {n}")
        return behaviour(body)

    return run


class _Hangup(Exception):
    """Raised in a handler to drop the connection without an answer."""


def dies_after(server: FakeOpenAI, n: int, behaviour: Behaviour) -> Behaviour:
    """Serve ``n`` requests, then die: stop listening and drop every connection without an answer."""
    lock = threading.Lock()
    seen = [0]
    server.server.handle_error = lambda *a: None  # type: ignore[method-assign]

    def kill() -> None:
        server.server.shutdown()
        server.server.server_close()

    def run(body: dict[str, Any]) -> dict[str, Any]:
        with lock:
            seen[0] += 1
            k = seen[0]
            if k == n + 1:
                threading.Thread(target=kill, daemon=True).start()
        if k > n:
            raise _Hangup("the server died")
        return behaviour(body)

    return run


# --- the reply forms of open models served by vLLM / sglang ----------------------------------------


def hermes_content(calls: list[tuple[str, Any]], before: str = "", think: str | None = None) -> str:
    """A Hermes / Qwen reply as a server without a tool-call parser returns it: ``<tool_call>`` tags
    in the content (optionally after a ``<think>`` block)."""
    tags = "\n".join(
        "<tool_call>\n" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "\n</tool_call>"
        for n, a in calls
    )
    head = f"<think>\n{think}\n</think>\n\n" if think is not None else ""
    return head + before + tags


def with_reasoning(behaviour: Behaviour, field: str = "reasoning_content", text: str = "") -> Behaviour:
    """Every reply of ``behaviour`` with reasoning as a server with a reasoning parser returns it: in
    ``field`` (vLLM's older ``reasoning_content`` or its newer ``reasoning``; sglang's
    ``reasoning_content``). The reasoning text itself holds a call-shaped draft, never to be read."""

    def run(body: dict[str, Any]) -> dict[str, Any]:
        msg = dict(behaviour(body))
        draft = '<tool_call>{"name": "draft_tool", "arguments": {}}</tool_call> ```json\n[{"name": "draft_tool"}]\n```'
        msg[field] = text or f"用户想查询，先想想该用哪个工具。{draft}"
        return msg

    return run


# --- the same behaviours without a server: the package's mock provider ---------------------------


class MockServer:
    """``FakeOpenAI``'s interface (``base_url``, ``requests``, ``behaviour``, ``latency_s``) on the
    package's mock provider (``plugineval.models.mock``): ``base_url`` is ``mock://<name>``, no socket.
    A behaviour's ``HTTPFail(status)`` becomes the mock's error reply of that status (a 429 with
    ``Retry-After: 0``, as the server sends it)."""

    _n = 0

    def __init__(self, behaviour: Behaviour, latency_s: float = 0.0) -> None:
        from plugineval.models.mock import MockProvider

        MockServer._n += 1
        self.name = f"test-{MockServer._n}"
        self.behaviour = behaviour
        self.provider = MockProvider(self._reply, latency_s=latency_s)

    def _reply(self, body: dict[str, Any]) -> Any:
        from plugineval.models.mock import error

        try:
            return self.behaviour(body)
        except HTTPFail as e:
            return error(e.status, str(e), retry_after=0.0 if e.status == 429 else None)

    @property
    def base_url(self) -> str:
        return f"mock://{self.name}"

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.provider.requests

    def __enter__(self) -> MockServer:
        from plugineval.models.mock import register

        register(self.name, self.provider)
        return self

    def __exit__(self, *exc: object) -> None:
        from plugineval.models.mock import unregister

        unregister(self.name)
