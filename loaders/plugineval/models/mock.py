"""The mock provider: scripted replies in the forms real servers send, with no HTTP server.

    from plugineval.models import ModelClient, ModelConfig
    from plugineval.models.mock import MockProvider, error, tool_calls

    mock = MockProvider([error(429), tool_calls(("weather", {"city": "北京"}))])
    client = ModelClient(ModelConfig(model="m", base_url="mock://"), provider=mock)

A script is a list of replies, one per request in order (the last repeats once the list is spent), or
a function of the request body returning a reply (it may also raise ``ModelError``). A reply is:

- a string — the assistant message's content;
- a dict — the assistant message (``content``, ``tool_calls``, ``reasoning_content``, ``reasoning``…;
  ``finish_reason``, ``usage`` and ``model`` go to the completion), or a whole completion body (with
  ``choices``);
- ``error(status, …)`` — the HTTP error as the openai client raises it (429, 503 → retried; 400 →
  refused; 401 → fatal), with a ``Retry-After``;
- ``malformed(text)`` — a 200 whose body is not a completion;
- ``slow(seconds, reply)`` — ``reply`` after a delay (past ``timeout_s``: a time-out).

Helpers build the forms of open-model servers: ``tool_calls`` (native calls), ``think`` (a
``<think>…</think>`` block in the content), ``with_reasoning`` (a ``reasoning_content`` /
``reasoning`` field), ``hermes`` (``<tool_call>`` tags in the content, a server without a tool-call
parser), ``fenced_json`` (a ```` ```json ```` block, prompted mode).

Configs select it with ``base_url = "mock://<name>"``: ``register(name, provider)`` (or the
``registered`` context manager) names a provider; ``mock://echo`` answers the last user message;
``mock://package.module:attr`` imports a ``MockProvider`` or a script.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Union

from .config import MOCK_SCHEME
from .errors import ModelError

DEFAULT_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


@dataclass(frozen=True)
class MockError:
    status: int
    message: str = "mock failure"
    retry_after: float | None = 0.0


@dataclass(frozen=True)
class Malformed:
    text: str


@dataclass(frozen=True)
class Slow:
    seconds: float
    reply: Any  # a Reply


Reply = Union[str, dict[str, Any], MockError, Malformed, Slow]  # noqa: UP007
Script = Union[Sequence[Reply], Callable[[dict[str, Any]], Reply]]  # noqa: UP007


def error(status: int, message: str = "mock failure", retry_after: float | None = 0.0) -> MockError:
    """An HTTP error reply; ``retry_after`` is sent as ``Retry-After`` (None: no header)."""
    return MockError(status, message, retry_after)


def slow(seconds: float, reply: Reply) -> Slow:
    """``reply`` after ``seconds`` (past the role's ``timeout_s``: a time-out)."""
    return Slow(seconds, reply)


def malformed(text: str = '{"object": "error"}') -> Malformed:
    """A 200 whose body is ``text`` (not a chat completion)."""
    return Malformed(text)


def tool_call(name: str, arguments: Any, call_id: str = "call_0") -> dict[str, Any]:
    """One OpenAI tool call; ``arguments`` is sent as given when a string (malformed JSON allowed)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def tool_calls(*calls: tuple[str, Any] | dict[str, Any], content: str | None = None) -> dict[str, Any]:
    """A native reply: ``tool_calls`` from ``(name, arguments)`` pairs or ready call dicts."""
    out = [c if isinstance(c, dict) else tool_call(c[0], c[1], f"call_{i}") for i, c in enumerate(calls)]
    return {"content": content, "tool_calls": out}


def think(reasoning: str, answer: str = "", closed: bool = True) -> dict[str, Any]:
    """Reasoning as a ``<think>`` block in the content (a server without a reasoning parser);
    ``closed=False``: the reply stops inside the block (cut by max_tokens)."""
    if not closed:
        return {"content": f"<think>\n{reasoning}"}
    return {"content": f"<think>\n{reasoning}\n</think>\n\n{answer}"}


def with_reasoning(reply: Reply, text: str, field: str = "reasoning_content") -> dict[str, Any]:
    """``reply`` with reasoning in its own field (``reasoning_content``: sglang, older vLLM;
    ``reasoning``: vLLM now)."""
    msg = _message_of(reply)
    return {**msg, field: text}


def hermes(calls: Sequence[tuple[str, Any]], before: str = "", think: str | None = None) -> dict[str, Any]:
    """Hermes / Qwen ``<tool_call>`` tags in the content (a server without ``--tool-call-parser``)."""
    tags = "\n".join(
        "<tool_call>\n" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "\n</tool_call>"
        for n, a in calls
    )
    head = f"<think>\n{think}\n</think>\n\n" if think is not None else ""
    return {"content": head + before + tags}


def fenced_json(value: Any, before: str = "") -> dict[str, Any]:
    """A ```` ```json ```` block in the content (prompted mode's calls)."""
    return {"content": before + "```json\n" + json.dumps(value, ensure_ascii=False) + "\n```"}


def _message_of(reply: Reply) -> dict[str, Any]:
    if isinstance(reply, str):
        return {"content": reply}
    if isinstance(reply, dict):
        return dict(reply)
    raise TypeError(f"not a message reply: {reply!r}")


def completion_body(reply: dict[str, Any] | str, model: str) -> dict[str, Any]:
    """The chat completion a server returns for one message reply."""
    if isinstance(reply, dict) and "choices" in reply:
        return reply
    msg = _message_of(reply)
    finish = msg.pop("finish_reason", None)
    usage = msg.pop("usage", DEFAULT_USAGE)
    reported = msg.pop("model", model)
    message = {"role": "assistant", "content": None, **msg}
    if finish is None:
        finish = "tool_calls" if message.get("tool_calls") else "stop"
    body: dict[str, Any] = {
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "created": 0,
        "model": reported,
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


class MockProvider:
    """Scripted replies (see the module docstring). Records every request body in ``requests`` and the
    most requests it had in flight at once in ``max_in_flight``; ``latency_s`` delays each reply."""

    name = "mock"

    def __init__(self, script: Script, latency_s: float = 0.0) -> None:
        self.script = script
        self.latency_s = latency_s
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests)
        if callable(self.script):
            return self.script(body)
        if not self.script:
            raise ValueError("the mock's script is empty")
        return self.script[min(n, len(self.script)) - 1]

    async def send(self, body: dict[str, Any]) -> tuple[bytes, float]:
        t0 = time.perf_counter()
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.latency_s)
            reply = self._next(json.loads(json.dumps(body)))  # what a server would see: JSON
            while isinstance(reply, Slow):
                await asyncio.sleep(reply.seconds)
                reply = reply.reply
        finally:
            with self._lock:
                self.in_flight -= 1
        if isinstance(reply, MockError):
            raise ModelError.http(reply.status, reply.message, reply.retry_after)
        if isinstance(reply, Malformed):
            return reply.text.encode("utf-8"), (time.perf_counter() - t0) * 1000
        data = completion_body(reply, str(body.get("model", "mock")))
        return json.dumps(data, ensure_ascii=False).encode("utf-8"), (time.perf_counter() - t0) * 1000

    async def aclose(self) -> None:
        return None


def echo(body: dict[str, Any]) -> Reply:
    """``mock://echo``: the last user message, as the content."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else ""


_REGISTRY: dict[str, MockProvider] = {}
_REG_LOCK = threading.Lock()


def register(name: str, provider: MockProvider | Script) -> MockProvider:
    """Name a provider for ``mock://<name>``; returns it."""
    p = provider if isinstance(provider, MockProvider) else MockProvider(provider)
    with _REG_LOCK:
        _REGISTRY[name] = p
    return p


def unregister(name: str) -> None:
    with _REG_LOCK:
        _REGISTRY.pop(name, None)


@contextmanager
def registered(name: str, provider: MockProvider | Script) -> Iterator[MockProvider]:
    """``mock://<name>`` serves ``provider`` inside the block."""
    p = register(name, provider)
    try:
        yield p
    finally:
        unregister(name)


def resolve(base_url: str | None) -> MockProvider:
    """The provider ``mock://<name>`` names (registered, ``echo``, or ``module:attr``)."""
    name = (base_url or "").removeprefix(MOCK_SCHEME).strip("/")
    with _REG_LOCK:
        if name in _REGISTRY:
            return _REGISTRY[name]
    if name in ("", "echo"):
        return MockProvider(echo)
    if ":" in name:
        module, _, attr = name.partition(":")
        obj = getattr(importlib.import_module(module), attr)
        return obj if isinstance(obj, MockProvider) else MockProvider(obj)
    known = ", ".join(sorted(_REGISTRY)) or "none"
    raise ValueError(f"{base_url}: no mock provider of that name is registered (registered: {known})")
