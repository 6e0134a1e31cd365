"""``ModelClient``: one role's requests to an OpenAI-compatible endpoint (or the mock provider).

Every request goes the same way: the config's model and sampling settings fill the body; the disk
cache answers what it holds (``cache.cache_key``: what changes the answer, never the key); the rate
limit (token bucket) and the concurrency bound (a semaphore) gate the request; the provider sends it
(the ``openai`` client retries 408 / 409 / 429 / 5xx, connection errors and time-outs itself,
``max_retries``, honouring ``Retry-After``; the mock does the same for its scripted errors); a body
that is not a chat completion is ``UnusableResponse``. What is still transient after that gets
``retry_rounds`` more rounds, round k waiting ``retry_backoff_s * 2**k`` (jittered ±25 %) or the
server's ``Retry-After`` when longer (up to ``retry_after_cap_s``). Fatal and refused requests are
raised at once. ``usage`` counts requests, cache hits, retries, tokens, latency and cost.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .cache import DiskCache, cache_key
from .config import ModelConfig
from .errors import ModelError, TransientError, UnusableResponse
from .limits import TokenBucket
from .prices import Prices, cost_usd, price_for

COMPLETION_MAX_CHARS = 64 * 2**20
Sleep = Callable[[float], Awaitable[None]]


class Provider(Protocol):
    name: str

    async def send(self, body: dict[str, Any]) -> tuple[bytes, float]: ...

    async def aclose(self) -> None: ...


def completion_json(content: bytes) -> dict[str, Any]:
    """The JSON body of a chat completion, checked just enough to read it (else ValueError)."""
    from ..predictions import loads_bounded

    # nesting and numbers bounded like a predictions line (a hostile server cannot raise
    # RecursionError here; BoundError and JSONDecodeError are ValueErrors: retried); a long string
    # is the model's reply, not the server's fault: the line it makes is fitted to the reader later
    text = content.decode("utf-8")
    data = loads_bounded(text, max_chars=COMPLETION_MAX_CHARS, max_string=COMPLETION_MAX_CHARS)
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("the response holds no choices")
    if not isinstance(choices[0].get("message"), dict):
        raise ValueError("the response's first choice holds no message")
    return dict(data)


@dataclass
class Completion:
    """One answered request: the completion's JSON body, the latency of its final attempt (0 when
    served from the cache) and its cost (None: unpriced or no usage reported)."""

    data: dict[str, Any]
    latency_ms: float
    cached: bool = False
    cost_usd: float | None = None

    @property
    def choice(self) -> dict[str, Any]:
        c: dict[str, Any] = self.data["choices"][0]
        return c

    @property
    def message(self) -> dict[str, Any]:
        m: dict[str, Any] = self.choice["message"]
        return m

    @property
    def content(self) -> str | None:
        c = self.message.get("content")
        return c if isinstance(c, str) else None

    @property
    def finish_reason(self) -> str | None:
        f = self.choice.get("finish_reason")
        return f if isinstance(f, str) else None

    @property
    def usage(self) -> dict[str, Any] | None:
        u = self.data.get("usage")
        return u if isinstance(u, dict) else None

    @property
    def model(self) -> str | None:
        m = self.data.get("model")
        return m if isinstance(m, str) else None


@dataclass
class Usage:
    """What one client spent: requests sent (an openai-client retry is inside one), cache hits, the
    seam's retry rounds, failed requests, tokens, the summed latency of answered requests, and cost
    (``unpriced``: answers without a price or usage)."""

    requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cost_usd: float = 0.0
    unpriced: int = 0

    def add(self, c: Completion) -> None:
        u = c.usage or {}
        for k in ("prompt_tokens", "completion_tokens"):
            v = u.get(k)
            if isinstance(v, int) and not isinstance(v, bool):
                setattr(self, k, getattr(self, k) + v)
        self.latency_ms += c.latency_ms
        if c.cost_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd = round(self.cost_usd + c.cost_usd, 8)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["latency_ms"] = round(self.latency_ms, 1)
        return d


def make_provider(config: ModelConfig, api_key: str | None, role: str) -> Provider:
    if config.resolved_provider() == "mock":
        from .mock import resolve

        return resolve(config.base_url)
    from ._openai import OpenAIProvider

    key = api_key if api_key is not None else config.api_key(role)
    return OpenAIProvider(config.base_url, key, config.timeout_s, config.max_retries)


class ModelClient:
    """One role's client. ``provider``: a provider object (e.g. a ``MockProvider``) instead of the one
    the config selects; ``api_key``: instead of the config's variables; ``cache``: a ``DiskCache``
    shared with other clients (else ``config.cache_path``'s, or none); ``prices``: the price table for
    ``cost_usd``; ``sleep``: how back-off waits (a run's stoppable sleep, or a test's recorder).
    Use it inside one event loop and close it (``async with`` or ``aclose``)."""

    def __init__(
        self,
        config: ModelConfig,
        *,
        role: str = "model",
        provider: Provider | None = None,
        api_key: str | None = None,
        cache: DiskCache | None = None,
        prices: Prices | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.config = config
        self.role = role
        self.provider: Provider = provider if provider is not None else make_provider(config, api_key, role)
        self._own_cache = cache is None and config.cache_path is not None
        self.cache = DiskCache(config.cache_path) if self._own_cache and config.cache_path else cache
        self.prices = prices
        self._sleep: Sleep = sleep or asyncio.sleep
        self._sem = asyncio.Semaphore(config.concurrency)
        self.bucket = TokenBucket(config.rate_limit) if config.rate_limit else None
        self.usage = Usage()

    async def __aenter__(self) -> ModelClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.provider.aclose()
        if self._own_cache and self.cache is not None:
            self.cache.close()

    def request(self, body: dict[str, Any]) -> dict[str, Any]:
        """The body as sent: ``body`` with the config's model and sampling settings where it has none."""
        c = self.config
        out = dict(body)
        out.setdefault("model", c.model)
        for k, v in (("temperature", c.temperature), ("max_tokens", c.max_tokens), ("seed", c.seed)):
            if k not in out and v is not None:
                out[k] = v
        return out

    def key(self, body: dict[str, Any]) -> str:
        """The cache key of ``body`` (as ``complete`` would send it)."""
        return cache_key(self.provider.name, self.request(body))

    async def complete(
        self,
        body: dict[str, Any],
        *,
        check: Callable[[Completion], object] | None = None,
        sleep: Sleep | None = None,
    ) -> Completion:
        """One chat completion for ``body`` (messages, tools, response_format, …). ``check`` reads the
        answer before it is cached: what it raises is raised (not retried, not cached). ``sleep``
        overrides the client's back-off sleep for this request. Raises ``FatalError``,
        ``RequestRefused``, ``TransientError`` or ``UnusableResponse`` (after the retry rounds)."""
        req = self.request(body)
        key = cache_key(self.provider.name, req) if self.cache is not None else None
        if self.cache is not None and key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.usage.cache_hits += 1
                return Completion(json.loads(hit), 0.0, cached=True)
        c = self.config
        pause = sleep or self._sleep
        last: ModelError | None = None
        for rnd in range(c.retry_rounds + 1):
            if self.bucket is not None:
                await self.bucket.acquire()
            wait = c.retry_backoff_s * 2**rnd * (0.75 + 0.5 * random.random())
            try:
                comp = await self._attempt(req)
            except TransientError as e:
                last = e
                if e.retry_after is not None:
                    wait = max(wait, min(e.retry_after, c.retry_after_cap_s))
            except UnusableResponse as e:
                last = e
            except ModelError:
                self.usage.errors += 1
                raise
            else:
                if check is not None:
                    check(comp)
                self.usage.add(comp)
                if self.cache is not None and key is not None:
                    self.cache.put(key, json.dumps(comp.data, ensure_ascii=False))
                return comp
            if rnd < c.retry_rounds:
                self.usage.retries += 1
                await pause(wait)
        self.usage.errors += 1
        assert last is not None
        raise last

    async def _attempt(self, req: dict[str, Any]) -> Completion:
        async with self._sem:
            content, latency = await self._send(req)
        try:
            data = completion_json(content)
        except (ValueError, UnicodeDecodeError) as e:
            raise UnusableResponse.wrap(e) from None
        price = price_for(self.prices, [self.config.model, data.get("model")]) if self.prices else None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
        return Completion(data, latency, cost_usd=cost_usd(price, usage))

    async def _send(self, req: dict[str, Any]) -> tuple[bytes, float]:
        if self.provider.name == "openai":  # the openai client retries itself
            self.usage.requests += 1
            return await self.provider.send(req)
        # other providers (the mock): the client's time-out and own retries, as the openai client has them
        for n in range(self.config.max_retries + 1):
            self.usage.requests += 1
            try:
                try:
                    return await asyncio.wait_for(self.provider.send(req), self.config.timeout_s)
                except TimeoutError:
                    raise TransientError(
                        "APITimeoutError: Request timed out.",
                        type_name="APITimeoutError",
                        text="Request timed out.",
                    ) from None
            except TransientError as e:
                if n == self.config.max_retries:
                    raise
                ra = e.retry_after
                delay = ra if ra is not None and 0 <= ra <= 60 else min(0.5 * 2**n, 8.0)
                await self._sleep(delay)
        raise AssertionError("unreachable")
